/**
 * The TypeScript API:
 *
 *   const mod = await compile("saxpy.gk");
 *   const { out } = await mod.saxpy({ grid: 1, block: 256 }, { n: 8, alpha: 2.5, x, y, out });
 *
 * Arguments are numbers (bigint or safe integers for 64-bit types, booleans for bool)
 * and TypedArrays (plain arrays are converted); every argument is checked against the
 * kernel's parameters before anything runs. Arrays a kernel may write are updated in
 * place and returned by name.
 */
import * as path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport } from "../diagnostics/format.js";
import type { SourceMap } from "../diagnostics/source.js";
import type { Function, Module } from "../ir/nodes.js";
import { checkShape, LAUNCH_LIMITS } from "../ir/limits.js";
import { asScalar, type IntName, type ScalarType, type ScalarValue, typeToString } from "../ir/types.js";
import { coerceScalar, elemOfTypedArray, INT_RANGES, newTypedArray, storedValue, typedArrayName, type AnyTypedArray } from "../ir/values.js";
import { didYouMean } from "../ir/check/symbols.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { invariant } from "../util.js";
import { sharedMemory } from "./aliasing.js";
import { GkRuntimeError } from "./launcher.js";
import { runLaunch, type LaunchOutcome } from "./launches.js";
import { createRunner, type ArgValue, type Dims, type Runner, type RunnerOptions } from "./runner.js";
import { selectTarget, type DeviceChoice, type Target } from "./target.js";

export interface CompileOptions extends RunnerOptions {
  /** Where kernels run (default auto: a GPU when one and nvcc are usable, else the CPU simulator). */
  readonly device?: DeviceChoice;
  /** GPU index (default 0). */
  readonly gpu?: number;
}

export interface LaunchConfig {
  readonly grid: number | readonly number[];
  readonly block: number | readonly number[];
}

export type ArgInput = number | bigint | boolean | AnyTypedArray | readonly (number | bigint | boolean)[];
export type KernelArgs = Readonly<Record<string, ArgInput>>;
export type KernelOutputs = Record<string, AnyTypedArray>;
export type KernelFn = (config: LaunchConfig, args: KernelArgs) => Promise<KernelOutputs>;

/** A program that failed to compile: `diagnostics` holds every problem, `message` prints the first 100 and counts the rest. */
export class GkCompileError extends Error {
  override readonly name = "GkCompileError";
  constructor(readonly diagnostics: readonly Diagnostic[], sources: SourceMap) {
    super(formatReport(diagnostics, sources));
  }
}

export class GkModule {
  readonly kernels: readonly string[];
  private constructor(
    readonly ir: Module,
    readonly sources: SourceMap,
    readonly target: Target,
    private readonly runner: Runner,
  ) {
    this.kernels = ir.kernels.map((k) => k.name);
    for (const k of this.kernels) {
      // The checker refuses kernel names the module already has (GK2010, ir/check/kernelNames.ts).
      invariant(!(k in this), `kernel '${k}' collides with a member of GkModule; the checker should have refused it (GK2010)`);
      Object.defineProperty(this, k, { value: ((c, a) => this.launch(k, c, a)) satisfies KernelFn, enumerable: true });
    }
  }

  static async create(ir: Module, sources: SourceMap, opts: CompileOptions): Promise<GkModule & Record<string, KernelFn>> {
    const target = await selectTarget(opts.device ?? "auto", opts.gpu !== undefined ? { device: opts.gpu } : {});
    return GkModule.onTarget(ir, sources, target, opts);
  }

  /** A module on a target already chosen (imported modules share one: runtime/imported.ts). */
  static onTarget(ir: Module, sources: SourceMap, target: Target, opts: RunnerOptions): GkModule & Record<string, KernelFn> {
    return new GkModule(ir, sources, target, createRunner(ir, sources, target, opts)) as GkModule & Record<string, KernelFn>;
  }

  /** "cuda" or "cpu". */
  get device(): "cuda" | "cpu" {
    return this.target.kind;
  }

  /** Runs kernel `name` (also available as `module[name](config, args)`). */
  async launch(name: string, config: LaunchConfig, args: KernelArgs): Promise<KernelOutputs> {
    const fn = this.ir.kernels.find((k) => k.name === name);
    if (!fn) throw new GkRuntimeError("GK8009", `there is no kernel '${name}'${didYouMean(name, this.kernels)} (kernels: ${this.kernels.join(", ")})`);
    const grid = dims(config?.grid, "grid", name);
    const block = dims(config?.block, "block", name);
    const values = marshal(fn, args ?? {});
    await this.runner.run(name, grid, block, values);
    const outputs: KernelOutputs = {};
    fn.params.forEach((p, i) => {
      if (p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly) outputs[p.name] = values[i] as AnyTypedArray;
    });
    return outputs;
  }

  /** Runs the file's `launch` statements in order. */
  async runLaunches(): Promise<LaunchOutcome[]> {
    const out: LaunchOutcome[] = [];
    for (const l of this.ir.launches) out.push(await runLaunch(this.ir, l, this.runner));
    return out;
  }

  /** Ends the GPU launcher process, if one was started. */
  close(): Promise<void> {
    return this.runner.close();
  }
}

/** Compiles a `.gk` file. Throws GkCompileError with every diagnostic when it has errors. */
export async function compile(file: string, opts: CompileOptions = {}): Promise<GkModule & Record<string, KernelFn>> {
  const fe = frontEnd(file);
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return GkModule.create(fe.ir, fe.sources, opts);
}

/** Compiles gk source text; `filename` names it in diagnostics and anchors relative imports. */
export async function compileSource(source: string, opts: CompileOptions & { filename?: string } = {}): Promise<GkModule & Record<string, KernelFn>> {
  const filename = opts.filename ?? path.join(process.cwd(), "<source>.gk");
  const fe = frontEnd(filename, { host: memoryHost({ [filename]: source }, nodeHost) });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return GkModule.create(fe.ir, fe.sources, opts);
}

// ---------------------------------------------------------------- argument checking

function invalid(kernel: string, message: string): GkRuntimeError {
  return new GkRuntimeError("GK8005", `${kernel}: ${message}`);
}

function dims(v: number | readonly number[] | undefined, what: "grid" | "block", kernel: string): Dims {
  const list = typeof v === "number" ? [v] : Array.isArray(v) ? v : [];
  const c = checkShape(what, list);
  if (c.ok) return c.dims;
  switch (c.why) {
    case "count":
      throw invalid(kernel, `${what} must be a number or an array of 1 to 3 numbers, e.g. { ${what}: [4, 4] }`);
    case "size":
      throw invalid(kernel, `${what} size ${"xyz"[c.axis]} must be an integer from 1 to ${c.max}, got ${String(c.got)}`);
    case "threads":
      throw invalid(kernel, `a block has at most ${LAUNCH_LIMITS.blockThreads} threads, but block [${c.dims.join(", ")}] has ${c.threads}`);
  }
}

function marshal(fn: Function, args: KernelArgs): ArgValue[] {
  const values = marshalEach(fn, args);
  // An array the kernel writes shares memory with no other argument (spec: Types).
  const shared = sharedMemory(fn, values);
  if (shared) throw invalid(fn.name, shared.message);
  return values;
}

function marshalEach(fn: Function, args: KernelArgs): ArgValue[] {
  const names = fn.params.map((p) => p.name);
  for (const k of Object.keys(args)) {
    if (!names.includes(k)) throw invalid(fn.name, `there is no parameter '${k}'${didYouMean(k, names)} (parameters: ${names.join(", ")})`);
  }
  const missing = fn.params.filter((p) => !(p.name in args) || args[p.name] === undefined);
  if (missing.length) throw invalid(fn.name, `missing argument${missing.length > 1 ? "s" : ""} ${missing.map((p) => `'${p.name}' (${typeToString(p.type)})`).join(", ")}`);
  return fn.params.map((p) => {
    const v = args[p.name]!;
    const what = `parameter '${p.name}' (${typeToString(p.type)})`;
    if (p.kind === "valueVar") return scalar(fn.name, what, asScalar(p.type), v);
    const elem = p.type.elem.name;
    if (ArrayBuffer.isView(v)) {
      const got = elemOfTypedArray(v);
      if (got !== elem) throw invalid(fn.name, `${what} takes a ${typedArrayName(elem)}, got a ${v.constructor.name}`);
      return v as AnyTypedArray;
    }
    if (Array.isArray(v)) {
      const a = newTypedArray(elem, v.length);
      v.forEach((x, i) => ((a as unknown as (number | bigint)[])[i] = storedValue(scalar(fn.name, `${what}[${i}]`, p.type.elem, x))));
      return a;
    }
    throw invalid(fn.name, `${what} takes a ${typedArrayName(elem)} (or an array of numbers), got ${describe(v)}`);
  });
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return `${typeof v} ${String(v)}`;
}

function scalar(kernel: string, what: string, t: ScalarType, v: unknown): ScalarValue {
  const c = coerceScalar(t, v);
  if (c.ok) return c.value;
  if (c.why === "range") {
    const [lo, hi] = INT_RANGES[t.name as IntName];
    throw invalid(kernel, `${what} takes values from ${lo} to ${hi}, got ${c.integer}`);
  }
  switch (t.name) {
    case "bool":
      throw invalid(kernel, `${what} takes true or false, got ${describe(v)}`);
    case "f32":
    case "f64":
      throw invalid(kernel, `${what} takes a number, got ${describe(v)}`);
    default:
      throw invalid(kernel, `${what} takes an integer (a number or a bigint), got ${describe(v)}`);
  }
}

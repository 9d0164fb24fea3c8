/**
 * The TypeScript API:
 *
 *   const mod = await compile("saxpy.gk");
 *   const { out } = await mod.saxpy({ grid: 1, block: 256 }, { n: 8, alpha: 2.5, x, y, out });
 *
 * Arguments are numbers (bigint or safe integers for 64-bit types, booleans for bool),
 * arrays of lanes for vectors, plain objects for structs, and TypedArrays for arrays (of
 * their lane type for vectors, 4·n numbers for n f32x4; ArrayBuffers or views of the bytes for
 * structs, see structs.ts; plain arrays, of numbers, of vectors or of objects, are converted);
 * every argument is checked against the kernel's parameters before anything runs. Arrays a
 * kernel may write are updated in place and returned by name.
 */
import * as path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport } from "../diagnostics/format.js";
import type { SourceMap } from "../diagnostics/source.js";
import type { Function, Module } from "../ir/nodes.js";
import { checkShape, LAUNCH_LIMITS } from "../ir/limits.js";
import { storedLanes, typeToString, type IntName, type ScalarType, type ScalarValue, type StructType, type ValueType } from "../ir/types.js";
import { checkArrayArg, coerceScalar, INT_RANGES, newTypedArray, storedValue, type AnyTypedArray } from "../ir/values.js";
import { coerceValue, leafValues, type Value } from "../ir/composite.js";
import { packStructs } from "./structs.js";
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

/**
 * A kernel argument: a scalar; a vector (an array of its lanes) or struct (a plain object) value;
 * or an array: a TypedArray, an ArrayBuffer or DataView (the bytes of an array of structs), or
 * a plain array of scalars, of vectors or of objects (converted to a new array).
 */
export type ArgInput = number | bigint | boolean | AnyTypedArray | ArrayBuffer | DataView | readonly unknown[] | Readonly<Record<string, unknown>>;
export type KernelArgs = Readonly<Record<string, ArgInput>>;
/** Arrays the kernel may write, by parameter name: the argument itself, updated in place (or the array made from a plain array). */
export type KernelOutputs = Record<string, AnyTypedArray | ArrayBuffer | DataView>;
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
  /** The struct types of the module by name (the entry file's first), for packStructs and unpackStructs. */
  readonly structs: Readonly<Record<string, StructType>>;
  private constructor(
    readonly ir: Module,
    readonly sources: SourceMap,
    readonly target: Target,
    private readonly runner: Runner,
  ) {
    this.kernels = ir.kernels.map((k) => k.name);
    const structs: Record<string, StructType> = {};
    for (const t of ir.structs) if (!Object.hasOwn(structs, t.name)) structs[t.name] = t;
    this.structs = Object.freeze(structs);
    for (const k of this.kernels) {
      // The checker refuses kernel names the module already has (GK2010, ir/check/kernelNames.ts).
      invariant(!(k in this), `kernel '${k}' collides with a member of GkModule; the checker should have refused it (GK2010)`);
      Object.defineProperty(this, k, { value: ((c, a) => this.launch(k, c, a)) satisfies KernelFn, enumerable: true });
    }
  }

  static async create(ir: Module, sources: SourceMap, opts: CompileOptions): Promise<GkModule & Record<string, KernelFn>> {
    const target = await selectTarget(opts.device ?? "auto", opts.gpu !== undefined ? { device: opts.gpu } : {});
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
    const { values, given } = marshal(fn, args ?? {});
    await this.runner.run(name, grid, block, values);
    const outputs: KernelOutputs = {};
    fn.params.forEach((p, i) => {
      if (p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly) outputs[p.name] = given[i] as AnyTypedArray | ArrayBuffer | DataView;
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

/** The arguments as the runner takes them, and for each array the object to hand back (the caller's, or the one made from a plain array). */
function marshal(fn: Function, args: KernelArgs): { values: ArgValue[]; given: unknown[] } {
  const r = marshalEach(fn, args);
  // An array the kernel writes shares memory with no other argument (spec: Types).
  const shared = sharedMemory(fn, r.values);
  if (shared) throw invalid(fn.name, shared.message);
  return r;
}

function marshalEach(fn: Function, args: KernelArgs): { values: ArgValue[]; given: unknown[] } {
  const names = fn.params.map((p) => p.name);
  for (const k of Object.keys(args)) {
    if (!names.includes(k)) throw invalid(fn.name, `there is no parameter '${k}'${didYouMean(k, names)} (parameters: ${names.join(", ")})`);
  }
  const missing = fn.params.filter((p) => !(p.name in args) || args[p.name] === undefined);
  if (missing.length) throw invalid(fn.name, `missing argument${missing.length > 1 ? "s" : ""} ${missing.map((p) => `'${p.name}' (${typeToString(p.type)})`).join(", ")}`);
  const given: unknown[] = [];
  const values = fn.params.map((p): ArgValue => {
    const v = args[p.name]!;
    const what = `parameter '${p.name}' (${typeToString(p.type)})`;
    if (p.kind === "valueVar") {
      given.push(v);
      return value(fn.name, what, p.type, v);
    }
    const elem = p.type.elem;
    const c = checkArrayArg(elem, v);
    if (c.ok) {
      given.push(v);
      return c.value;
    }
    if (Array.isArray(v)) {
      const made = fromPlainArray(fn.name, what, elem, v);
      given.push(made.given);
      return made.value;
    }
    if (elem.kind === "scalar" && ArrayBuffer.isView(v)) throw invalid(fn.name, `${what} takes ${c.want}, got a ${v.constructor.name}`);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) throw invalid(fn.name, `${what} takes ${c.want}, got ${describe(v)}`);
    const plain = elem.kind === "scalar" ? "an array of numbers" : elem.kind === "vector" ? "an array of vectors" : "an array of objects";
    throw invalid(fn.name, `${what} takes ${c.want} (or ${plain}), got ${describe(v)}`);
  });
  return { values, given };
}

/** A plain array as an array argument: of scalars; of vectors (flat lanes, or one array per vector); of objects (packed structs). */
function fromPlainArray(kernel: string, what: string, elem: ValueType, v: readonly unknown[]): { value: AnyTypedArray; given: unknown } {
  switch (elem.kind) {
    case "scalar": {
      const a = newTypedArray(elem.name, v.length);
      v.forEach((x, i) => ((a as unknown as (number | bigint)[])[i] = storedValue(value(kernel, `${what}[${i}]`, elem, x) as boolean | number | bigint)));
      return { value: a, given: a };
    }
    case "vector": {
      const per = storedLanes(elem);
      const nested = v.length > 0 && v.every((x) => Array.isArray(x) || ArrayBuffer.isView(x));
      if (!nested && v.length % elem.lanes !== 0) throw invalid(kernel, `${what} takes ${elem.lanes}·n numbers as a plain array (n vectors), or an array of ${elem.lanes}-lane arrays, got ${v.length} numbers`);
      const n = nested ? v.length : v.length / elem.lanes;
      const a = newTypedArray(elem.elem.name, n * per);
      for (let i = 0; i < n; i++) {
        const lanes = nested ? v[i] : v.slice(i * elem.lanes, (i + 1) * elem.lanes);
        const lv = leafValues(elem, value(kernel, `${what}[${i}]`, elem, lanes));
        lv.forEach((x, k) => ((a as unknown as (number | bigint)[])[i * per + k] = storedValue(x)));
      }
      return { value: a, given: a };
    }
    case "struct": {
      try {
        const buffer = packStructs(elem, v);
        return { value: new Uint8Array(buffer), given: buffer };
      } catch (e) {
        throw invalid(kernel, `${what}: ${(e as Error).message}`);
      }
    }
  }
}
function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `an array of ${v.length} element${v.length === 1 ? "" : "s"}`;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return `a ${v.constructor.name} of length ${(v as unknown as ArrayLike<unknown>).length}`;
  if (typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return `${typeof v} ${String(v)}`;
}

function value(kernel: string, what: string, t: ValueType, v: unknown): Value {
  if (t.kind === "scalar") return scalar(kernel, what, t, v);
  const c = coerceValue(t, v);
  if (c.ok) return c.value;
  throw invalid(kernel, `${what}${c.at ? `, at ${c.at},` : ""} takes ${c.want}, got ${describe(c.got)}`);
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

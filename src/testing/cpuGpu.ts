/**
 * Running one kernel on the simulator and on the GPU, and comparing every array the kernel
 * may write (spec/differential.md says how). A `CpuGpuComparer` keeps one GPU device open
 * (openDevice, the road the API and `gkc run` take; a launcher process by default, so that a
 * kernel that never ends can be stopped) and builds each module once (through the kernel
 * cache), so it can compare thousands of kernels; `compareCpuGpu` is the one-call form.
 */
import * as path from "node:path";
import type { SourceMap } from "../diagnostics/source.js";
import type { Function, Module } from "../ir/nodes.js";
import type { Dim3 } from "../ir/limits.js";
import { typeToString } from "../ir/types.js";
import { CUDA_TARGET } from "../codegen/cuda/target.js";
import { checkArrayArg, type AnyTypedArray, type ArgValue, newTypedArray, storedValue } from "../ir/values.js";
import { coerceValue, type Value } from "../ir/composite.js";
import { formatAny, formatElements } from "../runtime/format.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { parseInstanceSpelling } from "../ir/instances.js";
import { GkCompileError } from "../runtime/api.js";
import { instanceByName, instanceModule } from "../runtime/instances.js";
import { sharedMemory } from "../runtime/aliasing.js";
import type { ModuleBuild } from "../build/build.js";
import { launchExtras } from "../runtime/launchExtras.js";
import { openDevice, type GpuDevice } from "../runtime/device/device.js";
import type { Isolation } from "../runtime/device/engine.js";
import { buildFor, deviceModule, launchOn, NO_EXTRAS, type DeviceModule, type LaunchExtras } from "../runtime/device/launching.js";
import { GkRuntimeError } from "../runtime/errors.js";
import { compileKernel, runKernel, SimError } from "../runtime/sim/index.js";
import { arrayText, compareValues, describeMismatches, type ArrayComparison, type Tolerance } from "./compare.js";

/** gk source text, or a checked program (a `GkModule` from `compile()` is one). */
export type ProgramInput = string | { readonly ir: Module; readonly sources: SourceMap };

export interface LaunchShape {
  readonly grid: number | readonly number[];
  readonly block: number | readonly number[];
  /** The length of each of the kernel's dynamic shared arrays, by name (as the API's `LaunchConfig`). */
  readonly shared?: Readonly<Record<string, number>>;
  /** The contents of the constant arrays the kernel reads, by name (with arguments in parameter order; by-name arguments may hold them instead). */
  readonly constants?: Readonly<Record<string, ArgInput>>;
}

export type { ArgValue };
/** An argument: as the API takes it (src/runtime/api.ts), or a plain array of scalars for an array of scalars. */
export type ArgInput = ArgValue | ArrayBuffer | DataView | readonly (number | bigint | boolean)[] | Readonly<Record<string, unknown>>;
/**
 * Arguments in parameter order, or by parameter name; by name, also the contents of the
 * constant arrays the kernel reads (as in the API). They are never modified: each run gets copies.
 */
export type ArgsInput = readonly ArgValue[] | Readonly<Record<string, ArgInput>>;

export interface CompareOptions {
  /**
   * Let nvcc contract `a * b + c` into fused multiply-adds (default false: the module is
   * built with `--fmad=false`, and float results must match the simulator's bit for bit).
   */
  readonly fmad?: boolean;
  /** One tolerance for every float array, or one per array name (others: bit for bit). */
  readonly tolerance?: Tolerance | Readonly<Record<string, Tolerance>>;
}

export interface ComparerOptions {
  /** The kernel cache folder (default: gk's). */
  readonly cacheRoot?: string;
  /** GPU index (default 0). */
  readonly device?: number;
  /** Stop a kernel that runs longer than this (default 20 s): a hung kernel is a mismatch, not a hung test. */
  readonly kernelTimeoutMs?: number;
  /**
   * How the GPU is driven (see openDevice): "process" (the default: a kernel past its timeout is
   * stopped with its launcher, and the next comparison gets a new one) or "in-process" (faster;
   * a kernel that never ends cannot be stopped, and the GPU is lost to the process).
   */
  readonly isolation?: Isolation;
}

export interface Comparison {
  /** True when every written array agrees and neither side failed. */
  readonly ok: boolean;
  readonly kernel: string;
  readonly fmad: boolean;
  /** Per array parameter the kernel may write, in parameter order: one comparison, or one per scalar type of the leaves of its vectors or structs. */
  readonly arrays: readonly ArrayComparison[];
  readonly cpu: ReadonlyMap<string, AnyTypedArray>;
  readonly gpu: ReadonlyMap<string, AnyTypedArray>;
  /** The simulator reported an error (for example an integer division by zero, which yields 0 on the GPU). */
  readonly simError?: SimError;
  /** The GPU run failed. */
  readonly gpuError?: Error;
  /** What differs, with the kernel's source and inputs; empty when `ok`. */
  readonly message: string;
}

/** Whether a GPU can be used here (opened as the comparer opens it), and if not, why (one line). */
export async function gpuAvailable(device = 0, isolation: Isolation = "process"): Promise<{ ok: boolean; reason: string }> {
  try {
    const d = await openDevice({ gpu: device, isolation });
    await d.close();
    return d.info ? { ok: true, reason: `${d.info.name} (${d.info.arch})` } : { ok: false, reason: d.reason ?? "no GPU" };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
  }
}

/**
 * Checks source text into a program; throws GkCompileError with every diagnostic when it has
 * errors. `instances` names instances of its generic kernels to make too (`"reduce<f32, 256>"`).
 */
export function checkProgram(source: string, filename = path.join(process.cwd(), "<source>.gk"), instances: readonly string[] = []): { ir: Module; sources: SourceMap } {
  const requests = instances.map((name) => {
    const parsed = parseInstanceSpelling(name);
    if (!parsed || "error" in parsed) throw new GkRuntimeError("GK8009", parsed ? parsed.error : `'${name}' is not an instance's name, which is written like reduce<f32, 256>`);
    return { kernel: parsed.name, args: parsed.args };
  });
  const fe = frontEnd(filename, { host: memoryHost({ [filename]: source }, nodeHost), instances: requests });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return { ir: fe.ir, sources: fe.sources };
}

/** Modules of instances named for checked programs that did not have them, per program and instance. */
const instanceModules = new WeakMap<Module, Map<string, Module>>();

/**
 * The program to run `kernel` in, and the kernel: a program given as text is checked (with
 * the instance `kernel` names, if it names one); a checked program runs an instance it does
 * not have in a module of its own, as the API does (src/runtime/instances.ts).
 */
function programFor(program: ProgramInput, kernel: string): { p: { readonly ir: Module; readonly sources: SourceMap }; fn: Function } {
  const named = parseInstanceSpelling(kernel);
  if (typeof program === "string") {
    const p = checkProgram(program, undefined, named ? [kernel] : []);
    return { p, fn: kernelOf(p.ir, named ? instanceByName(p.ir, kernel)!.name : kernel) };
  }
  if (!named || program.ir.kernels.some((k) => k.name === kernel)) return { p: program, fn: kernelOf(program.ir, kernel) };
  const wanted = instanceByName(program.ir, kernel)!;
  let perProgram = instanceModules.get(program.ir);
  if (!perProgram) instanceModules.set(program.ir, (perProgram = new Map()));
  let ir = perProgram.get(wanted.name);
  if (!ir) perProgram.set(wanted.name, (ir = instanceModule(program.ir, program.sources, wanted, (fe) => new GkCompileError(fe.diagnostics, fe.sources))));
  return { p: { ir, sources: program.sources }, fn: kernelOf(ir, wanted.name) };
}

export class CpuGpuComparer {
  /** Each program's module as the GPU runs it, built with FMA contraction (true) or without. */
  private readonly modules = new WeakMap<Module, Map<boolean, DeviceModule>>();
  private device: Promise<GpuDevice> | undefined;

  constructor(private readonly opts: ComparerOptions = {}) {}

  /** Starts building a program's module (compare() waits for it); lets builds overlap with runs. */
  prepare(program: { readonly ir: Module; readonly sources: SourceMap }, fmad = false): Promise<ModuleBuild> {
    const b = this.gpu().then((d) => buildFor(d, this.moduleOf(program, fmad)));
    b.catch(() => undefined);
    return b;
  }

  private moduleOf(program: { readonly ir: Module; readonly sources: SourceMap }, fmad: boolean): DeviceModule {
    let perModule = this.modules.get(program.ir);
    if (!perModule) this.modules.set(program.ir, (perModule = new Map()));
    let mod = perModule.get(fmad);
    if (!mod) perModule.set(fmad, (mod = deviceModule(program.ir, program.sources, { fmad, ...(this.opts.cacheRoot !== undefined ? { cacheRoot: this.opts.cacheRoot } : {}), onWarning: () => undefined })));
    return mod;
  }

  async compare(program: ProgramInput, kernel: string, launch: LaunchShape, args: ArgsInput, opts: CompareOptions = {}): Promise<Comparison> {
    const { p, fn } = programFor(program, kernel);
    const fmad = opts.fmad ?? false;
    const values = positional(fn, args);
    const extras = extrasOf(p.ir, fn, launch, args);
    const grid = dims(launch.grid);
    const block = dims(launch.block);
    const written = writtenParams(fn);

    let simError: SimError | undefined;
    let cpu = new Map<string, AnyTypedArray>();
    try {
      cpu = runOnSimulator(p, fn, grid, block, values, extras);
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
      simError = e;
    }
    let gpu = new Map<string, AnyTypedArray>();
    let gpuError: Error | undefined;
    try {
      gpu = await this.runOnGpu(p, fn.name, launch, values, fmad, extras);
    } catch (e) {
      gpuError = e instanceof Error ? e : new Error(String(e));
    }

    const tolerance = (name: string): Tolerance | undefined => toleranceFor(opts.tolerance, name);
    const arrays = simError || gpuError ? [] : written.flatMap((i) => {
      const q = fn.params[i]!;
      if (q.type.kind !== "global") return [];
      return compareValues(q.name, q.type.elem, cpu.get(q.name)!, gpu.get(q.name)!, tolerance(q.name));
    });
    const ok = !simError && !gpuError && arrays.every((a) => a.mismatches === 0);
    const base = { ok, kernel, fmad, arrays, cpu, gpu, ...(simError ? { simError } : {}), ...(gpuError ? { gpuError } : {}) };
    return { ...base, message: ok ? "" : report({ ...base, message: "" }, p, fn, values, grid, block) };
  }

  /**
   * Runs a kernel on the GPU on copies of `args`; the arrays it may write, by name. `extras`:
   * the constant arrays and dynamic shared lengths as the runner takes them, in place of those
   * by name in `args` and `launch.shared`.
   */
  async runOnGpu(program: ProgramInput, kernel: string, launch: LaunchShape, args: ArgsInput, fmad = false, extras?: LaunchExtras): Promise<Map<string, AnyTypedArray>> {
    const { p, fn } = programFor(program, kernel);
    const values = positional(fn, args);
    extras ??= extrasOf(p.ir, fn, launch, args);
    const device = await this.gpu();
    // Copies, which the launch updates in place: the caller's arguments stay as they were.
    const copies = values.map(copy);
    const timeoutMs = this.opts.kernelTimeoutMs ?? 20_000;
    await launchOn(device, this.moduleOf(p, fmad), fn, dims(launch.grid), dims(launch.block), copies, { timeoutMs }, extras);
    // A launch with no host array is queued: its failure is the queue's next wait.
    await device.defaultQueue.sync({ timeoutMs });
    return new Map(writtenParams(fn).map((i) => [fn.params[i]!.name, copies[i] as AnyTypedArray]));
  }

  /** The comparer's GPU, opened on first use; GK8007, saying why, where none can be used. */
  private gpu(): Promise<GpuDevice> {
    this.device ??= openDevice({ device: "cuda", isolation: this.opts.isolation ?? "process", ...(this.opts.device !== undefined ? { gpu: this.opts.device } : {}) });
    return this.device;
  }

  /** Closes the GPU device (and so its launcher process). */
  async close(): Promise<void> {
    const device = await this.device?.catch(() => undefined);
    await device?.close();
  }
}

/** Runs `kernel` on the simulator and on the GPU and compares every array it may write. */
export async function compareCpuGpu(program: ProgramInput, kernel: string, launch: LaunchShape, args: ArgsInput, opts: CompareOptions & ComparerOptions = {}): Promise<Comparison> {
  const c = new CpuGpuComparer(opts);
  try {
    return await c.compare(program, kernel, launch, args, opts);
  } finally {
    await c.close();
  }
}

/**
 * Like compareCpuGpu, but throws an Error describing the first differences when the two
 * disagree, or saying that there is no GPU to compare with (skip such a test where none is:
 * `it.skipIf(!(await gpuAvailable()).ok)`).
 */
export async function expectSameOnCpuAndGpu(program: ProgramInput, kernel: string, launch: LaunchShape, args: ArgsInput, opts: CompareOptions & ComparerOptions = {}): Promise<Comparison> {
  const r = await compareCpuGpu(program, kernel, launch, args, opts);
  if (!r.ok) throw new Error(r.message);
  return r;
}

/** Runs a kernel on the simulator on copies of `args`; the arrays it may write, by name. Throws SimError. */
export function runOnSimulator(
  p: { readonly ir: Module; readonly sources: SourceMap },
  fn: Function,
  grid: readonly number[],
  block: readonly number[],
  args: readonly ArgValue[],
  extras: LaunchExtras = NO_EXTRAS,
): Map<string, AnyTypedArray> {
  // The copies share no memory, so the simulator's own check cannot see aliasing among the originals.
  refuseSharedMemory(fn, args);
  const copies = args.map(copy);
  // gk/testing checks for data races (GK8040): a racy kernel may agree with the GPU by luck.
  runKernel(compileKernel(p.ir, fn.name, p.sources, { checkRaces: true }), { grid: dims(grid), block: dims(block), shared: extras.sharedLengths }, copies, extras.constants);
  return new Map(writtenParams(fn).map((i) => [fn.params[i]!.name, copies[i] as AnyTypedArray]));
}

// ---------------------------------------------------------------- arguments

/** The launch's dynamic shared lengths (`launch.shared`) and constant arrays (among `args`, by name): checked as the API checks them, for the CUDA GPU the simulator is compared with. */
function extrasOf(ir: Module, fn: Function, launch: LaunchShape, args: ArgsInput): LaunchExtras {
  const named = Array.isArray(args) ? {} : (args as Readonly<Record<string, unknown>>);
  return launchExtras(ir, fn, launch.shared, { ...named, ...launch.constants }, CUDA_TARGET.limits);
}

function kernelOf(ir: Module, kernel: string): Function {
  const fn = ir.kernels.find((k) => k.name === kernel);
  if (!fn) throw new GkRuntimeError("GK8009", `there is no kernel '${kernel}' (kernels: ${ir.kernels.map((k) => k.name).join(", ") || "none"})`);
  return fn;
}

/** Indices of the array parameters a kernel may write. */
function writtenParams(fn: Function): number[] {
  return fn.params.flatMap((q, i) => (q.kind === "arrayVar" && q.type.kind === "global" && !q.type.readonly ? [i] : []));
}

function dims(v: number | readonly number[]): Dim3 {
  const list = typeof v === "number" ? [v] : [...v];
  return [list[0] ?? 1, list[1] ?? 1, list[2] ?? 1];
}

function copy(a: ArgValue): ArgValue {
  return ArrayBuffer.isView(a) ? (a as AnyTypedArray).slice() : a;
}

/**
 * Arguments in parameter order; plain arrays become TypedArrays and safe integers for 64-bit
 * parameters become bigints. Arrays that break the aliasing rule are refused here, before
 * either side runs: the simulator would see the shared memory, the GPU two copies.
 */
function positional(fn: Function, args: ArgsInput): ArgValue[] {
  const values = positionalValues(fn, args);
  refuseSharedMemory(fn, values);
  return values;
}

/** Throws GK8005 when an array the kernel writes shares memory with another argument. */
function refuseSharedMemory(fn: Function, values: readonly ArgValue[]): void {
  const shared = sharedMemory(fn, values);
  if (shared) throw new GkRuntimeError("GK8005", `kernel '${fn.name}': ${shared.message}`);
}

function positionalValues(fn: Function, args: ArgsInput): ArgValue[] {
  const list = Array.isArray(args) ? (args as readonly ArgInput[]) : fn.params.map((p) => (args as Record<string, ArgInput>)[p.name]);
  if (Array.isArray(args) && args.length > fn.params.length) {
    throw new GkRuntimeError("GK8005", `kernel '${fn.name}' takes ${fn.params.length} arguments; give the constant arrays it reads by name, with the arguments as an object`);
  }
  if (list.length !== fn.params.length || list.some((a) => a === undefined)) {
    throw new GkRuntimeError("GK8005", `kernel '${fn.name}' takes ${fn.params.length} arguments (${fn.params.map((p) => `${p.name}: ${typeToString(p.type)}`).join(", ")})`);
  }
  return fn.params.map((p, i) => {
    const v = list[i]!;
    const bad = (want: string) => new GkRuntimeError("GK8005", `kernel '${fn.name}': argument '${p.name}' (${typeToString(p.type)}) must be ${want}`);
    if (p.kind === "arrayVar") {
      const elem = p.type.elem;
      if (Array.isArray(v) && elem.kind === "scalar") {
        const a = newTypedArray(elem.name, v.length);
        const big = elem.name === "i64" || elem.name === "u64";
        // Plain numbers as the element type stores them (f16 and bf16 as their bits, rounded).
        (v as (number | bigint | boolean)[]).forEach((x, j) => ((a as unknown as unknown[])[j] = typeof x === "boolean" ? (x ? 1 : 0) : big ? BigInt(x) : storedValue(elem.name, Number(x))));
        return a;
      }
      const c = checkArrayArg(elem, v);
      if (!c.ok) throw bad(c.want);
      return c.value;
    }
    const c = coerceValue(p.type, v);
    if (!c.ok) throw bad(`${c.want}${c.at ? ` at ${c.at}` : ""}`);
    return c.value;
  });
}

function toleranceFor(t: CompareOptions["tolerance"], name: string): Tolerance | undefined {
  if (!t) return undefined;
  const single = t as Tolerance;
  if (typeof single.ulp === "number" || typeof single.abs === "number") return single;
  return (t as Readonly<Record<string, Tolerance>>)[name];
}

// ---------------------------------------------------------------- the report

/** The kernel's text: the whole file when short, else the kernel and the device functions it calls. */
function kernelText(p: { ir: Module; sources: SourceMap }, fn: Function): string {
  const file = p.sources.get(fn.file);
  if (!file) return "(source not available)";
  if (file.text.split("\n").length <= 150) return file.text;
  const fns = new Map(p.ir.functions.map((f) => [f.name, f]));
  const used: Function[] = [];
  const visit = (f: Function) => {
    const text = p.sources.get(f.file)?.text.slice(f.span.start, f.span.end) ?? "";
    for (const [name, g] of fns) if (!used.includes(g) && new RegExp(`\\b${name}\\(`).test(text)) (used.push(g), visit(g));
  };
  visit(fn);
  const text = (s: { readonly file: string; readonly start: number; readonly end: number }) => p.sources.get(s.file)?.text.slice(s.start, s.end) ?? "";
  const bodies = [...used.reverse(), fn].map((f) => text(f.span));
  const constants = p.ir.constants.filter((c) => bodies.some((b) => new RegExp(`\\b${c.name}\\b`).test(b))).map((c) => text(c.span));
  return [...constants, ...bodies].join("\n\n");
}

function report(c: Comparison, p: { ir: Module; sources: SourceMap }, fn: Function, values: readonly ArgValue[], grid: readonly number[], block: readonly number[]): string {
  if (c.gpuError instanceof GkRuntimeError && c.gpuError.code === "GK8007") {
    // Not a disagreement: one side could not run. A test that needs a GPU skips where there is none.
    const sim = c.simError ? `; the simulator reported: ${c.simError.message}` : "";
    return `kernel '${c.kernel}': no GPU to compare the simulator with (${c.gpuError.message.replace(/^GK8007: /, "")})${sim}; skip this comparison where there is no GPU: it.skipIf(!(await gpuAvailable()).ok)(...)`;
  }
  const lines = [`kernel '${c.kernel}': the simulator (cpu) and the GPU (built ${c.fmad ? "with FMA contraction" : "with --fmad=false"}) disagree`];
  if (c.simError) lines.push(`the simulator reported: ${c.simError.message}`);
  if (c.gpuError) lines.push(`the GPU run failed: ${c.gpuError.message}`);
  for (const a of c.arrays) lines.push(...describeMismatches(a));
  lines.push(`launch: grid(${grid.join(", ")}) block(${block.join(", ")})`, "inputs:");
  fn.params.forEach((q, i) => {
    const v = values[i]!;
    const type = typeToString(q.type);
    const text =
      q.type.kind === "global" ? (q.type.elem.kind === "scalar" ? arrayText(q.type.elem.name, v as AnyTypedArray) : formatElements(q.type.elem, v as AnyTypedArray, 16))
      : q.kind === "valueVar" ? formatAny(q.type, v as Value) : String(v);
    lines.push(`  ${q.name}: ${type} = ${text}`);
  });
  lines.push(`source (${fn.file}):`, ...kernelText(p, fn).split("\n").map((l) => `  ${l}`));
  return lines.join("\n");
}

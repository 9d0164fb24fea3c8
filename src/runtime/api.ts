/**
 * The TypeScript API (spec/runtime-api.md):
 *
 *   const mod = await compile("saxpy.gk");
 *   const { out } = await mod.saxpy({ grid: 1, block: 256 }, { n: 8, alpha: 2.5, x, y, out });
 *
 * Arguments are numbers (bigint or safe integers for 64-bit types, booleans for bool),
 * TypedArrays (plain arrays are converted) and GPU arrays of the module's device
 * (device/gpuArray.ts); every argument is checked against the kernel's parameters before
 * anything runs. Arrays a kernel may write are updated in place and returned by name. A
 * launch given only GPU arrays is queued and returns at once (device/launching.ts). A
 * generic kernel runs as one of its instances: `mod.reduce.with({ T: "f32", BLOCK: 256 })(config, args)`
 * (src/runtime/instances.ts).
 */
import * as path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport } from "../diagnostics/format.js";
import type { SourceMap } from "../diagnostics/source.js";
import type { ArrayVar, Function, GenericKernel, Module, Param } from "../ir/nodes.js";
import { checkShape, LAUNCH_LIMITS } from "../ir/limits.js";
import { type IntName, type ScalarType, type ScalarValue, typeToString } from "../ir/types.js";
import { coerceScalar, elemNote, holdsElem, INT_RANGES, newTypedArray, storedValue, typedArrayName, type AnyTypedArray } from "../ir/values.js";
import { didYouMean } from "../ir/check/symbols.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { invariant } from "../util.js";
import { sharedMemory } from "./aliasing.js";
import { openDevice, type GpuDevice, type SyncOptions } from "./device/device.js";
import type { Isolation } from "./device/engine.js";
import { describeValue, GpuArray } from "./device/gpuArray.js";
import { launchOn, type Program, type RunConfig, type RunValue } from "./device/launching.js";
import { GkRuntimeError } from "./launcher/errors.js";
import { genericParamList, instanceByName, instanceModule, namedInstance, withExample, type GenericArgs, type NamedInstance } from "./instances.js";
import { runLaunch, type LaunchOutcome } from "./launches.js";
import { launchExtras } from "./launchExtras.js";
import { launchPlan, type LaunchPlan, type ParamPlan } from "./launchPlan.js";
import type { Dims, Runner, RunnerOptions } from "./runner.js";
import type { DeviceChoice, Target } from "./target.js";

/** How a module is built and run, whatever its device. */
export type ModuleOptions = RunnerOptions;

export interface CompileOptions extends ModuleOptions {
  /**
   * Where kernels run: a device from openDevice() (the module then shares its arrays and
   * queues), or auto (default: a GPU when one and nvcc are usable, else the CPU simulator),
   * cuda or cpu, for a device of the module's own, closed with it.
   */
  readonly device?: DeviceChoice | GpuDevice;
  /** GPU index (default 0), for a device of the module's own. */
  readonly gpu?: number;
  /** in-process or process (see openDevice), for a device of the module's own. */
  readonly isolation?: Isolation;
}

export interface LaunchConfig extends RunConfig {
  readonly grid: number | readonly number[];
  readonly block: number | readonly number[];
  /** The length (elements) of each of the kernel's dynamic shared arrays (`shared buf: f32[];`), by name. */
  readonly shared?: Readonly<Record<string, number>>;
}

export type ArgInput = number | bigint | boolean | AnyTypedArray | GpuArray | readonly (number | bigint | boolean)[];
export type KernelArgs = Readonly<Record<string, ArgInput>>;
export type KernelOutputs = Record<string, AnyTypedArray | GpuArray>;
export type { GenericArgs };
/** Runs a kernel. `with(args)` names an instance of a generic kernel (a plain kernel takes no generic arguments). */
export type KernelFn = ((config: LaunchConfig, args: KernelArgs) => Promise<KernelOutputs>) & { with(args: GenericArgs): KernelFn };
/** A compiled module: a GkModule with each kernel as a member. */
export type LoadedModule = GkModule & Record<string, KernelFn>;

/** A program that failed to compile: `diagnostics` holds every problem, `message` prints the first 100 and counts the rest. */
export class GkCompileError extends Error {
  override readonly name = "GkCompileError";
  constructor(readonly diagnostics: readonly Diagnostic[], sources: SourceMap) {
    super(formatReport(diagnostics, sources));
  }
}

export class GkModule {
  readonly kernels: readonly string[];
  readonly #program: Program;
  readonly #owned: boolean;
  readonly #build: Program["build"];
  /** Builds of instances made for `with()` and `launch()`, by instance name (src/runtime/instances.ts). */
  readonly #instances = new Map<string, Program>();
  private constructor(
    readonly ir: Module,
    readonly sources: SourceMap,
    /** The device the kernels run on: its arrays can be passed to them. */
    readonly gpu: GpuDevice,
    owned: boolean,
    opts: ModuleOptions,
  ) {
    this.#owned = owned;
    this.#build = {
      ...(opts.fmad !== undefined ? { fmad: opts.fmad } : {}),
      ...(opts.cacheRoot !== undefined ? { cacheRoot: opts.cacheRoot } : {}),
      ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    };
    this.#program = this.#programOf(ir);
    this.kernels = ir.kernels.map((k) => k.name);
    const members: [string, KernelFn][] = [
      // A kernel's member runs it directly (its name is no instance's spelling: launch(name) would find it).
      ...ir.kernels.filter((k) => !k.instance).map((k): [string, KernelFn] => {
        const target: KernelTarget = { program: this.#program, fn: k };
        return [k.name, kernelFn((c, a) => this.#run(target, c, a), (g) => this.#notGeneric(k.name, g))];
      }),
      ...(ir.generics ?? []).map((g): [string, KernelFn] => [g.name, kernelFn(async () => Promise.reject(genericError(g)), (a) => this.#instanceFn(g, a))]),
    ];
    for (const [k, fn] of members) {
      // The checker refuses kernel names the module already has (GK2010, ir/check/kernelNames.ts).
      invariant(!(k in this), `kernel '${k}' collides with a member of GkModule; the checker should have refused it (GK2010)`);
      Object.defineProperty(this, k, { value: fn, enumerable: true });
    }
  }

  #programOf(ir: Module): Program {
    return { ir, sources: this.sources, build: this.#build, kernels: new Map(), simKernels: new Map() };
  }

  #notGeneric(name: string, args: GenericArgs): KernelFn {
    if (args && Object.keys(args).length) throw new GkRuntimeError("GK8005", `'${name}' is not generic: run it without with(...)`);
    return (this as unknown as Record<string, KernelFn>)[name]!;
  }

  /** The kernel function of the instance of `g` that `args` name. */
  #instanceFn(g: GenericKernel, args: GenericArgs): KernelFn {
    const target = this.#instance(namedInstance(g, args));
    return kernelFn(
      (c, a) => this.#run(target, c, a),
      () => {
        throw new GkRuntimeError("GK8005", `'${target.fn.name}' is already an instance of '${g.name}'`);
      },
    );
  }

  /** Where an instance runs: the module's own build when its launch statements made it, else a build of its own, made once. */
  #instance(wanted: NamedInstance): KernelTarget {
    if (this.ir.kernels.some((k) => k.name === wanted.name)) return { program: this.#program, fn: this.ir.kernels.find((k) => k.name === wanted.name)! };
    let program = this.#instances.get(wanted.name);
    if (!program) {
      program = this.#programOf(instanceModule(this.ir, this.sources, wanted, (fe) => new GkCompileError(fe.diagnostics, fe.sources)));
      this.#instances.set(wanted.name, program);
    }
    return { program, fn: program.ir.kernels.find((k) => k.name === wanted.name)! };
  }

  static async create(ir: Module, sources: SourceMap, opts: CompileOptions): Promise<LoadedModule> {
    const given = typeof opts.device === "object" ? opts.device : undefined;
    const device =
      given ??
      (await openDevice({
        device: (opts.device as DeviceChoice | undefined) ?? "auto",
        ...(opts.gpu !== undefined ? { gpu: opts.gpu } : {}),
        ...(opts.isolation !== undefined ? { isolation: opts.isolation } : {}),
        ...(opts.sim !== undefined ? { sim: opts.sim } : {}),
      }));
    given?.open("compile()");
    return new GkModule(ir, sources, device, given === undefined, opts) as LoadedModule;
  }

  /** "cuda" or "cpu". */
  get device(): "cuda" | "cpu" {
    return this.gpu.kind;
  }

  /** Where the kernels run, as `gkc run` describes it. */
  get target(): Target {
    const info = this.gpu.info;
    return info ? { kind: "cuda", device: info, arch: info.arch } : { kind: "cpu", ...(this.gpu.reason !== undefined ? { reason: this.gpu.reason } : {}) };
  }

  /**
   * Runs kernel `name` (also available as `module[name](config, args)`), or the instance of
   * a generic kernel that `name` spells (`"reduce<f32, 256>"`). Given only GPU arrays it
   * queues the launch and returns at once; given host TypedArrays it returns when their
   * results are copied back into them.
   */
  async launch(name: string, config: LaunchConfig, args: KernelArgs): Promise<KernelOutputs> {
    const named = instanceByName(this.ir, name);
    if (named) return this.#run(this.#instance(named), config, args);
    const fn = this.ir.kernels.find((k) => k.name === name);
    if (fn) return this.#run({ program: this.#program, fn }, config, args);
    const generic = this.ir.generics?.find((g) => g.name === name);
    if (generic) throw genericError(generic);
    throw new GkRuntimeError("GK8009", `there is no kernel '${name}'${didYouMean(name, this.kernels)} (kernels: ${this.kernels.join(", ")})`);
  }

  async #run({ program, fn }: KernelTarget, config: LaunchConfig, args: KernelArgs): Promise<KernelOutputs> {
    const plan = launchPlan(program.ir, fn);
    const name = fn.name;
    const grid = dims(config?.grid, "grid", name);
    const block = dims(config?.block, "block", name);
    if (config?.queue !== undefined && config.queue.device !== this.gpu) throw invalid(name, `the queue belongs to another device (${config.queue.device.name}), not ${this.gpu.name}`);
    const extras = launchExtras(program.ir, fn, config?.shared, args ?? {});
    const values = marshal(plan, args ?? {}, this.gpu, extras.names);
    const launched = launchOn(this.gpu, program, fn, grid, block, values, config ?? {}, extras);
    if (launched !== undefined) await launched;
    const outputs: KernelOutputs = {};
    for (const i of plan.written) outputs[plan.names[i]!] = values[i] as AnyTypedArray | GpuArray;
    return outputs;
  }

  /** Waits for everything queued on the module's device (every queue); throws the first failure, naming the kernel and the launch. */
  sync(opts: SyncOptions = {}): Promise<void> {
    return this.gpu.sync(opts);
  }

  /** Runs the file's `launch` statements in order. */
  async runLaunches(): Promise<LaunchOutcome[]> {
    const out: LaunchOutcome[] = [];
    for (const l of this.ir.launches) out.push(await runLaunch(this.ir, l, this.runner()));
    return out;
  }

  /** This module's launches as a Runner (host arrays in, results copied back). */
  private runner(): Runner {
    return {
      target: this.target,
      run: async (kernel, grid, block, args, extras) => {
        const t0 = performance.now();
        const fn = this.ir.kernels.find((k) => k.name === kernel)!;
        let kernelMs = 0;
        await launchOn(this.gpu, this.#program, fn, grid, block, args, { kernelTime: (ms) => (kernelMs = ms) }, extras);
        return { kernelMs, totalMs: performance.now() - t0 };
      },
      close: () => this.close(),
    };
  }

  /** Closes the module's device if the module opened it (a device given to compile() stays open). */
  async close(): Promise<void> {
    if (this.#owned) await this.gpu.close();
  }
}

/** A kernel and the build it runs in. */
interface KernelTarget {
  readonly program: Program;
  readonly fn: Function;
}

function kernelFn(run: (config: LaunchConfig, args: KernelArgs) => Promise<KernelOutputs>, withArgs: (args: GenericArgs) => KernelFn): KernelFn {
  return Object.assign(run, { with: withArgs });
}

/** What running a generic kernel itself says: which instance to run instead. */
function genericError(g: GenericKernel): GkRuntimeError {
  return new GkRuntimeError("GK8005", `'${g.name}' is generic (${g.name}${genericParamList(g)}): run one of its instances, as in mod.${withExample(g)}(config, args)`);
}

/** Compiles a `.gk` file. Throws GkCompileError with every diagnostic when it has errors. */
export async function compile(file: string, opts: CompileOptions = {}): Promise<LoadedModule> {
  const fe = frontEnd(file);
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return GkModule.create(fe.ir, fe.sources, opts);
}

/** Compiles gk source text; `filename` names it in diagnostics and anchors relative imports. */
export async function compileSource(source: string, opts: CompileOptions & { filename?: string } = {}): Promise<LoadedModule> {
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
  // The common case, one size within the limits; checkShape says the same of it.
  if (typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= (what === "grid" ? LAUNCH_LIMITS.grid[0] : LAUNCH_LIMITS.blockThreads)) return [v, 1, 1];
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

function marshal(plan: LaunchPlan, args: KernelArgs, device: GpuDevice, constants: ReadonlySet<string>): RunValue[] {
  const values = marshalEach(plan, args, device, constants);
  // An array the kernel writes shares memory with no other argument (spec: Types).
  const shared = sharedMemory(plan.fn, values);
  if (shared) throw invalid(plan.fn.name, shared.message);
  return values;
}

function marshalEach(plan: LaunchPlan, args: KernelArgs, device: GpuDevice, constants: ReadonlySet<string>): RunValue[] {
  const fn = plan.fn;
  const names = plan.names;
  for (const k of Object.keys(args)) {
    if (constants.has(k)) continue;
    if (!names.includes(k)) {
      const also = constants.size ? `; constant arrays it reads: ${[...constants].join(", ")}` : "";
      throw invalid(fn.name, `there is no parameter '${k}'${didYouMean(k, [...names, ...constants])} (parameters: ${names.join(", ")}${also})`);
    }
  }
  let missing: Param[] | undefined;
  for (const p of fn.params) if (!(p.name in args) || args[p.name] === undefined) (missing ??= []).push(p);
  if (missing) throw invalid(fn.name, `missing argument${missing.length > 1 ? "s" : ""} ${missing.map((p) => `'${p.name}' (${typeToString(p.type)})`).join(", ")}`);
  const values = new Array<RunValue>(fn.params.length);
  for (let i = 0; i < fn.params.length; i++) {
    const pp = plan.params[i]!;
    const v = args[pp.name]!;
    if (pp.scalar !== undefined) {
      const c = coerceScalar(pp.scalar, v);
      values[i] = c.ok ? c.value : scalar(fn.name, pp.what, pp.scalar, v);
      continue;
    }
    values[i] = arrayValue(fn, fn.params[i] as ArrayVar, pp, v, device);
  }
  return values;
}

function arrayValue(fn: Function, p: ArrayVar, pp: ParamPlan, v: ArgInput, device: GpuDevice): RunValue {
  const elem = pp.elem!;
  const what = pp.what;
  if (v instanceof GpuArray) {
    if (v.owner === device && v.elem === elem) {
      v.live(pp.argUse);
      return v;
    }
    if (v.owner !== device) throw invalid(fn.name, `${what} was given ${v.describe()} of ${(v.owner as GpuDevice).name}, but the kernel runs on ${device.name}: an array can be passed only to kernels compiled for its device (gpu.compile(...))`);
    throw invalid(fn.name, `${what} takes a GpuArray<"${elem}"> or a ${typedArrayName(elem)}, got ${v.toString()}`);
  }
  if (ArrayBuffer.isView(v)) {
    if (!holdsElem(v, elem)) throw invalid(fn.name, `${what} takes a ${typedArrayName(elem)}${elemNote(elem)}, got a ${(v as object).constructor.name}`);
    return v as AnyTypedArray;
  }
  if (Array.isArray(v)) {
    const a = newTypedArray(elem, v.length);
    v.forEach((x, i) => ((a as unknown as (number | bigint)[])[i] = storedValue(elem, scalar(fn.name, `${what}[${i}]`, p.type.elem, x))));
    return a;
  }
  throw invalid(fn.name, `${what} takes a ${typedArrayName(elem)}, a GpuArray<"${elem}"> (or an array of numbers), got ${describe(v)}`);
}

function describe(v: unknown): string {
  return describeValue(v);
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
    case "f16":
    case "bf16":
    case "f32":
    case "f64":
      throw invalid(kernel, `${what} takes a number, got ${describe(v)}`);
    default:
      throw invalid(kernel, `${what} takes an integer (a number or a bigint), got ${describe(v)}`);
  }
}

/// <reference types="@webgpu/types" />
/**
 * The TypeScript API (spec/runtime-api.md):
 *
 *   const mod = await compile("saxpy.gk");
 *   const { out } = await mod.saxpy({ grid: 1, block: 256 }, { n: 8, alpha: 2.5, x, y, out });
 *
 * Arguments are numbers (bigint or safe integers for 64-bit types, and only for them; booleans for bool),
 * arrays of lanes for vectors, plain objects for structs, TypedArrays for arrays (of their
 * lane type for vectors, 4·n numbers for n f32x4; ArrayBuffers or views of the bytes for
 * structs, see structs.ts; plain arrays, of numbers, of vectors or of objects, are converted),
 * and GPU arrays of the module's device for arrays of scalars (device/gpuArray.ts); every
 * argument is checked against the kernel's parameters before anything runs. Arrays a kernel may write are updated in place and returned by name. A
 * launch given only GPU arrays is queued and returns at once (device/launching.ts). A
 * generic kernel runs as one of its instances: `mod.reduce.with({ T: "f32", BLOCK: 256 })(config, args)`
 * (src/runtime/instances.ts).
 */
import * as path from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport } from "../diagnostics/format.js";
import type { SourceMap } from "../diagnostics/source.js";
import type { ArrayVar, Function, GenericKernel, Module, Param } from "../ir/nodes.js";
import { checkShape, launchBoundsProblem, type Dim3, type Limits } from "../ir/limits.js";
import { storedLanes, typeToString, type IntName, type ScalarType, type ScalarValue, type StructType, type ValueType, type VectorType } from "../ir/types.js";
import { checkArrayArg, coerceScalar, holdsElem, holeIn, INT_RANGES, newTypedArray, storedValue, typedArrayName, type AnyTypedArray } from "../ir/values.js";
import { coerceValue, leafValues, type Value } from "../ir/composite.js";
import { packStructs } from "./structs.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { invariant } from "../util.js";
import { sharedMemory } from "./aliasing.js";
import { GpuDevice, openDevice, type DeviceChoice, type SyncOptions } from "./device/device.js";
import type { Isolation } from "./device/engine.js";
import { describeValue, GpuArray } from "./device/gpuArray.js";
import { deviceModule, launchOn, type DeviceModule, type ModuleBuildOptions, type RunConfig, type RunValue } from "./device/launching.js";
import { GkRuntimeError } from "./errors.js";
import { genericParamList, InstanceCache, instanceByName, instanceModule, namedInstance, withExample, type GenericArgs, type NamedInstance } from "./instances.js";
import { runLaunch, type LaunchOutcome } from "./launches.js";
import { launchExtras } from "./launchExtras.js";
import { launchPlan, type LaunchPlan, type ParamPlan } from "./launchPlan.js";
import { runnerOf } from "./runner.js";
import type { SimOptions } from "./sim/index.js";

/** How a module is built and run, whatever its device: `fmad: false` builds without FMA contraction (bit-exact floats against the simulator). */
export interface ModuleOptions extends ModuleBuildOptions {
  /** The simulator's options, for a device of the module's own. */
  readonly sim?: SimOptions;
}

export interface CompileOptions extends ModuleOptions {
  /**
   * Where kernels run: a device from openDevice() (the module then shares its arrays and
   * queues), or auto (default: a GPU when one and nvcc are usable, else the CPU simulator),
   * cuda, cpu or webgpu, or a GPUDevice the program has, for a device of the module's own,
   * closed with it (a GPUDevice itself stays open).
   */
  readonly device?: DeviceChoice | GpuDevice | GPUDevice;
  /** GPU index (default 0), for a device of the module's own. */
  readonly gpu?: number;
  /** in-process or process (see openDevice), for a device of the module's own. */
  readonly isolation?: Isolation;
}

/** A grid's or block's size: a number (x), or 1 to 3 numbers (x, y, z). */
export type LaunchSize = number | readonly [number] | readonly [number, number] | readonly [number, number, number];

export interface LaunchConfig extends RunConfig {
  readonly grid: LaunchSize;
  readonly block: LaunchSize;
  /** The length (elements) of each of the kernel's dynamic shared arrays (`shared buf: f32[];`), by name. */
  readonly shared?: Readonly<Record<string, number>>;
}

/**
 * A kernel argument: a scalar; a vector (an array of its lanes) or struct (a plain object) value;
 * or an array: a TypedArray, a GpuArray (of scalars), an ArrayBuffer or DataView (the bytes of an
 * array of structs), or a plain array of scalars, of vectors or of objects (converted to a new array).
 */
export type ArgInput = number | bigint | boolean | AnyTypedArray | GpuArray | ArrayBuffer | DataView | readonly unknown[] | Readonly<Record<string, unknown>>;
export type KernelArgs = Readonly<Record<string, ArgInput>>;
/** Arrays the kernel may write, by parameter name: the argument itself, updated in place (or the array made from a plain array). */
export type KernelOutputs = Record<string, AnyTypedArray | GpuArray | ArrayBuffer | DataView>;
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
  /** The struct types of the module by name (the entry file's first), for packStructs and unpackStructs. */
  readonly structs: Readonly<Record<string, StructType>>;
  readonly #deviceModule: DeviceModule;
  readonly #owned: boolean;
  readonly #build: ModuleBuildOptions;
  /** Builds of instances made for `with()` and `launch()`, by instance name, the last INSTANCE_CACHE_SIZE (src/runtime/instances.ts). */
  readonly #instances = new InstanceCache<DeviceModule>();
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
    this.#deviceModule = this.#deviceModuleOf(ir);
    this.kernels = ir.kernels.map((k) => k.name);
    const structs: Record<string, StructType> = {};
    for (const t of ir.structs) if (!Object.hasOwn(structs, t.name)) structs[t.name] = t;
    this.structs = Object.freeze(structs);
    const members: [string, KernelFn][] = [
      // A kernel's member runs it directly (its name is no instance's spelling: launch(name) would find it).
      ...ir.kernels.filter((k) => !k.instance).map((k): [string, KernelFn] => {
        const target: KernelTarget = { mod: this.#deviceModule, fn: k };
        return [k.name, kernelFn((c, a) => this.#run(target, c, a), (g) => this.#notGeneric(k.name, g))];
      }),
      ...(ir.generics ?? []).map((g): [string, KernelFn] => [g.name, kernelFn(async () => Promise.reject(genericError(g)), (a) => this.#instanceFn(g, a))]),
    ];
    for (const [k, fn] of members) {
      // The checker refuses kernel names the module already has (GK2010, check/kernelNames.ts).
      invariant(!(k in this), `kernel '${k}' collides with a member of GkModule; the checker should have refused it (GK2010)`);
      Object.defineProperty(this, k, { value: fn, enumerable: true });
    }
  }

  #deviceModuleOf(ir: Module): DeviceModule {
    return deviceModule(ir, this.sources, this.#build);
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
    if (this.ir.kernels.some((k) => k.name === wanted.name)) return { mod: this.#deviceModule, fn: this.ir.kernels.find((k) => k.name === wanted.name)! };
    let mod = this.#instances.get(wanted.name);
    if (!mod) {
      mod = this.#deviceModuleOf(instanceModule(this.ir, this.sources, wanted, (fe) => new GkCompileError(fe.diagnostics, fe.sources)));
      this.#instances.set(wanted.name, mod);
    }
    return { mod, fn: mod.ir.kernels.find((k) => k.name === wanted.name)! };
  }

  static async create(ir: Module, sources: SourceMap, opts: CompileOptions): Promise<LoadedModule> {
    const given = opts.device instanceof GpuDevice ? opts.device : undefined;
    const device =
      given ??
      (await openDevice({
        device: (opts.device as DeviceChoice | GPUDevice | undefined) ?? "auto",
        ...(opts.gpu !== undefined ? { gpu: opts.gpu } : {}),
        ...(opts.isolation !== undefined ? { isolation: opts.isolation } : {}),
        ...(opts.sim !== undefined ? { sim: opts.sim } : {}),
      }));
    given?.open("compile()");
    return new GkModule(ir, sources, device, given === undefined, opts) as LoadedModule;
  }

  /** "cuda", "cpu" or "webgpu". */
  get device(): "cuda" | "cpu" | "webgpu" {
    return this.gpu.kind;
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
    if (fn) return this.#run({ mod: this.#deviceModule, fn }, config, args);
    const generic = this.ir.generics?.find((g) => g.name === name);
    if (generic) throw genericError(generic);
    throw new GkRuntimeError("GK8009", `there is no kernel '${name}'${didYouMean(name, this.kernels)} (kernels: ${this.kernels.join(", ")})`);
  }

  async #run({ mod, fn }: KernelTarget, config: LaunchConfig, args: KernelArgs): Promise<KernelOutputs> {
    const plan = launchPlan(mod.ir, fn);
    const name = fn.name;
    const limits = this.gpu.target.limits;
    const grid = dims(config?.grid, "grid", name, limits);
    const block = dims(config?.block, "block", name, limits);
    const bounds = launchBoundsProblem(fn, block);
    if (bounds) throw new GkRuntimeError("GK8010", `${name}: ${bounds}`);
    if (config?.queue !== undefined && config.queue.device !== this.gpu) throw invalid(name, `the queue belongs to another device (${config.queue.device.name}), not ${this.gpu.name}`);
    const extras = launchExtras(mod.ir, fn, config?.shared, args ?? {}, limits);
    const { values, given } = marshal(plan, args ?? {}, this.gpu, extras.names);
    const launched = launchOn(this.gpu, mod, fn, grid, block, values, config ?? {}, extras);
    if (launched !== undefined) await launched;
    const outputs: KernelOutputs = {};
    for (const i of plan.written) outputs[plan.names[i]!] = given[i] as AnyTypedArray | GpuArray | ArrayBuffer | DataView;
    return outputs;
  }

  /** Waits for everything queued on the module's device (every queue); throws the first failure, naming the kernel and the launch. */
  sync(opts: SyncOptions = {}): Promise<void> {
    return this.gpu.sync(opts);
  }

  /** Runs the file's `launch` statements in order. */
  async runLaunches(): Promise<LaunchOutcome[]> {
    const out: LaunchOutcome[] = [];
    const runner = runnerOf(this.gpu, this.ir, () => this.#deviceModule, () => this.close());
    for (const l of this.ir.launches) out.push(await runLaunch(this.ir, l, runner));
    return out;
  }

  /** Closes the module's device if the module opened it (a device given to compile() stays open). */
  async close(): Promise<void> {
    if (this.#owned) await this.gpu.close();
  }
}

/** A kernel and the build it runs in. */
interface KernelTarget {
  readonly mod: DeviceModule;
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
  if (typeof file !== "string") throw new GkRuntimeError("GK8005", `compile() takes the path of a .gk or .ts file as a string, got ${describeValue(file)}`);
  const fe = frontEnd(file);
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return GkModule.create(fe.ir, fe.sources, opts);
}

/** Compiles gk source text; `filename` names it in diagnostics and anchors relative imports. */
export async function compileSource(source: string, opts: CompileOptions & { filename?: string } = {}): Promise<LoadedModule> {
  if (typeof source !== "string") throw new GkRuntimeError("GK8005", `compileSource() takes the source text as a string, got ${describeValue(source)}`);
  const filename = opts.filename ?? path.join(process.cwd(), "<source>.gk");
  const fe = frontEnd(filename, { host: memoryHost({ [filename]: source }, nodeHost) });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  return GkModule.create(fe.ir, fe.sources, opts);
}

// ---------------------------------------------------------------- argument checking

function invalid(kernel: string, message: string): GkRuntimeError {
  return new GkRuntimeError("GK8005", `${kernel}: ${message}`);
}

/** A grid or a block as [x, y, z], within the limits of the device's target (GK8005 otherwise). */
function dims(v: number | readonly number[] | undefined, what: "grid" | "block", kernel: string, limits: Limits): Dim3 {
  // The common case, one size within the limits; checkShape says the same of it.
  if (typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= (what === "grid" ? limits.grid[0] : Math.min(limits.block[0], limits.blockThreads))) return [v, 1, 1];
  const list = typeof v === "number" ? [v] : Array.isArray(v) ? v : [];
  const c = checkShape(what, list, limits);
  if (c.ok) return c.dims;
  switch (c.why) {
    case "count":
      throw invalid(kernel, `${what} must be a number or an array of 1 to 3 numbers, e.g. { ${what}: [4, 4] }`);
    case "size":
      throw invalid(kernel, `${what} size ${"xyz"[c.axis]} must be an integer from 1 to ${c.max}, got ${String(c.got)}`);
    case "threads":
      throw invalid(kernel, `a block has at most ${limits.blockThreads} threads, but block [${c.dims.join(", ")}] has ${c.threads}`);
  }
}

/** The arguments as a launch takes them, and for each array the object to hand back (the caller's, or the one made from a plain array). */
function marshal(plan: LaunchPlan, args: KernelArgs, device: GpuDevice, constants: ReadonlySet<string>): { values: RunValue[]; given: unknown[] } {
  const r = marshalEach(plan, args, device, constants);
  // An array the kernel writes shares memory with no other argument (spec: Types).
  const shared = sharedMemory(plan.fn, r.values);
  if (shared) throw invalid(plan.fn.name, shared.message);
  return r;
}

function marshalEach(plan: LaunchPlan, args: KernelArgs, device: GpuDevice, constants: ReadonlySet<string>): { values: RunValue[]; given: unknown[] } {
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
  // Own properties only: a parameter named toString is not Object.prototype's.
  for (const p of fn.params) if (!Object.hasOwn(args, p.name) || args[p.name] === undefined) (missing ??= []).push(p);
  if (missing) throw invalid(fn.name, `missing argument${missing.length > 1 ? "s" : ""} ${missing.map((p) => `'${p.name}' (${typeToString(p.type)})`).join(", ")}`);
  const n = fn.params.length;
  const values = new Array<RunValue>(n);
  const given = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const pp = plan.params[i]!;
    const v = args[pp.name]!;
    given[i] = v;
    if (pp.scalar !== undefined) {
      const c = coerceScalar(pp.scalar, v);
      // A bigint given for a type of 32 bits or fewer is refused (scalar() says why).
      values[i] = c.ok && (typeof v !== "bigint" || typeof c.value === "bigint") ? c.value : scalar(fn.name, pp.what, pp.scalar, v);
      continue;
    }
    const p = fn.params[i]!;
    if (p.kind === "valueVar") {
      values[i] = value(fn.name, pp.what, p.type, v);
      continue;
    }
    // The fast path: a GPU array of this device, or a TypedArray, of the parameter's scalar type.
    if (pp.elem !== undefined) {
      if (v instanceof GpuArray && v.owner === device && v.elem === pp.elem) {
        v.live(pp.argUse);
        values[i] = v;
        continue;
      }
      if (holdsElem(v, pp.elem)) {
        values[i] = v;
        continue;
      }
    }
    const made = arrayValue(fn, p, pp, v, device);
    values[i] = made.value;
    given[i] = made.given;
  }
  return { values, given };
}

/** An array argument off the fast path: checked (checkArrayArg), or made from a plain array; its value and the object to hand back. */
function arrayValue(fn: Function, p: ArrayVar, pp: ParamPlan, v: ArgInput, device: GpuDevice): { value: RunValue; given: unknown } {
  const what = pp.what;
  const elem = p.type.elem;
  if (v instanceof GpuArray) {
    if (elem.kind !== "scalar") return gpuArrayOfCompounds(fn.name, what, elem, v, device, pp.argUse);
    if (v.owner === device && v.elem === elem.name) {
      v.live(pp.argUse);
      return { value: v, given: v };
    }
    if (v.owner !== device) throw invalid(fn.name, `${what} was given ${v.describe()} of ${(v.owner as GpuDevice).name}, but the kernel runs on ${device.name}: an array can be passed only to kernels compiled for its device (gpu.compile(...))`);
    throw invalid(fn.name, `${what} takes a GpuArray<"${elem.name}"> or a ${typedArrayName(elem.name)}, got ${v.toString()}`);
  }
  const c = checkArrayArg(elem, v);
  if (c.ok) return { value: c.value, given: v };
  if (Array.isArray(v)) {
    const hole = holeIn(v);
    if (hole !== undefined) throw invalid(fn.name, `${what} has a hole at index ${hole}: give every element of a plain array`);
    return fromPlainArray(fn.name, what, elem, v);
  }
  if (elem.kind === "scalar" && ArrayBuffer.isView(v)) throw invalid(fn.name, `${what} takes ${c.want}, got a ${v.constructor.name}`);
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) throw invalid(fn.name, `${what} takes ${c.want}, got ${describe(v)}`);
  const plain = elem.kind === "scalar" ? `a GpuArray<"${elem.name}"> (or an array of numbers)` : elem.kind === "vector" ? "an array of vectors" : "an array of objects";
  throw invalid(fn.name, `${what} takes ${c.want}${elem.kind === "scalar" ? ", " : " (or "}${plain}${elem.kind === "scalar" ? "" : ")"}, got ${describe(v)}`);
}

/**
 * A GPU array for an array of vectors or structs: of those vectors or structs (`gpu.zeros("f32x4",
 * n)`, `gpu.zeros(mod.structs.Node, n)`), or of their scalars as the host's TypedArray would
 * hold them (a GpuArray<"f32"> of 4·n lanes for n f32x4 or f32x3, a GpuArray<"bool"> for bool
 * vectors), or of their bytes (any GPU array of scalars of a whole number of structs:
 * packStructs' bytes, gpu.array(new Uint8Array(bytes), { elem: "u8" })).
 */
function gpuArrayOfCompounds(kernel: string, what: string, elem: VectorType | StructType, v: GpuArray, device: GpuDevice, use: string): { value: RunValue; given: unknown } {
  if (v.owner !== device) throw invalid(kernel, `${what} was given ${v.describe()} of ${(v.owner as GpuDevice).name}, but the kernel runs on ${device.name}: an array can be passed only to kernels compiled for its device (gpu.compile(...))`);
  const held = v.layout.type;
  if (elem.kind === "vector") {
    const per = storedLanes(elem);
    const name = typeToString(elem);
    if (held.kind === "vector" ? typeToString(held) !== name : v.elem !== elem.elem.name || v.length % per !== 0) {
      throw invalid(kernel, `${what} takes a GpuArray<"${name}">, or a GpuArray<"${elem.elem.name}"> of ${per}·n lanes${per !== elem.lanes ? ` (${per} per ${elem.lanes}-lane vector, the last padding)` : ""}, got ${v.toString()}`);
    }
  } else if (held.kind === "struct" ? typeToString(held) !== typeToString(elem) || held.size !== elem.size : v.byteLength % elem.size !== 0) {
    throw invalid(kernel, `${what} takes a GPU array of ${elem.name} structs (gpu.zeros(mod.structs.${elem.name}, n)), or of the bytes of n of them (${elem.size} bytes each: packStructs), got ${v.toString()} of ${v.byteLength} bytes`);
  }
  v.live(use);
  return { value: v, given: v };
}

/** A plain array as an array argument: of scalars; of vectors (flat lanes, or one array per vector); of objects (packed structs). */
function fromPlainArray(kernel: string, what: string, elem: ValueType, v: readonly unknown[]): { value: AnyTypedArray; given: unknown } {
  switch (elem.kind) {
    case "scalar": {
      const a = newTypedArray(elem.name, v.length);
      v.forEach((x, i) => ((a as unknown as (number | bigint)[])[i] = storedValue(elem.name, value(kernel, `${what}[${i}]`, elem, x) as boolean | number | bigint)));
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
        lv.forEach((x, k) => ((a as unknown as (number | bigint)[])[i * per + k] = storedValue(elem.elem.name, x)));
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
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `an array of ${v.length} element${v.length === 1 ? "" : "s"}`;
  if (v instanceof DataView) return `a DataView of ${v.byteLength} bytes`;
  return describeValue(v);
}

function value(kernel: string, what: string, t: ValueType, v: unknown): Value {
  if (t.kind === "scalar") return scalar(kernel, what, t, v);
  const c = coerceValue(t, v);
  if (c.ok) return c.value;
  throw invalid(kernel, `${what}${c.at ? `, at ${c.at},` : ""} takes ${c.want}, got ${describe(c.got)}`);
}

function scalar(kernel: string, what: string, t: ScalarType, v: unknown): ScalarValue {
  // A bigint is the host form of i64 and u64 only (spec/typescript.md), as the declarations type it.
  if (typeof v === "bigint" && t.name !== "i64" && t.name !== "u64") {
    throw invalid(kernel, `${what} takes a number, got bigint ${v}n (bigints are for i64 and u64)`);
  }
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
    case "i64":
    case "u64":
      throw invalid(kernel, `${what} takes an integer (a bigint, or a number that is a safe integer), got ${describe(v)}`);
    default:
      throw invalid(kernel, `${what} takes an integer, got ${describe(v)}`);
  }
}

/**
 * One launch on a device, its arguments already checked (api.ts): scalars, host TypedArrays
 * and GPU arrays, in parameter order.
 *
 * - Only GPU arrays (and scalars): the launch is queued and the call returns at once. Its
 *   failure surfaces at the next wait on its queue (a sync, a read of an array), naming the
 *   kernel and the launch. The simulator runs it at once but keeps its failure for that wait
 *   too, and skips the launches queued after it until then, as a GPU would.
 * - Any host TypedArray: the arrays are copied to the device, the kernel runs, the arrays the
 *   kernel may write are copied back into them, and the call returns when that is done (it
 *   throws what failed).
 *
 * Either way a launch's extras (the lengths of its dynamic shared arrays, the contents of the
 * constant arrays it reads) go with it, on every engine and on the simulator. A WebGPU device's
 * launches take the same road from here on in src/runtime/webgpu/launch.ts.
 */
import type { SourceMap } from "../../diagnostics/source.js";
import type { Function, Module } from "../../ir/nodes.js";
import type { Value } from "../../ir/composite.js";
import { constantElem, launchSharedBytes } from "../../ir/kernelMemory.js";
import type { Dim3, Limits } from "../../ir/limits.js";
import type { ScalarValue } from "../../ir/types.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { invariant } from "../../util.js";
import type { BuildOptions, ModuleBuild } from "../../build/build.js";
import type { ConstantArg, ScalarArg } from "../launcher/types.js";
import { wireArg } from "../wire.js";
import type { SimKernel } from "../sim/index.js";
import { launchPlan, type LaunchPlan } from "../launchPlan.js";
import type { Engine, EngineArg, EngineKernel, EngineLaunch } from "./engine.js";
import { GpuArray, type ArrayStore } from "./gpuArray.js";
import type { GpuDevice, GpuQueue } from "./device.js";

/** A module as a device runs it: built once for a GPU (through the cache), its kernels loaded once per engine generation, compiled once for the simulator. */
export interface DeviceModule {
  readonly ir: Module;
  readonly sources: SourceMap;
  readonly build: ModuleBuildOptions;
  built?: Promise<ModuleBuild>;
  /** The build once made: launches after a kernel's first need not wait for it. */
  resolved?: ModuleBuild;
  readonly kernels: Map<string, EngineKernel>;
  readonly simKernels: Map<string, SimKernel>;
}

/** How a module is built for a GPU, whatever the GPU's arch: FMA contraction, the cache folder, nvcc's warnings. */
export type ModuleBuildOptions = Omit<BuildOptions, "arch">;

/** A module to run on a device, nothing built or compiled yet. */
export function deviceModule(ir: Module, sources: SourceMap, build: ModuleBuildOptions = {}): DeviceModule {
  return { ir, sources, build, kernels: new Map(), simKernels: new Map() };
}

/** The module's build for the device's GPU, started once (a caller may start it early, so that builds overlap with runs). */
export async function buildFor(device: GpuDevice, mod: DeviceModule): Promise<ModuleBuild> {
  const engine = device.open("a build");
  invariant(engine, "a build for the simulator");
  if (mod.built === undefined) {
    const { buildModule } = await import("../../build/build.js");
    mod.built ??= buildModule(mod.ir, mod.sources, { ...mod.build, arch: engine.info.arch });
  }
  return mod.built;
}

export interface RunConfig {
  readonly queue?: GpuQueue;
  /** Called with the kernel's time in milliseconds (CUDA events; the simulator's wall time) once it is known: at the latest when the next wait on its queue returns. */
  readonly kernelTime?: (ms: number) => void;
  /** For launches with host arrays: give up on the kernel after this long (GK8012; see SyncOptions). */
  readonly timeoutMs?: number;
  /** The launch's constants and dynamic shared lengths (launchExtras.ts); none by default. */
  readonly extras?: LaunchExtras;
}

/** What a launch gives besides the arguments (src/ir/kernelMemory.ts; the API checks them in launchExtras.ts). */
export interface LaunchExtras {
  /** The contents of the constant arrays the kernel reads, in `constantsRead` order. */
  readonly constants: readonly AnyTypedArray[];
  /** The lengths of the kernel's dynamic shared arrays, in declaration order. */
  readonly sharedLengths: readonly number[];
}

export const NO_EXTRAS: LaunchExtras = { constants: [], sharedLengths: [] };

type WebGpuLaunch = typeof import("../webgpu/launch.js");
/** The WebGPU launch path, loaded at a WebGPU device's first launch (it brings the WGSL code generator). */
let webgpuLaunch: WebGpuLaunch | undefined;

/** A scalar, vector or struct value, a host array, or a GPU array. */
export type RunValue = Value | AnyTypedArray | GpuArray;

/**
 * Launches `fn`: queued at once (no await) when the kernel is loaded in the engine's current
 * generation and the queue exists there, which is every launch but a kernel's first; returns
 * undefined then, else a promise of the launch made (a host-array launch: of its end).
 * `given` overrides `config.extras`.
 */
export function launchOn(device: GpuDevice, mod: DeviceModule, fn: Function, grid: Dim3, block: Dim3, values: readonly RunValue[], config: RunConfig, given?: LaunchExtras): Promise<void> | undefined {
  const plan = launchPlan(mod.ir, fn);
  const engine = device.open(plan.use);
  const extras = given ?? config.extras ?? NO_EXTRAS;
  const queue = config.queue ?? device.defaultQueue;
  const n = values.length;
  let host = false;
  const stores: (ArrayStore | undefined)[] = new Array<ArrayStore | undefined>(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v instanceof GpuArray) stores[i] = v.live(plan.params[i]!.launchUse);
    else if (ArrayBuffer.isView(v)) host = true;
  }
  for (let i = 0; i < n; i++) if (stores[i] !== undefined) (values[i] as GpuArray).lastQueue = queue;
  if (device.webgpu) {
    const w = device.webgpu;
    const go = (m: WebGpuLaunch) => m.launchWebGpu(device, w, mod, fn, grid, block, values, stores, host, queue, config, extras);
    return webgpuLaunch ? go(webgpuLaunch) : import("../webgpu/launch.js").then((m) => go((webgpuLaunch = m)));
  }
  if (engine === undefined) return simulate(device, mod, fn, grid, block, values.map((v, i) => (v instanceof GpuArray ? (stores[i] as { data: AnyTypedArray }).data : v)), host, queue, config, extras);

  const kernel = mod.kernels.get(fn.name);
  const built = mod.resolved;
  const current = kernel !== undefined && kernel.generation === engine.generation && built !== undefined;
  if (!current || host || (queue.id !== 0 && queue.engineQueue?.generation !== engine.generation)) {
    return launchLater(device, engine, mod, fn, plan, grid, block, values, stores, host, queue, config, extras);
  }
  const after: (() => void)[] = [];
  const args = engineArgs(plan, values, stores, after);
  // Only a host array has results to copy back, and a host-array launch goes through launchLater.
  invariant(after.length === 0, "a copy-back on the queued path");
  const plain = extras.constants.length === 0 && extras.sharedLengths.length === 0 && plan.constants.length === 0 && plan.sharedArrays.length === 0 && plan.fixedSharedBytes <= device.target.limits.staticSharedBytes;
  const more = plain ? undefined : extrasOf(mod, fn, built, extras, args, device.target.limits);
  try {
    const seq = queue.nextSeq++;
    const timing = config.kernelTime !== undefined;
    if (timing) queue.timings.set(seq, config.kernelTime!);
    const q = queue.id === 0 ? 0 : queue.engineQueue!.id;
    engine.launch(more ? { kernel, grid, block, args, queue: q, seq, timing, ...more } : { kernel, grid, block, args, queue: q, seq, timing });
  } catch (e) {
    throw device.note(e);
  }
  return undefined;
}

/**
 * The engine's arguments: scalars, device memory, host arrays (copied back when the kernel may
 * write them). A vector or struct value goes as its scalars, an array of structs or bool
 * vectors as its bytes in u32 words (wire.ts); `after` gets what must run after the launch.
 */
function engineArgs(plan: LaunchPlan, values: readonly RunValue[], stores: readonly (ArrayStore | undefined)[], after: (() => void)[]): EngineArg[] {
  const args: EngineArg[] = [];
  for (let i = 0; i < values.length; i++) {
    const p = plan.params[i]!;
    if (p.scalar !== undefined) {
      args.push({ kind: "scalar", type: p.scalar.name, value: values[i] as ScalarValue });
      continue;
    }
    const s = stores[i];
    if (s !== undefined) {
      invariant(s.kind === "device", "a GPU array of a GPU device in host memory");
      args.push({ kind: "memory", mem: s.mem });
    } else if (!p.wire) {
      args.push({ kind: "host", elem: p.elem!, data: values[i] as AnyTypedArray, copyBack: p.written });
    } else {
      for (const a of wireArg(plan.fn.params[i]!, values[i] as Value | AnyTypedArray, after)) {
        args.push(a.kind === "scalar" ? a : { kind: "host", elem: a.elem, data: a.data as AnyTypedArray, copyBack: p.written });
      }
    }
  }
  return args;
}

/**
 * The launch's extras as the launch record takes them (spec/launcher-protocol.md): the bytes
 * of dynamic shared memory, and the constant arrays under their `__constant__` symbols
 * (`built.constantSymbols`: gk name → symbol). The lengths of the dynamic shared arrays go
 * into `args` as u32 arguments after the kernel's parameters (the CUDA kernel takes them
 * there, src/codegen/cuda/function.ts).
 */
function extrasOf(mod: DeviceModule, fn: Function, built: ModuleBuild, extras: LaunchExtras, args: EngineArg[], limits: Limits): Pick<EngineLaunch, "sharedBytes" | "constants"> {
  const plan = launchPlan(mod.ir, fn);
  const reads = plan.constants;
  if (reads.length === 0 && extras.sharedLengths.length === 0 && plan.sharedArrays.length === 0 && plan.fixedSharedBytes <= limits.staticSharedBytes) return {};
  const constants = reads.map((a, i): ConstantArg => {
    const name = built.constantSymbols.get(a.name);
    const data = extras.constants[i];
    invariant(name !== undefined && data !== undefined, `no contents or CUDA symbol for the constant array ${a.name}`);
    return { name, elem: constantElem(a).name, data };
  });
  for (const n of extras.sharedLengths) args.push({ kind: "scalar", type: "u32", value: n } satisfies ScalarArg);
  const sharedBytes = launchSharedBytes(fn, extras.sharedLengths, limits);
  return { ...(sharedBytes > 0 && { sharedBytes }), ...(constants.length > 0 && { constants }) };
}

/** launchOn's path where something must be waited for first: the kernel's build and load, a queue's stream, or a host-array launch. */
async function launchLater(
  device: GpuDevice,
  engine: Engine,
  mod: DeviceModule,
  fn: Function,
  plan: LaunchPlan,
  grid: Dim3,
  block: Dim3,
  values: readonly RunValue[],
  stores: readonly (ArrayStore | undefined)[],
  host: boolean,
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
): Promise<void> {
  const cached = mod.kernels.get(fn.name);
  const kernel = cached !== undefined && cached.generation === engine.generation ? cached : await kernelOf(device, mod, fn.name);
  const after: (() => void)[] = [];
  const args = engineArgs(plan, values, stores, after);
  invariant(mod.built, `kernel ${fn.name} without its build`);
  const more = extrasOf(mod, fn, await mod.built, extras, args, device.target.limits);
  try {
    if (host) {
      // With queue 0's numbering: run() launches there.
      try {
        const ms = await engine.run({ kernel, grid, block, args, ...more }, config.timeoutMs, device.defaultQueue.nextSeq++);
        config.kernelTime?.(ms);
      } finally {
        after.forEach((f) => f());
      }
      return;
    }
    const q = queue.id === 0 ? 0 : await device.engineQueue(queue);
    const seq = queue.nextSeq++;
    if (config.kernelTime) queue.timings.set(seq, config.kernelTime);
    engine.launch({ kernel, grid, block, args, queue: q, seq, timing: config.kernelTime !== undefined, ...more });
  } catch (e) {
    throw device.note(e);
  }
}

async function kernelOf(device: GpuDevice, mod: DeviceModule, name: string): Promise<EngineKernel> {
  const engine = device.engine!;
  const known = mod.kernels.get(name);
  if (known && known.generation === engine.generation) return known;
  const b = await buildFor(device, mod);
  mod.resolved = b;
  const symbol = b.symbols.get(name);
  invariant(symbol, `no CUDA symbol for kernel ${name}`);
  try {
    const k = await engine.kernel(b.cubin, symbol, name);
    mod.kernels.set(name, k);
    return k;
  } catch (e) {
    throw device.note(e);
  }
}

async function simulate(
  device: GpuDevice,
  mod: DeviceModule,
  fn: Function,
  grid: Dim3,
  block: Dim3,
  args: readonly (Value | AnyTypedArray)[],
  host: boolean,
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
): Promise<void> {
  const { compileKernel, runKernel } = await import("../sim/index.js");
  let k = mod.simKernels.get(fn.name);
  if (k === undefined) {
    k = compileKernel(mod.ir, fn.name, mod.sources, { ...device.simOptions, limits: device.target.limits });
    mod.simKernels.set(fn.name, k);
  }
  if (host) {
    const r = runKernel(k, { grid, block, shared: extras.sharedLengths }, args, extras.constants);
    config.kernelTime?.(r.ms);
    return;
  }
  if (queue.failure !== undefined) return; // after a failed launch, its queue runs nothing until the wait reports it
  try {
    const r = runKernel(k, { grid, block, shared: extras.sharedLengths }, args, extras.constants);
    const cb = config.kernelTime;
    if (cb) queue.simTimes.push(() => cb(r.ms));
  } catch (e) {
    queue.failure = e;
  }
}

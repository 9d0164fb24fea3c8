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
 * constant arrays it reads) go with it, on every engine and on the simulator.
 */
import type { SourceMap } from "../../diagnostics/source.js";
import type { Function, Module } from "../../ir/nodes.js";
import type { Value } from "../../ir/composite.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { invariant } from "../../util.js";
import type { BuildOptions, ModuleBuild } from "../build.js";
import { launcherExtras, NO_EXTRAS, type Dims, type LaunchExtras } from "../runner.js";
import { wireArg } from "../wire.js";
import type { SimKernel } from "../sim/index.js";
import type { EngineArg, EngineExtras, EngineKernel } from "./engine.js";
import { GpuArray } from "./gpuArray.js";
import type { GpuDevice, GpuQueue } from "./device.js";

/** A module's kernels as a device runs them: built once for a GPU (through the cache), compiled once for the simulator. */
export interface Program {
  readonly ir: Module;
  readonly sources: SourceMap;
  readonly build: Omit<BuildOptions, "arch">;
  built?: Promise<ModuleBuild>;
  readonly kernels: Map<string, EngineKernel>;
  readonly simKernels: Map<string, SimKernel>;
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

/** A scalar, vector or struct value, a host array, or a GPU array. */
export type RunValue = Value | AnyTypedArray | GpuArray;

const isWritten = (fn: Function, i: number) => {
  const p = fn.params[i]!;
  return p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly;
};

export async function launchOn(device: GpuDevice, program: Program, fn: Function, grid: Dims, block: Dims, values: readonly RunValue[], config: RunConfig): Promise<void> {
  const engine = device.open(`launch of ${fn.name}`);
  const extras = config.extras ?? NO_EXTRAS;
  const queue = config.queue ?? device.defaultQueue;
  const host = values.some((v) => ArrayBuffer.isView(v));
  const arrays = values.filter((v): v is GpuArray => v instanceof GpuArray);
  const stores = values.map((v, i) => (v instanceof GpuArray ? v.live(() => `argument '${fn.params[i]!.name}' of a launch of ${fn.name}`) : undefined));
  for (const a of arrays) a.lastQueue = queue;
  if (engine === undefined) return simulate(device, program, fn, grid, block, values.map((v, i) => (v instanceof GpuArray ? (stores[i] as { data: AnyTypedArray }).data : v)), host, queue, config, extras);

  const cached = program.kernels.get(fn.name);
  const kernel = cached !== undefined && cached.generation === engine.generation ? cached : await kernelOf(device, program, fn.name);
  // A vector or struct value goes as its scalars, an array of structs or bool vectors as its bytes in u32 words (wire.ts).
  const after: (() => void)[] = [];
  const args: EngineArg[] = values.flatMap((v, i): EngineArg[] => {
    const s = stores[i];
    if (s !== undefined) {
      invariant(s.kind === "device", "a GPU array of a GPU device in host memory");
      return [{ kind: "memory", mem: s.mem }];
    }
    return wireArg(fn.params[i]!, v as Value | AnyTypedArray, after).map((a): EngineArg => (a.kind === "scalar" ? a : { kind: "host", elem: a.elem, data: a.data as AnyTypedArray, copyBack: isWritten(fn, i) }));
  });
  invariant(program.built, `kernel ${fn.name} without its build`);
  const more = launcherExtras(program.ir, fn, (await program.built).constantSymbols, extras);
  args.push(...more.args);
  const engineExtras: EngineExtras | undefined = more.sharedBytes > 0 || more.constants.length > 0 ? { sharedBytes: more.sharedBytes, constants: more.constants } : undefined;
  try {
    if (host) {
      // With queue 0's numbering: run() launches there.
      try {
        const ms = await engine.run(kernel, grid, block, args, config.timeoutMs, device.defaultQueue.nextSeq++, engineExtras);
        config.kernelTime?.(ms);
      } finally {
        after.forEach((f) => f());
      }
      return;
    }
    const q = queue.id === 0 ? 0 : await device.engineQueue(queue);
    const seq = queue.nextSeq++;
    if (config.kernelTime) queue.timings.set(seq, config.kernelTime);
    engine.launch({ kernel, grid, block, args, queue: q, seq, timing: config.kernelTime !== undefined, ...(engineExtras && { extras: engineExtras }) });
  } catch (e) {
    throw device.note(e);
  }
}

async function kernelOf(device: GpuDevice, program: Program, name: string): Promise<EngineKernel> {
  const engine = device.engine!;
  const known = program.kernels.get(name);
  if (known && known.generation === engine.generation) return known;
  const { buildModule } = await import("../build.js");
  program.built ??= buildModule(program.ir, program.sources, { ...program.build, arch: engine.info.arch });
  const b = await program.built;
  const symbol = b.symbols.get(name);
  invariant(symbol, `no CUDA symbol for kernel ${name}`);
  try {
    const k = await engine.kernel(b.cubin, symbol, name);
    program.kernels.set(name, k);
    return k;
  } catch (e) {
    throw device.note(e);
  }
}

async function simulate(
  device: GpuDevice,
  program: Program,
  fn: Function,
  grid: Dims,
  block: Dims,
  args: readonly (Value | AnyTypedArray)[],
  host: boolean,
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
): Promise<void> {
  const { compileKernel, runKernel } = await import("../sim/index.js");
  let k = program.simKernels.get(fn.name);
  if (k === undefined) {
    k = compileKernel(program.ir, fn.name, program.sources, device.simOptions);
    program.simKernels.set(fn.name, k);
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

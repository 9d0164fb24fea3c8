/**
 * Running the kernels of one module by name on a device, with host arrays that the kernel's
 * results are copied back into: `gkc run`'s launch statements (launches.ts),
 * GkModule.runLaunches() and the tests that compare runs. The launching is the device layer's
 * (device/launching.ts), the road the API and gk/testing take too: the same engines, builds
 * and simulator, whichever caller runs the kernel.
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { Dim3 } from "../ir/limits.js";
import type { Function, Module } from "../ir/nodes.js";
import type { ArgValue } from "../ir/values.js";
import { invariant } from "../util.js";
import type { GpuDevice } from "./device/device.js";
import { deviceModule, launchOn, NO_EXTRAS, type DeviceModule, type LaunchExtras, type ModuleBuildOptions } from "./device/launching.js";

export type { ArgValue };

export interface RunTiming {
  /** Kernel time: CUDA events on a GPU, wall time of the simulation on the CPU. */
  readonly kernelMs: number;
  /** Everything the call took, as the caller saw it. */
  readonly totalMs: number;
}

export interface Runner {
  readonly device: GpuDevice;
  /**
   * Runs `kernel` of the runner's module, or of `module` when given (an instance of a generic
   * kernel in a module of its own, src/runtime/instances.ts), with a launch's constants and
   * dynamic shared lengths (`extras`), and waits for it: arrays it may write hold its results.
   */
  run(kernel: string, grid: Dim3, block: Dim3, args: readonly ArgValue[], extras?: LaunchExtras, module?: Module): Promise<RunTiming>;
  /** Closes what the runner owns (createRunner's: the device). */
  close(): Promise<void>;
}

/** A runner of the kernels of `ir` on `device`, which it owns: close() closes the device. */
export function createRunner(ir: Module, sources: SourceMap, device: GpuDevice, build: ModuleBuildOptions = {}): Runner {
  const modules = new Map<Module, DeviceModule>();
  const moduleOf = (m: Module): DeviceModule => {
    let mod = modules.get(m);
    if (!mod) modules.set(m, (mod = deviceModule(m, sources, build)));
    return mod;
  };
  return runnerOf(device, ir, moduleOf, () => device.close());
}

/** A runner of the kernels of `ir` (or of a module given to run()) as `moduleOf` builds them on `device`; `close` says what closing it does. */
export function runnerOf(device: GpuDevice, ir: Module, moduleOf: (m: Module) => DeviceModule, close: () => Promise<void>): Runner {
  return {
    device,
    async run(kernel, grid, block, args, extras = NO_EXTRAS, module = ir) {
      const t0 = performance.now();
      let kernelMs = 0;
      const launched = launchOn(device, moduleOf(module), kernelOf(module, kernel), grid, block, args, { kernelTime: (ms) => (kernelMs = ms) }, extras);
      if (launched !== undefined) await launched;
      // A launch with no host array is queued: its end (its time, or its failure) is the queue's next wait.
      await device.defaultQueue.sync();
      return { kernelMs, totalMs: performance.now() - t0 };
    },
    close,
  };
}

function kernelOf(ir: Module, name: string): Function {
  const k = ir.kernels.find((f) => f.name === name);
  invariant(k, `no kernel ${name}`);
  return k;
}

/**
 * Running kernels of one module on a target: the CPU simulator, or a GPU through a
 * persistent gpu_launcher session (modules built once, through the cache). Arguments are
 * in parameter order; arrays a kernel may write are updated in place on both targets.
 * Each target's code (the simulator; the build and launcher client) is loaded on its first
 * run, so a process pays at start-up only for the target it uses.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceMap } from "../diagnostics/source.js";
import type { Function, Module } from "../ir/nodes.js";
import type { ArgValue } from "../ir/values.js";
import { wireArgs } from "./wire.js";
import { invariant } from "../util.js";
import type { ModuleBuild } from "./build.js";
import type { ConstantArg, LauncherSession, ScalarArg } from "./launcher.js";
import { constantElem, dynamicSharedBytes } from "../ir/kernelMemory.js";
import { launchPlan } from "./launchPlan.js";
import type { SimOptions } from "./sim/index.js";
import type { Target } from "./target.js";
import { NO_EXTRAS, type LaunchExtras } from "./device/launching.js";
import type { Dim3 } from "../ir/limits.js";

export type { ArgValue };

export interface RunTiming {
  /** Kernel time: CUDA events on a GPU, wall time of the simulation on the CPU. */
  readonly kernelMs: number;
  /** Everything the call took, as the caller saw it. */
  readonly totalMs: number;
}

export interface RunnerOptions {
  /** false: build without FMA contraction (bit-exact floats against the simulator). */
  readonly fmad?: boolean;
  readonly cacheRoot?: string;
  readonly sim?: SimOptions;
  readonly onWarning?: (d: Diagnostic) => void;
}

export interface Runner {
  readonly target: Target;
  /**
   * Runs `kernel` of the runner's module, or of `module` when given (an instance of a generic
   * kernel in a module of its own, src/runtime/instances.ts), on the same target and session,
   * with a launch's constants and dynamic shared lengths (`extras`).
   */
  run(kernel: string, grid: Dim3, block: Dim3, args: readonly ArgValue[], extras?: LaunchExtras, module?: Module): Promise<RunTiming>;
  close(): Promise<void>;
}

export function createRunner(ir: Module, sources: SourceMap, target: Target, opts: RunnerOptions = {}): Runner {
  return target.kind === "cpu" ? cpuRunner(ir, sources, target, opts) : gpuRunner(ir, sources, target, opts);
}

function kernelOf(ir: Module, name: string): Function {
  const k = ir.kernels.find((f) => f.name === name);
  invariant(k, `no kernel ${name}`);
  return k;
}

function cpuRunner(ir: Module, sources: SourceMap, target: Target, opts: RunnerOptions): Runner {
  return {
    target,
    async run(kernel, grid, block, args, extras = NO_EXTRAS, module = ir) {
      const t0 = performance.now();
      const { compileKernel, runKernel } = await import("./sim/index.js");
      const k = compileKernel(module, kernel, sources, opts.sim);
      const r = runKernel(k, { grid, block, shared: extras.sharedLengths }, args, extras.constants);
      return { kernelMs: r.ms, totalMs: performance.now() - t0 };
    },
    async close() {},
  };
}

function gpuRunner(ir: Module, sources: SourceMap, target: Target & { kind: "cuda" }, opts: RunnerOptions): Runner {
  const builds = new Map<Module, Promise<ModuleBuild>>();
  let session: LauncherSession | undefined;
  return {
    target,
    async run(kernel, grid, block, args, extras = NO_EXTRAS, module = ir) {
      const t0 = performance.now();
      const [{ buildModule }, { LauncherSession }] = await Promise.all([import("./build.js"), import("./launcher.js")]);
      session ??= new LauncherSession({ device: target.device.index });
      let built = builds.get(module);
      if (!built) {
        built = buildModule(module, sources, {
          arch: target.arch,
          ...(opts.fmad !== undefined ? { fmad: opts.fmad } : {}),
          ...(opts.cacheRoot !== undefined ? { cacheRoot: opts.cacheRoot } : {}),
          ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
        });
        builds.set(module, built);
      }
      const b = await built;
      const fn = kernelOf(module, kernel);
      const symbol = b.symbols.get(kernel);
      invariant(symbol, `no CUDA symbol for kernel ${kernel}`);
      const wire = wireArgs(fn, args);
      const more = launcherExtras(module, fn, b.constantSymbols, extras);
      // Results land straight in the caller's arrays (no second copy), or in copies that `finish` copies back.
      try {
        const r = await session.run({
          module: b.cubin, kernel: symbol, grid, block, args: [...wire.args, ...more.args], copyBackInPlace: true,
          ...(more.sharedBytes > 0 && { sharedBytes: more.sharedBytes }),
          ...(more.constants.length > 0 && { constants: more.constants }),
        });
        return { kernelMs: r.timing.kernelMs, totalMs: performance.now() - t0 };
      } finally {
        wire.finish();
      }
    },
    close: async () => session?.close(),
  };
}

/**
 * A launch's extras as the launcher takes them (spec/launcher-protocol.md): the lengths of the
 * dynamic shared arrays as u32 arguments after the kernel's parameters (the CUDA kernel takes
 * them there, src/backends/cuda/function.ts), the bytes of dynamic shared memory they need,
 * and the constant arrays under their `__constant__` symbols (`symbols`: gk name → symbol).
 */
export function launcherExtras(m: Module, fn: Function, symbols: ReadonlyMap<string, string>, extras: LaunchExtras): { args: ScalarArg[]; sharedBytes: number; constants: ConstantArg[] } {
  const plan = launchPlan(m, fn);
  const reads = plan.constants;
  if (reads.length === 0 && extras.sharedLengths.length === 0 && plan.sharedArrays.length === 0) return { args: [], sharedBytes: 0, constants: [] };
  const constants = reads.map((a, i): ConstantArg => {
    const name = symbols.get(a.name);
    const data = extras.constants[i];
    invariant(name !== undefined && data !== undefined, `no contents or CUDA symbol for the constant array ${a.name}`);
    return { name, elem: constantElem(a).name, data };
  });
  const args = extras.sharedLengths.map((n): ScalarArg => ({ kind: "scalar", type: "u32", value: n }));
  return { args, sharedBytes: dynamicSharedBytes(fn, extras.sharedLengths).bytes, constants };
}

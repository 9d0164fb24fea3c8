/**
 * Compiling a kernel to JavaScript (once per module, kernel and options) and running one
 * launch of it: check the shape and arguments, run the fast path or the barrier path (as
 * regions, or on generators, which kernels with warp operations always use), and turn
 * whatever went wrong into a SimError that names the `.gk` line, kernel, thread and block.
 * With `checkRaces` the kernel is compiled with the race detector's hooks (races.ts) and runs
 * on generators.
 */
import { error } from "../../diagnostics/diagnostic.js";
import type { SourceMap } from "../../diagnostics/source.js";
import { makeRuntime, type Runtime } from "../../ir/evalOp.js";
import type { ArrayVar, Function, Module } from "../../ir/nodes.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { invariant } from "../../util.js";
import { checkArgs, checkConstants, launchShape, sharedLengths, type SimArg } from "./args.js";
import { generateKernel, type BarrierPath } from "../../codegen/js/emitKernel.js";
import { BarrierDivergence, explainFault, faultHandlers, internalSimError, LocatedFault, MIN_BUDGET_THREADS, setBlockHook, SimError, type FaultContext, type FaultHandlers } from "./errors.js";
import type { Dim3, Limits } from "../../ir/limits.js";
import { CUDA_TARGET } from "../../codegen/cuda/target.js";
import { startTask } from "../../progress.js";
import { differentBarriers, endedAtBarrier, runBlocks, type BlockRunner } from "./scheduler.js";
import { SiteTable } from "../../codegen/js/sites.js";
import { RaceDetector } from "./races.js";
import { AsyncCopies } from "./asyncCopies.js";

export interface SimOptions {
  /**
   * Loop iterations (back-edges) each thread may take before GK8004, counted over the launch:
   * a launch of T threads may take `stepsPerThread` × max(T, 1000) in all. Default 10^6, or
   * the environment's GK_STEPS_PER_THREAD (`gkc run --steps-per-thread N` sets it).
   */
  readonly stepsPerThread?: number;
  /** Loop iterations one launch may take before GK8004, whatever its size: in place of stepsPerThread, exactly (tests). */
  readonly stepBudget?: number;
  /** Report reads of shared memory no thread of the block has written (GK8013); default true. */
  readonly checkUninitializedShared?: boolean;
  /**
   * Report data races on global and shared memory (GK8040, spec/memory-model.md): two accesses
   * of different threads to one element, one a write, that nothing orders. Default false: it
   * costs time (bench/run.mjs sim); gk/testing and `gkc run --check-races` turn it on.
   */
  readonly checkRaces?: boolean;
  /**
   * @internal How kernels with barriers run: "regions" (the default) or "generators", the
   * fallback for what regions do not cover, kept to compare the two in tests.
   */
  readonly barrierPath?: BarrierPath;
  /**
   * @internal The limits of the target whose GPU the simulator stands in for: launches past
   * them are refused (GK8010). A device hands in its target's (src/runtime/device/device.ts);
   * CUDA's where none is given, the GPU gk's simulator models.
   */
  readonly limits?: Limits;
}

export type TypedArray = AnyTypedArray;

export type Dim = readonly [number] | readonly [number, number] | readonly [number, number, number];

export interface SimLaunch {
  readonly grid: Dim;
  readonly block: Dim;
  /** The lengths of the kernel's dynamic shared arrays (`shared buf: f32[];`), in declaration order. */
  readonly shared?: readonly number[];
}

export interface SimResult {
  /** Wall-clock milliseconds of the run (checks of the arguments included). */
  readonly ms: number;
  /** Threads run: grid size times block size. */
  readonly threads: number;
  /** Loop back-edges taken, all threads together. */
  readonly steps: number;
}

/** Loop iterations per thread (SimOptions.stepsPerThread) where nothing says otherwise. */
export const DEFAULT_STEPS_PER_THREAD = 1e6;
/** The launch-wide budget of 10^9 steps that small launches get by default. */
export const DEFAULT_STEP_BUDGET = DEFAULT_STEPS_PER_THREAD * MIN_BUDGET_THREADS;
/**
 * The most steps a launch takes by default, whatever its size (minutes of simulation): a
 * launch of more threads is refused at once unless stepsPerThread was given.
 */
const DEFAULT_MAX_LAUNCH_STEPS = 1e10;

/** GK_STEPS_PER_THREAD, read where a kernel is compiled for the simulator (every road to it comes here). */
function envStepsPerThread(): number | undefined {
  const v = process.env.GK_STEPS_PER_THREAD?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!(Number.isSafeInteger(n) && n >= 1)) throw new RangeError(`GK_STEPS_PER_THREAD must be a whole number of loop iterations, 1 or more, not '${v}'`);
  return n;
}

/** The steps a launch of `threads` threads may take. */
export function launchBudget(k: Pick<SimKernel, "stepBudget" | "stepsPerThread" | "stepsPerThreadGiven">, threads: number): number {
  const most = k.stepsPerThreadGiven ? Number.MAX_SAFE_INTEGER : DEFAULT_MAX_LAUNCH_STEPS;
  return k.stepBudget ?? Math.min(k.stepsPerThread * Math.max(threads, MIN_BUDGET_THREADS), most);
}

type Launcher = (args: readonly unknown[], gdx: number, gdy: number, gdz: number, bdx: number, bdy: number, bdz: number, budget: number) => unknown;

interface Compiled {
  readonly launch: Launcher;
  /** The constant arrays the kernel reads, in the order the launch gives them. */
  readonly constants: readonly ArrayVar[];
  readonly source: string;
  readonly sites: SiteTable;
  readonly usesBarriers: boolean;
  readonly usesWarpOps: boolean;
  readonly barrierPath: BarrierPath | null;
  readonly barrierPoints: readonly string[];
  /** The race detector its hooks call, in race mode. */
  readonly races: RaceDetector | null;
  /** The tracker of asynchronous copies its code calls, where it starts any. */
  readonly async: AsyncCopies | null;
}

/** A kernel compiled for the simulator. */
export interface SimKernel {
  readonly kernel: Function;
  /** The generated JavaScript (for `gkc` debugging and tests). */
  readonly source: string;
  /** True when the kernel reaches a barrier and runs on the barrier path. */
  readonly usesBarriers: boolean;
  /** True when the kernel reaches a warp operation: it runs on generators. */
  readonly usesWarpOps: boolean;
  /**
   * How the barrier path runs it: as regions (loops over the block's threads from one barrier
   * to the next), or one generator per thread where regions do not cover it or the kernel
   * has warp operations; null without barriers and warp operations (the fast path).
   */
  readonly barrierPath: BarrierPath | null;
  readonly sources: SourceMap | undefined;
  /** SimOptions.stepBudget, where given: the budget of every launch. */
  readonly stepBudget: number | undefined;
  /** Loop iterations per thread (SimOptions.stepsPerThread, GK_STEPS_PER_THREAD, or the default). */
  readonly stepsPerThread: number;
  /** Whether stepsPerThread was given (the default is capped: DEFAULT_MAX_LAUNCH_STEPS). */
  readonly stepsPerThreadGiven: boolean;
  /** The limits its launches are checked against (SimOptions.limits). */
  readonly limits: Limits;
  /** @internal */
  readonly compiled: Compiled;
}

// Compiled code per module and kernel: a memo of a pure function of the (immutable) IR.
const cache = new WeakMap<Module, Map<string, Compiled>>();

export function compileKernel(m: Module, kernel: string, sources?: SourceMap, opts: SimOptions = {}): SimKernel {
  const k = m.kernels.find((f) => f.name === kernel);
  if (!k) {
    const known = m.kernels.map((f) => f.name).join(", ") || "none";
    throw new SimError({ code: "GK8009", severity: "error", message: `no kernel '${kernel}' in ${m.file} (its kernels: ${known})`, notes: [] });
  }
  const checkUninitializedShared = opts.checkUninitializedShared ?? true;
  const barrierPath = opts.barrierPath ?? "regions";
  const checkRaces = opts.checkRaces ?? false;
  const key = `${kernel}\u0000${checkUninitializedShared}\u0000${barrierPath}\u0000${checkRaces}`;
  let perModule = cache.get(m);
  if (!perModule) cache.set(m, (perModule = new Map()));
  let compiled = perModule.get(key);
  if (!compiled) {
    compiled = compile(m, k, checkUninitializedShared, barrierPath, checkRaces, sources);
    perModule.set(key, compiled);
  }
  const stepBudget = opts.stepBudget;
  if (stepBudget !== undefined && !(stepBudget >= 0)) throw new RangeError(`SimOptions.stepBudget must be a number of steps, 0 or more (Infinity for no limit), not ${String(stepBudget)}`);
  const given = opts.stepsPerThread ?? envStepsPerThread();
  const stepsPerThread = given ?? DEFAULT_STEPS_PER_THREAD;
  if (!(stepsPerThread >= 1)) throw new RangeError(`SimOptions.stepsPerThread must be a number of steps, 1 or more (Infinity for no limit), not ${String(stepsPerThread)}`);
  const { source, usesBarriers, usesWarpOps } = compiled;
  const limits = opts.limits ?? CUDA_TARGET.limits;
  return { kernel: k, source, usesBarriers, usesWarpOps, barrierPath: compiled.barrierPath, sources, stepBudget, stepsPerThread, stepsPerThreadGiven: given !== undefined, limits, compiled };
}

function compile(m: Module, k: Function, checkUninitializedShared: boolean, barrierPath: BarrierPath, checkRaces: boolean, sources: SourceMap | undefined): Compiled {
  const runtime: Runtime = makeRuntime((site) => faultHandlers.divisionByZero(site));
  try {
    const gen = generateKernel(m, k.name, { checkUninitializedShared, flushToZero: m.flushToZero ?? false, checkRaces }, barrierPath);
    const races = checkRaces ? new RaceDetector() : null;
    const async = gen.analysis.asyncCopies ? new AsyncCopies() : null;
    const make = new globalThis.Function("$", "$sim", "$race", "$async", gen.source) as ($: Runtime, $sim: FaultHandlers, $race: RaceDetector | null, $async: AsyncCopies | null) => Launcher;
    const { sites, usesBarriers, usesWarpOps, barrierPoints } = gen;
    const constants = gen.analysis.constants;
    return { launch: make(runtime, faultHandlers, races, async), constants, source: gen.source, sites, usesBarriers, usesWarpOps, barrierPath: gen.barrierPath, barrierPoints, races, async };
  } catch (e) {
    // The IR comes from the checker, so code that cannot be generated is a bug in gk.
    throw internalSimError({ kernel: k, sites: new SiteTable(), sources, stepBudget: 0 }, e);
  }
}

/**
 * Runs one launch; arrays in `args` are updated in place. `constants`: the contents of the
 * constant arrays the kernel reads, in the order `constantsRead` gives them. Throws SimError.
 */
export function runKernel(k: SimKernel, launch: SimLaunch, args: readonly SimArg[], constants: readonly TypedArray[] = []): SimResult {
  const t0 = performance.now();
  const grid = launchShape(k.kernel, "grid", launch.grid, k.limits, k.sources);
  const block = launchShape(k.kernel, "block", launch.block, k.limits, k.sources);
  const lengths = sharedLengths(k.kernel, launch.shared ?? [], k.limits, k.sources);
  const checked = checkArgs(k.kernel, args, k.sources);
  const values = [...checked.values, ...checkConstants(k.kernel, k.compiled.constants, constants, k.sources), ...lengths];
  const finish = checked.finish;
  const total = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
  const budget = launchBudget(k, total);
  const ctx: FaultContext = { kernel: k.kernel, sites: k.compiled.sites, sources: k.sources, stepBudget: budget, ...(k.stepBudget === undefined ? { perThread: k.stepsPerThread, threads: total } : {}) };
  // Every thread takes at least a step: a launch of more threads than the budget cannot finish within it.
  if (total > budget) {
    const message = `this launch runs ${total.toLocaleString("en-US")} threads, more than the simulator's step budget of ${budget.toLocaleString("en-US")} (every thread counts as a step): run it on a GPU, use a smaller grid, or raise ${k.stepBudget === undefined ? "the steps per thread (gkc run --steps-per-thread N, GK_STEPS_PER_THREAD, SimOptions.stepsPerThread)" : "SimOptions.stepBudget"}`;
    throw new SimError(error("GK8004", k.kernel.span, `${message} (kernel '${k.kernel.name}')`, []), k.sources);
  }
  let steps: number;
  // A long launch shows its blocks done on the status line, where the program set one (src/progress.ts).
  const blocks = grid[0] * grid[1] * grid[2];
  let done = 0;
  const task = startTask(() => `simulating ${k.kernel.name}: block ${done.toLocaleString("en-US")} of ${blocks.toLocaleString("en-US")} (${Math.floor((100 * done) / blocks)}%)`);
  setBlockHook(() => {
    done++;
    task.tick();
  });
  try {
    const races = k.compiled.races;
    races?.start(ctx, grid, block);
    const async = k.compiled.async;
    async?.start(ctx, block, races);
    const r = k.compiled.launch(values, grid[0], grid[1], grid[2], block[0], block[1], block[2], budget);
    if (k.compiled.barrierPath === "generators") steps = runBlocks(r as BlockRunner, grid, block, ctx, races, async);
    else steps = r as number;
  } catch (e) {
    if (e instanceof SimError) throw e;
    if (e instanceof LocatedFault) throw explainFault(ctx, e);
    if (e instanceof BarrierDivergence) throw divergenceError(ctx, e, block, k.compiled.barrierPoints);
    throw internalSimError(ctx, e);
  } finally {
    setBlockHook(undefined);
    task.end();
    // What the kernel wrote to copies of the caller's arrays goes back, even when it failed midway.
    finish();
  }
  invariant(typeof steps === "number", "the generated launch returned no step count");
  return { ms: performance.now() - t0, threads: total, steps };
}

/** The region path's divergence as the generator scheduler reports it (GK8002). */
function divergenceError(ctx: FaultContext, d: BarrierDivergence, block: Dim3, points: readonly string[]): SimError {
  const thread = (i: number): Dim3 => [i % block[0], Math.floor(i / block[0]) % block[1], Math.floor(i / (block[0] * block[1]))];
  // Barrier point 0 is the kernel's start, where no thread waits; an identity "" reads as an unknown barrier (GK9001).
  const point = (p: number): string => (p > 0 ? (points[p] ?? "") : "");
  if (d.firstAt < 0) return endedAtBarrier(ctx, d.block, thread(d.first), thread(d.second), point(d.secondAt));
  return differentBarriers(ctx, d.block, thread(d.first), point(d.firstAt), thread(d.second), point(d.secondAt));
}

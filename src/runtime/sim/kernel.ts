/**
 * Compiling a kernel to JavaScript (once per module, kernel and options) and running one
 * launch of it: check the shape and arguments, run the fast path or the barrier path, and
 * turn whatever went wrong into a SimError that names the `.gk` line, kernel, thread and block.
 */
import type { SourceMap } from "../../diagnostics/source.js";
import { makeRuntime, type Runtime } from "../../ir/evalOp.js";
import type { Function, Module } from "../../ir/nodes.js";
import type { AnyTypedArray } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { checkArgs, launchShape } from "./args.js";
import { generateKernel } from "./emitKernel.js";
import { explainFault, faultHandlers, internalSimError, LocatedFault, SimError, type FaultContext, type FaultHandlers } from "./errors.js";
import { runBlocks, type BlockRunner } from "./scheduler.js";
import { SiteTable } from "./sites.js";

export interface SimOptions {
  /** Loop iterations (back-edges) one launch may take before GK8004; default 10^9. */
  readonly stepBudget?: number;
  /** Report reads of shared memory no thread of the block has written (GK8013); default true. */
  readonly checkUninitializedShared?: boolean;
}

export type TypedArray = AnyTypedArray;
/** A kernel argument, in parameter order: arrays are modified in place. */
export type SimArg = number | bigint | boolean | TypedArray;

export type Dim = readonly [number] | readonly [number, number] | readonly [number, number, number];

export interface SimLaunch {
  readonly grid: Dim;
  readonly block: Dim;
}

export interface SimResult {
  /** Wall-clock milliseconds of the run (checks of the arguments included). */
  readonly ms: number;
  /** Threads run: grid size times block size. */
  readonly threads: number;
  /** Loop back-edges taken, all threads together. */
  readonly steps: number;
}

export const DEFAULT_STEP_BUDGET = 1e9;

type Launcher = (args: readonly unknown[], gdx: number, gdy: number, gdz: number, bdx: number, bdy: number, bdz: number, budget: number) => unknown;

interface Compiled {
  readonly launch: Launcher;
  readonly source: string;
  readonly sites: SiteTable;
  readonly usesBarriers: boolean;
}

/** A kernel compiled for the simulator. */
export interface SimKernel {
  readonly kernel: Function;
  /** The generated JavaScript (for `gkc` debugging and tests). */
  readonly source: string;
  /** True when the kernel reaches a barrier and runs on the barrier path (one generator per thread). */
  readonly usesBarriers: boolean;
  readonly sources: SourceMap | undefined;
  readonly stepBudget: number;
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
  const key = `${kernel}\u0000${checkUninitializedShared}`;
  let perModule = cache.get(m);
  if (!perModule) cache.set(m, (perModule = new Map()));
  let compiled = perModule.get(key);
  if (!compiled) {
    compiled = compile(m, k, checkUninitializedShared, sources);
    perModule.set(key, compiled);
  }
  const stepBudget = opts.stepBudget ?? DEFAULT_STEP_BUDGET;
  if (!(stepBudget >= 0)) throw new RangeError(`SimOptions.stepBudget must be a number of steps, 0 or more (Infinity for no limit), not ${String(stepBudget)}`);
  return { kernel: k, source: compiled.source, usesBarriers: compiled.usesBarriers, sources, stepBudget, compiled };
}

function compile(m: Module, k: Function, checkUninitializedShared: boolean, sources: SourceMap | undefined): Compiled {
  const runtime: Runtime = makeRuntime((site) => faultHandlers.divisionByZero(site));
  try {
    const gen = generateKernel(m, k.name, { checkUninitializedShared });
    const make = new globalThis.Function("$", "$sim", gen.source) as ($: Runtime, $sim: FaultHandlers) => Launcher;
    return { launch: make(runtime, faultHandlers), source: gen.source, sites: gen.sites, usesBarriers: gen.usesBarriers };
  } catch (e) {
    // The IR comes from the checker, so code that cannot be generated is a bug in gk.
    throw internalSimError({ kernel: k, sites: new SiteTable(), sources, stepBudget: 0 }, e);
  }
}

/** Runs one launch; arrays in `args` are updated in place. Throws SimError. */
export function runKernel(k: SimKernel, launch: SimLaunch, args: readonly SimArg[]): SimResult {
  const t0 = performance.now();
  const grid = launchShape(k.kernel, "grid", launch.grid, k.sources);
  const block = launchShape(k.kernel, "block", launch.block, k.sources);
  const values = checkArgs(k.kernel, args, k.sources);
  const ctx: FaultContext = { kernel: k.kernel, sites: k.compiled.sites, sources: k.sources, stepBudget: k.stepBudget };
  let steps: number;
  try {
    const r = k.compiled.launch(values, grid[0], grid[1], grid[2], block[0], block[1], block[2], k.stepBudget);
    if (k.compiled.usesBarriers) steps = runBlocks(r as BlockRunner, grid, block, ctx);
    else steps = r as number;
  } catch (e) {
    if (e instanceof SimError) throw e;
    if (e instanceof LocatedFault) throw explainFault(ctx, e);
    throw internalSimError(ctx, e);
  }
  invariant(typeof steps === "number", "the generated launch returned no step count");
  const threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
  return { ms: performance.now() - t0, threads, steps };
}

/**
 * The generator path's scheduler. Each thread of a block is a generator that yields where it
 * must wait for others: at a barrier, the barrier's identity (the call-site path to it, see
 * src/codegen/js/emitStmt.ts), and at a warp operation, a `WarpStop` (src/codegen/js/emitExpr.ts). Blocks run one after
 * another. Within a block the warps run in order (a warp is 32 consecutive threads, x
 * fastest), and within a warp the threads run one at a time in order, each until its next
 * stop or its end:
 *
 *   - when every thread of the warp waits at the same warp operation, the operation
 *     completes (warps.ts: its results, or GK8014 when the threads diverged, GK8015 for a
 *     shuffle from a lane that does not exist) and the threads go on, in order again;
 *   - when every thread of the warp has ended or waits at a barrier, the next warp runs.
 *
 * Once every warp is done, all threads wait at the same barrier and pass it (the round starts
 * again with the first warp), or all have ended. Anything else is barrier divergence (GK8002):
 *
 *   - two threads at different barriers (reported as soon as the second one arrives), or
 *   - a thread that ended while others wait at a barrier.
 *
 * Without warp operations this is the order of the region path: threads one at a time, each
 * until it reaches a barrier or ends (CUDA's meaning: no thread passes a barrier until every
 * thread of the block has arrived at it).
 *
 * In race mode the scheduler tells the race detector (races.ts) when a block starts, which
 * thread runs, and when a barrier passes (warps.ts: when a syncWarp() completes); it tells a
 * kernel's tracker of asynchronous copies (asyncCopies.ts) the same, and when a block ends.
 */
import type { RelatedNote } from "../../diagnostics/diagnostic.js";
import { dim3, explainFault, faultHandlers, internalSimError, LocatedFault, SimError, simError, stopPlace, type FaultContext } from "./errors.js";
import type { Dim3 } from "../../ir/limits.js";
import type { RaceDetector } from "./races.js";
import type { AsyncCopies } from "./asyncCopies.js";
import { completeWarpOp, WARP_SIZE, type BlockState, type Stop } from "./warps.js";

export type { Stop, WarpStop } from "./warps.js";
import type { WarpResult } from "./warps.js";

export interface BlockRunner {
  begin(bx: number, by: number, bz: number): void;
  /** A thread: it yields where it waits, and is resumed with the result of the warp operation it waited at. */
  thread(tx: number, ty: number, tz: number): Generator<Stop, void, WarpResult | undefined>;
  steps(): number;
}

/** Runs every block of the grid; returns the steps taken. Throws SimError. */
export function runBlocks(runner: BlockRunner, grid: Dim3, block: Dim3, ctx: FaultContext, races: RaceDetector | null = null, async: AsyncCopies | null = null): number {
  const n = block[0] * block[1] * block[2];
  const threads: Generator<Stop, void, WarpResult | undefined>[] = new Array(n);
  const coords: Dim3[] = [];
  for (let z = 0; z < block[2]; z++) for (let y = 0; y < block[1]; y++) for (let x = 0; x < block[0]; x++) coords.push([x, y, z]);
  const state: BlockState = { ctx, coords, block: [0, 0, 0], ended: new Uint8Array(n), stops: new Array(n), results: new Array(n), races, async };

  for (let bz = 0; bz < grid[2]; bz++) {
    for (let by = 0; by < grid[1]; by++) {
      for (let bx = 0; bx < grid[0]; bx++) {
        runner.begin(bx, by, bz);
        races?.beginBlock(bx, by, bz);
        async?.beginBlock(bx, by, bz);
        for (let i = 0; i < n; i++) {
          const [x, y, z] = coords[i]!;
          threads[i] = runner.thread(x, y, z);
        }
        state.block = [bx, by, bz];
        state.ended.fill(0);
        state.stops.fill(undefined);
        state.results.fill(undefined);
        runBlock(threads, state);
        async?.endBlock();
        faultHandlers.block();
      }
    }
  }
  return runner.steps();
}

function runBlock(threads: Generator<Stop, void, WarpResult | undefined>[], s: BlockState): void {
  const { ctx, coords, block, ended, stops, results, races, async } = s;
  const n = threads.length;
  for (;;) {
    let barrier: string | undefined;
    let waiter = -1;
    for (let lo = 0; lo < n; lo += WARP_SIZE) {
      const hi = Math.min(n, lo + WARP_SIZE);
      for (;;) {
        let first = -1; // the warp's first thread that waits at a warp operation
        for (let i = lo; i < hi; i++) {
          if (ended[i]) continue;
          let r: IteratorResult<Stop, void>;
          races?.thread(i);
          async?.thread(i);
          try {
            r = threads[i]!.next(results[i]);
          } catch (e) {
            throw located(ctx, e, coords[i]!, block);
          }
          results[i] = undefined;
          if (r.done) {
            ended[i] = 1;
            stops[i] = undefined;
            continue;
          }
          const stop = r.value;
          stops[i] = stop;
          if (typeof stop !== "string") {
            if (first < 0) first = i;
          } else if (barrier === undefined) {
            barrier = stop;
            waiter = i;
          } else if (stop !== barrier) {
            throw differentBarriers(ctx, block, coords[waiter]!, barrier, coords[i]!, stop);
          }
        }
        if (first < 0) break; // every thread of the warp ended or waits at a barrier
        completeWarpOp(s, lo, hi, first);
      }
    }
    if (barrier === undefined) return; // every thread ended
    const firstEnded = ended.indexOf(1);
    if (firstEnded >= 0) throw endedAtBarrier(ctx, block, coords[firstEnded]!, coords[waiter]!, barrier);
    races?.barrier();
    async?.barrier();
  }
}

function located(ctx: FaultContext, e: unknown, thread: Dim3, block: Dim3): SimError {
  if (e instanceof SimError) return e; // the race detector's GK8040, already explained
  return explainFault(ctx, e instanceof LocatedFault ? e : new LocatedFault(e, thread, block));
}

export function differentBarriers(ctx: FaultContext, block: Dim3, t1: Dim3, b1: string, t2: Dim3, b2: string): SimError {
  const p1 = stopPlace(ctx, b1);
  const p2 = stopPlace(ctx, b2);
  if (!p1.span || !p2.span) return internalSimError(ctx, new Error(`unknown barrier ${b1} or ${b2}`), t1, block);
  const notes: RelatedNote[] = [
    { message: `thread ${dim3(t2)} waits at this barrier`, span: p2.span },
    { message: `in kernel '${ctx.kernel.name}': every thread of a block must reach the same barriers, in the same order`, span: ctx.kernel.span },
  ];
  return simError(
    "GK8002",
    p1.span,
    `threads of block ${dim3(block)} reached different barriers: thread ${dim3(t1)} at ${p1.text}, thread ${dim3(t2)} at ${p2.text} (kernel '${ctx.kernel.name}')`,
    notes,
    ctx.sources,
  );
}

export function endedAtBarrier(ctx: FaultContext, block: Dim3, ended: Dim3, waiter: Dim3, barrier: string): SimError {
  const p = stopPlace(ctx, barrier);
  if (!p.span) return internalSimError(ctx, new Error(`unknown barrier ${barrier}`), waiter, block);
  return simError(
    "GK8002",
    p.span,
    `thread ${dim3(ended)} of block ${dim3(block)} exited while thread ${dim3(waiter)} waits at the barrier at ${p.text}: every thread of a block must reach each barrier (kernel '${ctx.kernel.name}')`,
    [{ message: `in kernel '${ctx.kernel.name}': a thread that returns early skips the barriers after its return`, span: ctx.kernel.span }],
    ctx.sources,
  );
}

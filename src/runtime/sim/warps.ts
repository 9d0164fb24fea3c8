/**
 * Warp operations on the generator path. A warp is 32 consecutive threads of a block in
 * linear order (x fastest); the last one has fewer when the block's size is not a multiple of
 * 32. The scheduler (scheduler.ts) runs a warp's threads until each has ended or stopped;
 * when one of them waits at a warp operation, `completeWarpOp` checks that every thread of
 * the warp waits at that same operation (GK8014 otherwise), applies the builtin table's rule
 * (src/ir/warpBuiltins.ts) to the operands they yielded, and leaves each thread's result for
 * the scheduler to resume it with. A shuffle that reads a lane the warp does not have is an
 * error (GK8015), and so is a tensor-core operation in a warp of fewer than 32 threads (GK8020).
 */
import type { RelatedNote } from "../../diagnostics/diagnostic.js";
import { warpBuiltin } from "../../ir/builtins.js";
import type { ScalarValue } from "../../ir/types.js";
import { dim3, internalSimError, lineOf, simError, stopPlace, type FaultContext, type SimError } from "./errors.js";
import type { Dim3 } from "../../ir/limits.js";
import type { RaceDetector } from "./races.js";
import type { AsyncCopies } from "./asyncCopies.js";

export const WARP_SIZE = 32;

/** What a thread yields at a warp operation: its identity (as a barrier's, see src/codegen/js/emitExpr.ts), its site, and its operands. */
export interface WarpStop {
  readonly at: string;
  readonly site: number;
  /** The value (shuffles) or the predicate (votes); a tensor-core operation's fragments [a, b, c]. */
  readonly a: ScalarValue | readonly (readonly ScalarValue[])[];
  /** A shuffle's lane operand (an i32). */
  readonly b: number;
}

/** What a warp operation gives a thread: a scalar, or a tensor-core operation's vector (its lanes). */
export type WarpResult = ScalarValue | ScalarValue[];

/** Where a thread waits: at a barrier (its identity) or at a warp operation. */
export type Stop = string | WarpStop;

/** One block's threads, by their linear index in the block. */
export interface BlockState {
  readonly ctx: FaultContext;
  readonly coords: readonly Dim3[];
  block: Dim3;
  readonly ended: Uint8Array;
  /** Where each thread waits (undefined: it ended, or has not run yet). */
  readonly stops: (Stop | undefined)[];
  /** What each thread is resumed with: the result of the warp operation it waited at (a vector's lanes for a tensor-core operation). */
  readonly results: (WarpResult | undefined)[];
  /** The race detector, in race mode: a completed syncWarp() orders the warp's accesses. */
  readonly races: RaceDetector | null;
  /** The asynchronous copies' tracker, for a kernel that starts copies: a completed syncWarp() publishes the warp's completed copies to it. */
  readonly async: AsyncCopies | null;
}

/**
 * Completes the warp operation at which thread `first` waits, for the warp of threads
 * `lo` to `hi - 1`: every one of them must wait there too. Sets their results.
 */
export function completeWarpOp(s: BlockState, lo: number, hi: number, first: number): void {
  const op = s.stops[first] as WarpStop;
  for (let i = lo; i < hi; i++) {
    const stop = s.stops[i];
    if (s.ended[i] || typeof stop === "string" || stop!.at !== op.at) throw warpDivergence(s, lo, first, i);
  }
  const site = s.ctx.sites.get(op.site);
  if (site?.kind !== "warp") throw internalSimError(s.ctx, new Error(`unknown warp operation ${op.at}`), s.coords[first], s.block);
  const rule = warpBuiltin(site.op).js;
  const size = hi - lo;
  const at = (k: number) => s.stops[lo + k] as WarpStop;
  switch (rule.kind) {
    case "shuffle":
      for (let k = 0; k < size; k++) {
        const src = rule.source(k, at(k).b, size);
        if (src >= size) throw missingLane(s, lo, hi, lo + k, src);
        s.results[lo + k] = at(src).a as ScalarValue;
      }
      return;
    case "vote": {
      const value = rule.combine(Array.from({ length: size }, (_, k) => at(k).a === true));
      for (let k = 0; k < size; k++) s.results[lo + k] = value;
      return;
    }
    case "match": {
      const values = Array.from({ length: size }, (_, k) => at(k).a as ScalarValue);
      for (let k = 0; k < size; k++) s.results[lo + k] = rule.result(values, k);
      return;
    }
    case "sync":
      s.races?.syncWarp(lo / WARP_SIZE);
      s.async?.syncWarp(lo / WARP_SIZE);
      return;
    case "mma":
    case "ldmatrix": {
      if (size !== WARP_SIZE) throw partialWarp(s, lo, hi, first);
      const d = rule.compute(Array.from({ length: size }, (_, k) => at(k).a as readonly (readonly ScalarValue[])[]));
      for (let k = 0; k < size; k++) s.results[lo + k] = d[k];
      return;
    }
    default:
      throw internalSimError(s.ctx, new Error(`warp rule ${(rule as { kind: string }).kind}`), s.coords[first], s.block);
  }
}

/** "lane 3 (thread (3,0,0))". */
function laneOf(s: BlockState, lo: number, i: number): string {
  return `lane ${i - lo} (thread ${dim3(s.coords[i]!)})`;
}

/** "shflDown() at line 5" (via the calls that led to it), and its span. */
function warpOpPlace(s: BlockState, stop: WarpStop): { span: RelatedNote["span"]; text: string } {
  const site = s.ctx.sites.get(stop.site);
  const p = stopPlace(s.ctx, stop.at);
  return { span: p.span, text: `${site?.kind === "warp" ? site.op : "a warp operation"}() at ${p.text}` };
}

/** GK8014: thread `other` of the warp did not reach the warp operation where thread `first` waits. */
function warpDivergence(s: BlockState, lo: number, first: number, other: number): SimError {
  const { ctx } = s;
  const p = warpOpPlace(s, s.stops[first] as WarpStop);
  if (!p.span) return internalSimError(ctx, new Error(`unknown warp operation ${(s.stops[first] as WarpStop).at}`), s.coords[first], s.block);
  const stop = s.stops[other];
  let there: { span: RelatedNote["span"]; text: string } | undefined;
  if (typeof stop === "string") {
    const b = stopPlace(ctx, stop);
    there = { span: b.span, text: `barrier() at ${b.text}` };
  } else if (stop && !s.ended[other]) {
    there = warpOpPlace(s, stop);
  }
  const notes: RelatedNote[] = [];
  if (there?.span) notes.push({ message: `${laneOf(s, lo, other)} waits here`, span: there.span });
  notes.push({
    message: `in kernel '${ctx.kernel.name}': every thread of a warp (32 consecutive threads of a block) must reach the same warp operations, in the same order`,
    span: ctx.kernel.span,
  });
  const what = there ? `waits at ${there.text}` : "ended without reaching it";
  return simError(
    "GK8014",
    p.span,
    `threads of warp ${lo / WARP_SIZE} of block ${dim3(s.block)} diverged: ${laneOf(s, lo, first)} waits at ${p.text}, but ${laneOf(s, lo, other)} ${what} (kernel '${ctx.kernel.name}')`,
    notes,
    ctx.sources,
  );
}

/** GK8015: thread `i` shuffles from lane `src`, which its (partial) warp does not have. */
function missingLane(s: BlockState, lo: number, hi: number, i: number, src: number): SimError {
  const { ctx } = s;
  const stop = s.stops[i] as WarpStop;
  const site = ctx.sites.get(stop.site);
  const span = site?.span;
  const threads = s.coords.length;
  const warp = lo / WARP_SIZE;
  return simError(
    "GK8015",
    span,
    `${site?.kind === "warp" ? site.op : "a shuffle"}() in ${laneOf(s, lo, i)} of warp ${warp} of block ${dim3(s.block)} reads lane ${src}, which does not exist: the block has ${threads} threads, so warp ${warp} has lanes 0 to ${hi - lo - 1} (kernel '${ctx.kernel.name}')`,
    [{ message: `in kernel '${ctx.kernel.name}', at ${span ? lineOf(ctx, span) : "?"}: the last warp of a block whose size is not a multiple of 32 has fewer than 32 lanes`, span: ctx.kernel.span }],
    ctx.sources,
  );
}

/** GK8020: a tensor-core operation in the last warp of a block whose size is not a multiple of 32. */
function partialWarp(s: BlockState, lo: number, hi: number, first: number): SimError {
  const { ctx } = s;
  const p = warpOpPlace(s, s.stops[first] as WarpStop);
  const warp = lo / WARP_SIZE;
  return simError(
    "GK8020",
    p.span,
    `${p.text.replace(/\(\) at .*/, "()")} needs a whole warp of 32 threads, but warp ${warp} of block ${dim3(s.block)} has ${hi - lo} (the block has ${s.coords.length} threads; kernel '${ctx.kernel.name}')`,
    [{ message: `in kernel '${ctx.kernel.name}': make the block's size a multiple of 32`, span: ctx.kernel.span }],
    ctx.sources,
  );
}

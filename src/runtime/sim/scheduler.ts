/**
 * The barrier path's scheduler. Each thread of a block is a generator that yields at each
 * barrier the barrier's identity (the call-site path to it, see emitStmt.ts). Blocks run one
 * after another; within a block, threads run round-robin, each until its next barrier or its
 * end (CUDA's meaning: no thread passes a barrier until every thread of the block has
 * arrived at it). After each round every thread must be at the same barrier, or all must
 * have ended; anything else is barrier divergence (GK8002):
 *   - two threads at different barriers, or
 *   - a thread that ended while others wait at a barrier.
 */
import type { RelatedNote } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../diagnostics/source.js";
import { dim3, explainFault, internalSimError, LocatedFault, lineOf, simError, type Dim3, type FaultContext, type SimError } from "./errors.js";

export interface BlockRunner {
  begin(bx: number, by: number, bz: number): void;
  thread(tx: number, ty: number, tz: number): Generator<string, void, void>;
  steps(): number;
}

/** Runs every block of the grid; returns the steps taken. Throws SimError. */
export function runBlocks(runner: BlockRunner, grid: Dim3, block: Dim3, ctx: FaultContext): number {
  const n = block[0] * block[1] * block[2];
  const threads: Generator<string, void, void>[] = new Array(n);
  const ended = new Uint8Array(n);
  const coords: Dim3[] = [];
  for (let z = 0; z < block[2]; z++) for (let y = 0; y < block[1]; y++) for (let x = 0; x < block[0]; x++) coords.push([x, y, z]);

  for (let bz = 0; bz < grid[2]; bz++) {
    for (let by = 0; by < grid[1]; by++) {
      for (let bx = 0; bx < grid[0]; bx++) {
        const b: Dim3 = [bx, by, bz];
        runner.begin(bx, by, bz);
        for (let i = 0; i < n; i++) {
          const [x, y, z] = coords[i]!;
          threads[i] = runner.thread(x, y, z);
        }
        ended.fill(0);
        runBlock(threads, ended, coords, b, ctx);
      }
    }
  }
  return runner.steps();
}

function runBlock(threads: Generator<string, void, void>[], ended: Uint8Array, coords: readonly Dim3[], block: Dim3, ctx: FaultContext): void {
  const n = threads.length;
  for (;;) {
    let barrier: string | undefined;
    let waiter = -1;
    let firstEnded = -1;
    for (let i = 0; i < n; i++) {
      if (ended[i]) {
        if (firstEnded < 0) firstEnded = i;
        continue;
      }
      let r: IteratorResult<string, void>;
      try {
        r = threads[i]!.next();
      } catch (e) {
        throw located(ctx, e, coords[i]!, block);
      }
      if (r.done) {
        ended[i] = 1;
        if (firstEnded < 0) firstEnded = i;
      } else if (barrier === undefined) {
        barrier = r.value;
        waiter = i;
      } else if (r.value !== barrier) {
        throw differentBarriers(ctx, block, coords[waiter]!, barrier, coords[i]!, r.value);
      }
    }
    if (barrier === undefined) return; // every thread ended
    if (firstEnded >= 0) throw endedAtBarrier(ctx, block, coords[firstEnded]!, coords[waiter]!, barrier);
  }
}

function located(ctx: FaultContext, e: unknown, thread: Dim3, block: Dim3): SimError {
  return explainFault(ctx, e instanceof LocatedFault ? e : new LocatedFault(e, thread, block));
}

/** A barrier's span, and the calls that led to it, from its identity "c4.c9.b12". */
function barrierPlace(ctx: FaultContext, id: string): { span: Span | undefined; text: string } {
  const steps = id.split(".").map((p) => ({ kind: p[0], site: ctx.sites.get(Number(p.slice(1))) }));
  const last = steps[steps.length - 1];
  const span = last?.kind === "b" ? last.site?.span : undefined;
  if (!span) return { span: undefined, text: `an unknown barrier (${id})` };
  const via = steps.slice(0, -1).map((s) => (s.site ? ` via the call of ${s.site.kind === "call" ? s.site.callee : "?"} at ${lineOf(ctx, s.site.span)}` : ""));
  return { span, text: `${lineOf(ctx, span)}${via.reverse().join("")}` };
}

export function differentBarriers(ctx: FaultContext, block: Dim3, t1: Dim3, b1: string, t2: Dim3, b2: string): SimError {
  const p1 = barrierPlace(ctx, b1);
  const p2 = barrierPlace(ctx, b2);
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
  const p = barrierPlace(ctx, barrier);
  if (!p.span) return internalSimError(ctx, new Error(`unknown barrier ${barrier}`), waiter, block);
  return simError(
    "GK8002",
    p.span,
    `thread ${dim3(ended)} of block ${dim3(block)} exited while thread ${dim3(waiter)} waits at the barrier at ${p.text}: every thread of a block must reach each barrier (kernel '${ctx.kernel.name}')`,
    [{ message: `in kernel '${ctx.kernel.name}': a thread that returns early skips the barriers after its return`, span: ctx.kernel.span }],
    ctx.sources,
  );
}

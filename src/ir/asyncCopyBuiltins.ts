/**
 * The asynchronous-copy builtins of the builtin table (src/ir/builtins.ts): PTX `cp.async`
 * (sm_80 and later, the target's `asyncCopies` capability), global → shared copies that a
 * thread starts and waits for later, so that the next tile loads while this one is used.
 *
 * - `cpAsync(dst, di, src, si, bytes)`: copy `bytes` (4, 8 or 16, a constant) from the global
 *   array `src` at element `si` to the shared array `dst` at `di` (`dst` may be partly indexed,
 *   `tile[r]`), through L1 (`cp.async.ca`); `cpAsyncL2(...)` the same, 16 bytes, in L2 only
 *   (`cp.async.cg`). Both arrays hold one scalar type; each index must be a multiple of the
 *   elements a copy moves (the GPU needs the addresses aligned to `bytes`).
 *   A sixth argument `valid` (i32, 0 to the elements a copy moves) reads only that many
 *   elements and zero-fills the rest (PTX's src-size): the tail of a tile.
 * - `cpAsyncCommit()`: this thread's copies since its last commit become one group.
 * - `cpAsyncWait(n)`: waits until at most `n` (a constant) of this thread's groups are still
 *   unfinished (`cp.async.wait_group n`); `cpAsyncWaitAll()` waits for every copy of the thread.
 *
 * Visibility (the simulator checks it, src/runtime/sim/asyncCopies.ts): the destination holds
 * the data only once the issuing thread has waited for the copy's group; other threads see it
 * only after that wait and a barrier() (or syncWarp() within its warp). Reading or writing a
 * destination whose copy is pending, or ending with a copy never waited for, is an error.
 */
import type { AsyncCopyEntry } from "./builtins.js";
import type { AsyncCopyStmt, AsyncGroupStmt } from "./nodes.js";

const AFTER = "The destination holds the data once this thread waits for the copy (cpAsyncCommit, then cpAsyncWait); other threads see it after that wait and a barrier(). sm_80 and later.";

export const asyncCopyEntries: readonly AsyncCopyEntry[] = [
  {
    name: "cpAsync",
    doc: `cpAsync(dst, di, src, si, bytes[, valid]): a statement; starts copying bytes (4, 8 or 16, a constant) from the global array src at element si to the shared array dst at element di, arrays of one scalar type, each index a multiple of the elements copied; with valid (0 to that many), only valid elements are read and the rest are zeros (PTX cp.async.ca, cached in L1 and L2). ${AFTER}`,
    rule: { kind: "asyncCopy", op: "copy" },
    js: "copy",
  },
  {
    name: "cpAsyncL2",
    doc: `cpAsyncL2(dst, di, src, si, 16[, valid]): a statement; cpAsync of 16 bytes cached in L2 only, not L1 (PTX cp.async.cg): for tiles a block reads once. ${AFTER}`,
    rule: { kind: "asyncCopy", op: "copyL2" },
    js: "copy",
  },
  {
    name: "cpAsyncCommit",
    doc: "cpAsyncCommit(): a statement; this thread's asynchronous copies since its last commit become one group (PTX cp.async.commit_group), which cpAsyncWait counts.",
    rule: { kind: "asyncCopy", op: "commit" },
    js: "commit",
  },
  {
    name: "cpAsyncWait",
    doc: "cpAsyncWait(n): a statement; waits until at most n (a constant, 0 or more) of this thread's committed groups of asynchronous copies are unfinished, the most recent ones (PTX cp.async.wait_group n); their destinations then hold the data for this thread.",
    rule: { kind: "asyncCopy", op: "wait" },
    js: "wait",
  },
  {
    name: "cpAsyncWaitAll",
    doc: "cpAsyncWaitAll(): a statement; waits for every asynchronous copy of this thread, committed or not (PTX cp.async.wait_all).",
    rule: { kind: "asyncCopy", op: "waitAll" },
    js: "waitAll",
  },
];

/** The copy sizes cp.async has, in bytes. */
export const ASYNC_COPY_BYTES: readonly number[] = [4, 8, 16];

/** A builtin by name. */
export function asyncCopyEntry(name: string): AsyncCopyEntry {
  const e = asyncCopyEntries.find((x) => x.name === name);
  if (!e) throw new Error(`internal compiler error: no asynchronous-copy builtin ${name}`);
  return e;
}

/** The builtin that writes a copy, by its cache level. */
export function asyncCopyBuiltin(cache: AsyncCopyStmt["cache"]): "cpAsync" | "cpAsyncL2" {
  return cache === "all" ? "cpAsync" : "cpAsyncL2";
}

/** The builtin of a group operation, by its op. */
export function asyncGroupBuiltin(op: AsyncGroupStmt["op"]): "cpAsyncCommit" | "cpAsyncWait" | "cpAsyncWaitAll" {
  return op === "commit" ? "cpAsyncCommit" : op === "wait" ? "cpAsyncWait" : "cpAsyncWaitAll";
}

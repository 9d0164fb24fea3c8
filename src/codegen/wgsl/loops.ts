/**
 * Two shapes the WGSL backend gives code for speed, neither changing a result:
 *
 *   unrolling     WGSL has no unroll pragma, and a local array indexed by a value the shader
 *                 compiler cannot see as a constant lives in memory, not registers (and
 *                 Dawn's robustness clamps each such index). A counted loop with a small
 *                 constant trip count is emitted once per iteration, its counter a `let` of
 *                 that iteration's value, when gk's `@unroll` asks for it (the trip count
 *                 ≤ 64, or ≤ N for `@unroll(N)`) or, as nvcc does unasked, when its body
 *                 indexes a local array with the counter (trip count ≤ 16).
 *   barriers      gk's barrier orders global memory for the block too (spec/language.md,
 *                 Memory model), WGSL's `workgroupBarrier` workgroup memory only: a barrier
 *                 of a kernel needs `storageBarrier` as well only where a global array may be
 *                 written before it, or accessed before it and written after it (else there
 *                 is nothing of global memory to order). A device function's barriers keep
 *                 it (its callers' accesses are not looked at).
 *
 * A counted loop: init `let i = c0`, condition `i < c` (or `<= > >= !=`, either side),
 * step `i = i ± c`, the counter assigned nowhere else, no `break` or `continue` of its own.
 */
import type { ArrayVar, BarrierStmt, Expr, LoopStmt, Stmt, ValueVar } from "../../ir/nodes.js";
import { evalBinary } from "../../ir/evalOp.js";
import { memorySpace, type ScalarType, type ScalarValue } from "../../ir/types.js";
import { someExpr, someIn, visit } from "../../ir/walk.js";

const FULL_LIMIT = 64;
const IMPLICIT_LIMIT = 16;

export interface Unrolled {
  readonly counter: ValueVar;
  readonly values: readonly ScalarValue[];
}

const isVar = (e: Expr, v: ValueVar) => e.kind === "var" && e.var.id === v.id;
const constOf = (e: Expr): ScalarValue | undefined => (e.kind === "const" ? e.value : undefined);

/** The counter and its values per iteration where the loop is to be unrolled (see above); else null. */
export function unrollPlan(s: LoopStmt, isLocal: (a: ArrayVar) => boolean): Unrolled | null {
  if (!s.testFirst || s.init.length !== 1 || s.step.length !== 1 || s.cond === null) return null;
  const init = s.init[0]!;
  if (init.kind !== "let" || init.var.type.kind !== "scalar" || !["i32", "u32"].includes(init.var.type.name)) return null;
  const v = init.var;
  const t = v.type as ScalarType;
  const start = constOf(init.init);
  if (start === undefined || s.cond.kind !== "binary" || !["lt", "le", "gt", "ge", "ne"].includes(s.cond.op)) return null;
  const { op, left, right } = s.cond;
  const bound = isVar(left, v) ? constOf(right) : isVar(right, v) ? constOf(left) : undefined;
  if (bound === undefined) return null;
  const test = (x: ScalarValue) => (isVar(left, v) ? evalBinary(op, t, x, bound) : evalBinary(op, t, bound, x)) === true;
  const step = s.step[0]!;
  if (step.kind !== "assign" || step.var.id !== v.id || step.path.length > 0 || step.value.kind !== "binary") return null;
  const sv = step.value;
  const by = sv.op === "add" ? (isVar(sv.left, v) ? constOf(sv.right) : isVar(sv.right, v) ? constOf(sv.left) : undefined)
    : sv.op === "sub" && isVar(sv.left, v) ? constOf(sv.right) : undefined;
  if (by === undefined || assignsOrJumps(s.body, v)) return null;
  const implicit = s.unroll === undefined;
  if (implicit && !indexesLocal(s.body, v, isLocal)) return null;
  const limit = implicit ? IMPLICIT_LIMIT : s.unroll === "full" ? FULL_LIMIT : Math.min(s.unroll!, FULL_LIMIT);
  const values: ScalarValue[] = [];
  for (let x = start; test(x); x = evalBinary(sv.op, t, x, by)) {
    if (values.length === limit) return null;
    values.push(x);
  }
  return { counter: v, values };
}

/** Whether `body` assigns `v`, or has a `break` or `continue` of the loop it is the body of. */
function assignsOrJumps(body: readonly Stmt[], v: ValueVar): boolean {
  if (someIn(body, { stmt: (s) => s.kind === "assign" && s.var.id === v.id })) return true;
  const jumps = (list: readonly Stmt[]): boolean =>
    list.some((s) => {
      switch (s.kind) {
        case "break":
        case "continue":
          return true;
        case "if":
          return jumps(s.then) || jumps(s.else);
        case "block":
          return jumps(s.body);
        default:
          return false; // an inner loop's break and continue are its own
      }
    });
  return jumps(body);
}

function indexesLocal(body: readonly Stmt[], v: ValueVar, isLocal: (a: ArrayVar) => boolean): boolean {
  const uses = (ix: readonly Expr[]) => ix.some((i) => someExpr(i, (x) => isVar(x, v)));
  return someIn(body, {
    stmt: (s) => s.kind === "store" && isLocal(s.array) && uses(s.indices),
    expr: (e) => e.kind === "load" && isLocal(e.array) && uses(e.indices),
  });
}

/** The global arrays a piece of code may read or write, and those it may write, by id. */
interface Touched {
  readonly any: Set<number>;
  readonly written: Set<number>;
}

/**
 * The barriers of a kernel's body that must order global memory (they keep `storageBarrier`):
 * those that a write to a global array may precede (a later read or write must see it), or
 * that an access to a global array may precede and a write to it follow (the write must not
 * reach the earlier read). Distinct parameters are distinct memory (WebGPU refuses a writable
 * binding that aliases another), so the arrays are told apart by parameter.
 */
export function barriersOrderingGlobal(body: readonly Stmt[]): Set<BarrierStmt> {
  const before = touchedAround(body, false);
  const after = touchedAround(body, true);
  const out = new Set<BarrierStmt>();
  for (const [b, t] of before) {
    const later = after.get(b)!;
    if (t.written.size > 0 || [...t.any].some((id) => later.written.has(id))) out.add(b);
  }
  return out;
}

/** Per barrier, what may run before it (or, `reverse`, after it) of global memory. */
function touchedAround(body: readonly Stmt[], reverse: boolean): Map<BarrierStmt, Touched> {
  const out = new Map<BarrierStmt, Touched>();
  const order = <T>(list: readonly T[]) => (reverse ? [...list].reverse() : list);
  const copy = (t: Touched): Touched => ({ any: new Set(t.any), written: new Set(t.written) });
  const merge = (into: Touched, t: Touched) => {
    t.any.forEach((id) => into.any.add(id));
    t.written.forEach((id) => into.written.add(id));
  };
  const walk = (list: readonly Stmt[], t: Touched): void => {
    for (const s of order(list)) {
      switch (s.kind) {
        case "barrier":
          out.set(s, copy(t));
          break;
        case "if": {
          const cond = touchedBy([], s.cond);
          if (!reverse) merge(t, cond);
          const other = copy(t);
          walk(s.then, t);
          walk(s.else, other);
          merge(t, other);
          if (reverse) merge(t, cond);
          break;
        }
        case "loop":
          // Each iteration follows (and precedes) the others: the whole loop on either side.
          merge(t, touchedBy([s]));
          walk([...s.init, ...s.body, ...s.step], t);
          break;
        case "block":
          walk(s.body, t);
          break;
        default:
          merge(t, touchedBy([s]));
      }
    }
  };
  walk(body, { any: new Set(), written: new Set() });
  return out;
}

/** The global arrays the statements (and the expression) may read or write: loads, stores, atomics, and arrays passed to calls (written, unless the parameter is readonly). */
function touchedBy(list: readonly Stmt[], e?: Expr): Touched {
  const t: Touched = { any: new Set(), written: new Set() };
  const global = (a: ArrayVar) => !["shared", "local", "constant"].includes(memorySpace(a.type));
  const note = (a: ArrayVar, writes: boolean) => {
    if (!global(a)) return;
    t.any.add(a.id);
    if (writes && !(a.type.kind === "global" && a.type.readonly)) t.written.add(a.id);
  };
  const expr = (x: Expr) => {
    if (x.kind === "load") note(x.array, false);
    else if (x.kind === "atomic") note(x.array, true);
    else if (x.kind === "call") for (const a of x.args) if (a.kind === "arrayArg" || a.kind === "viewArg") note(a.array, true);
  };
  if (e) someExpr(e, (x) => (expr(x), false));
  visit(list, { stmt: (s) => s.kind === "store" && note(s.array, true), expr });
  return t;
}

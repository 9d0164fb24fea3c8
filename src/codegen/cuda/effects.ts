/**
 * Evaluation order. gk evaluates operands left to right (the simulator is JavaScript), but
 * C++ leaves the order of a binary operator's operands and of a call's arguments unspecified,
 * and since C++17 it evaluates `a[i] = v` right side first. The order is only observable
 * when one operand writes memory (a call that receives a writable array, a view or a
 * reference, or an atomic) and another reads or writes memory. A local changes inside an
 * expression only through a reference (`f(x)` with an `inout` parameter): such locals, and a
 * function's own reference parameters, count as memory (`refTargets`). For those rare
 * expressions the emitter evaluates the earlier operands into temporaries first (see
 * `operandsToHoist`), so the generated code runs in gk's order.
 */
import type { Expr, Function } from "../../ir/nodes.js";
import { operands, someExpr, visit } from "../../ir/walk.js";

export interface MemoryAccess {
  readonly reads: boolean;
  readonly writes: boolean;
}

const NONE: MemoryAccess = { reads: false, writes: false };

function union(a: MemoryAccess, b: MemoryAccess): MemoryAccess {
  return { reads: a.reads || b.reads, writes: a.writes || b.writes };
}

/** Ids of the variables of `f` that a call may change through a reference: those passed to `inout`/`out` parameters, and `f`'s own reference parameters. */
export function refTargets(f: Function): Set<number> {
  const ids = new Set<number>(f.params.flatMap((p) => (p.kind === "valueVar" && p.ref ? [p.id] : [])));
  visit(f.body, { expr: (e) => e.kind === "call" && e.args.forEach((a) => a.kind === "varRef" && ids.add(a.var.id)) });
  return ids;
}

/** Whether evaluating `e` may read or write memory (arrays, and the variables in `refs`); `functions` by IR name. */
export function memoryAccess(e: Expr, functions: ReadonlyMap<string, Function>, refs: ReadonlySet<number> = new Set()): MemoryAccess {
  return operands(e).reduce((acc, o) => union(acc, memoryAccess(o, functions, refs)), ownAccess(e, functions, refs));
}

/** The memory `e` itself reads or writes, its operands aside. */
function ownAccess(e: Expr, functions: ReadonlyMap<string, Function>, refs: ReadonlySet<number>): MemoryAccess {
  switch (e.kind) {
    case "var":
      return refs.has(e.var.id) ? { reads: true, writes: false } : NONE;
    case "load":
      return { reads: true, writes: false };
    case "atomic":
      return { reads: true, writes: true };
    case "call": {
      const callee = functions.get(e.callee);
      let acc = NONE;
      e.args.forEach((a, i) => {
        const p = callee?.params[i];
        // A device function reaches memory only through the arrays, views and references it is given.
        switch (a.kind) {
          case "arrayArg":
          case "viewArg": {
            const writable = p === undefined || p.kind !== "arrayVar" || !((p.type.kind === "global" || p.type.kind === "view") && p.type.readonly);
            acc = union(acc, { reads: true, writes: writable });
            return;
          }
          case "varRef":
          case "elemRef":
            acc = union(acc, { reads: true, writes: true });
            return;
          default:
            return;
        }
      });
      return acc;
    }
    default: // a warp operation exchanges values between threads, not through memory
      return NONE;
  }
}

/**
 * Operands (in gk's left-to-right order) that C++ would evaluate in an unspecified order:
 * the indices of those that must be evaluated into temporaries first, or none when the order
 * cannot be observed. All operands that touch memory before the last one that does are
 * hoisted; the last stays in place and so is evaluated after them.
 */
export function operandsToHoist(operands: readonly Expr[], functions: ReadonlyMap<string, Function>, refs: ReadonlySet<number> = new Set()): number[] {
  const access = operands.map((o) => memoryAccess(o, functions, refs));
  const touching = access.flatMap((a, i) => (a.reads || a.writes ? [i] : []));
  const writers = access.filter((a) => a.writes).length;
  if (writers === 0 || touching.length < 2) return [];
  return touching.slice(0, -1);
}

/**
 * Whether `e` contains a warp operation. Every thread of a warp takes part in one, so one is
 * evaluated even where its value is known not to matter.
 */
export function hasWarpOperation(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === "warp");
}

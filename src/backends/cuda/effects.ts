/**
 * Evaluation order. gk evaluates operands left to right (the simulator is JavaScript), but
 * C++ leaves the order of a binary operator's operands and of a call's arguments unspecified,
 * and since C++17 it evaluates `a[i] = v` right side first. The order is only observable
 * when one operand writes memory (a call that receives a writable array, or an atomic) and
 * another reads or writes memory; locals cannot change inside an expression. For those rare
 * expressions the emitter evaluates the earlier operands into temporaries first (see
 * `operandsToHoist`), so the generated code runs in gk's order.
 */
import type { Expr, Function } from "../../ir/nodes.js";
import { operands, someExpr } from "../../ir/walk.js";

export interface MemoryAccess {
  readonly reads: boolean;
  readonly writes: boolean;
}

const NONE: MemoryAccess = { reads: false, writes: false };

function union(a: MemoryAccess, b: MemoryAccess): MemoryAccess {
  return { reads: a.reads || b.reads, writes: a.writes || b.writes };
}

/** Whether evaluating `e` may read or write memory (arrays); `functions` by IR name. */
export function memoryAccess(e: Expr, functions: ReadonlyMap<string, Function>): MemoryAccess {
  return operands(e).reduce((acc, o) => union(acc, memoryAccess(o, functions)), ownAccess(e, functions));
}

/** The memory `e` itself reads or writes, its operands aside. */
function ownAccess(e: Expr, functions: ReadonlyMap<string, Function>): MemoryAccess {
  switch (e.kind) {
    case "load":
      return { reads: true, writes: false };
    case "atomic":
      return { reads: true, writes: true };
    case "call": {
      const callee = functions.get(e.callee);
      let acc = NONE;
      e.args.forEach((a, i) => {
        if (a.kind !== "arrayArg") return;
        const p = callee?.params[i];
        // A device function reaches memory only through the arrays it is given.
        const writable = p === undefined || p.type.kind !== "global" || !p.type.readonly;
        acc = union(acc, { reads: true, writes: writable });
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
export function operandsToHoist(operands: readonly Expr[], functions: ReadonlyMap<string, Function>): number[] {
  const access = operands.map((o) => memoryAccess(o, functions));
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

/**
 * What the backend asks of a function body before it writes code: which variables are ever
 * read, whether a loop body continues. Traversal is the IR's one walker (src/ir/walk.ts).
 */
import type { Expr, LoopStmt, Module, Stmt } from "../../ir/nodes.js";
import { mathBuiltin } from "../../ir/builtins.js";
import { sizeOf } from "../../ir/types.js";
import { operands, someExpr, visit, visitExpr } from "../../ir/walk.js";
import { assertNever } from "../../util.js";

/**
 * Ids of the variables and arrays a function body ever reads in the C++ it becomes (array
 * arguments count as reads), leaving out reads in operands the backend drops (`dropped`: a
 * comparison whose result is known, expr.ts), so that nvcc never finds a variable unread.
 */
export function readVariables(body: readonly Stmt[], dropped: (e: Expr) => Expr | undefined = () => undefined): Set<number> {
  const reads = new Map<number, number>();
  const count = (id: number, by: number) => reads.set(id, (reads.get(id) ?? 0) + by);
  const reader = (by: number) => (e: Expr) => {
    if (e.kind === "var") count(e.var.id, by);
    else if (e.kind === "load" || e.kind === "atomic") count(e.array.id, by);
    else if (e.kind === "call") {
      for (const a of e.args) {
        if (a.kind === "arrayArg" || a.kind === "viewArg" || a.kind === "elemRef") count(a.array.id, by);
        else if (a.kind === "varRef") count(a.var.id, by);
      }
    }
  };
  visit(body, {
    expr: (e) => {
      reader(1)(e);
      const gone = dropped(e);
      if (gone) visitExpr(gone, { expr: reader(-1) });
    },
  });
  return new Set([...reads].filter(([, n]) => n > 0).map(([id]) => id));
}

/**
 * Loads in a loop's condition that the backend emits as volatile reads, at the price of one
 * uncached load per iteration of such a loop. ptxas of CUDA 13.0 (sm_90) miscompiles two
 * shapes of loop bound (random kernels of the GPU differential tests; the PTX is right, the
 * SASS is not):
 * - a read from a readonly global array at an index that depends on a variable the loop
 *   assigns: through the read-only data cache (`ld.global.nc`, which nvcc chooses for a
 *   `const T*` it sees no store to) ptxas computes the loop's trip count once, from the wrong
 *   register, and the kernel intermittently hangs on its first launch in a process
 *   (test/gpu/ptxas-loop-bound.test.ts);
 * - a read from a global array that the loop itself writes (a store, an atomic, or a
 *   device function it is passed to): with the write a 1- or 2-byte atomic (a compare-and-swap
 *   loop on the 4-byte word) the bound was read one iteration late, so the loop ran once too
 *   often (seed 1 kernel 5915; differential edge case `atomicbound`).
 */
export function reloadedBounds(body: readonly Stmt[]): Set<Expr> {
  const marked = new Set<Expr>();
  visit(body, {
    stmt: (s) => {
      if (s.kind !== "loop" || !s.cond) return;
      const { assigned, written } = loopChanges(s.body, s.step);
      if (assigned.size === 0 && written.size === 0) return;
      visitExpr(s.cond, {
        expr: (e) => {
          if (e.kind !== "load") return;
          const t = e.array.type;
          if (t.kind === "global" && !t.readonly && written.has(e.array.id)) marked.add(e);
          else if (t.kind === "global" && t.readonly && e.indices.some((i) => someExpr(i, (x) => x.kind === "var" && assigned.has(x.var.id)))) marked.add(e);
        },
      });
    },
  });
  return marked;
}

/** Variables the statements assign (or pass to a reference parameter, which may assign them), arrays they store to, update atomically, or pass on. */
function loopChanges(...parts: (readonly Stmt[])[]): { assigned: Set<number>; written: Set<number> } {
  const assigned = new Set<number>();
  const written = new Set<number>();
  visit(parts.flat(), {
    stmt: (x) => {
      if (x.kind === "assign") assigned.add(x.var.id);
      else if (x.kind === "let") assigned.add(x.var.id);
      else if (x.kind === "store") written.add(x.array.id);
    },
    expr: (x) => {
      if (x.kind === "atomic") written.add(x.array.id);
      else if (x.kind === "call") {
        for (const a of x.args) {
          if (a.kind === "varRef") assigned.add(a.var.id);
          else if (a.kind === "arrayArg" || a.kind === "viewArg" || a.kind === "elemRef") written.add(a.array.id);
        }
      }
    },
  });
  return { assigned, written };
}

/**
 * Parts of a `for` or `while` loop's condition that the backend computes once, before the loop,
 * into a constant: each largest part made only of constants, special registers, variables that
 * neither the loop nor its init changes, pure math builtins and scalar loads of readonly global
 * arrays at such indices, with at least one such load, where the condition computes it at every
 * evaluation (not in the right operand of `&&`/`||` or a branch of `?:`). For a kernel only: no
 * thread writes a kernel's readonly array during the launch (a device function's readonly
 * parameter may be an array its caller writes), so the value is the one every evaluation would compute, and the
 * first evaluation, before any iteration, computes it anyway (no access is added). ptxas of
 * CUDA 13.0 (sm_90) miscompiled such a bound computed in the loop (seed 20261201 kernel 236 of
 * the GPU differential: a bound `abs((26 + a[7]) % 5)` over a loop of streaming stores; the
 * SASS took the trip count from another register, a warp diverged at the next barrier and the
 * kernel hung in 2 of 3 launches; computed once before the loop, 3 of 3 finished).
 */
export function hoistedBounds(s: LoopStmt): Expr[] {
  if (!s.cond) return [];
  const { assigned } = loopChanges(s.init, s.body, s.step);
  const readonlyLoad = (e: Expr): boolean =>
    e.kind === "load" && e.array.type.kind === "global" && e.array.type.readonly && !e.order && e.vector === null && e.type.kind === "scalar" && e.path.length === 0;
  const invariant = (e: Expr): boolean => {
    if (e.kind === "const" || e.kind === "special") return true;
    if (e.kind === "var") return !assigned.has(e.var.id);
    if (e.kind === "unary" || e.kind === "binary" || e.kind === "cast" || readonlyLoad(e)) return operands(e).every(invariant);
    if (e.kind === "builtin") return mathBuiltin(e.name) !== undefined && e.args.every(invariant);
    return false;
  };
  const found: Expr[] = [];
  const walk = (e: Expr): void => {
    if (e.kind === "logical") return walk(e.left);
    if (e.kind === "select") return walk(e.cond);
    if (e.type.kind === "scalar" && invariant(e) && someExpr(e, readonlyLoad)) {
      found.push(e);
      return;
    }
    for (const o of operands(e)) walk(o);
  };
  walk(s.cond);
  return found;
}

/** Whether these statements `continue` the loop they are in (not counting nested loops' own continues). */
export function continuesLoop(stmts: readonly Stmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "continue":
        return true;
      case "if":
        return continuesLoop(s.then) || continuesLoop(s.else);
      case "block":
        return continuesLoop(s.body);
      case "loop": // a nested loop's continue is its own
      case "let":
      case "localArray":
      case "assign":
      case "store":
      case "expr":
      case "break":
      case "return":
      case "barrier":
      case "fence":
      case "asyncCopy":
      case "asyncGroup":
        return false;
      default:
        return assertNever(s, "statement");
    }
  });
}

/**
 * The alignment (bytes) that vector accesses and asynchronous copies (`bytes`, into shared arrays) need of each array of each function: per function
 * (IR name), per array id (parameters included), the widest vector access of it. An array
 * passed to a device function's shared parameter needs what the function's accesses of the
 * parameter need. Functions are visited callees first (the module's order).
 */
export function vectorAlignments(m: Module): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  const byName = new Map(m.functions.map((f) => [f.name, f]));
  for (const f of [...m.functions, ...m.kernels]) {
    const own = new Map<number, number>();
    const need = (id: number, bytes: number) => own.set(id, Math.max(own.get(id) ?? 0, bytes));
    visit(f.body, {
      stmt: (s) => {
        if (s.kind === "store" && s.vector !== null) need(s.array.id, s.vector * sizeOf(s.array.type.elem));
        if (s.kind === "asyncCopy") need(s.dst.id, s.bytes);
      },
      expr: (e) => {
        if (e.kind === "load" && e.vector !== null) need(e.array.id, e.vector * sizeOf(e.array.type.elem));
        if (e.kind !== "call") return;
        const params = byName.get(e.callee)?.params ?? [];
        e.args.forEach((a, i) => {
          const n = a.kind === "arrayArg" ? out.get(e.callee)?.get(params[i]?.id ?? -1) : undefined;
          if (a.kind === "arrayArg" && n) need(a.array.id, n);
        });
      },
    });
    out.set(f.name, own);
  }
  return out;
}

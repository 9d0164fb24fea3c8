/**
 * A fresh copy of a device_fn's body for one inlined call: every parameter and local gets a
 * new id (ids are unique only within a function, and each inlined call needs its own
 * locals), keeping its name, type and span, so messages read as they do for the call.
 */
import type { ArrayVar, CallArg, Expr, ValueVar, Stmt } from "../../../ir/nodes.js";
import { mapExpr, mapStmts } from "../../../ir/walk.js";
import { invariant } from "../../../util.js";

export class Renaming {
  private readonly scalars = new Map<number, ValueVar>();
  private readonly arrays = new Map<number, ArrayVar>();

  constructor(private readonly newId: () => number) {}

  /** A fresh variable for `v`, used wherever the body names `v`. */
  scalar(v: ValueVar, mutable = v.mutable): ValueVar {
    const fresh: ValueVar = { ...v, id: this.newId(), mutable };
    this.scalars.set(v.id, fresh);
    return fresh;
  }

  array(a: ArrayVar): ArrayVar {
    const fresh: ArrayVar = { ...a, id: this.newId() };
    this.arrays.set(a.id, fresh);
    return fresh;
  }

  stmts(list: readonly Stmt[]): Stmt[] {
    return mapStmts(list, { expr: (e) => mapExpr(e, (x) => this.refs(x)), stmt: (st) => this.declOrRef(st) });
  }

  private varOf(v: ValueVar): ValueVar {
    const r = this.scalars.get(v.id);
    invariant(r, `${v.name} used before its declaration in an inlined device_fn`);
    return r;
  }

  private arrayOf(a: ArrayVar): ArrayVar {
    // A module's constant array (a negative id) is the same in every function.
    if (a.id < 0) return a;
    const r = this.arrays.get(a.id);
    invariant(r, `array ${a.name} used before its declaration in an inlined device_fn`);
    return r;
  }

  /** A statement whose expressions are renamed already: its own declaration or reference. */
  private declOrRef(s: Stmt): Stmt {
    switch (s.kind) {
      case "let":
        return { ...s, var: this.scalar(s.var) };
      case "localArray":
        return { ...s, array: this.array(s.array) };
      case "assign":
        return { ...s, var: this.varOf(s.var) };
      case "store":
        return { ...s, array: this.arrayOf(s.array) };
      default:
        return s;
    }
  }

  /** An expression whose operands are renamed already: its own references to variables and arrays. */
  private refs(e: Expr): Expr {
    switch (e.kind) {
      case "var":
        return { ...e, var: this.varOf(e.var) };
      case "load":
      case "atomic":
        return { ...e, array: this.arrayOf(e.array) };
      case "call":
        return { ...e, args: e.args.map((a: CallArg) => (a.kind === "arrayArg" ? { ...a, array: this.arrayOf(a.array) } : a)) };
      default:
        return e;
    }
  }
}

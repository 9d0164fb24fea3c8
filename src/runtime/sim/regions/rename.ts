/**
 * A fresh copy of a device_fn's body for one inlined call: every parameter and local gets a
 * new id (ids are unique only within a function, and each inlined call needs its own
 * locals), keeping its name, type and span, so messages read as they do for the call.
 */
import type { ArrayVar, CallArg, Expr, ScalarVar, Stmt } from "../../../ir/nodes.js";
import { assertNever, invariant } from "../../../util.js";

export class Renaming {
  private readonly scalars = new Map<number, ScalarVar>();
  private readonly arrays = new Map<number, ArrayVar>();

  constructor(private readonly newId: () => number) {}

  /** A fresh variable for `v`, used wherever the body names `v`. */
  scalar(v: ScalarVar, mutable = v.mutable): ScalarVar {
    const fresh: ScalarVar = { ...v, id: this.newId(), mutable };
    this.scalars.set(v.id, fresh);
    return fresh;
  }

  array(a: ArrayVar): ArrayVar {
    const fresh: ArrayVar = { ...a, id: this.newId() };
    this.arrays.set(a.id, fresh);
    return fresh;
  }

  stmts(list: readonly Stmt[]): Stmt[] {
    return list.map((s) => this.stmt(s));
  }

  private varOf(v: ScalarVar): ScalarVar {
    const r = this.scalars.get(v.id);
    invariant(r, `${v.name} used before its declaration in an inlined device_fn`);
    return r;
  }

  private arrayOf(a: ArrayVar): ArrayVar {
    const r = this.arrays.get(a.id);
    invariant(r, `array ${a.name} used before its declaration in an inlined device_fn`);
    return r;
  }

  private stmt(s: Stmt): Stmt {
    switch (s.kind) {
      case "let": {
        const init = this.expr(s.init);
        return { ...s, init, var: this.scalar(s.var) };
      }
      case "localArray": {
        const init = s.init ? s.init.map((e) => this.expr(e)) : null;
        return { ...s, init, array: this.array(s.array) };
      }
      case "assign":
        return { ...s, var: this.varOf(s.var), value: this.expr(s.value) };
      case "store":
        return { ...s, array: this.arrayOf(s.array), indices: s.indices.map((e) => this.expr(e)), value: this.expr(s.value) };
      case "expr":
        return { ...s, expr: this.expr(s.expr) };
      case "if":
        return { ...s, cond: this.expr(s.cond), then: this.stmts(s.then), else: this.stmts(s.else) };
      case "loop": {
        const init = this.stmts(s.init);
        const cond = s.cond ? this.expr(s.cond) : null;
        return { ...s, init, cond, body: this.stmts(s.body), step: this.stmts(s.step) };
      }
      case "return":
        return { ...s, value: s.value ? this.expr(s.value) : null };
      case "block":
        return { ...s, body: this.stmts(s.body) };
      case "break":
      case "continue":
      case "barrier":
        return s;
    }
    return assertNever(s, "statement");
  }

  private expr(e: Expr): Expr {
    switch (e.kind) {
      case "const":
      case "special":
        return e;
      case "var":
        return { ...e, var: this.varOf(e.var) };
      case "unary":
      case "cast":
        return { ...e, operand: this.expr(e.operand) };
      case "binary":
      case "logical":
        return { ...e, left: this.expr(e.left), right: this.expr(e.right) };
      case "select":
        return { ...e, cond: this.expr(e.cond), ifTrue: this.expr(e.ifTrue), ifFalse: this.expr(e.ifFalse) };
      case "load":
        return { ...e, array: this.arrayOf(e.array), indices: e.indices.map((x) => this.expr(x)) };
      case "call":
        return { ...e, args: e.args.map((a: CallArg) => (a.kind === "arrayArg" ? { ...a, array: this.arrayOf(a.array) } : this.expr(a))) };
      case "builtin":
      case "warp":
        return { ...e, args: e.args.map((x) => this.expr(x)) };
      case "atomic":
        return { ...e, array: this.arrayOf(e.array), indices: e.indices.map((x) => this.expr(x)), args: e.args.map((x) => this.expr(x)) };
    }
    return assertNever(e, "expression");
  }
}

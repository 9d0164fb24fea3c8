/**
 * The one traversal of the IR. Every pass, backend and simulator stage that only needs to
 * find nodes or rebuild a tree uses these; a `switch` over every node kind remains only where
 * each kind has its own meaning (the emitters, the printer, the verifier, the folder). A new
 * node kind is one change here.
 *
 * - `operands(e)`: an expression's operand expressions, in gk's evaluation order (left to
 *   right; a load's indices then its path's indices, an atomic's indices then its values, a
 *   call's value arguments, the indices of its element references and the offsets, lengths
 *   and strides of its views, a member's operand then its path's indices).
 *   Array and variable references (a load's array, a call's array arguments) are not operands.
 * - `withOperands(e, ops)`: the same node with new operands, in the same order.
 * - `forEachOperand(e, f)`: the same, without making a list (for hot traversals).
 * - `visit(body, visitor)`: every statement and expression, depth first, pre-order.
 * - `mapExpr(e, f)`: rebuilds an expression bottom-up through `f`.
 * - `mapStmts(list, mapper)`: rebuilds statements, children first, in source order (a loop's
 *   init, condition, body, then step), so declarations are met before their uses.
 */
import type { CallArg, Expr, PathStep, Stmt } from "./nodes.js";
import { assertNever, invariant } from "../util.js";

const NONE: readonly Expr[] = [];

/** The index expressions of a path (its array-field elements' indices), in order. */
export function pathExprs(path: readonly PathStep[]): readonly Expr[] {
  return path.some((p) => p.kind === "elem") ? path.flatMap((p) => (p.kind === "elem" ? p.indices : [])) : NONE;
}

/** `path` with its index expressions replaced by `ops` (as many, in order). */
export function withPathExprs(path: readonly PathStep[], ops: readonly Expr[]): PathStep[] {
  let k = 0;
  const out = path.map((p) => (p.kind === "elem" ? { ...p, indices: p.indices.map(() => ops[k++]!) } : p));
  invariant(k === ops.length && ops.every((o) => o !== undefined), "withPathExprs: wrong number of operands");
  return out;
}

/** The operand expressions of `e`, in evaluation order. */
export function operands(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case "const":
    case "var":
    case "special":
      return NONE;
    case "unary":
    case "cast":
    case "bitcast":
      return [e.operand];
    case "binary":
    case "logical":
      return [e.left, e.right];
    case "select":
      return [e.cond, e.ifTrue, e.ifFalse];
    case "load":
      return e.path.length ? [...e.indices, ...pathExprs(e.path)] : e.indices;
    case "call":
      return e.args.flatMap(argOperands);
    case "builtin":
    case "warp":
    case "construct":
      return e.args;
    case "atomic":
      return [...e.indices, ...e.args];
    case "member":
      return [e.operand, ...pathExprs(e.path)];
    case "swizzle":
      return [e.operand];
    case "zero":
      return NONE;
    default:
      return assertNever(e, "expression");
  }
}

/** The operands a call argument evaluates at the call: a scalar itself, an element reference's indices, a view's offset, length and stride. */
export function argOperands(a: CallArg): readonly Expr[] {
  switch (a.kind) {
    case "arrayArg":
    case "varRef":
      return NONE;
    case "elemRef":
      return a.indices;
    case "viewArg":
      return [a.offset, ...(a.length ? [a.length] : []), ...(a.stride ? [a.stride] : [])];
    default:
      return [a];
  }
}

/** A call argument with its operands (`argOperands`) replaced, taken from `next`. */
function withArgOperands(a: CallArg, next: () => Expr): CallArg {
  switch (a.kind) {
    case "arrayArg":
    case "varRef":
      return a;
    case "elemRef":
      return { ...a, indices: a.indices.map(() => next()) };
    case "viewArg": {
      const offset = next();
      const length = a.length ? next() : null;
      const stride = a.stride ? next() : null;
      return { ...a, offset, length, stride };
    }
    default:
      return next();
  }
}

/** `e` with its operands replaced by `ops` (as many, in the order `operands` gives them). */
export function withOperands<E extends Expr>(e: E, ops: readonly Expr[]): E {
  const x = e as Expr;
  const at = (i: number): Expr => {
    const o = ops[i];
    invariant(o, `withOperands: ${x.kind} needs operand ${i + 1}`);
    return o;
  };
  let out: Expr;
  switch (x.kind) {
    case "const":
    case "var":
    case "special":
    case "zero":
      return e;
    case "unary":
    case "cast":
    case "bitcast":
    case "swizzle":
      out = { ...x, operand: at(0) };
      break;
    case "member":
      out = { ...x, operand: at(0), path: withPathExprs(x.path, ops.slice(1)) };
      break;
    case "binary":
    case "logical":
      out = { ...x, left: at(0), right: at(1) };
      break;
    case "select":
      out = { ...x, cond: at(0), ifTrue: at(1), ifFalse: at(2) };
      break;
    case "load":
      out = { ...x, indices: ops.slice(0, x.indices.length), path: withPathExprs(x.path, ops.slice(x.indices.length)) };
      break;
    case "call": {
      let k = 0;
      out = { ...x, args: x.args.map((a: CallArg) => withArgOperands(a, () => at(k++))) };
      break;
    }
    case "builtin":
    case "warp":
    case "construct":
      out = { ...x, args: ops.slice(0, x.args.length) };
      break;
    case "atomic":
      out = { ...x, indices: ops.slice(0, x.indices.length), args: ops.slice(x.indices.length, x.indices.length + x.args.length) };
      break;
    default:
      return assertNever(x, "expression");
  }
  return out as E;
}

/** The expressions a statement evaluates itself (not those of nested statements), in order. */
export function stmtExprs(s: Stmt): readonly Expr[] {
  switch (s.kind) {
    case "let":
      return [s.init];
    case "localArray":
      return s.init ?? NONE;
    case "assign":
      return [...pathExprs(s.path), s.value];
    case "store":
      return [...s.indices, ...pathExprs(s.path), s.value];
    case "expr":
      return [s.expr];
    case "if":
      return [s.cond];
    case "loop":
      return s.cond ? [s.cond] : NONE;
    case "return":
      return s.value ? [s.value] : NONE;
    case "asyncCopy":
      return s.valid ? [...s.dstIndices, ...s.srcIndices, s.valid] : [...s.dstIndices, ...s.srcIndices];
    case "block":
    case "break":
    case "continue":
    case "barrier":
    case "fence":
    case "asyncGroup":
      return NONE;
    default:
      return assertNever(s, "statement");
  }
}

export interface Visitor {
  /** Called before the statement's expressions and nested statements. */
  readonly stmt?: (s: Stmt) => void;
  /** Called before the expression's operands. */
  readonly expr?: (e: Expr) => void;
}

/** Every statement and expression of `body`, depth first; a loop's parts in the order init, condition, step, body. */
export function visit(body: readonly Stmt[], v: Visitor): void {
  for (const s of body) visitStmt(s, v);
}

export function visitStmt(s: Stmt, v: Visitor): void {
  v.stmt?.(s);
  switch (s.kind) {
    case "if":
      visitExpr(s.cond, v);
      visit(s.then, v);
      visit(s.else, v);
      return;
    case "loop":
      visit(s.init, v);
      if (s.cond) visitExpr(s.cond, v);
      visit(s.step, v);
      visit(s.body, v);
      return;
    case "block":
      visit(s.body, v);
      return;
    default:
      for (const e of stmtExprs(s)) visitExpr(e, v);
  }
}

export function visitExpr(e: Expr, v: Visitor): void {
  v.expr?.(e);
  forEachOperand(e, (o) => visitExpr(o, v));
}

/** Calls `f` on each operand of `e`, in evaluation order (as `operands` lists them, without making the list). */
export function forEachOperand(e: Expr, f: (o: Expr) => void): void {
  switch (e.kind) {
    case "const":
    case "var":
    case "special":
    case "zero":
      return;
    case "unary":
    case "cast":
    case "bitcast":
    case "swizzle":
      f(e.operand);
      return;
    case "binary":
    case "logical":
      f(e.left);
      f(e.right);
      return;
    case "select":
      f(e.cond);
      f(e.ifTrue);
      f(e.ifFalse);
      return;
    case "load":
      e.indices.forEach(f);
      forEachPathExpr(e.path, f);
      return;
    case "member":
      f(e.operand);
      forEachPathExpr(e.path, f);
      return;
    case "call":
      for (const a of e.args) {
        switch (a.kind) {
          case "arrayArg":
          case "varRef":
            break;
          case "elemRef":
            a.indices.forEach(f);
            break;
          case "viewArg":
            f(a.offset);
            if (a.length) f(a.length);
            if (a.stride) f(a.stride);
            break;
          default:
            f(a);
        }
      }
      return;
    case "builtin":
    case "warp":
    case "construct":
      e.args.forEach(f);
      return;
    case "atomic":
      e.indices.forEach(f);
      e.args.forEach(f);
      return;
    default:
      assertNever(e, "expression");
  }
}

function forEachPathExpr(path: readonly PathStep[], f: (o: Expr) => void): void {
  for (const p of path) if (p.kind === "elem") p.indices.forEach(f);
}

/** Whether `e` or any expression inside it satisfies `test`. */
export function someExpr(e: Expr, test: (x: Expr) => boolean): boolean {
  if (test(e)) return true;
  let found = false;
  forEachOperand(e, (o) => (found ||= someExpr(o, test)));
  return found;
}

/** Whether any statement or expression of `body` satisfies the tests. */
export function someIn(body: readonly Stmt[], test: { readonly stmt?: (s: Stmt) => boolean; readonly expr?: (e: Expr) => boolean }): boolean {
  let found = false;
  visit(body, {
    stmt: (s) => (found ||= test.stmt?.(s) ?? false),
    expr: (e) => (found ||= test.expr?.(e) ?? false),
  });
  return found;
}

/** `e` rebuilt bottom-up: operands first, then `f` on the node with its new operands (the node itself where none changed). */
export function mapExpr(e: Expr, f: (e: Expr) => Expr): Expr {
  const ops = operands(e);
  if (ops.length === 0) return f(e);
  const mapped = ops.map((o) => mapExpr(o, f));
  return f(mapped.every((m, i) => m === ops[i]) ? e : withOperands(e, mapped));
}

export interface StmtMapper {
  /** Each expression a statement evaluates (whole expressions: use mapExpr inside to reach their operands). */
  readonly expr: (e: Expr) => Expr;
  /** The statement once its expressions and nested statements are mapped (default: as it is). */
  readonly stmt?: (s: Stmt) => Stmt;
}

/** Statements rebuilt through `m`, nested ones first, in source order. */
export function mapStmts(list: readonly Stmt[], m: StmtMapper): Stmt[] {
  return list.map((s) => mapStmt(s, m));
}

export function mapStmt(s: Stmt, m: StmtMapper): Stmt {
  const f = m.expr;
  let out: Stmt;
  switch (s.kind) {
    case "let":
      out = { ...s, init: f(s.init) };
      break;
    case "localArray":
      out = { ...s, init: s.init ? s.init.map(f) : null };
      break;
    case "assign":
      out = { ...s, path: withPathExprs(s.path, pathExprs(s.path).map(f)), value: f(s.value) };
      break;
    case "store":
      out = { ...s, indices: s.indices.map(f), path: withPathExprs(s.path, pathExprs(s.path).map(f)), value: f(s.value) };
      break;
    case "expr":
      out = { ...s, expr: f(s.expr) };
      break;
    case "if":
      out = { ...s, cond: f(s.cond), then: mapStmts(s.then, m), else: mapStmts(s.else, m) };
      break;
    case "loop": {
      const init = mapStmts(s.init, m);
      const cond = s.cond ? f(s.cond) : null;
      const body = mapStmts(s.body, m);
      out = { ...s, init, cond, body, step: mapStmts(s.step, m) };
      break;
    }
    case "return":
      out = { ...s, value: s.value ? f(s.value) : null };
      break;
    case "block":
      out = { ...s, body: mapStmts(s.body, m) };
      break;
    case "asyncCopy":
      out = { ...s, dstIndices: s.dstIndices.map(f), srcIndices: s.srcIndices.map(f), valid: s.valid ? f(s.valid) : null };
      break;
    case "break":
    case "continue":
    case "barrier":
    case "fence":
    case "asyncGroup":
      out = s;
      break;
    default:
      return assertNever(s, "statement");
  }
  return m.stmt ? m.stmt(out) : out;
}

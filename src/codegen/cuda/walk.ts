/**
 * Read-only traversal of IR bodies, for the backend's analyses (which helpers a module uses,
 * which variables are ever read, whether a loop body continues). Pre-order; every statement
 * and expression kind is listed, so a new kind breaks the build here.
 */
import type { Expr, Stmt } from "../../ir/nodes.js";
import { assertNever } from "../../util.js";

export interface Visitor {
  readonly stmt?: (s: Stmt) => void;
  readonly expr?: (e: Expr) => void;
}

export function visitStmts(stmts: readonly Stmt[], v: Visitor): void {
  for (const s of stmts) visitStmt(s, v);
}

export function visitStmt(s: Stmt, v: Visitor): void {
  v.stmt?.(s);
  switch (s.kind) {
    case "let":
      visitExpr(s.init, v);
      break;
    case "localArray":
      s.init?.forEach((e) => visitExpr(e, v));
      break;
    case "assign":
      visitExpr(s.value, v);
      break;
    case "store":
      s.indices.forEach((e) => visitExpr(e, v));
      visitExpr(s.value, v);
      break;
    case "expr":
      visitExpr(s.expr, v);
      break;
    case "if":
      visitExpr(s.cond, v);
      visitStmts(s.then, v);
      visitStmts(s.else, v);
      break;
    case "loop":
      visitStmts(s.init, v);
      if (s.cond) visitExpr(s.cond, v);
      visitStmts(s.step, v);
      visitStmts(s.body, v);
      break;
    case "return":
      if (s.value) visitExpr(s.value, v);
      break;
    case "block":
      visitStmts(s.body, v);
      break;
    case "break":
    case "continue":
    case "barrier":
      break;
    default:
      assertNever(s, "statement");
  }
}

export function visitExpr(e: Expr, v: Visitor): void {
  v.expr?.(e);
  switch (e.kind) {
    case "const":
    case "var":
    case "special":
      break;
    case "unary":
    case "cast":
      visitExpr(e.operand, v);
      break;
    case "binary":
    case "logical":
      visitExpr(e.left, v);
      visitExpr(e.right, v);
      break;
    case "select":
      visitExpr(e.cond, v);
      visitExpr(e.ifTrue, v);
      visitExpr(e.ifFalse, v);
      break;
    case "load":
      e.indices.forEach((i) => visitExpr(i, v));
      break;
    case "call":
      for (const a of e.args) if (a.kind !== "arrayArg") visitExpr(a, v);
      break;
    case "builtin":
    case "warp":
      e.args.forEach((a) => visitExpr(a, v));
      break;
    case "atomic":
      e.indices.forEach((i) => visitExpr(i, v));
      e.args.forEach((a) => visitExpr(a, v));
      break;
    default:
      assertNever(e, "expression");
  }
}

/** Ids of the variables and arrays a function body ever reads (array arguments count as reads). */
export function readVariables(body: readonly Stmt[]): Set<number> {
  const read = new Set<number>();
  visitStmts(body, {
    expr: (e) => {
      if (e.kind === "var") read.add(e.var.id);
      else if (e.kind === "load" || e.kind === "atomic") read.add(e.array.id);
      else if (e.kind === "call") for (const a of e.args) if (a.kind === "arrayArg") read.add(a.array.id);
    },
  });
  return read;
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
        return false;
      default:
        return assertNever(s, "statement");
    }
  });
}

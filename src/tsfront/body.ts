/**
 * Statements of kernel and device-function bodies, lowered to gk's AST as the .gk parser
 * builds it (src/parser/toAst.ts): one `let`/`const` name is a VarDecl and several a
 * VarDecls, a for loop's `i++, j--` is a block of statements, `shared(f32, 16, 16)` is a
 * SharedDecl and `local(f32, 8)` a local array's VarDecl.
 */
import type { ts as TS } from "ts-morph";
import type { Span } from "../diagnostics/source.js";
import type * as ast from "../parser/ast.js";
import { declareLocal, refuse, spanOf, type Lowering } from "./context.js";
import { ASSIGN, expr, gkCall, ident, tokenText, typeExpr, typeFromValue } from "./expr.js";
import { ANNOTATION_CALLS, ARRAY_CALLS, type AnnotationCall, type ArrayCall } from "./spellings.js";

/** A function body (a block, or an arrow's expression: `return e;` when the function returns a value, else `e;`). */
export function functionBody(cx: Lowering, body: TS.ConciseBody, returnsValue: boolean, from = 0): ast.BlockStmt | undefined {
  if (cx.ts.isBlock(body)) return block(cx, body, false, from);
  const value = expr(cx, body);
  if (!value) return undefined;
  const span = spanOf(cx, body);
  const stmt: ast.Stmt = returnsValue ? { kind: "Return", value, span } : { kind: "ExprStmt", expr: value, span };
  return { kind: "Block", body: [stmt], span };
}

/** `{ ... }`; `scoped` false for a function's own block, whose scope its parameters opened; `from`: its statements from that one on. */
export function block(cx: Lowering, b: TS.Block, scoped = true, from = 0): ast.BlockStmt {
  if (scoped) cx.scopes.push(new Set());
  const body = statements(cx, b.statements.slice(from));
  if (scoped) cx.scopes.pop();
  return { kind: "Block", body, span: spanOf(cx, b) };
}

/** One statement where the grammar has one (a branch, a loop body): several become a block. */
function single(cx: Lowering, s: TS.Statement): ast.Stmt | undefined {
  cx.scopes.push(new Set());
  const list = statement(cx, s);
  cx.scopes.pop();
  if (list.length === 1) return list[0];
  if (list.length === 0) return undefined;
  return { kind: "Block", body: list, span: spanOf(cx, s) };
}

/**
 * A list of statements, where `unroll();` (or `unroll(4);`) is `@unroll` (`@unroll(4)`) on the
 * statement after it: the checker then asks, as for .gk, that it be a loop (GK4013).
 */
function statements(cx: Lowering, list: readonly TS.Statement[]): ast.Stmt[] {
  const out: ast.Stmt[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    const marker = annotationMarker(cx, s);
    if (!marker) {
      out.push(...statement(cx, s));
      continue;
    }
    const [call, name] = marker;
    if (name === "flushToZero") {
      cx.log.error("GK4013", spanOf(cx, call), "flushToZero() is an option of the whole file (@flushToZero): call it as a statement at the top level of the file, not in a function");
      continue;
    }
    if (ANNOTATION_CALLS[name] === "kernel") {
      cx.log.error("GK4013", spanOf(cx, call), `${name}() annotates a kernel (@${name}): call it as the first statement of the kernel's body`);
      continue;
    }
    const annotation = annotationOf(cx, call, name);
    const next = list[i + 1];
    if (!next) {
      cx.log.error("GK4013", spanOf(cx, call), "unroll() stands before the loop it unrolls (@unroll): put the for, while or do loop right after it");
      continue;
    }
    i++;
    const body = statement(cx, next);
    if (!annotation || !body[0]) continue;
    const [first, ...rest] = body;
    out.push({ kind: "Annotated", annotation, body: first, span: { ...annotation.span, end: first.span.end } }, ...rest);
  }
  return out;
}

/** `unroll(...)` or `flushToZero()` as a statement of its own: the call and which. */
export function annotationMarker(cx: Lowering, s: TS.Statement): [TS.CallExpression, AnnotationCall] | undefined {
  if (!cx.ts.isExpressionStatement(s)) return undefined;
  const name = gkCall(cx, s.expression, ANNOTATION_CALLS) as AnnotationCall | undefined;
  return name && [s.expression as TS.CallExpression, name];
}

/** The annotation a marker call stands for: `unroll()` is `@unroll`, `unroll(4)` is `@unroll(4)`. */
export function annotationOf(cx: Lowering, call: TS.CallExpression, name: AnnotationCall): ast.Annotation | undefined {
  const args: ast.Expr[] = [];
  for (const a of call.arguments) {
    const x = cx.ts.isSpreadElement(a) ? refuse(cx, a) : expr(cx, a);
    if (!x) return undefined;
    args.push(x);
  }
  const span = spanOf(cx, call);
  return { name: { name, span: spanOf(cx, call.expression) }, ...(args.length && { args }), span };
}

function statement(cx: Lowering, s: TS.Statement): ast.Stmt[] {
  const ts = cx.ts;
  const span = spanOf(cx, s);
  const one = (x: ast.Stmt | undefined): ast.Stmt[] => (x ? [x] : []);
  if (ts.isBlock(s)) return [block(cx, s)];
  if (ts.isVariableStatement(s)) return variables(cx, s.declarationList, span);
  if (ts.isExpressionStatement(s)) return one(statementExpression(cx, s.expression, span));
  if (ts.isIfStatement(s)) {
    const cond = expr(cx, s.expression);
    const then = single(cx, s.thenStatement);
    const otherwise = s.elseStatement && single(cx, s.elseStatement);
    if (!cond || !then || (s.elseStatement && !otherwise)) return [];
    return [{ kind: "If", cond, then, ...(otherwise && { else: otherwise }), span }];
  }
  if (ts.isForStatement(s)) return one(forStatement(cx, s, span));
  if (ts.isWhileStatement(s)) {
    const cond = expr(cx, s.expression);
    const body = single(cx, s.statement);
    return cond && body ? [{ kind: "While", cond, body, span }] : [];
  }
  if (ts.isDoStatement(s)) {
    const body = single(cx, s.statement);
    const cond = expr(cx, s.expression);
    return cond && body ? [{ kind: "DoWhile", body, cond, span }] : [];
  }
  if (ts.isBreakStatement(s) || ts.isContinueStatement(s)) {
    if (s.label) return one(refuse(cx, s.label, "kernels have no labels: break and continue leave the innermost loop"));
    return [{ kind: ts.isBreakStatement(s) ? "Break" : "Continue", span }];
  }
  if (ts.isReturnStatement(s)) {
    if (!s.expression) return [{ kind: "Return", span }];
    const value = expr(cx, s.expression);
    return value ? [{ kind: "Return", value, span }] : [];
  }
  if (ts.isSwitchStatement(s)) return one(switchStatement(cx, s, span));
  if (ts.isEmptyStatement(s)) return [{ kind: "Empty", span }];
  return one(refuse(cx, s));
}

/** An expression used as a statement: an assignment, `i++`, a call. */
function statementExpression(cx: Lowering, e: TS.Expression, span: Span): ast.Stmt | undefined {
  const ts = cx.ts;
  if (ts.isBinaryExpression(e)) {
    const op = ASSIGN[tokenText(cx, e.operatorToken.kind)];
    if (op) {
      const target = expr(cx, e.left);
      const value = expr(cx, e.right);
      return target && value && { kind: "Assign", op, target, value, opSpan: spanOf(cx, e.operatorToken), span };
    }
  }
  if ((ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
    const target = expr(cx, e.operand);
    return target && { kind: "IncDec", op: e.operator === ts.SyntaxKind.PlusPlusToken ? "++" : "--", target, span };
  }
  const value = expr(cx, e);
  return value && { kind: "ExprStmt", expr: value, span };
}

/** A for header's `a, b, c`: one statement, or a block of them in order. */
function statementList(cx: Lowering, e: TS.Expression): ast.Stmt | undefined {
  const parts: TS.Expression[] = [];
  const flatten = (x: TS.Expression): void => {
    if (cx.ts.isBinaryExpression(x) && x.operatorToken.kind === cx.ts.SyntaxKind.CommaToken) {
      flatten(x.left);
      flatten(x.right);
    } else parts.push(x);
  };
  flatten(e);
  const list = parts.map((p) => statementExpression(cx, p, spanOf(cx, p)));
  if (list.some((x) => !x)) return undefined;
  const stmts = list as ast.Stmt[];
  return stmts.length === 1 ? stmts[0] : { kind: "Block", body: stmts, span: spanOf(cx, e) };
}

function forStatement(cx: Lowering, s: TS.ForStatement, span: Span): ast.Stmt | undefined {
  const ts = cx.ts;
  cx.scopes.push(new Set());
  let init: ast.Stmt | undefined;
  let ok = true;
  if (s.initializer) {
    if (ts.isVariableDeclarationList(s.initializer)) {
      const decls = variables(cx, s.initializer, spanOf(cx, s.initializer));
      if (decls.length === 1) init = decls[0];
      else ok = false;
    } else init = statementList(cx, s.initializer);
    ok &&= init !== undefined;
  }
  const cond = s.condition && expr(cx, s.condition);
  const step = s.incrementor && statementList(cx, s.incrementor);
  const body = single(cx, s.statement);
  cx.scopes.pop();
  if (!ok || !body || (s.condition && !cond) || (s.incrementor && !step)) return undefined;
  return { kind: "For", ...(init && { init }), ...(cond && { cond }), ...(step && { step }), body, span };
}

function switchStatement(cx: Lowering, s: TS.SwitchStatement, span: Span): ast.Stmt | undefined {
  const ts = cx.ts;
  const value = expr(cx, s.expression);
  const cases: ast.SwitchCase[] = [];
  let ok = value !== undefined;
  for (const clause of s.caseBlock.clauses) {
    const test = ts.isCaseClause(clause) ? expr(cx, clause.expression) : undefined;
    if (ts.isCaseClause(clause) && !test) ok = false;
    cx.scopes.push(new Set());
    const body = statements(cx, clause.statements);
    cx.scopes.pop();
    cases.push({ ...(test && { test }), body, span: spanOf(cx, clause) });
  }
  return ok && value ? { kind: "Switch", value, cases, span } : undefined;
}

/** `let`/`const` declarations: VarDecls as the .gk parser makes them, with `shared(...)` and `local(...)` as gk's arrays. */
function variables(cx: Lowering, list: TS.VariableDeclarationList, span: Span): ast.Stmt[] {
  const ts = cx.ts;
  const flags = list.flags;
  if (!(flags & ts.NodeFlags.Let) && !(flags & ts.NodeFlags.Const)) {
    refuse(cx, list, "`var` has no meaning in a kernel: declare with let or const");
    return [];
  }
  const mutable = (flags & ts.NodeFlags.Let) !== 0;
  // One name is a VarDecl and several a VarDecls, as in .gk; shared() and local() are statements of their own, in order.
  const arrays = list.declarations.some((d) => gkCall(cx, d.initializer, ARRAY_CALLS));
  const out: ast.Stmt[] = [];
  for (const d of list.declarations) {
    if (!ts.isIdentifier(d.name)) {
      refuse(cx, d.name, "kernels have no destructuring: declare each name");
      continue;
    }
    const array = gkCall(cx, d.initializer, ARRAY_CALLS) as ArrayCall | undefined;
    const dspan = list.declarations.length === 1 ? span : spanOf(cx, d);
    if (array) {
      const made = arrayDecl(cx, array, d, d.initializer as TS.CallExpression, dspan);
      if (made) out.push(made);
    } else {
      const type = d.type && typeExpr(cx, d.type);
      const init = d.initializer && expr(cx, d.initializer);
      if ((!d.type || type) && (!d.initializer || init)) {
        out.push({ kind: "VarDecl", mutable, name: ident(cx, d.name), ...(type && { type }), ...(init && { init }), span: dspan });
      }
    }
    declareLocal(cx, d.name.text);
  }
  if (arrays || out.length < 2) return out;
  return [{ kind: "VarDecls", decls: out as ast.VarDecl[], span }];
}

/** `shared(f32, 16, 16)`, `local(f32, 8)`, `local(i32, [[1, 2], [3, 4]])`, `local(i32, [2, 2], [1, 2, 3, 4])`. */
function arrayDecl(cx: Lowering, kind: ArrayCall, d: TS.VariableDeclaration, call: TS.CallExpression, span: Span): ast.Stmt | undefined {
  if (kind === "table" || kind === "constant") return refuse(cx, call, `${kind}() declares ${kind === "table" ? "a constant table" : "an array of constant memory"} at the top level of the file; in a function, an array is local(T, sizes...)`);
  if (d.type) return refuse(cx, d.type, `the type of ${kind}() comes from its arguments: leave out the annotation`);
  const name = ident(cx, d.name as TS.Identifier);
  const shape = arrayShape(cx, kind, call);
  if (!shape) return undefined;
  if (kind === "dynamicShared") {
    const type: ast.ArrayTypeExpr = { kind: "ArrayType", elem: shape.elem, sizes: [], unsized: true, shared: false, span: spanOf(cx, call) };
    return { kind: "SharedDecl", name, type, span };
  }
  if (kind === "shared") {
    const type: ast.TypeExpr = shape.sizes.length ? { kind: "ArrayType", elem: shape.elem, sizes: shape.sizes, unsized: false, shared: false, span: spanOf(cx, call) } : shape.elem;
    return { kind: "SharedDecl", name, type, span };
  }
  const type: ast.ArrayTypeExpr = { kind: "ArrayType", elem: shape.elem, sizes: shape.sizes, unsized: false, shared: false, span: spanOf(cx, call) };
  return { kind: "VarDecl", mutable: true, name, type, ...(shape.values && { init: shape.values }), span };
}

/** The element type, sizes and values of an array call: `(T, d0, d1...)`, `(T, values)` or `(T, [d0, d1...], values)`. */
export function arrayShape(cx: Lowering, kind: ArrayCall, call: TS.CallExpression): { elem: ast.TypeExpr; sizes: ast.Expr[]; values?: ast.ArrayLit } | undefined {
  const ts = cx.ts;
  const [first, ...rest] = call.arguments;
  const elem = typeFromValue(cx, first, call);
  if (!elem) return undefined;
  const forms = FORMS[kind];
  const isList = (x: TS.Expression | undefined): x is TS.ArrayLiteralExpression => x !== undefined && ts.isArrayLiteralExpression(x);
  const last = rest[rest.length - 1];
  if (kind === "dynamicShared" && rest.length) return refuse(cx, rest[0]!, `a dynamic shared array has no sizes (each launch gives its length): ${forms}`);
  if (kind === "constant" && (rest.length === 0 || isList(last))) return refuse(cx, call, `an array of constant memory has sizes, and no values (each launch gives them): ${forms}`);
  if (!ARRAY_CALLS[kind].values || !isList(last)) {
    if (kind === "table") return refuse(cx, call, `a table has values: ${forms}`);
    if (kind === "local" && rest.length === 0) return refuse(cx, call, `a local array has sizes: ${forms}`);
    const sizes = rest.map((r) => (isList(r) ? refuse(cx, r, `the sizes of ${kind}() are numbers: ${forms}`) : expr(cx, r)));
    return sizes.every((x) => x) ? { elem, sizes: sizes as ast.Expr[] } : undefined;
  }
  const values = expr(cx, last);
  if (!values || values.kind !== "ArrayLit") return undefined;
  if (rest.length === 1) return { elem, sizes: shapeOf(values), values };
  if (rest.length === 2 && isList(rest[0])) {
    const sizes = rest[0].elements.map((x) => expr(cx, x));
    return sizes.every((x) => x) ? { elem, sizes: sizes as ast.Expr[], values } : undefined;
  }
  return refuse(cx, call, `the forms are ${forms}`);
}

const FORMS: Readonly<Record<ArrayCall, string>> = {
  shared: "shared(T) or shared(T, sizes...)",
  dynamicShared: "dynamicShared(T)",
  constant: "constant(T, sizes...)",
  local: "local(T, sizes...), local(T, values) or local(T, [sizes], values)",
  table: "table(T, values) or table(T, [sizes], values)",
};

/** The sizes of a nested array literal, outermost first, read along its first elements (the checker counts every element). */
function shapeOf(values: ast.ArrayLit): ast.Expr[] {
  const sizes: ast.Expr[] = [];
  let level: ast.Expr | undefined = values;
  while (level?.kind === "ArrayLit") {
    sizes.push({ kind: "Number", text: String(level.elements.length), isFloat: false, span: level.span });
    level = level.elements[0];
  }
  return sizes;
}

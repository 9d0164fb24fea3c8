/**
 * Expressions from the CST: operator precedence, calls, and the two forms that are
 * statements in gk but look like expressions (assignment and `++`/`--`). Those are
 * accepted by the grammar anywhere, kept here only at statement level, and explained
 * (GK1010, GK1013) everywhere else.
 *
 * A node is built only when everything under it parsed: any missing or recovered part
 * makes the whole expression undefined, after every part has been visited so that all
 * their own errors are reported.
 */
import type { IToken } from "chevrotain";
import type { Span } from "../diagnostics/source.js";
import type { AssignOp, AssignStmt, BinaryOp, Expr, ExprStmt, GenericArgs, IncDecStmt, UnaryOp } from "./ast.js";
import { all, cover, one, real, type BuildContext } from "./build.js";
import { tokenSpan } from "./lexer.js";
import type { ArgListCst, BinaryCst, ConditionalCst, ExpressionCst, GenericArgsCst, PostfixCst, PostfixOpCst, PrimaryCst, UnaryCst } from "./cst.js";
import { isFloatLiteral, numberProblem, numberText } from "./literals.js";
import { MAX_CHAIN_OPERANDS } from "./nesting.js";

/** Binding power of each binary operator (higher binds tighter); all are left-associative. */
const precedence: Readonly<Record<BinaryOp, number>> = {
  "||": 1,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6, "!=": 6, "===": 6, "!==": 6,
  "<": 7, "<=": 7, ">": 7, ">=": 7,
  "<<": 8, ">>": 8, ">>>": 8,
  "+": 9, "-": 9,
  "*": 10, "/": 10, "%": 10,
};

const assignOps: readonly string[] = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="];
const unaryOps: readonly string[] = ["-", "+", "!", "~"];

function isBinaryOp(s: string): s is BinaryOp {
  return Object.prototype.hasOwnProperty.call(precedence, s);
}

function isAssignOp(s: string): s is AssignOp {
  return assignOps.includes(s);
}

function isUnaryOp(s: string): s is UnaryOp {
  return unaryOps.includes(s);
}

function isIncDec(t: IToken | undefined): t is IToken {
  return t !== undefined && (t.image === "++" || t.image === "--");
}

/** An expression where a value is expected: an assignment here is reported, not built. */
export function expression(cx: BuildContext, cst: ExpressionCst | undefined): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const target = conditional(cx, one(cst.children.conditional));
  const op = real(one(cst.children.AssignOp));
  if (op === undefined) return target;
  expression(cx, one(cst.children.value));
  const message =
    op.image === "="
      ? "assignment is a statement in gk, not an expression: did you mean '=='?"
      : `'${op.image}' is a statement in gk, not an expression: write it on a line of its own`;
  cx.log.error("GK1010", tokenSpan(cx.file, op), message);
  return undefined;
}

/**
 * An expression in statement position (`f(x);`, `a[i] = v;`, `i++;`, `--i;`), also used
 * for `for` initializers and steps. `end` is the statement's `;`, when it has one.
 */
export function statementExpression(
  cx: BuildContext,
  cst: ExpressionCst | undefined,
  end: IToken | undefined,
): AssignStmt | IncDecStmt | ExprStmt | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const op = real(one(cst.children.AssignOp));
  if (op !== undefined) {
    const target = conditional(cx, one(cst.children.conditional));
    const value = expression(cx, one(cst.children.value));
    if (target === undefined || value === undefined || !isAssignOp(op.image)) return undefined;
    return { kind: "Assign", op: op.image, target, value, opSpan: tokenSpan(cx.file, op), span: cover(cx, target.span, value.span, end) };
  }
  const incDec = incDecStatement(cx, one(cst.children.conditional), end);
  if (incDec !== "no") return incDec;
  const expr = conditional(cx, one(cst.children.conditional));
  return expr && { kind: "ExprStmt", expr, span: cover(cx, expr.span, end) };
}

/** `i++` / `++i` as a whole statement; "no" when the expression has another shape. */
function incDecStatement(cx: BuildContext, cst: ConditionalCst | undefined, end: IToken | undefined): IncDecStmt | undefined | "no" {
  const binary = one(cst?.children.binary);
  const unary = one(binary?.children.unary);
  const postfixCst = one(unary?.children.postfix);
  if (!cst || !binary || !unary || !postfixCst || cst.children.Question || binary.children.BinaryOp) return "no";
  if (cst.recoveredNode || binary.recoveredNode || unary.recoveredNode) return undefined;
  const prefix = unary.children.PrefixOp ?? [];
  const ops = postfixCst.children.postfixOp ?? [];
  const lastOp = ops[ops.length - 1];
  const suffix = lastOp && (one(lastOp.children.PlusPlus) ?? one(lastOp.children.MinusMinus));
  if (prefix.length === 1 && isIncDec(prefix[0]) && suffix === undefined) {
    const op = prefix[0];
    const target = postfix(cx, postfixCst, false);
    return target && { kind: "IncDec", op: op.image === "++" ? "++" : "--", target, span: cover(cx, op, target.span, end) };
  }
  if (prefix.length === 0 && isIncDec(suffix)) {
    const target = postfix(cx, postfixCst, true);
    return target && { kind: "IncDec", op: suffix.image === "++" ? "++" : "--", target, span: cover(cx, target.span, suffix, end) };
  }
  return "no";
}

function conditional(cx: BuildContext, cst: ConditionalCst | undefined): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const cond = binary(cx, one(cst.children.binary));
  if (!cst.children.Question) return cond;
  const then = expression(cx, one(cst.children.then));
  const otherwise = expression(cx, one(cst.children.else));
  if (cond === undefined || then === undefined || otherwise === undefined) return undefined;
  return { kind: "Conditional", cond, then, else: otherwise, span: cover(cx, cond.span, otherwise.span) };
}


/** Operands and operators arrive flat; precedence climbing builds the tree. */
function binary(cx: BuildContext, cst: BinaryCst | undefined): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const operands = all(cst.children.unary, (u) => unary(cx, u));
  const ops = cst.children.BinaryOp ?? [];
  if (operands === undefined || operands.length !== ops.length + 1) return undefined;
  if (operands.length > MAX_CHAIN_OPERANDS) {
    cx.log.error("GK1014", tokenSpan(cx.file, ops[MAX_CHAIN_OPERANDS - 1]!), `this expression chains more than ${MAX_CHAIN_OPERANDS} operands: split it into several statements (s += ...)`);
    return undefined;
  }
  const values: Expr[] = [operands[0]!];
  const pending: IToken[] = [];
  const reduce = (): void => {
    const op = pending.pop()!;
    const right = values.pop()!;
    const left = values.pop()!;
    const image = op.image;
    if (!isBinaryOp(image)) return;
    values.push({ kind: "Binary", op: image, left, right, opSpan: tokenSpan(cx.file, op), span: cover(cx, left.span, right.span) });
  };
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (!isBinaryOp(op.image)) return undefined;
    while (pending.length > 0 && precedence[pending[pending.length - 1]!.image as BinaryOp] >= precedence[op.image]) reduce();
    pending.push(op);
    values.push(operands[i + 1]!);
  }
  while (pending.length > 0) reduce();
  return values.length === 1 ? values[0] : undefined;
}

function unary(cx: BuildContext, cst: UnaryCst | undefined): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const operand = postfix(cx, one(cst.children.postfix), false);
  const prefix = cst.children.PrefixOp ?? [];
  const bad = prefix.find(isIncDec);
  if (bad !== undefined) {
    reportIncDec(cx, bad, operand);
    return undefined;
  }
  let result = operand;
  for (let i = prefix.length - 1; i >= 0 && result !== undefined; i--) {
    const op = prefix[i]!;
    if (!isUnaryOp(op.image)) return undefined;
    result = { kind: "Unary", op: op.image, operand: result, span: cover(cx, op, result.span) };
  }
  return result;
}

/** A primary and its calls, indexes and members; `dropLast` leaves out a final `++`/`--` that the caller handles. */
function postfix(cx: BuildContext, cst: PostfixCst | undefined, dropLast: boolean): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  let result = primary(cx, one(cst.children.primary));
  const ops = cst.children.postfixOp ?? [];
  const count = dropLast ? ops.length - 1 : ops.length;
  let ok = result !== undefined;
  for (let i = 0; i < count; i++) {
    const next = applyPostfix(cx, result, ops[i]!);
    ok &&= next !== undefined;
    result = next;
  }
  return ok ? result : undefined;
}

function applyPostfix(cx: BuildContext, object: Expr | undefined, cst: PostfixOpCst): Expr | undefined {
  const c = cst.children;
  if (cst.recoveredNode) return undefined;
  const incDec = one(c.PlusPlus) ?? one(c.MinusMinus);
  if (incDec !== undefined) {
    reportIncDec(cx, incDec, object);
    return undefined;
  }
  const call = one(c.call);
  if (call !== undefined) {
    const typeArgs = c.typeArgs ? genericArgs(cx, one(c.typeArgs)) : undefined;
    const args = argList(cx, call);
    if (object === undefined || args === undefined || (c.typeArgs && !typeArgs)) return undefined;
    if (object.kind !== "Name") {
      const method = object.kind === "Member" ? object.property.name : undefined;
      const message =
        object.kind === "Member" && object.object.kind === "Name" && object.object.name === "Math"
          ? `gk has no Math object: call the math functions by name, as in ${method}(x)`
          : "only a function can be called, by its name, as in `f(x)`: gk has no methods or function values";
      cx.log.error("GK1010", object.span, message);
      return undefined;
    }
    return { kind: "Call", callee: { name: object.name, span: object.span }, ...(typeArgs && { typeArgs }), args: args.args, span: cover(cx, object.span, args.span) };
  }
  const bracket = real(one(c.LBracket));
  if (bracket !== undefined) {
    const index = expression(cx, one(c.index));
    if (object === undefined || index === undefined) return undefined;
    return { kind: "Index", object, index, span: cover(cx, object.span, index.span, one(c.RBracket)) };
  }
  const member = real(one(c.member));
  if (object === undefined || member === undefined) return undefined;
  return { kind: "Member", object, property: { name: member.image, span: tokenSpan(cx.file, member) }, span: cover(cx, object.span, member) };
}

function reportIncDec(cx: BuildContext, op: IToken, operand: Expr | undefined): void {
  const name = operand?.kind === "Name" ? operand.name : "i";
  const update = `${name} ${op.image === "++" ? "+=" : "-="} 1;`;
  cx.log.error(
    "GK1013",
    tokenSpan(cx.file, op),
    `'${op.image}' cannot be used inside an expression: increment and decrement are statements in gk; write \`${update}\` on a line of its own`,
  );
}

function primary(cx: BuildContext, cst: PrimaryCst | undefined): Expr | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const c = cst.children;
  const num = real(one(c.NumberLit));
  if (num !== undefined) {
    // A malformed number was reported by the lexer (GK1003); it has no value to build.
    if (numberProblem(num.image) !== undefined) return undefined;
    return { kind: "Number", text: numberText(num.image), isFloat: isFloatLiteral(num.image), span: tokenSpan(cx.file, num) };
  }
  const bool = real(one(c.True) ?? one(c.False));
  if (bool !== undefined) return { kind: "Bool", value: bool.image === "true", span: tokenSpan(cx.file, bool) };
  const name = real(one(c.Identifier));
  if (name !== undefined) return { kind: "Name", name: name.image, span: tokenSpan(cx.file, name) };
  const paren = one(c.parenExpr);
  if (paren !== undefined) {
    if (paren.recoveredNode) return undefined;
    const inner = expression(cx, one(paren.children.expression));
    const open = real(one(paren.children.LParen));
    return inner && open && { kind: "Paren", expr: inner, span: cover(cx, open, inner.span, one(paren.children.RParen)) };
  }
  const object = one(c.objectLit);
  if (object !== undefined) {
    if (object.recoveredNode) return undefined;
    const open = real(one(object.children.LCurly));
    const fields = all(object.children.fields, (f) => {
      const name = real(one(f.children.name));
      const value = expression(cx, one(f.children.value));
      return name && value && !f.recoveredNode ? { name: { name: name.image, span: tokenSpan(cx.file, name) }, value, span: cover(cx, name, value.span) } : undefined;
    });
    return open && fields && { kind: "ObjectLit", fields, span: cover(cx, open, ...fields.map((f) => f.span), one(object.children.RCurly)) };
  }
  const array = one(c.arrayLit);
  if (array === undefined || array.recoveredNode) return undefined;
  const open = real(one(array.children.LBracket));
  const elements = all(array.children.elements, (e) => expression(cx, e));
  return open && elements && { kind: "ArrayLit", elements, span: cover(cx, open, ...elements.map((e) => e.span), one(array.children.RBracket)) };
}

/** `(a, b)`: the expressions and the span from `(` to `)`. */
export function argList(cx: BuildContext, cst: ArgListCst | undefined): { args: Expr[]; span: Span } | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const open = real(one(cst.children.LParen));
  const args = all(cst.children.args, (a) => expression(cx, a));
  if (open === undefined || args === undefined) return undefined;
  return { args, span: cover(cx, open, ...args.map((a) => a.span), one(cst.children.RParen)) };
}

/** `<f32, 256>`: an instance's arguments and the span from `<` to `>`. */
export function genericArgs(cx: BuildContext, cst: GenericArgsCst | undefined): GenericArgs | undefined {
  if (cst === undefined || cst.recoveredNode) return undefined;
  const open = real(one(cst.children.Less));
  const args = all(cst.children.args, (a) => unary(cx, a));
  if (open === undefined || args === undefined) return undefined;
  return { args, span: cover(cx, open, ...args.map((a) => a.span), one(cst.children.Greater)) };
}

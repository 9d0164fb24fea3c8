/**
 * Checking operators: unary and binary operators, shifts, compound assignment (`op=`,
 * `++`/`--`) and `?:`, for `expr.ts`. Operators work on scalars and, lane by lane, on
 * vectors: both operands of one type, or a vector and a scalar of its lane type, which
 * stands for a vector of that scalar in every lane (a splat, not a conversion: `v * 2.0`
 * and `v * s` with `s: f32` for `v: f32x4`; `v * i` with `i: i32` is GK3001). Comparisons
 * of vectors give bool vectors. Structs have no operators.
 */
import type * as ast from "../parser/ast.js";
import { joinSpans, type Span } from "../diagnostics/source.js";
import type { BinOp, Expr } from "../ir/nodes.js";
import { bitWidth, isBigIntType, isBool, isFloat, isInt, isSigned, laneScalar, T, typeToString, unsignedOf, vectorType, withLane, type ScalarType, type ValueType, type VectorType } from "../ir/types.js";
import { constExpr, textOf, type FnCtx, type ValueExpr } from "./context.js";
import { checkAs, checkCondition, checkValue, constantTypeFor, materialize, untypedOf } from "./expr.js";
import { untypedCompare } from "./untyped.js";

/** A vector of `t` with `s` in every lane. */
export function splat(t: VectorType, s: ValueExpr): ValueExpr {
  return { kind: "construct", type: t, args: [s], span: s.span };
}

export function checkUnary(ctx: FnCtx, e: ast.UnaryExpr, expected?: ValueType): Expr | undefined {
  const a = checkValue(ctx, e.operand, e.op === "!" ? T.bool : expected);
  if (!a) return undefined;
  const text = textOf(ctx, e.operand.span);
  const lane = laneScalar(a.type);
  const what = typeToString(a.type);
  switch (e.op) {
    case "+":
    case "-":
      if (!lane || isBool(lane)) {
        ctx.log.error("GK3003", e.span, `unary '${e.op}' needs a number, but '${text}' is ${what}`);
        return undefined;
      }
      return e.op === "+" ? a : { kind: "unary", type: a.type, op: "neg", operand: a, span: e.span };
    case "!":
      if (!lane || !isBool(lane)) {
        ctx.log.error("GK3003", e.span, `'!' needs bool, but '${text}' is ${what}${lane && a.type.kind === "scalar" ? `: write '${text} == 0'` : ""}`);
        return undefined;
      }
      return { kind: "unary", type: a.type, op: "not", operand: a, span: e.span };
    case "~":
      if (!lane || !isInt(lane)) {
        ctx.log.error("GK3003", e.span, `'~' needs an integer, but '${text}' is ${what}`);
        return undefined;
      }
      return { kind: "unary", type: a.type, op: "bitnot", operand: a, span: e.span };
  }
}

const ARITH: Partial<Record<ast.BinaryOp, BinOp>> = { "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem" };
const BITWISE: Partial<Record<ast.BinaryOp, BinOp>> = { "&": "and", "|": "or", "^": "xor" };
const COMPARE: Partial<Record<ast.BinaryOp, BinOp>> = {
  "==": "eq", "===": "eq", "!=": "ne", "!==": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
};

/** bool, or a bool vector of `t`'s lanes: what comparing two values of type `t` gives. */
function comparisonType(t: ValueType): ValueType {
  return t.kind === "vector" ? vectorType(T.bool, t.lanes) : T.bool;
}

export function checkBinary(ctx: FnCtx, e: ast.BinaryExpr, expected?: ValueType): Expr | undefined {
  if (e.op === "&&" || e.op === "||") {
    const l = checkCondition(ctx, e.left, `the left operand of '${e.op}'`);
    const r = checkCondition(ctx, e.right, `the right operand of '${e.op}'`);
    if (!l || !r) return undefined;
    return { kind: "logical", type: T.bool, op: e.op === "&&" ? "and" : "or", left: l, right: r, span: e.span };
  }
  if (e.op === "<<" || e.op === ">>" || e.op === ">>>") return checkShift(ctx, e, expected);
  const cmp = COMPARE[e.op];
  if (cmp) {
    const lu = untypedOf(ctx, e.left);
    const ru = untypedOf(ctx, e.right);
    if (lu && ru) return constExpr(T.bool, untypedCompare(e.op, lu, ru)!, e.span);
    const ops = unify(ctx, e, undefined);
    if (!ops) return undefined;
    const lane = laneScalar(ops.type);
    if (!lane) {
      ctx.log.error("GK3003", e.opSpan, `'${e.op}' does not compare structs (${typeToString(ops.type)}); compare their fields`);
      return undefined;
    }
    if (isBool(lane) && cmp !== "eq" && cmp !== "ne") {
      ctx.log.error("GK3003", e.opSpan, `'${e.op}' does not order bool values; compare them with == or !=`);
      return undefined;
    }
    return { kind: "binary", type: comparisonType(ops.type), op: cmp, left: ops.left, right: ops.right, span: e.span };
  }
  const op = ARITH[e.op] ?? BITWISE[e.op];
  if (!op) return undefined;
  const ops = unify(ctx, e, expected);
  if (!ops) return undefined;
  const lane = laneScalar(ops.type);
  if (!lane) {
    ctx.log.error("GK3003", e.opSpan, `'${e.op}' is not defined for structs (${typeToString(ops.type)}); work on their fields`);
    return undefined;
  }
  if (ARITH[e.op] && isBool(lane)) {
    ctx.log.error("GK3003", e.opSpan, `'${e.op}' needs numbers, but its operands are ${typeToString(ops.type)}`);
    return undefined;
  }
  if (BITWISE[e.op] && isFloat(lane)) {
    ctx.log.error("GK3003", e.opSpan, `'${e.op}' needs integers or bool, but its operands are ${typeToString(ops.type)}`);
    return undefined;
  }
  return { kind: "binary", type: ops.type, op, left: ops.left, right: ops.right, span: e.span };
}

interface Operands {
  readonly left: ValueExpr;
  readonly right: ValueExpr;
  readonly type: ValueType;
}

/**
 * Checks both operands of a binary operator (or the branches of `?:`, without `op`) to one
 * common type; an untyped side takes the other side's (lane) type. An operator (not `?:`)
 * also takes a vector and a scalar of its lane type, splatting the scalar.
 */
function unify(ctx: FnCtx, e: { left: ast.Expr; right: ast.Expr; span: Span; op?: string }, expected?: ValueType): Operands | undefined {
  const lu = untypedOf(ctx, e.left);
  const ru = untypedOf(ctx, e.right);
  if (ctx.poisoned.has(e.left) || ctx.poisoned.has(e.right)) return undefined;
  let left: ValueExpr | undefined;
  let right: ValueExpr | undefined;
  if (lu && ru) {
    const t = constantTypeFor(expected) ?? (lu.kind === "float" || ru.kind === "float" ? T.f32 : T.i32);
    left = materialize(ctx, lu, t, e.left.span);
    right = materialize(ctx, ru, t, e.right.span);
  } else if (lu) {
    right = checkValue(ctx, e.right, expected);
    if (!right) return undefined;
    left = materialize(ctx, lu, constantTypeFor(right.type), e.left.span);
  } else if (ru) {
    left = checkValue(ctx, e.left, expected);
    if (!left) return undefined;
    right = materialize(ctx, ru, constantTypeFor(left.type), e.right.span);
  } else {
    left = checkValue(ctx, e.left, expected);
    right = checkValue(ctx, e.right, left?.type ?? expected);
  }
  if (!left || !right) return undefined;
  if (left.type === right.type) return { left, right, type: left.type };
  if (e.op !== undefined) {
    if (left.type.kind === "vector" && right.type === left.type.elem) return { left, right: splat(left.type, right), type: left.type };
    if (right.type.kind === "vector" && left.type === right.type.elem) return { left: splat(right.type, left), right, type: right.type };
  }
  const lt = textOf(ctx, e.left.span);
  const rt = textOf(ctx, e.right.span);
  const what = e.op ? `'${e.op}'` : "the two branches of '?:'";
  const lT = typeToString(left.type);
  const rT = typeToString(right.type);
  const fix = left.type.kind === "struct" || right.type.kind === "struct" ? "" : `: write ${rT}(${lt}) or ${lT}(${rt})`;
  ctx.log.error("GK3001", joinSpans(e.left.span, e.right.span), `mixed types in ${what}: '${lt}' is ${lT} and '${rt}' is ${rT}; gk never converts implicitly${fix}`);
  return undefined;
}

function checkShift(ctx: FnCtx, e: ast.BinaryExpr, expected?: ValueType): ValueExpr | undefined {
  const left = checkValue(ctx, e.left, expected);
  if (!left) return undefined;
  return shiftWith(ctx, e.op as "<<" | ">>" | ">>>", left, e.left.span, e.right, e.span, e.opSpan);
}

/**
 * `left op count` for a checked left operand (an integer, or a vector of integers): the count
 * is any integer (converted to the left's lane type, and splatted for a vector), or a vector
 * of integers of the left's lanes (converted lane by lane).
 */
function shiftWith(ctx: FnCtx, op: "<<" | ">>" | ">>>", left: ValueExpr, leftSpan: Span, right: ast.Expr, span: Span, opSpan: Span): ValueExpr | undefined {
  const lane = laneScalar(left.type);
  if (!lane || !isInt(lane)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs an integer to shift, but '${textOf(ctx, leftSpan)}' is ${typeToString(left.type)}`);
    return undefined;
  }
  const t = left.type as ScalarType | VectorType;
  let count: ValueExpr | undefined;
  const cu = untypedOf(ctx, right);
  if (ctx.poisoned.has(right)) return undefined;
  if (cu) {
    const width = BigInt(bitWidth(lane));
    if (cu.kind !== "int" || cu.value < 0n || cu.value >= width) {
      ctx.log.error("GK3006", right.span, `the shift count ${textOf(ctx, right.span)} is out of range for ${lane.name} (0 to ${width - 1n})`);
      return undefined;
    }
    count = constExpr(lane, isBigIntType(lane) ? cu.value : Number(cu.value), right.span);
  } else {
    const c = checkValue(ctx, right);
    if (!c) return undefined;
    const cl = laneScalar(c.type);
    if (!cl || !isInt(cl) || (c.type.kind === "vector" && (t.kind !== "vector" || c.type.lanes !== t.lanes))) {
      const want = t.kind === "vector" ? `an integer, or a vector of ${t.lanes} integers` : "an integer";
      ctx.log.error("GK3003", right.span, `a shift count must be ${want}, but '${textOf(ctx, right.span)}' is ${typeToString(c.type)}`);
      return undefined;
    }
    const target = withLane(c.type as ScalarType | VectorType, lane);
    count = c.type === target ? c : { kind: "cast", type: target, operand: c, span: c.span };
  }
  if (t.kind === "vector" && count.type.kind === "scalar") count = splat(t, count);
  if (op === "<<") return { kind: "binary", type: t, op: "shl", left, right: count, span };
  if (op === ">>" || !isSigned(lane)) return { kind: "binary", type: t, op: "shr", left, right: count, span };
  // `>>>` on a signed integer shifts in zeros: shift its unsigned bits, then read them back as signed.
  const u = withLane(t, unsignedOf(lane));
  const shifted: ValueExpr = {
    kind: "binary", type: u, op: "shr",
    left: { kind: "cast", type: u, operand: left, span: left.span },
    right: { kind: "cast", type: u, operand: count, span: count.span },
    span,
  };
  return { kind: "cast", type: t, operand: shifted, span };
}

/**
 * `left op= right` (and `++`/`--`): the operator applied to an already checked left
 * operand, whose type the result must keep (a vector target also takes a scalar of its lane
 * type, splatted).
 */
export function checkCompound(ctx: FnCtx, op: ast.BinaryOp, left: ValueExpr, leftSpan: Span, right: ast.Expr, span: Span, opSpan: Span): ValueExpr | undefined {
  if (op === "<<" || op === ">>" || op === ">>>") return shiftWith(ctx, op, left, leftSpan, right, span, opSpan);
  const bin = ARITH[op] ?? BITWISE[op];
  if (!bin) return undefined;
  const t = left.type;
  const lane = laneScalar(t);
  const what = typeToString(t);
  if (!lane) {
    ctx.log.error("GK3003", opSpan, `'${op}' is not defined for structs: '${textOf(ctx, leftSpan)}' is ${what}`);
    return undefined;
  }
  if (ARITH[op] && isBool(lane)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs a number, but '${textOf(ctx, leftSpan)}' is ${what}`);
    return undefined;
  }
  if (BITWISE[op] && isFloat(lane)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs integers or bool, but '${textOf(ctx, leftSpan)}' is ${what}`);
    return undefined;
  }
  let r: ValueExpr | undefined;
  if (t.kind === "vector") {
    const v = checkValue(ctx, right, t);
    if (!v) return undefined;
    if (v.type === lane) r = splat(t, v);
    else if (v.type === t) r = v;
    else {
      ctx.log.error("GK3001", right.span, `'${textOf(ctx, leftSpan)}' is ${what}, but '${textOf(ctx, right.span)}' is ${typeToString(v.type)}; gk never converts implicitly: write ${what}(${textOf(ctx, right.span)}) or a ${lane.name}`);
      return undefined;
    }
  } else {
    r = checkAs(ctx, right, t, `'${textOf(ctx, leftSpan)}'`);
  }
  if (!r) return undefined;
  return { kind: "binary", type: t, op: bin, left, right: r, span };
}

export function checkConditional(ctx: FnCtx, e: ast.ConditionalExpr, expected?: ValueType): Expr | undefined {
  const cond = checkCondition(ctx, e.cond, "the condition of '?:'");
  const ops = unify(ctx, { left: e.then, right: e.else, span: e.span }, expected);
  if (!cond || !ops) return undefined;
  return { kind: "select", type: ops.type, cond, ifTrue: ops.left, ifFalse: ops.right, span: e.span };
}

/** Checking expressions: from AST expressions to typed IR expressions. */
import type * as ast from "../../parser/ast.js";
import { joinSpans, type Span } from "../../diagnostics/source.js";
import type { ArrayVar, BinOp, ConstExpr, Expr, SpecialName } from "../nodes.js";
import { foldExpr } from "../passes/fold.js";
import { lookupBuiltin } from "../builtins.js";
import { isBigIntType, isBool, isFloat, isInt, isSigned, scalarType, T, unsignedOf, type ScalarType } from "../types.js";
import { BF16_MAX, F16_MAX } from "../halves.js";
import { checkCall } from "./call.js";
import { constExpr, hasValue, textOf, tyName, type FnCtx, type ValueExpr } from "./context.js";
import { checkIndexChain } from "./memory.js";
import { didYouMean } from "./symbols.js";
import {
  convertUntyped, defaultType, literalValue, untypedBinary, untypedCompare, untypedToString, untypedUnary,
  type Untyped,
} from "./untyped.js";
import { isReservedName, reservedNameHint, SPECIALS } from "./names.js";
import { bitWidth } from "../types.js";
import { INT_RANGES } from "../values.js";

// ---------------------------------------------------------------- untyped constants

/** The exact value of an untyped constant expression, or null when `e` is not one. Errors are reported once. */
export function untypedOf(ctx: FnCtx, e: ast.Expr): Untyped | null {
  if (ctx.untyped.has(e)) return ctx.untyped.get(e)!;
  const v = computeUntyped(ctx, e);
  ctx.untyped.set(e, v);
  return v;
}

function computeUntyped(ctx: FnCtx, e: ast.Expr): Untyped | null {
  switch (e.kind) {
    case "Number": {
      const v = literalValue(e);
      if (typeof v === "string") return poison(ctx, e, "GK1003", v);
      return v;
    }
    case "Paren":
      return propagate(ctx, e, e.expr);
    case "Name": {
      const local = ctx.scopes.lookup(e.name);
      if (local) return local.kind === "untypedConst" ? local.value : null;
      const m = ctx.module.lookup(e.name);
      if (m) return m.kind === "untypedConst" ? m.value : null;
      const b = lookupBuiltin(e.name);
      return b?.rule.kind === "constant" && b.rule.type === "float" ? { kind: "float", value: b.rule.value as number } : null;
    }
    case "Unary": {
      const a = propagate(ctx, e, e.operand);
      if (!a) return null;
      const r = untypedUnary(e.op, a);
      if (!r) return null;
      if ("error" in r) return poison(ctx, e, r.code, r.error);
      return r;
    }
    case "Binary": {
      const a = untypedOf(ctx, e.left);
      const b = untypedOf(ctx, e.right);
      if (!a || !b) {
        if (ctx.poisoned.has(e.left) || ctx.poisoned.has(e.right)) ctx.poisoned.add(e);
        return null;
      }
      const r = untypedBinary(e.op, a, b);
      if (!r) return null;
      if ("error" in r) return poison(ctx, e, r.code, r.error, e.opSpan);
      return r;
    }
    default:
      return null;
  }
}

function propagate(ctx: FnCtx, outer: ast.Expr, inner: ast.Expr): Untyped | null {
  const v = untypedOf(ctx, inner);
  if (ctx.poisoned.has(inner)) ctx.poisoned.add(outer);
  return v;
}

function poison(ctx: FnCtx, e: ast.Expr, code: "GK1003" | "GK3016" | "GK3003" | "GK3006", message: string, at?: Span): null {
  ctx.log.error(code, at ?? e.span, message);
  ctx.poisoned.add(e);
  return null;
}

/** Gives an untyped constant the type `t` (or its default), reporting values that do not fit. */
export function materialize(ctx: FnCtx, u: Untyped, t: ScalarType | undefined, span: Span): ValueExpr | undefined {
  const type = t ?? defaultType(u);
  const r = convertUntyped(u, type);
  if (r.ok) return constExpr(type, r.value, span);
  const lit = untypedToString(u);
  switch (r.why) {
    case "range":
      ctx.log.error("GK3006", span, `the constant ${lit} does not fit in ${type.name}${rangeHint(type)}`);
      break;
    case "float-to-int":
      ctx.log.error("GK3007", span, `the float constant ${lit} is used where ${type.name} is expected; gk never converts floats to integers implicitly: write ${type.name}(${lit})`);
      break;
    case "to-bool":
      ctx.log.error("GK3001", span, `the number ${lit} is used where bool is expected: write a comparison such as 'x != 0', or true/false`);
      break;
  }
  return undefined;
}

function rangeHint(t: ScalarType): string {
  switch (t.name) {
    case "i32": return ` (${INT_RANGES.i32[0]} to ${INT_RANGES.i32[1]}); use i64, or u32 for values up to ${INT_RANGES.u32[1]}`;
    case "u32": return ` (0 to ${INT_RANGES.u32[1]}); use i64 or u64 for larger values, or a signed type for negative ones`;
    case "i64": return " (-2^63 to 2^63-1)";
    case "u64": return " (0 to 2^64-1)";
    case "i8":
    case "u8":
    case "i16":
    case "u16": return ` (${INT_RANGES[t.name][0]} to ${INT_RANGES[t.name][1]})`;
    case "f16": return ` (its largest finite value is ${F16_MAX})`;
    case "bf16": return ` (its largest finite value is about ${BF16_MAX.toPrecision(4)})`;
    default: return "";
  }
}

// ---------------------------------------------------------------- entry points

/** Checks an expression that must produce a value; `expected` types untyped constants. */
export function checkValue(ctx: FnCtx, e: ast.Expr, expected?: ScalarType): ValueExpr | undefined {
  const r = checkExpr(ctx, e, expected);
  if (!r) return undefined;
  if (!hasValue(r)) {
    ctx.log.error("GK3018", e.span, `'${textOf(ctx, e.span)}' has no value: the function returns void`);
    ctx.poisoned.add(e);
    return undefined;
  }
  return r;
}

/** Checks `e` and requires exactly type `t` (no implicit conversion exists in gk). */
/**
 * A checked expression folded to its constant value, or GK3014 at `e`: "WHAT must be a
 * constant expression, but '...' is computed at run time" and then `advice`.
 */
export function foldedConstant(ctx: FnCtx, v: Expr, e: ast.Expr, what: string, advice = ""): ConstExpr | undefined {
  const f = foldExpr(v, ctx.module.flushToZero);
  if (f.kind === "const") return f;
  ctx.log.error("GK3014", e.span, `${what} must be a constant expression, but '${textOf(ctx, e.span)}' is computed at run time${advice}`);
  return undefined;
}

export function checkAs(ctx: FnCtx, e: ast.Expr, t: ScalarType, what: string, code: "GK3001" | "GK3011" = "GK3001"): ValueExpr | undefined {
  const r = checkValue(ctx, e, t);
  if (!r) return undefined;
  if (r.type !== t) {
    ctx.log.error(code, e.span, `${what} is ${t.name}, but '${textOf(ctx, e.span)}' is ${r.type.name}; gk never converts implicitly: write ${t.name}(${textOf(ctx, e.span)})`);
    return undefined;
  }
  return r;
}

/** Checks a condition, which must be bool. */
export function checkCondition(ctx: FnCtx, e: ast.Expr, what: string): ValueExpr | undefined {
  const r = checkValue(ctx, e, T.bool);
  if (!r) return undefined;
  if (!isBool(r.type)) {
    const text = textOf(ctx, e.span);
    const hint = isInt(r.type) || isFloat(r.type) ? `: write '${text} != 0'` : "";
    ctx.log.error("GK3002", e.span, `${what} must be bool, but '${text}' is ${r.type.name}${hint}`);
    return undefined;
  }
  return r;
}

/** Any expression; a call of a void function gives an expression of type void. */
export function checkExpr(ctx: FnCtx, e: ast.Expr, expected?: ScalarType): Expr | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) return materialize(ctx, u, expected, e.span);
  switch (e.kind) {
    case "Number":
      return undefined; // handled as an untyped constant above
    case "Bool":
      return constExpr(T.bool, e.value, e.span);
    case "Paren":
      return checkExpr(ctx, e.expr, expected);
    case "Name":
      return checkName(ctx, e);
    case "Member":
      return checkMember(ctx, e);
    case "Index":
      return checkIndex(ctx, e);
    case "Unary":
      return checkUnary(ctx, e, expected);
    case "Binary":
      return checkBinary(ctx, e, expected);
    case "Conditional":
      return checkConditional(ctx, e, expected);
    case "Call":
      return checkCall(ctx, e, expected);
    case "ArrayLit":
      ctx.log.error("GK3013", e.span, "an array literal can only initialize a local array ('let a: f32[3] = [1, 2, 3];') or be a launch argument");
      return undefined;
  }
}

// ---------------------------------------------------------------- names and members

function checkName(ctx: FnCtx, e: ast.NameExpr): Expr | undefined {
  const local = ctx.scopes.lookup(e.name);
  if (local) {
    switch (local.kind) {
      case "scalar":
        if (local.var.ref === "out") {
          ctx.log.error("GK3019", e.span, outRead(e.name));
          return undefined;
        }
        return { kind: "var", type: local.var.type, var: local.var, span: e.span };
      case "array":
        if (local.scalar) return scalarSharedLoad(local.var, e.span);
        ctx.log.error("GK3013", e.span, `'${e.name}' is an array (${tyName(local.var.type)}); arrays are not values: index it, e.g. ${e.name}[i]`);
        return undefined;
      case "constParam":
        return local.value !== undefined ? constExpr(local.var.type as ScalarType, local.value, e.span) : { kind: "var", type: local.var.type, var: local.var, span: e.span };
      case "typeParam":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a type parameter (here ${local.type.name}), not a value; to convert a value write ${e.name}(x)`);
        return undefined;
      case "untypedConst":
      case "poisoned":
        return undefined;
    }
  }
  const m = ctx.module.lookup(e.name);
  if (m) {
    switch (m.kind) {
      case "typedConst":
        return constExpr(m.type, m.value, e.span);
      case "function":
      case "kernel":
      case "generic":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a ${m.kind === "kernel" || (m.kind === "generic" && m.of === "kernel") ? "device_kernel" : "device_fn"}, not a value`);
        return undefined;
      case "constArray":
        ctx.log.error("GK3013", e.span, `'${e.name}' is a constant array (${tyName(m.type)}); arrays are not values: index it, e.g. ${e.name}[i]`);
        return undefined;
      case "untypedConst":
      case "poisoned":
        return undefined;
    }
  }
  // `warpSize`, `Infinity`, `NaN` and `laneId`, unless a declaration shadows them.
  const b = lookupBuiltin(e.name);
  if (b?.rule.kind === "constant") return constExpr(b.rule.type === "float" ? T.f32 : scalarType(b.rule.type), b.rule.value, e.span);
  if (b?.rule.kind === "index" && !b.rule.axes) return { kind: "special", type: T.i32, name: b.rule.special, axis: 0, span: e.span };
  if (isReservedName(e.name)) {
    ctx.log.error("GK2008", e.span, reservedNameHint(e.name));
    return undefined;
  }
  ctx.log.error("GK2001", e.span, `unknown name '${e.name}'${didYouMean(e.name, [...ctx.scopes.names(), ...ctx.module.names()])}`);
  return undefined;
}

/** GK3019's message: an `out` parameter is only written. */
export function outRead(name: string): string {
  return `'${name}' is an out parameter: the function writes it and cannot read it; declare it 'inout' to read the caller's value`;
}

/** A read of a scalar `shared` variable: element 0 of its one-element array. */
export function scalarSharedLoad(array: ArrayVar, span: Span): ValueExpr {
  return { kind: "load", type: array.type.elem, array, indices: [constExpr(T.i32, 0, span)], span };
}

const AXES: Record<string, 0 | 1 | 2> = { x: 0, y: 1, z: 2 };

function checkMember(ctx: FnCtx, e: ast.MemberExpr): Expr | undefined {
  const obj = e.object;
  if (obj.kind === "Name" && SPECIALS.has(obj.name) && !ctx.scopes.lookup(obj.name)) {
    const axis = AXES[e.property.name];
    if (axis === undefined) {
      ctx.log.error("GK2005", e.property.span, `'${obj.name}' has members .x, .y and .z, not '.${e.property.name}'`);
      return undefined;
    }
    if (ctx.kind === "const") {
      ctx.log.error("GK3014", e.span, `'${obj.name}.${e.property.name}' is not a constant`);
      return undefined;
    }
    return { kind: "special", type: T.i32, name: obj.name as SpecialName, axis, span: e.span };
  }
  ctx.log.error("GK2005", e.property.span, `'.${e.property.name}': only threadIdx, blockIdx, blockDim, gridDim and globalId have members (.x, .y, .z)`);
  return undefined;
}

function checkIndex(ctx: FnCtx, e: ast.IndexExpr): Expr | undefined {
  const r = checkIndexChain(ctx, e, "read");
  if (!r) return undefined;
  return { kind: "load", type: r.array.type.elem, array: r.array, indices: r.indices, span: e.span };
}

// ---------------------------------------------------------------- operators

function checkUnary(ctx: FnCtx, e: ast.UnaryExpr, expected?: ScalarType): Expr | undefined {
  const a = checkValue(ctx, e.operand, e.op === "!" ? T.bool : expected);
  if (!a) return undefined;
  const text = textOf(ctx, e.operand.span);
  switch (e.op) {
    case "+":
    case "-":
      if (isBool(a.type)) {
        ctx.log.error("GK3003", e.span, `unary '${e.op}' needs a number, but '${text}' is bool`);
        return undefined;
      }
      return e.op === "+" ? a : { kind: "unary", type: a.type, op: "neg", operand: a, span: e.span };
    case "!":
      if (!isBool(a.type)) {
        ctx.log.error("GK3003", e.span, `'!' needs bool, but '${text}' is ${a.type.name}: write '${text} == 0'`);
        return undefined;
      }
      return { kind: "unary", type: T.bool, op: "not", operand: a, span: e.span };
    case "~":
      if (!isInt(a.type)) {
        ctx.log.error("GK3003", e.span, `'~' needs an integer, but '${text}' is ${a.type.name}`);
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

function checkBinary(ctx: FnCtx, e: ast.BinaryExpr, expected?: ScalarType): Expr | undefined {
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
    if (isBool(ops.type) && cmp !== "eq" && cmp !== "ne") {
      ctx.log.error("GK3003", e.opSpan, `'${e.op}' does not order bool values; compare them with == or !=`);
      return undefined;
    }
    return { kind: "binary", type: T.bool, op: cmp, left: ops.left, right: ops.right, span: e.span };
  }
  const op = ARITH[e.op] ?? BITWISE[e.op];
  if (!op) return undefined;
  const ops = unify(ctx, e, expected);
  if (!ops) return undefined;
  if (ARITH[e.op] && isBool(ops.type)) {
    ctx.log.error("GK3003", e.opSpan, `'${e.op}' needs numbers, but its operands are bool`);
    return undefined;
  }
  if (BITWISE[e.op] && isFloat(ops.type)) {
    ctx.log.error("GK3003", e.opSpan, `'${e.op}' needs integers or bool, but its operands are ${ops.type.name}`);
    return undefined;
  }
  return { kind: "binary", type: ops.type, op, left: ops.left, right: ops.right, span: e.span };
}

interface Operands {
  readonly left: ValueExpr;
  readonly right: ValueExpr;
  readonly type: ScalarType;
}

/** Checks both operands of a binary operator to one common type; an untyped side takes the other side's type. */
function unify(ctx: FnCtx, e: { left: ast.Expr; right: ast.Expr; span: Span; op?: string }, expected?: ScalarType): Operands | undefined {
  const lu = untypedOf(ctx, e.left);
  const ru = untypedOf(ctx, e.right);
  if (ctx.poisoned.has(e.left) || ctx.poisoned.has(e.right)) return undefined;
  let left: ValueExpr | undefined;
  let right: ValueExpr | undefined;
  if (lu && ru) {
    const t = expected ?? (lu.kind === "float" || ru.kind === "float" ? T.f32 : T.i32);
    left = materialize(ctx, lu, t, e.left.span);
    right = materialize(ctx, ru, t, e.right.span);
  } else if (lu) {
    right = checkValue(ctx, e.right, expected);
    if (!right) return undefined;
    left = materialize(ctx, lu, right.type, e.left.span);
  } else if (ru) {
    left = checkValue(ctx, e.left, expected);
    if (!left) return undefined;
    right = materialize(ctx, ru, left.type, e.right.span);
  } else {
    left = checkValue(ctx, e.left, expected);
    right = checkValue(ctx, e.right, left?.type ?? expected);
  }
  if (!left || !right) return undefined;
  if (left.type !== right.type) {
    const lt = textOf(ctx, e.left.span);
    const rt = textOf(ctx, e.right.span);
    const what = e.op ? `'${e.op}'` : "the two branches of '?:'";
    ctx.log.error(
      "GK3001",
      joinSpans(e.left.span, e.right.span),
      `mixed types in ${what}: '${lt}' is ${left.type.name} and '${rt}' is ${right.type.name}; gk never converts implicitly: write ${right.type.name}(${lt}) or ${left.type.name}(${rt})`,
    );
    return undefined;
  }
  return { left, right, type: left.type };
}

function checkShift(ctx: FnCtx, e: ast.BinaryExpr, expected?: ScalarType): ValueExpr | undefined {
  const left = checkValue(ctx, e.left, expected);
  if (!left) return undefined;
  return shiftWith(ctx, e.op as "<<" | ">>" | ">>>", left, e.left.span, e.right, e.span, e.opSpan);
}

/** `left op count` for a checked left operand: any integer count, converted to the left's type. */
function shiftWith(ctx: FnCtx, op: "<<" | ">>" | ">>>", left: ValueExpr, leftSpan: Span, right: ast.Expr, span: Span, opSpan: Span): ValueExpr | undefined {
  if (!isInt(left.type)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs an integer to shift, but '${textOf(ctx, leftSpan)}' is ${left.type.name}`);
    return undefined;
  }
  const t = left.type;
  let count: ValueExpr | undefined;
  const cu = untypedOf(ctx, right);
  if (ctx.poisoned.has(right)) return undefined;
  if (cu) {
    const width = BigInt(bitWidth(t));
    if (cu.kind !== "int" || cu.value < 0n || cu.value >= width) {
      ctx.log.error("GK3006", right.span, `the shift count ${textOf(ctx, right.span)} is out of range for ${t.name} (0 to ${width - 1n})`);
      return undefined;
    }
    count = constExpr(t, isBigIntType(t) ? cu.value : Number(cu.value), right.span);
  } else {
    const c = checkValue(ctx, right);
    if (!c) return undefined;
    if (!isInt(c.type)) {
      ctx.log.error("GK3003", right.span, `a shift count must be an integer, but '${textOf(ctx, right.span)}' is ${c.type.name}`);
      return undefined;
    }
    count = c.type === t ? c : { kind: "cast", type: t, operand: c, span: c.span };
  }
  if (op === "<<") return { kind: "binary", type: t, op: "shl", left, right: count, span };
  if (op === ">>" || !isSigned(t)) return { kind: "binary", type: t, op: "shr", left, right: count, span };
  // `>>>` on a signed integer shifts in zeros: shift its unsigned bits, then read them back as signed.
  const u = unsignedOf(t);
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
 * operand, whose type the result must keep.
 */
export function checkCompound(ctx: FnCtx, op: ast.BinaryOp, left: ValueExpr, leftSpan: Span, right: ast.Expr, span: Span, opSpan: Span): ValueExpr | undefined {
  if (op === "<<" || op === ">>" || op === ">>>") return shiftWith(ctx, op, left, leftSpan, right, span, opSpan);
  const bin = ARITH[op] ?? BITWISE[op];
  if (!bin) return undefined;
  const t = left.type;
  if (ARITH[op] && isBool(t)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs a number, but '${textOf(ctx, leftSpan)}' is bool`);
    return undefined;
  }
  if (BITWISE[op] && isFloat(t)) {
    ctx.log.error("GK3003", opSpan, `'${op}' needs integers or bool, but '${textOf(ctx, leftSpan)}' is ${t.name}`);
    return undefined;
  }
  const r = checkAs(ctx, right, t, `'${textOf(ctx, leftSpan)}'`);
  if (!r) return undefined;
  return { kind: "binary", type: t, op: bin, left, right: r, span };
}

function checkConditional(ctx: FnCtx, e: ast.ConditionalExpr, expected?: ScalarType): Expr | undefined {
  const cond = checkCondition(ctx, e.cond, "the condition of '?:'");
  const ops = unify(ctx, { left: e.then, right: e.else, span: e.span }, expected);
  if (!cond || !ops) return undefined;
  return { kind: "select", type: ops.type, cond, ifTrue: ops.left, ifFalse: ops.right, span: e.span };
}


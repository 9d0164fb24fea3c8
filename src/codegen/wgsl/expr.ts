/**
 * Expressions: IR → WGSL text with gk's meaning (spec/wgsl.md lists where WGSL's differs).
 *
 * - Integer `+ - *`, unary `-` and `<<` wrap in WGSL already; `/` and `%` go through helpers
 *   (division by zero yields 0) unless the divisor is a constant that is neither 0 nor -1.
 * - Shift counts are taken modulo 32 and made u32: `a << (u32(b) & 31u)`.
 * - Conversions: i32 ↔ u32 keep the bits (WGSL's `u32(i)`); float → int saturates, and int →
 *   float rounds once to nearest, through helpers; to bool is `x != 0`; from bool a `select`.
 * - WGSL evaluates operands left to right, as gk does; `c ? a : b` is `select(b, a, c)` (both
 *   evaluated) unless a branch writes memory, when the statement evaluates it with an `if`
 *   first (stmt.ts, `spill`).
 * - Parentheses: WGSL does not let `&`, `|`, `^`, shifts, `&&` and `||` mix with other
 *   operators, so their operands are parenthesized unless they are primary expressions.
 * - Arrays are module-scope variables: a device function's array parameter is the caller's
 *   array itself (specialize.ts), so accesses name it. Elements of an array that atomics
 *   touch are `atomic<...>`, read and written with atomicLoad and atomicStore.
 */
import type { ArrayVar, AtomicExpr, BinaryExpr, BuiltinExpr, CallExpr, CastExpr, ConstructExpr, Expr, LoadExpr, PathStep, ValueVar } from "../../ir/nodes.js";
import { expandLanes, isLaneWise } from "../../ir/lanes.js";
import { vectorBuiltin } from "../../ir/builtins.js";
import { stepType } from "../../ir/paths.js";
import { asScalar, isFloat, isInt, isSigned, laneName, type ArrayType, type ScalarType, type StructType, type ValueType } from "../../ir/types.js";
import { someExpr } from "../../ir/walk.js";
import { assertNever, invariant } from "../../util.js";
import { divHelper, floatToIntHelper, fmodHelper, fromBitsHelper, intToFloatHelper, opaqueHelper, shape, type HelperSet, type Shape } from "./helpers.js";
import { FROM_BITS, literal } from "./literals.js";
import { builtinCall } from "./math.js";
import { atomicCall, vectorLoadCall } from "./atomics.js";
import { scalarName, typeName, type StructNames } from "./types.js";

/** WGSL text and how tightly its outermost operator binds. */
export interface Emitted {
  readonly text: string;
  readonly prec: number;
}

export const PREC = { logical: 1, bitwise: 2, rel: 3, shift: 4, add: 5, mul: 6, unary: 7, primary: 8 } as const;

/**
 * An array as the generated code names it, whether its elements are atomic, and whether it
 * is a local array of the function being emitted (a `var` of the function, which a helper
 * reaches through a `ptr<function, T>` parameter) or a module-scope one (which a helper names).
 */
export interface ArrayRef {
  readonly name: string;
  readonly type: ArrayVar["type"];
  readonly atomic: boolean;
  readonly local?: boolean;
}

/** What expression emission needs from the function being emitted. */
export interface ExprContext {
  /** The WGSL name of a value variable. */
  readonly name: (v: ValueVar) => string;
  /** The array an ArrayVar of this function stands for: its own local array, or a module-scope one. */
  readonly array: (a: ArrayVar) => ArrayRef;
  /** The WGSL function a call of this function reaches (its instance for these array arguments). */
  readonly callee: (e: CallExpr) => string;
  readonly structs: StructNames;
  readonly field: (t: StructType, field: number) => string;
  readonly helpers: HelperSet;
  /** Where thread and block indices come from: the entry point's builtins (a kernel), or their private copies (a device function). */
  readonly specials: "entry" | "private";
}

export const atom = (text: string): Emitted => ({ text, prec: PREC.primary });

/** `x.text`, parenthesized unless it binds at least as tightly as `min`. */
export function operand(x: Emitted, min: number): string {
  return x.prec >= min ? x.text : `(${x.text})`;
}

export function valueShape(t: ValueType): Shape {
  if (t.kind === "scalar") return shape(scalarName(t), null);
  invariant(t.kind === "vector", `a ${t.kind} where a scalar or vector is expected`);
  return shape(scalarName(t.elem), t.lanes);
}

export function emitExpr(e: Expr, cx: ExprContext): Emitted {
  switch (e.kind) {
    case "const": {
      const text = literal(e.type, e.value);
      if (text.startsWith(FROM_BITS)) fromBitsHelper(cx.helpers);
      return { text, prec: text.startsWith("-") ? PREC.unary : PREC.primary };
    }
    case "var":
      return atom(cx.name(e.var));
    case "special":
      return atom(special(e.name, e.axis, cx.specials));
    case "unary": {
      const x = e.op === "neg" ? runtime(e.operand, cx) : emitExpr(e.operand, cx);
      // WGSL has no unary - of u32: 0 - x wraps to the same bits.
      const t = e.type as ValueType;
      if (e.op === "neg" && (t.kind === "vector" ? t.elem : asScalar(t)).name === "u32") return { text: `${valueShape(t).type}(0u) - ${operand(x, PREC.mul)}`, prec: PREC.add };
      const op = e.op === "neg" ? "-" : e.op === "not" ? "!" : "~";
      const text = operand(x, PREC.unary);
      return { text: `${op}${text.startsWith(op) || (op === "-" && text.startsWith("-")) ? `(${text})` : text}`, prec: PREC.unary };
    }
    case "binary":
      return binary(e, cx);
    case "logical": {
      const op = e.op === "and" ? "&&" : "||";
      const l = emitExpr(e.left, cx);
      const r = emitExpr(e.right, cx);
      const left = l.prec === PREC.logical && e.left.kind === "logical" && e.left.op === e.op ? l.text : operand(l, PREC.rel);
      return { text: `${left} ${op} ${operand(r, PREC.rel)}`, prec: PREC.logical };
    }
    case "select":
      // Both branches are evaluated: the statement spilled a branch with effects beforehand (stmt.ts).
      return atom(`select(${emitExpr(e.ifFalse, cx).text}, ${emitExpr(e.ifTrue, cx).text}, ${emitExpr(e.cond, cx).text})`);
    case "cast":
      return cast(e, cx);
    case "load":
      return load(e, cx);
    case "call":
      return atom(`${cx.callee(e)}(${e.args.flatMap((a) => (a.kind === "arrayArg" ? [] : [emitExpr(a as Expr, cx).text])).join(", ")})`);
    case "builtin":
      return builtin(e, cx);
    case "atomic":
      return atom(atomicCall(e as AtomicExpr, cx));
    case "warp":
      return invariant(false, `warp operation ${e.op} reached the WGSL backend (legalize refuses it)`) as never;
    case "member":
      return atom(`${operand(emitExpr(e.operand, cx), PREC.primary)}${pathText(e.operand.type as ValueType, e.path, cx)}`);
    case "construct":
      return construct(e, cx);
    case "swizzle":
      return atom(`${operand(emitExpr(e.operand, cx), PREC.primary)}.${e.lanes.map(laneName).join("")}`);
    case "zero":
      return atom(`${typeName(e.type, cx.structs)}()`);
    case "bitcast":
      // Between 32-bit scalars and vectors of them (WGSL's bitcast; legalize refuses the wider and narrower types).
      return atom(`bitcast<${typeName(e.type, cx.structs)}>(${emitExpr(e.operand, cx).text})`);
    default:
      return assertNever(e, "expression");
  }
}

/** threadIdx and the rest, as i32, from the kernel's builtins (or their private copies, function.ts). */
function special(name: string, axis: number, from: "entry" | "private"): string {
  const c = "xyz"[axis]!;
  const [gk_threadIdx, gk_blockIdx, gk_gridDim, gk_threadIndex] =
    from === "entry" ? ["gk_local_id", "gk_group_id", "gk_num_groups", "gk_local_index"] : ["gk_threadIdx", "gk_blockIdx", "gk_gridDim", "gk_threadIndex"];
  switch (name) {
    case "threadIdx":
      return `i32(${gk_threadIdx}.${c})`;
    case "blockIdx":
      return `i32(${gk_blockIdx}.${c})`;
    case "blockDim":
      return `i32(gk_block_${c})`;
    case "gridDim":
      return `i32(${gk_gridDim}.${c})`;
    case "globalId":
      // Computed in u32, where it wraps as i32 does; i32() keeps the bits.
      return `i32(${gk_blockIdx}.${c} * gk_block_${c} + ${gk_threadIdx}.${c})`;
    case "laneId":
      return `i32(${gk_threadIndex} % 32u)`;
    default:
      return invariant(false, `special ${name}`) as never;
  }
}

/** `.pos.x`, `.taps[i][j]`: a path as WGSL members and subscripts. */
export function pathText(t: ValueType | ArrayType, path: readonly PathStep[], cx: ExprContext): string {
  let out = "";
  let cur = t;
  for (const step of path) {
    if (step.kind === "field") {
      invariant(cur.kind === "struct", "a field of a non-struct");
      out += `.${cx.field(cur, step.field)}`;
    } else if (step.kind === "lane") {
      out += `.${laneName(step.lane)}`;
    } else {
      out += indexText(step.indices, cx);
    }
    cur = stepType(cur, step);
  }
  return out;
}

export function indexText(indices: readonly Expr[], cx: ExprContext): string {
  return indices.map((i) => `[${emitExpr(i, cx).text}]`).join("");
}

// ---------------------------------------------------------------- operators

const SYMBOL = {
  add: "+", sub: "-", mul: "*", div: "/", rem: "%", shl: "<<", shr: ">>", and: "&", or: "|", xor: "^",
  eq: "==", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=",
} as const;

/**
 * Whether WGSL may evaluate `e` before the kernel runs: a constant expression, or an override
 * expression, evaluated when the pipeline is made (blockDim is the block-size overrides): no
 * variable, memory, call, or thread or block index in it.
 */
function constantOnly(e: Expr): boolean {
  return !someExpr(e, (x) => ["var", "load", "call", "atomic", "warp"].includes(x.kind) || (x.kind === "special" && x.name !== "blockDim"));
}

/** `e`, through `gk_opaque_T` where it is made of constants only (helpers.ts says why). */
function runtime(e: Expr, cx: ExprContext): Emitted {
  const x = emitExpr(e, cx);
  if (!constantOnly(e) || (e.type.kind !== "scalar" && e.type.kind !== "vector")) return x;
  return atom(`${opaqueHelper(cx.helpers, valueShape(e.type))}(${x.text})`);
}

function binary(e: BinaryExpr, cx: ExprContext): Emitted {
  const t = e.left.type as ValueType;
  const lane = t.kind === "vector" ? t.elem : asScalar(t);
  // Arithmetic that may overflow, of constants only: evaluated at run time, as gk's (wrapping) is.
  const mayOverflow = ["add", "sub", "mul", "shl"].includes(e.op) && constantOnly(e.right);
  const l = () => (mayOverflow ? runtime(e.left, cx) : emitExpr(e.left, cx));
  const r = () => emitExpr(e.right, cx);
  switch (e.op) {
    case "add":
    case "sub":
      return { text: `${operand(l(), PREC.add)} ${SYMBOL[e.op]} ${operand(r(), PREC.mul)}`, prec: PREC.add };
    case "mul":
      return { text: `${operand(l(), PREC.mul)} * ${operand(r(), PREC.unary)}`, prec: PREC.mul };
    case "div":
    case "rem": {
      if (isInt(lane)) {
        if (safeDivisor(e.right)) return { text: `${operand(l(), PREC.mul)} ${SYMBOL[e.op]} ${operand(r(), PREC.unary)}`, prec: PREC.mul };
        return atom(`${divHelper(cx.helpers, e.op, valueShape(t))}(${l().text}, ${r().text})`);
      }
      if (e.op === "div") return { text: `${operand(l(), PREC.mul)} / ${operand(r(), PREC.unary)}`, prec: PREC.mul };
      if (t.kind === "vector") return laneWise(e, cx);
      return atom(`${fmodHelper(cx.helpers)}(${l().text}, ${r().text})`);
    }
    case "shl":
    case "shr":
      return { text: `${operand(l(), PREC.unary)} ${SYMBOL[e.op]} ${shiftCount(e.right, t, cx)}`, prec: PREC.shift };
    case "and":
    case "or":
    case "xor": {
      if (lane.name === "bool" && e.op === "xor") return { text: `${operand(l(), PREC.shift)} != ${operand(r(), PREC.shift)}`, prec: PREC.rel };
      const left = l();
      const chained = e.left.kind === "binary" && e.left.op === e.op;
      return { text: `${chained ? left.text : operand(left, PREC.unary)} ${SYMBOL[e.op]} ${operand(r(), PREC.unary)}`, prec: PREC.bitwise };
    }
    case "eq":
    case "ne":
    case "lt":
    case "le":
    case "gt":
    case "ge": {
      // A name, `<`, then a `>` (a shift, a comparison in parentheses) is what WGSL reads as a
      // template list (`s < 21 >> x` is `s<21>`): such a left operand is parenthesized.
      const left = operand(l(), PREC.shift);
      const right = operand(r(), PREC.shift);
      const guard = (e.op === "lt" || e.op === "le") && right.includes(">") && /(^|[^0-9A-Za-z_.])[A-Za-z_][0-9A-Za-z_]*$/.test(left);
      return { text: `${guard ? `(${left})` : left} ${SYMBOL[e.op]} ${right}`, prec: PREC.rel };
    }
    default:
      return assertNever(e.op, "binary operator");
  }
}

/** A constant divisor that can neither be 0 nor overflow (-1 of a signed type). */
function safeDivisor(e: Expr): boolean {
  if (e.kind !== "const") return false;
  const v = Number(e.value);
  return v !== 0 && !(v === -1 && isSigned(e.type));
}

/** The count of a shift of a value of type `t` (the count has t's type): modulo 32, as u32. */
function shiftCount(count: Expr, t: ValueType, cx: ExprContext): string {
  if (count.kind === "const") return `${Number(BigInt.asUintN(32, BigInt(count.value as number)) & 31n)}u`;
  const s = valueShape(t);
  const u = s.of("u32");
  const c = emitExpr(count, cx);
  const asU32 = (t.kind === "vector" ? t.elem : asScalar(t)).name === "u32" ? operand(c, PREC.unary) : `${u}(${c.text})`;
  return `(${asU32} & ${t.kind === "vector" ? `${u}(31u)` : "31u"})`;
}

// ---------------------------------------------------------------- conversions

function cast(e: CastExpr, cx: ExprContext): Emitted {
  const fromT = e.operand.type as ValueType;
  const from = fromT.kind === "vector" ? fromT.elem : asScalar(fromT);
  const to = e.type.kind === "vector" ? e.type.elem : asScalar(e.type);
  const x = emitExpr(e.operand, cx);
  if (from === to) return x;
  const s = valueShape(e.type);
  const toType = s.type;
  if (to.name === "bool") return { text: `${operand(x, PREC.shift)} != ${valueShape(fromT).type}(${zeroOf(from)})`, prec: PREC.rel };
  if (from.name === "bool") return atom(`select(${toType}(${zeroOf(to)}), ${toType}(${oneOf(to)}), ${x.text})`);
  if (isFloat(from) && isInt(to)) return atom(`${floatToIntHelper(cx.helpers, to.name as "i32" | "u32", valueShape(fromT))}(${x.text})`);
  if (isInt(from) && isFloat(to)) return atom(`${intToFloatHelper(cx.helpers, from.name as "i32" | "u32", valueShape(fromT))}(${x.text})`);
  // i32 ↔ u32 keep the bits.
  return atom(`${toType}(${x.text})`);
}

function zeroOf(t: ScalarType): string {
  return literal(t, t.name === "bool" ? false : 0);
}

function oneOf(t: ScalarType): string {
  return literal(t, 1);
}

// ---------------------------------------------------------------- memory

function load(e: LoadExpr, cx: ExprContext): Emitted {
  const a = cx.array(e.array);
  if (e.vector !== null) return atom(vectorLoadCall(e, a, cx));
  const element = `${a.name}${indexText(e.indices, cx)}`;
  if (a.atomic) {
    const elem = asScalar(a.type.elem as ValueType);
    const value = `atomicLoad(&${element})`;
    return atom(elem.name === "f32" ? `bitcast<f32>(${value})` : value);
  }
  return atom(`${element}${pathText(a.type.elem as ValueType, e.path, cx)}`);
}

// ---------------------------------------------------------------- builtins and constructors

function builtin(e: BuiltinExpr, cx: ExprContext): Emitted {
  // The geometric vector builtins are defined by their expansion (src/ir/vectorBuiltins.ts).
  if (vectorBuiltin(e.name) && e.name !== "select") return laneWise(e, cx);
  const call = builtinCall(e, e.args.map((a) => emitExpr(a, cx).text), cx);
  return call ?? laneWise(e, cx);
}

/**
 * A lane-wise operation with no WGSL vector form that means gk's: a helper whose body is its
 * expansion (src/ir/lanes.ts), called with the operands, so each is evaluated once.
 */
function laneWise(e: Expr, cx: ExprContext): Emitted {
  invariant(isLaneWise(e), `${e.kind} is not lane-wise`);
  const ops = e.kind === "builtin" ? e.args : e.kind === "binary" ? [e.left, e.right] : e.kind === "unary" || e.kind === "cast" ? [e.operand] : [];
  const params: ValueVar[] = ops.map((o, i) => ({ kind: "valueVar", id: -1 - i, name: "abcd"[i]!, type: o.type as ValueType, mutable: false, span: o.span }));
  const expanded = expandLanes(e, params.map((p) => ({ kind: "var", type: p.type, var: p, span: e.span })));
  const inner: ExprContext = { ...cx, name: (v) => (v.id < 0 && v.id >= -params.length ? params[-1 - v.id]!.name : cx.name(v)) };
  const sig = params.map((p) => `${p.name}: ${typeName(p.type, cx.structs)}`).join(", ");
  const result = typeName(e.type as ValueType, cx.structs);
  const what = e.kind === "builtin" ? e.name : e.kind === "binary" ? e.op : e.kind === "unary" ? e.op : "cast";
  const name = `gk_${what}_${params.map((p) => valueShape(p.type).suffix).join("_")}${e.kind === "cast" ? `_to_${valueShape(e.type as ValueType).suffix}` : ""}`;
  cx.helpers.use(name, () => [`fn ${name}(${sig}) -> ${result} {`, `  return ${emitExpr(expanded, inner).text};`, "}"]);
  return atom(`${name}(${ops.map((o) => emitExpr(o, cx).text).join(", ")})`);
}

function construct(e: ConstructExpr, cx: ExprContext): Emitted {
  const args = e.args.map((a) => emitExpr(a, cx).text);
  if (e.type.kind === "vector") return atom(`${typeName(e.type, cx.structs)}(${args.join(", ")})`);
  // A struct takes one argument per field, except an array field, one per element row-major.
  let k = 0;
  const fields = e.type.fields.map((f) => {
    if (f.type.kind !== "array") return args[k++]!;
    const at = f.type;
    const nest = (level: number): string => {
      const inner = level + 1 < at.dims.length ? nest : () => args[k++]!;
      return `${typeName({ ...at, dims: at.dims.slice(level) }, cx.structs)}(${Array.from({ length: at.dims[level]! }, () => inner(level + 1)).join(", ")})`;
    };
    return nest(0);
  });
  return atom(`${typeName(e.type, cx.structs)}(${fields.join(", ")})`);
}

/**
 * Expressions: IR → C++ text with the spec's meaning, never C++'s undefined behaviour.
 *
 * - Signed `+ - *`, unary `-` and `<<` wrap: a tree of them is computed in the unsigned type
 *   of the same width and converted back once at its root:
 *   `(int)((unsigned int)row * (unsigned int)K + threadIdx.x)`. The small integer types
 *   (signed or not) do the same in `unsigned int` (C would compute them in `int`, where
 *   u16 * u16 can overflow), and every other operator's result is converted back to its
 *   type, so that each expression has its gk type in C++ too: `(unsigned char)(a >> 3)`.
 * - f16 and bf16 use CUDA's operators, except `/` and `%`, which go through helpers that
 *   round once (src/codegen/cuda/prelude.ts); conversions to and from them go through f32.
 * - Shift counts are taken modulo the bit width (`a << (b & 31)`); `>>` of a signed value is
 *   arithmetic (nvcc's, and C++20's, definition).
 * - Integer `/` and `%` go through helpers (src/codegen/cuda/prelude.ts) unless the divisor is
 *   a constant that can neither trap nor overflow.
 * - Conversions follow src/ir/evalOp.ts `jsCast`, through the intrinsics in settings.ts.
 * - Parentheses follow C++ precedence, plus some for clarity: operands of shifts and bitwise
 *   operators, and `&&` inside `||`, are always parenthesized.
 * - Warp operations pass the mask of the warp's threads; a shuffle's lane operand is taken
 *   modulo 32 here (`l & 31`), so the intrinsic never sees a lane it would read differently.
 * - Operations on vectors call one helper each (vectorOps.ts); vectors and structs are built
 *   with braces (`gk_f32x4{a, b, c, d}`, `Particle{...}`, C++ evaluates them left to right;
 *   compoundExpr.ts), and a vector load of an array of scalars reads through a vector pointer:
 *   `*reinterpret_cast<const gk_f32x4*>(&x[i])`, one 16-byte access.
 */
import { atomicBuiltin, memoryBuiltin, warpBuiltin } from "../../ir/builtins.js";
import { atomicTypeName } from "../../ir/atomicBuiltins.js";
import { CUDA_ATOMICS, CUDA_CACHE_HINTS, CUDA_INDEX, CUDA_MATH, CUDA_MEMORY, CUDA_WARP } from "./builtins.js";
import type { AtomicExpr, BinaryExpr, BuiltinExpr, CallArg, CallExpr, CastExpr, Expr, Function, LoadExpr, ValueVar, UnaryExpr, ViewArg, WarpExpr } from "../../ir/nodes.js";
import { argOperands, operands } from "../../ir/walk.js";
import { asScalar, isBigIntType, isFloat, isHalf, isInt, isSigned, isSmallInt, T, unsignedOf, type ScalarType, type ValueType } from "../../ir/types.js";
import { isLaneWise } from "../../ir/lanes.js";
import type { TypeNames } from "./types.js";
import { laneWiseHelperName } from "./vectorOps.js";
import { fill, precOf, type Template } from "../../ir/templates.js";
import { assertNever, invariant } from "../../util.js";
import { hasWarpOperation, memoryAccess, operandsToHoist } from "./effects.js";
import { ftzIdentityOperand } from "./ftzIdentities.js";
import { constLiteral, literal } from "./literals.js";
import { builtinOperandType, conversionHelperFor, divisionHelperFor } from "./prelude.js";
import { construct, member, pathText, swizzle } from "./compoundExpr.js";
import { bitcastText } from "./bitcast.js";
import { CUDA, cType, shiftMask } from "./settings.js";

/** C++ text and the precedence of its outermost operator (higher binds tighter). */
export interface Emitted {
  readonly text: string;
  readonly prec: number;
  /** A parenthesized comma expression `(gk_t1 = ..., value)`, which some places must wrap (`braced`). */
  readonly comma?: boolean;
}

export const PREC = {
  cond: 2, lor: 3, land: 4, bor: 5, bxor: 6, band: 7, eq: 8, rel: 9, shift: 11, add: 12, mul: 13, unary: 15, primary: 16,
} as const;

/** What expression emission needs from the function being emitted. */
export interface ExprContext {
  /** The C++ name of a variable or array (temporaries included). */
  readonly name: (v: { readonly id: number }) => string;
  /** The C++ name of a module function, by IR name. */
  readonly functionName: (irName: string) => string;
  /** The module's functions by IR name (for the effects of calls). */
  readonly functions: ReadonlyMap<string, Function>;
  /** Variables a call may change through a reference: reading them counts as reading memory. */
  readonly refTargets: ReadonlySet<number>;
  /** A fresh temporary of this type, declared before the statement being emitted. */
  readonly temp: (t: ValueType) => ValueVar;
  /** C++ names of types and struct fields. */
  readonly types: TypeNames;
  /** Loads to emit as volatile reads (see analysis.ts, `reloadedBounds`). */
  readonly volatileLoads: ReadonlySet<Expr>;
  /** Parts of loop conditions computed once before their loop, by the C++ name of the variable holding them (analysis.ts, `hoistedBounds`). */
  readonly hoistedValues: ReadonlyMap<Expr, string>;
  /** The module is built with -ftz=true: operations nvcc would fold away flush explicitly (ftzIdentities.ts). */
  readonly flushToZero: boolean;
}

export const atom = (text: string): Emitted => ({ text, prec: PREC.primary });
/** `(assignments, value)`: temporaries set, then the value. */
export const sequence = (assigns: readonly string[], value: string): Emitted => ({ text: `(${assigns.join(", ")}, ${value})`, prec: PREC.primary, comma: true });

/** The type of a value expression (only a call of a void function has none, and it is never an operand). */
export function scalarType(e: Expr): ScalarType {
  invariant(e.type.kind === "scalar", "a void call used as a value");
  return e.type;
}

/** `x.text`, parenthesized unless it binds at least as tightly as `min`. */
export function operand(x: Emitted, min: number): string {
  return x.prec >= min ? x.text : `(${x.text})`;
}

export function emitExpr(e: Expr, cx: ExprContext): Emitted {
  const hoisted = cx.hoistedValues.get(e);
  if (hoisted !== undefined) return atom(hoisted);
  if (isLaneWise(e)) return inOrder(operands(e), cx, (ops) => atom(`${laneWiseHelperName(e)}(${ops.map((o) => emitExpr(o, cx).text).join(", ")})`));
  if (cx.flushToZero) {
    const x = ftzIdentityOperand(e);
    if (x) return atom(`gk_ftz_f32(${emitExpr(x, cx).text})`);
  }
  switch (e.kind) {
    case "const": {
      const lit = constLiteral(e);
      return { text: lit.text, prec: lit.negative ? PREC.unary : PREC.primary };
    }
    case "var":
      return atom(cx.name(e.var));
    case "special":
      return { text: `(int)${CUDA_INDEX[e.name].value(e.axis)}`, prec: PREC.unary };
    case "unary":
      return unary(e, cx);
    case "binary":
      return inOrder([e.left, e.right], cx, ([left, right]) => binary({ ...e, left: left!, right: right! }, cx));
    case "logical": {
      // C++ sequences && and || left to right, as gk does.
      const p = e.op === "and" ? PREC.land : PREC.lor;
      const l = emitExpr(e.left, cx);
      const r = emitExpr(e.right, cx);
      return { text: `${operand(l, l.prec === p ? p : PREC.eq)} ${e.op === "and" ? "&&" : "||"} ${operand(r, PREC.eq)}`, prec: p };
    }
    case "select": {
      const c = emitExpr(e.cond, cx);
      const t = emitExpr(e.ifTrue, cx);
      const f = emitExpr(e.ifFalse, cx);
      return { text: `${operand(c, PREC.land)} ? ${operand(t, PREC.lor)} : ${operand(f, PREC.lor)}`, prec: PREC.cond };
    }
    case "cast":
      return cast(e, cx);
    case "bitcast":
      return atom(bitcastText(e, emitExpr(e.operand, cx).text, cx.types));
    case "load":
      return load(e, cx);
    case "call":
      return call(e, cx);
    case "builtin":
      return builtin(e, cx);
    case "atomic":
      return atomic(e, cx);
    case "warp":
      return warp(e, cx);
    case "member":
      return member(e, cx);
    case "construct":
      return construct(e, cx);
    case "swizzle":
      return swizzle(e, cx);
    case "zero":
      return atom(`${cx.types.name(e.type)}{}`);
    default:
      return assertNever(e, "expression");
  }
}

/** An element, or the part of it a path leads to; a vector load reads `vector` elements through a vector pointer. */
function load(e: LoadExpr, cx: ExprContext): Emitted {
  const n = e.indices.length;
  return inOrder(operands(e), cx, (ops) => {
    // A volatile read (of a scalar: a volatile struct could not be copied) where a loop bound is reloaded (analysis.ts, `reloadedBounds`).
    const volatileScalar = !e.order && cx.volatileLoads.has(e) && e.vector === null && e.type.kind === "scalar";
    // f16 and bf16 have no operators on volatile values: their bits are read, then made the value.
    if (volatileScalar && isHalf(asScalar(e.type))) {
      const t = asScalar(e.type) as ScalarType & { readonly name: "f16" | "bf16" };
      return atom(`${CUDA.half[t.name].fromBits}(((const volatile unsigned short*)${cx.name(e.array)})${indexText(ops.slice(0, n), cx)})`);
    }
    const base = volatileScalar ? `((const volatile ${cx.types.name(e.array.type.elem)}*)${cx.name(e.array)})` : cx.name(e.array);
    const element = `${base}${indexText(ops.slice(0, n), cx)}`;
    // loadStreaming / loadReadOnly: through the helper, of the element or the vector at it.
    if (e.cache) {
      const at = e.vector !== null ? `reinterpret_cast<const ${cx.types.name(e.type)}*>(&${element})` : `&${element}`;
      return atom(`${CUDA_CACHE_HINTS[e.cache].load}(${at})`);
    }
    if (e.vector !== null) return { text: `*reinterpret_cast<const ${cx.types.name(e.type)}*>(&${element})`, prec: PREC.unary };
    // loadAcquire / loadVolatile: of a scalar element (the checker admits only those), through its ordered template.
    if (e.order) return fromTemplate(orderedTemplate(e.order === "acquire" ? "loadAcquire" : "loadVolatile", asScalar(e.type)), [{ text: `&${element}`, prec: PREC.unary }]);
    return atom(`${element}${pathText(e.array.type.elem, e.path, ops.slice(n), cx)}`);
  });
}

/** `[i][j]`: C++17 sequences `a[i][j]` left to right, as gk does. */
function indexText(indices: readonly Expr[], cx: ExprContext): string {
  return indices.map((i) => `[${emitExpr(i, cx).text}]`).join("");
}

// ---------------------------------------------------------------- evaluation order

/**
 * Emits a node whose operands C++ evaluates in an unspecified order. Where that order could
 * be observed (src/codegen/cuda/effects.ts), the earlier operands are evaluated into
 * temporaries first: `(gk_t1 = f(out), gk_t1 + out[0])`.
 */
export function inOrder(operands: readonly Expr[], cx: ExprContext, build: (ops: readonly Expr[]) => Emitted): Emitted {
  const hoist = operandsToHoist(operands, cx.functions, cx.refTargets);
  if (hoist.length === 0) return build(operands);
  const ops = [...operands];
  const assigns = hoist.map((k) => {
    const o = operands[k]!;
    const tmp = cx.temp(o.type as ValueType);
    ops[k] = { kind: "var", type: tmp.type, var: tmp, span: o.span };
    return `${cx.name(tmp)} = ${emitExpr(o, cx).text}`;
  });
  return sequence(assigns, build(ops).text);
}

// ---------------------------------------------------------------- operators

function unary(e: UnaryExpr, cx: ExprContext): Emitted {
  switch (e.op) {
    case "neg":
      if (wraps(asScalar(e.type))) return wrapping(e, cx);
      return prefix("-", emitExpr(e.operand, cx));
    case "not":
      return prefix("!", emitExpr(e.operand, cx));
    case "bitnot":
      return narrow(asScalar(e.type), prefix("~", emitExpr(e.operand, cx)));
    default:
      return assertNever(e.op, "unary operator");
  }
}

function prefix(op: string, x: Emitted): Emitted {
  const text = operand(x, PREC.unary);
  // `- -x` and `--x` must not meet.
  return { text: `${op}${op === "-" && text.startsWith("-") ? `(${text})` : text}`, prec: PREC.unary };
}

const SYMBOL = {
  add: "+", sub: "-", mul: "*", div: "/", rem: "%", shl: "<<", shr: ">>", and: "&", or: "|", xor: "^",
  eq: "==", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=",
} as const;

const OP_PREC = {
  add: PREC.add, sub: PREC.add, mul: PREC.mul, div: PREC.mul, rem: PREC.mul, shl: PREC.shift, shr: PREC.shift,
  and: PREC.band, or: PREC.bor, xor: PREC.bxor, eq: PREC.eq, ne: PREC.eq, lt: PREC.rel, le: PREC.rel, gt: PREC.rel, ge: PREC.rel,
} as const;

/** `l op r` with left-associative parenthesization. */
function infix(l: Emitted, op: keyof typeof SYMBOL, r: Emitted): Emitted {
  const p = OP_PREC[op];
  return { text: `${operand(l, p)} ${SYMBOL[op]} ${operand(r, p + 1)}`, prec: p };
}

function binary(e: BinaryExpr, cx: ExprContext): Emitted {
  const t = scalarType(e.left);
  const l = () => emitExpr(e.left, cx);
  const r = () => emitExpr(e.right, cx);
  switch (e.op) {
    case "add":
    case "sub":
    case "mul":
      return wraps(t) ? wrapping(e, cx) : infix(l(), e.op, r());
    case "div":
    case "rem": {
      const helper = divisionHelperFor(e);
      if (helper) return atom(`${helper}(${l().text}, ${r().text})`);
      if (isFloat(t)) {
        if (e.op === "div") return infix(l(), "div", isZero(e.right) ? zeroFromBits(e.right) : r());
        return atom(`${CUDA.floatRem[t.name as "f32" | "f64"]}(${l().text}, ${r().text})`);
      }
      return narrow(t, infix(l(), e.op, r()));
    }
    case "shl":
      if (wraps(t)) return wrapping(e, cx);
      return shift(l(), "shl", e.right, cx);
    case "shr":
      return narrow(t, shift(l(), "shr", e.right, cx));
    case "and":
    case "or":
    case "xor": {
      if (t.name === "bool" && e.op === "xor") return comparison(l(), "ne", r());
      const p = OP_PREC[e.op];
      const left = l();
      return narrow(t, { text: `${operand(left, left.prec === p ? p : PREC.unary)} ${SYMBOL[e.op]} ${operand(r(), PREC.unary)}`, prec: p });
    }
    case "eq":
    case "ne":
    case "lt":
    case "le":
    case "gt":
    case "ge":
      return compare(e, cx);
    default:
      return assertNever(e.op, "binary operator");
  }
}

function comparison(l: Emitted, op: "eq" | "ne" | "lt" | "le" | "gt" | "ge", r: Emitted): Emitted {
  return { text: `${operand(l, PREC.add)} ${SYMBOL[op]} ${operand(r, PREC.add)}`, prec: OP_PREC[op] };
}

const isZero = (e: Expr) => e.kind === "const" && (e.value === 0 || e.value === 0n);

/** `x` converted to the small integer type `t` (C++ computes their operators in int); `x` itself for other types. */
function narrow(t: ScalarType, x: Emitted): Emitted {
  return isSmallInt(t) ? castTo(t, x) : x;
}

/** A float zero divisor from its bits: IEEE defines x / 0, but nvcc warns about a literal `x / 0.0f`. */
function zeroFromBits(zero: Expr): Emitted {
  invariant(zero.kind === "const" && (zero.type.name === "f32" || zero.type.name === "f64"), "a float zero");
  const bits = CUDA.floatFromBits[zero.type.name];
  return atom(`${bits.fn}(${Object.is(zero.value, -0) ? bits.negZero : bits.zero})`);
}

/**
 * An unsigned value compared with 0 in a way that cannot fail (or cannot hold): nvcc warns
 * about `u >= 0u`, so the backend writes the known result instead. The result, and the other
 * operand (evaluated only for its effects).
 */
function knownComparison(e: BinaryExpr): { readonly value: boolean; readonly other: Expr } | undefined {
  if (e.left.type.kind !== "scalar") return undefined;
  const t = scalarType(e.left);
  if (!isInt(t) || isSigned(t)) return undefined;
  const always =
    (e.op === "ge" && isZero(e.right)) || (e.op === "le" && isZero(e.left)) ? true
    : (e.op === "lt" && isZero(e.right)) || (e.op === "gt" && isZero(e.left)) ? false
    : undefined;
  return always === undefined ? undefined : { value: always, other: isZero(e.right) ? e.left : e.right };
}

/** The operand of a comparison that the backend leaves out of the C++ (a known comparison's operand without effects). */
export function droppedOperand(e: Expr, functions: ReadonlyMap<string, Function>, refs: ReadonlySet<number> = new Set()): Expr | undefined {
  if (e.kind !== "binary") return undefined;
  const known = knownComparison(e);
  return known && !memoryAccess(known.other, functions, refs).writes && !hasWarpOperation(known.other) ? known.other : undefined;
}

function compare(e: BinaryExpr, cx: ExprContext): Emitted {
  const op = e.op as "eq" | "ne" | "lt" | "le" | "gt" | "ge";
  const known = knownComparison(e);
  if (known) {
    // The other operand is still evaluated (cast to void) where it has effects or reads a variable.
    const value = known.value ? "true" : "false";
    if (droppedOperand(e, cx.functions, cx.refTargets)) return atom(value);
    return sequence([`(void)${operand(emitExpr(known.other, cx), PREC.unary)}`], value);
  }
  return comparison(emitExpr(e.left, cx), op, emitExpr(e.right, cx));
}

/** `l << (count & 31)`; a constant count is reduced here. */
function shift(l: Emitted, op: "shl" | "shr", count: Expr, cx: ExprContext): Emitted {
  return { text: `${operand(l, PREC.unary)} ${SYMBOL[op]} ${shiftCount(count, cx)}`, prec: PREC.shift };
}

function shiftCount(count: Expr, cx: ExprContext): string {
  const t = scalarType(count);
  const mask = shiftMask(t);
  if (count.kind === "const") return String(BigInt.asUintN(64, BigInt(count.value as number | bigint)) & BigInt(mask));
  // A small integer count is an int in C++: its mask too.
  const maskText = isSmallInt(t) ? String(mask) : literal(t, isBigIntType(t) ? BigInt(mask) : mask).text;
  return `(${operand(emitExpr(count, cx), PREC.unary)} & ${maskText})`;
}

// ---------------------------------------------------------------- wrapping signed arithmetic

/** Whether `+ - * <<` and unary `-` of type t are computed in `wrapType(t)`: signed and small integers. */
function wraps(t: ScalarType): boolean {
  return isSigned(t) || isSmallInt(t);
}

/** The unsigned type in which t's wrapping operations are computed: of its width, or `unsigned int` for the small integers. */
function wrapType(t: ScalarType): ScalarType {
  return isSmallInt(t) ? T.u32 : unsignedOf(t);
}

/** Operations that wrap in a wrapping type: + - * << and unary -. */
function isWrapOp(e: Expr, t: ScalarType): e is BinaryExpr | UnaryExpr {
  if (e.type !== t) return false;
  if (e.kind === "binary") return e.op === "add" || e.op === "sub" || e.op === "mul" || e.op === "shl";
  return e.kind === "unary" && e.op === "neg";
}

/** A wrapping operation: computed in the unsigned type, converted back once. */
function wrapping(e: BinaryExpr | UnaryExpr, cx: ExprContext): Emitted {
  return { text: `(${cType(e.type)})${operand(inUnsigned(e, asScalar(e.type), cx), PREC.primary)}`, prec: PREC.unary };
}

/**
 * `e` (of type `t`, which wraps) as a value of `wrapType(t)` whose low bits are e's: all of
 * them where the types have one width; for a small integer the bits above its width are
 * whatever the operations left there, and only the conversion back at the root drops them.
 */
function inUnsigned(e: Expr, t: ScalarType, cx: ExprContext): Emitted {
  const u = wrapType(t);
  const small = isSmallInt(t);
  if (isWrapOp(e, t)) {
    if (e.kind === "unary") {
      return { text: `${literal(u, 0).text} - ${operand(inUnsigned(e.operand, t, cx), PREC.mul)}`, prec: PREC.add };
    }
    return inOrder([e.left, e.right], cx, ([left, right]) => {
      const l = inUnsigned(left!, t, cx);
      if (e.op === "shl") return shift(l, "shl", right!, cx);
      // x + -5 reads better as x - 5u (the same bits).
      const r = right!;
      if ((e.op === "add" || e.op === "sub") && r.kind === "const" && BigInt(r.value as number | bigint) < 0n) {
        const magnitude = literal(u, -BigInt(r.value as number | bigint)).text;
        return infix(l, e.op === "add" ? "sub" : "add", atom(magnitude));
      }
      return infix(l, e.op, inUnsigned(r, t, cx));
    });
  }
  if (e.kind === "const") {
    const v = BigInt(e.value as number | bigint);
    if (small || v >= 0n || v === -(1n << BigInt(t.name === "i32" ? 31 : 63))) return atom(literal(u, BigInt.asUintN(t.name === "i64" ? 64 : 32, v)).text);
    return { text: `(${cType(u)})${literal(t, v).text}`, prec: PREC.unary };
  }
  // CUDA computes the thread indices as unsigned int (the table's spelling); gk's i32 converts them.
  if (e.kind === "special" && t.name === "i32") return atom(CUDA_INDEX[e.name].value(e.axis));
  // An integer converted to t and then to u is the integer converted to u (both wrap), in the
  // bits that matter: all of them for one width, t's for a small integer.
  if (e.kind === "cast" && isInt(scalarType(e.operand))) {
    return e.operand.type === u ? emitExpr(e.operand, cx) : castTo(u, emitExpr(e.operand, cx));
  }
  return { text: `(${cType(u)})${operand(emitExpr(e, cx), PREC.unary)}`, prec: PREC.unary };
}

// ---------------------------------------------------------------- conversions

function cast(e: CastExpr, cx: ExprContext): Emitted {
  let from = scalarType(e.operand);
  const to = asScalar(e.type);
  // A signed value's bits as the unsigned type of its width: computed there directly.
  if (isSigned(from) && !isSmallInt(from) && to === unsignedOf(from)) return inUnsigned(e.operand, from, cx);
  let x = emitExpr(e.operand, cx);
  if (from === to) return x;
  if (to.name === "bool") return comparison(x, "ne", atom(literal(from, isBigIntType(from) ? 0n : 0).text));
  if (from.name === "bool") {
    const one = literal(to, isBigIntType(to) ? 1n : 1).text;
    const zero = literal(to, isBigIntType(to) ? 0n : 0).text;
    return { text: `${operand(x, PREC.land)} ? ${one} : ${zero}`, prec: PREC.cond };
  }
  // From f16 or bf16: to f32 first, exactly.
  if (isHalf(from)) {
    x = atom(`${CUDA.half[from.name].toF32}(${x.text})`);
    from = T.f32;
    if (to === T.f32) return x;
  }
  if (isHalf(to)) return atom(`${toHalf(from, to.name)}(${x.text})`);
  const f = from.name;
  const t = to.name;
  if (f === "f32" || f === "f64") {
    if (t === "f32") return atom(`${CUDA.f64ToF32}(${x.text})`);
    if (t === "f64") return castTo(to, x);
    return atom(`${conversionHelperFor(from, to)}(${x.text})`);
  }
  if (t === "f32" && (f === "i64" || f === "u64")) return atom(`${CUDA.int64ToF32[f]}(${x.text})`);
  // int → float rounds to nearest (once); int → int wraps or extends.
  return castTo(to, x);
}

/** The intrinsic that converts a value of type `from` (not a half) to f16 or bf16, rounding once. */
function toHalf(from: ScalarType, to: "f16" | "bf16"): string {
  const h = CUDA.half[to];
  switch (from.name) {
    case "f32": return h.fromF32;
    case "f64": return h.fromF64;
    case "i32":
    case "u32":
    case "i64":
    case "u64": return h.fromInt[from.name];
    // The small integers arrive as int.
    default: return h.fromInt.i32;
  }
}

function castTo(t: ScalarType, x: Emitted): Emitted {
  return { text: `(${cType(t)})${operand(x, PREC.unary)}`, prec: PREC.unary };
}

// ---------------------------------------------------------------- calls, builtins, atomics

/**
 * A device function call. Its arguments' operands (scalars, element references' indices,
 * views' offsets, lengths and strides) are evaluated in gk's order; a reference is the
 * variable or element itself (the parameter is a C++ reference), a view a `gk_view` of a
 * pointer to its first element and its stride.
 */
function call(e: CallExpr, cx: ExprContext): Emitted {
  return inOrder(e.args.flatMap(argOperands), cx, (ops) => {
    let k = 0;
    const next = () => ops[k++]!;
    const args = e.args.map((a: CallArg, i): string => {
      switch (a.kind) {
        case "arrayArg":
          return cx.name(a.array);
        case "varRef":
          return cx.name(a.var);
        case "elemRef":
          return `${cx.name(a.array)}${indexText(a.indices.map(next), cx)}`;
        case "viewArg": {
          const p = cx.functions.get(e.callee)?.params[i];
          invariant(p?.type.kind === "view", `a view passed to parameter ${i + 1} of ${e.callee}`);
          return viewText(a, p.type.readonly, cx, next);
        }
        default:
          return emitExpr(next(), cx).text;
      }
    });
    return atom(`${cx.functionName(e.callee)}(${args.join(", ")})`);
  });
}

/** `gk_view<float>{&tile[0][0] + off, stride}`; a view of a view composes their offsets and strides. */
function viewText(a: ViewArg, readonly: boolean, cx: ExprContext, next: () => Expr): string {
  const t = a.array.type;
  const offset = operand(emitExpr(next(), cx), PREC.unary);
  const length = a.length ? next() : undefined;
  const stride = a.stride ? emitExpr(next(), cx).text : "1";
  const name = cx.name(a.array);
  let first: string;
  let step = stride;
  if (t.kind === "view") {
    first = `${name}.p + (long long)${offset} * ${name}.s`;
    step = a.stride ? `${name}.s * (${stride})` : `${name}.s`;
  } else if (t.kind === "array") {
    first = `&${name}${t.dims.map(() => "[0]").join("")} + ${offset}`;
  } else {
    first = `${name} + ${offset}`;
  }
  // The length matters to the simulator's checks, not to CUDA; it is still evaluated, in order, when it has an effect.
  const effectful = length && (memoryAccess(length, cx.functions, cx.refTargets).writes || hasWarpOperation(length));
  const strideText = effectful ? `((void)(${emitExpr(length, cx).text}), ${step})` : step;
  return `${CUDA.viewType}<${readonly ? "const " : ""}${cType(t.elem)}>{${first}, ${strideText}}`;
}

function builtin(e: BuiltinExpr, cx: ExprContext): Emitted {
  const impl = CUDA_MATH[e.name]?.[builtinOperandType(e).name];
  invariant(impl, `${e.name} has no CUDA implementation for ${builtinOperandType(e).name}`);
  return inOrder(e.args, cx, (ops) => narrow(asScalar(e.type), fromTemplate(impl.template, ops.map((a) => emitExpr(a, cx)))));
}

function atomic(e: AtomicExpr, cx: ExprContext): Emitted {
  const impl = CUDA_ATOMICS[atomicBuiltin(e.op).name]?.[atomicTypeName(e.type)];
  invariant(impl, `atomic ${e.op} has no CUDA implementation for ${atomicTypeName(e.type)}`);
  const n = e.indices.length;
  return inOrder([...e.indices, ...e.args], cx, (ops) => {
    // Binds as a unary expression, so a template may put it after a cast (src/ir/builtins.ts).
    const address = { text: `&${cx.name(e.array)}${indexText(ops.slice(0, n), cx)}`, prec: PREC.unary };
    const args = ops.slice(n).map((a) => emitExpr(a, cx));
    return fromTemplate(impl.template, [address, ...args]);
  });
}

function warp(e: WarpExpr, cx: ExprContext): Emitted {
  const entry = warpBuiltin(e.op);
  const shuffle = entry.rule.shape === "shuffle";
  const emitted = inOrder(e.args, cx, (ops) => fromTemplate(CUDA_WARP[e.op].template, ops.map((a, i) => (shuffle && i === 1 ? laneOperand(a, cx) : emitExpr(a, cx)))));
  // CUDA shuffles a small integer as an int.
  return e.type.kind === "scalar" ? narrow(e.type, emitted) : emitted;
}

/** A shuffle's lane operand (i32) modulo 32: its low five bits; a constant is reduced here. */
function laneOperand(lane: Expr, cx: ExprContext): Emitted {
  if (lane.kind === "const") return atom(String((lane.value as number) & 31));
  return { text: `${operand(emitExpr(lane, cx), PREC.unary)} & 31`, prec: PREC.band };
}

// ---------------------------------------------------------------- builtin table templates

/** The CUDA template of an ordered load or store of an element of type `t`. */
export function orderedTemplate(op: "loadAcquire" | "loadVolatile" | "storeRelease" | "storeVolatile", t: ScalarType): Template {
  const impl = CUDA_MEMORY[memoryBuiltin(op).name]?.[t.name];
  invariant(impl, `${op} has no CUDA implementation for ${t.name}`);
  return impl.template;
}

/**
 * Fills a builtin table template (src/ir/templates.ts): every operand sits in an argument
 * slot of the template, so it goes in as it is, and the result binds as the template declares.
 */
export function fromTemplate(template: Template, args: readonly Emitted[]): Emitted {
  return { text: fill(template, args.map((a) => a.text)), prec: PREC[precOf(template)] };
}

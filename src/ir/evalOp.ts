/**
 * The meaning of every operator, once. Each (operator, type) has a JavaScript template; the
 * simulator pastes these templates into the code it generates, and constant folding
 * compiles the very same templates into functions. So the compiler never folds a constant
 * differently from how the kernel would compute it ("the living definition").
 *
 * Templates take operand code that the caller guarantees is evaluated exactly once (a
 * variable or a side-effect-free expression) and a `site` number that names the source
 * location for runtime errors (integer division by zero).
 */
import { assertNever, invariant } from "../util.js";
import type { BinOp, UnOp } from "./nodes.js";
import { jsrt } from "./jsrt.js";
import {
  T, bitWidth, isBigIntType, isFloat, isHalf, isInt, isSigned, isSmallInt, type ScalarName, type ScalarType, type ScalarValue, type SmallIntName,
} from "./types.js";

export type JsBinary = (a: string, b: string, site: string) => string;
export type JsUnary = (a: string) => string;

/** Operators whose result is bool whatever the operand type. */
export function isComparison(op: BinOp): boolean {
  return op === "eq" || op === "ne" || op === "lt" || op === "le" || op === "gt" || op === "ge";
}

const comparisons: Record<"eq" | "ne" | "lt" | "le" | "gt" | "ge", JsBinary> = {
  eq: (a, b) => `(${a} === ${b})`,
  ne: (a, b) => `(${a} !== ${b})`,
  lt: (a, b) => `(${a} < ${b})`,
  le: (a, b) => `(${a} <= ${b})`,
  gt: (a, b) => `(${a} > ${b})`,
  ge: (a, b) => `(${a} >= ${b})`,
};

type ArithOp = Exclude<BinOp, keyof typeof comparisons>;

const i32: Record<ArithOp, JsBinary> = {
  add: (a, b) => `((${a} + ${b}) | 0)`,
  sub: (a, b) => `((${a} - ${b}) | 0)`,
  mul: (a, b) => `Math.imul(${a}, ${b})`,
  div: (a, b, s) => `$.divI32(${a}, ${b}, ${s})`,
  rem: (a, b, s) => `$.remI32(${a}, ${b}, ${s})`,
  shl: (a, b) => `(${a} << ${b})`,
  shr: (a, b) => `(${a} >> ${b})`,
  and: (a, b) => `(${a} & ${b})`,
  or: (a, b) => `(${a} | ${b})`,
  xor: (a, b) => `(${a} ^ ${b})`,
};

const u32: Record<ArithOp, JsBinary> = {
  add: (a, b) => `((${a} + ${b}) >>> 0)`,
  sub: (a, b) => `((${a} - ${b}) >>> 0)`,
  mul: (a, b) => `(Math.imul(${a}, ${b}) >>> 0)`,
  div: (a, b, s) => `$.divU32(${a}, ${b}, ${s})`,
  rem: (a, b, s) => `$.remU32(${a}, ${b}, ${s})`,
  shl: (a, b) => `((${a} << ${b}) >>> 0)`,
  shr: (a, b) => `(${a} >>> ${b})`,
  and: (a, b) => `((${a} & ${b}) >>> 0)`,
  or: (a, b) => `((${a} | ${b}) >>> 0)`,
  xor: (a, b) => `((${a} ^ ${b}) >>> 0)`,
};

function int64(wrap: "asIntN" | "asUintN", signed: boolean): Record<ArithOp, JsBinary> {
  const w = (e: string) => `BigInt.${wrap}(64, ${e})`;
  const sfx = signed ? "I64" : "U64";
  return {
    add: (a, b) => w(`${a} + ${b}`),
    sub: (a, b) => w(`${a} - ${b}`),
    mul: (a, b) => w(`${a} * ${b}`),
    div: (a, b, s) => `$.div${sfx}(${a}, ${b}, ${s})`,
    rem: (a, b, s) => `$.rem${sfx}(${a}, ${b}, ${s})`,
    shl: (a, b) => w(`${a} << (${b} & 63n)`),
    // BigInt >> is arithmetic; on the non-negative u64 values it is logical.
    shr: (a, b) => `(${a} >> (${b} & 63n))`,
    and: (a, b) => `(${a} & ${b})`,
    or: (a, b) => `(${a} | ${b})`,
    xor: (a, b) => `(${a} ^ ${b})`,
  };
}

/** An integer number (exact, or right in its low 32 bits) wrapped to a small integer type. */
function wrapTo(name: SmallIntName): (e: string) => string {
  const bits = bitWidth(T[name]);
  return isSigned(T[name]) ? (e) => `((${e}) << ${32 - bits} >> ${32 - bits})` : (e) => `((${e}) & ${2 ** bits - 1})`;
}

/**
 * The small integers: the operation on the numbers (exact, or exact in its low 32 bits), then
 * the result wrapped to the type's width, as C computes in int and converts back. Shift
 * counts are taken modulo the width (the count has the shifted value's type, so its low bits
 * are the count's own).
 */
function smallInt(name: SmallIntName): Record<ArithOp, JsBinary> {
  const bits = bitWidth(T[name]);
  const wrap = wrapTo(name);
  const count = (b: string) => `(${b} & ${bits - 1})`;
  return {
    add: (a, b) => wrap(`${a} + ${b}`),
    sub: (a, b) => wrap(`${a} - ${b}`),
    mul: (a, b) => wrap(`Math.imul(${a}, ${b})`),
    // In i32 nothing overflows (MIN / -1 is 128 or 32768) and the wrap makes it MIN again.
    div: (a, b, s) => wrap(`$.divI32(${a}, ${b}, ${s})`),
    rem: (a, b, s) => `$.remI32(${a}, ${b}, ${s})`,
    shl: (a, b) => wrap(`${a} << ${count(b)}`),
    shr: (a, b) => `(${a} >> ${count(b)})`,
    // Bitwise operations of two values in range (sign-extended for signed types) stay in range.
    and: (a, b) => `(${a} & ${b})`,
    or: (a, b) => `(${a} | ${b})`,
    xor: (a, b) => `(${a} ^ ${b})`,
  };
}

function float(round: (e: string) => string): Partial<Record<ArithOp, JsBinary>> {
  return {
    add: (a, b) => round(`${a} + ${b}`),
    sub: (a, b) => round(`${a} - ${b}`),
    mul: (a, b) => round(`${a} * ${b}`),
    div: (a, b) => round(`${a} / ${b}`),
    // fmod is exact, so no rounding is needed.
    rem: (a, b) => `(${a} % ${b})`,
  };
}

const bool: Partial<Record<ArithOp, JsBinary>> = {
  and: (a, b) => `((${a} & ${b}) !== 0)`,
  or: (a, b) => `((${a} | ${b}) !== 0)`,
  xor: (a, b) => `(${a} !== ${b})`,
};

const binaryTable: Record<ScalarName, Partial<Record<ArithOp, JsBinary>>> = {
  bool,
  i8: smallInt("i8"),
  u8: smallInt("u8"),
  i16: smallInt("i16"),
  u16: smallInt("u16"),
  i32,
  u32,
  i64: int64("asIntN", true),
  u64: int64("asUintN", false),
  f32: float((e) => `Math.fround(${e})`),
  f64: float((e) => `(${e})`),
  // Every half-precision + - * / is exact in f64 or rounded there once, 53 >= 2 * 11 + 2 bits
  // (so rounding again to the half is as if rounded once): the f64 result, rounded.
  f16: float((e) => `$.f16(${e})`),
  bf16: float((e) => `$.bf16(${e})`),
};

/**
 * Flush to zero (`@flushToZero;`, spec: Flush to zero): f32 operations read a subnormal
 * operand as a zero of its sign and write a subnormal result as one. `ftz(t)`: the template
 * that wraps an f32 operand or result so, or undefined where nothing is flushed.
 */
function flushes(t: ScalarType, ftz: boolean): boolean {
  return ftz && t.name === "f32";
}
const flush = (a: string) => `$.ftz32(${a})`;

/**
 * The template of `op` on operands of type `t`, or undefined where the operator is not
 * defined; with `ftz`, f32 operands and results are flushed to zero.
 */
export function jsBinary(op: BinOp, t: ScalarType, ftz = false): JsBinary | undefined {
  if (isComparison(op)) {
    if (t.name === "bool" && op !== "eq" && op !== "ne") return undefined;
    const cmp = comparisons[op as keyof typeof comparisons];
    return flushes(t, ftz) ? (a, b, s) => cmp(flush(a), flush(b), s) : cmp;
  }
  const tpl = binaryTable[t.name][op as ArithOp];
  if (!tpl || !flushes(t, ftz)) return tpl;
  return (a, b, s) => flush(tpl(flush(a), flush(b), s));
}

export function jsUnary(op: UnOp, t: ScalarType, ftz = false): JsUnary | undefined {
  // Negation flushes its operand (its result is then no subnormal); `!` and `~` take no floats.
  if (op === "neg" && flushes(t, ftz)) return (a) => `(-${flush(a)})`;
  switch (op) {
    case "not":
      return t.name === "bool" ? (a) => `(!${a})` : undefined;
    case "neg":
      switch (t.name) {
        case "i8":
        case "u8":
        case "i16":
        case "u16": {
          const wrap = wrapTo(t.name);
          return (a) => wrap(`-${a}`);
        }
        case "i32": return (a) => `(-${a} | 0)`;
        case "u32": return (a) => `(-${a} >>> 0)`;
        case "i64": return (a) => `BigInt.asIntN(64, -${a})`;
        case "u64": return (a) => `BigInt.asUintN(64, -${a})`;
        case "f32":
        case "f64":
        case "f16":
        case "bf16": return (a) => `(-${a})`;
        case "bool": return undefined;
        default: return assertNever(t.name);
      }
    case "bitnot":
      switch (t.name) {
        case "i8":
        case "i16":
        case "i32": return (a) => `(~${a})`;
        case "u8": return (a) => `(~${a} & 255)`;
        case "u16": return (a) => `(~${a} & 65535)`;
        case "u32": return (a) => `(~${a} >>> 0)`;
        case "i64": return (a) => `(~${a})`;
        case "u64": return (a) => `BigInt.asUintN(64, ~${a})`;
        default: return undefined;
      }
  }
}

/**
 * Every scalar converts to every other: ints wrap, floats to ints truncate and saturate (NaN →
 * 0), to a float rounds once to nearest even, to bool is `!= 0`. f16 and bf16 values are
 * numbers that f32 represents exactly, so from them to f32 or f64 is the number itself. With
 * `ftz`, an f32 operand is read flushed (f32 → f64, → integer, → bool) and an f32 result
 * written flushed (f64 → f32).
 */
export function jsCast(from: ScalarType, to: ScalarType, ftz = false): JsUnary {
  if (from !== to && flushes(from, ftz)) {
    const inner = jsCast(from, to);
    return (a) => inner(flush(a));
  }
  if (from !== to && flushes(to, ftz) && isFloat(from)) {
    const inner = jsCast(from, to);
    return (a) => flush(inner(a));
  }
  const f = from.name;
  const t = to.name;
  if (f === t) return (a) => a;
  if (t === "bool") return isBigIntType(from) ? (a) => `(${a} !== 0n)` : (a) => `(${a} !== 0)`;
  if (f === "bool") return isBigIntType(to) ? (a) => `(${a} ? 1n : 0n)` : (a) => `(${a} ? 1 : 0)`;
  if (isFloat(from)) {
    switch (t) {
      case "i8":
      case "u8":
      case "i16":
      case "u16":
      case "i32":
      case "u32":
      case "i64":
      case "u64": return (a) => `$.f2${t}(${a})`;
      case "f32": return isHalf(from) ? (a) => a : (a) => `Math.fround(${a})`;
      case "f64": return (a) => a;
      case "f16": return (a) => `$.f16(${a})`;
      case "bf16": return (a) => `$.bf16(${a})`;
    }
  }
  invariant(isInt(from), `cast from ${f}`);
  if (isBigIntType(from)) {
    if (isSmallInt(to) || t === "i32" || t === "u32") return (a) => `Number(BigInt.as${isSigned(to) ? "Int" : "Uint"}N(${bitWidth(to)}, ${a}))`;
    switch (t) {
      case "i64": return (a) => `BigInt.asIntN(64, ${a})`;
      case "u64": return (a) => `BigInt.asUintN(64, ${a})`;
      case "f32": return (a) => `$.big2f32(${a})`;
      case "f64": return (a) => `Number(${a})`;
      case "f16": return (a) => `$.big2f16(${a})`;
      case "bf16": return (a) => `$.big2bf16(${a})`;
    }
  }
  // From a 32-bit or smaller integer: a number, exact in every float but f16 and bf16 (rounded once).
  if (isSmallInt(to)) return wrapTo(to.name);
  switch (t) {
    case "i32": return (a) => `(${a} | 0)`;
    case "u32": return (a) => `(${a} >>> 0)`;
    case "i64": return (a) => `BigInt(${a})`;
    case "u64": return isSigned(from) ? (a) => `BigInt.asUintN(64, BigInt(${a}))` : (a) => `BigInt(${a})`;
    case "f32": return (a) => `Math.fround(${a})`;
    case "f64": return (a) => a;
    case "f16": return (a) => `$.f16(${a})`;
    case "bf16": return (a) => `$.bf16(${a})`;
  }
  return invariant(false, `cast ${f} -> ${t}`) as never;
}

// ---------------------------------------------------------------- the runtime the templates call

/** Called with the site of an integer division by zero; must throw. */
export type DivZeroHandler = (site: number) => never;

/** The `$` object templates refer to: the pure helpers plus division with the caller's zero check. */
export function makeRuntime(onDivZero: DivZeroHandler) {
  return {
    ...jsrt,
    divI32: (a: number, b: number, s: number) => (b === 0 ? onDivZero(s) : (a / b) | 0),
    remI32: (a: number, b: number, s: number) => (b === 0 ? onDivZero(s) : (a % b) | 0),
    divU32: (a: number, b: number, s: number) => (b === 0 ? onDivZero(s) : Math.trunc(a / b) >>> 0),
    remU32: (a: number, b: number, s: number) => (b === 0 ? onDivZero(s) : (a % b) >>> 0),
    divI64: (a: bigint, b: bigint, s: number) => (b === 0n ? onDivZero(s) : BigInt.asIntN(64, a / b)),
    remI64: (a: bigint, b: bigint, s: number) => (b === 0n ? onDivZero(s) : a % b),
    divU64: (a: bigint, b: bigint, s: number) => (b === 0n ? onDivZero(s) : a / b),
    remU64: (a: bigint, b: bigint, s: number) => (b === 0n ? onDivZero(s) : a % b),
  };
}
export type Runtime = ReturnType<typeof makeRuntime>;

// ---------------------------------------------------------------- evaluation (constant folding)

/** Thrown by folding when an operation would trap at run time; the folder leaves such code alone. */
export class FoldTrap extends Error {}

const foldRuntime = makeRuntime(() => {
  throw new FoldTrap("integer division by zero");
});

// Compiled once per (op, type): a memo of a pure function of its key.
const compiled = new Map<string, (...args: ScalarValue[]) => ScalarValue>();

/** A JavaScript expression over `a`, `b`, `c` and `$`, compiled once per key and run with the folding runtime. */
export function compileJs(key: string, arity: number, body: string): (...args: ScalarValue[]) => ScalarValue {
  let fn = compiled.get(key);
  if (!fn) {
    const params = ["a", "b", "c"].slice(0, arity);
    const raw = new Function("$", ...params, `"use strict"; return ${body};`) as (
      $: Runtime,
      ...args: ScalarValue[]
    ) => ScalarValue;
    fn = (...args) => raw(foldRuntime, ...args);
    compiled.set(key, fn);
  }
  return fn;
}

/** `a op b` with operands of type `t`, exactly as the kernel computes it (`ftz`: in a module that flushes f32 subnormals). Throws FoldTrap on division by zero. */
export function evalBinary(op: BinOp, t: ScalarType, a: ScalarValue, b: ScalarValue, ftz = false): ScalarValue {
  const tpl = jsBinary(op, t, ftz);
  invariant(tpl, `operator ${op} on ${t.name}`);
  return compileJs(`b:${op}:${t.name}:${ftz}`, 2, tpl("a", "b", "-1"))(a, b);
}

export function evalUnary(op: UnOp, t: ScalarType, a: ScalarValue, ftz = false): ScalarValue {
  const tpl = jsUnary(op, t, ftz);
  invariant(tpl, `operator ${op} on ${t.name}`);
  return compileJs(`u:${op}:${t.name}:${ftz}`, 1, tpl("a"))(a);
}

export function evalCast(from: ScalarType, to: ScalarType, a: ScalarValue, ftz = false): ScalarValue {
  return compileJs(`c:${from.name}:${to.name}:${ftz}`, 1, jsCast(from, to, ftz)("a"))(a);
}

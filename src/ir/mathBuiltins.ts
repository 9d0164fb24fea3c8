/**
 * The math builtins of the builtin table (src/ir/builtins.ts): the float functions (`sqrt`,
 * `exp`, `sin`, ... with the ulp within which GPU and simulator agree), `fma`, `abs`, `min`,
 * `max`, `clamp`, the bit counts (`popcount`, `clz`) and the float tests (`isnan`, `isinf`).
 * CUDA's fast intrinsics (`fastExp`, ...) are math builtins too, in src/ir/fastMath.ts.
 *
 * f16 and bf16 use CUDA's half-precision function where there is one and otherwise the f32
 * function, rounded once; the small integers (i8 u8 i16 u16) are computed as int, and the
 * backend converts the result back.
 */
import type { MathEntry, TypeConstraint } from "./builtins.js";
import { call, fill, raw, type Template } from "./templates.js";
import { FLOAT_NAMES, type FloatName, type ScalarName } from "./types.js";

// Every math builtin works lane by lane on vectors too (src/ir/lanes.ts).
const FLOAT: TypeConstraint = { scalars: "float", vectors: true };
const NUMERIC: TypeConstraint = { scalars: "numeric", vectors: true };
const INT: TypeConstraint = { scalars: "int", vectors: true };

/** A float function computed in f64 by JavaScript, then rounded once to the operands' type. */
function floatJs(f: Template): Partial<Record<ScalarName, Template>> {
  return {
    f32: raw((a) => `Math.fround(${fill(f, a)})`),
    f64: f,
    f16: raw((a) => `$.f16(${fill(f, a)})`),
    bf16: raw((a) => `$.bf16(${fill(f, a)})`),
  };
}

/**
 * The f16 and bf16 ulp of a function with these f32 and f64 ulp: 0 for the exact ones (computed
 * by the f32 function, correctly rounded, and rounded again, which for these is as if once), 1
 * for the others: CUDA's f16 intrinsic (or the f32 function, a few f32 ulp off) is within an
 * ulp of the half result, and the simulator's f64 result, rounded, is the correctly rounded one.
 */
function halfUlp(ulp: { f32: number; f64: number }): Readonly<Record<FloatName, number>> {
  const half = ulp.f32 === 0 && ulp.f64 === 0 ? 0 : 1;
  return { ...ulp, f16: half, bf16: half };
}

/** A float function: the simulator's through f64, rounded once to the operands' type. */
function floatMath(name: string, arity: 1 | 2 | 3, js: Template, ulp: { f32: number; f64: number }, doc: string): MathEntry {
  return {
    name,
    doc,
    rule: { kind: "math", arity, operands: FLOAT, result: "operand" },
    js: floatJs(js),
    ulp: halfUlp(ulp),
  };
}

const exact = { f32: 0, f64: 0 };
const exactAll = halfUlp(exact);

/** An operation that wraps a small integer result computed in i32 (abs of -128 is -128). */
const wrapJs = (bits: 8 | 16, t: Template) => raw((a) => `((${fill(t, a)}) << ${32 - bits} >> ${32 - bits})`);
const identity = raw((a) => `(${a[0]})`);

/** The same implementation for i8 u8 i16 u16. */
function forSmallInts<V>(v: V): Record<"i8" | "u8" | "i16" | "u16", V> {
  return { i8: v, u8: v, i16: v, u16: v };
}

export const mathEntries: readonly MathEntry[] = [
  floatMath("sqrt", 1, call("Math.sqrt"), exact, "Square root, correctly rounded."),
  floatMath("rsqrt", 1, raw((a) => `(1 / Math.sqrt(${a[0]}))`), { f32: 2, f64: 1 }, "Reciprocal square root 1/sqrt(x)."),
  floatMath("exp", 1, call("Math.exp"), { f32: 2, f64: 1 }, "e raised to x."),
  floatMath("exp2", 1, raw((a) => `Math.pow(2, ${a[0]})`), { f32: 2, f64: 1 }, "2 raised to x."),
  floatMath("log", 1, call("Math.log"), { f32: 1, f64: 1 }, "Natural logarithm."),
  floatMath("log2", 1, call("Math.log2"), { f32: 1, f64: 1 }, "Base-2 logarithm."),
  floatMath("sin", 1, call("Math.sin"), { f32: 2, f64: 2 }, "Sine of x radians."),
  floatMath("cos", 1, call("Math.cos"), { f32: 2, f64: 2 }, "Cosine of x radians."),
  floatMath("tan", 1, call("Math.tan"), { f32: 4, f64: 2 }, "Tangent of x radians."),
  floatMath("tanh", 1, call("Math.tanh"), { f32: 2, f64: 2 }, "Hyperbolic tangent."),
  floatMath("pow", 2, call("$.pow"), { f32: 4, f64: 2 }, "x raised to y (C pow: pow(1, y) and pow(x, 0) are 1)."),
  floatMath("atan", 1, call("Math.atan"), { f32: 2, f64: 2 }, "Arc tangent, in radians."),
  floatMath("atan2", 2, call("Math.atan2"), { f32: 3, f64: 2 }, "atan2(y, x): the angle of the point (x, y), in radians."),
  floatMath("asin", 1, call("Math.asin"), { f32: 2, f64: 2 }, "Arc sine, in radians."),
  floatMath("acos", 1, call("Math.acos"), { f32: 2, f64: 2 }, "Arc cosine, in radians."),
  floatMath("sinh", 1, call("Math.sinh"), { f32: 3, f64: 2 }, "Hyperbolic sine."),
  floatMath("cosh", 1, call("Math.cosh"), { f32: 2, f64: 2 }, "Hyperbolic cosine."),
  floatMath("asinh", 1, call("Math.asinh"), { f32: 3, f64: 3 }, "Inverse hyperbolic sine."),
  floatMath("acosh", 1, call("Math.acosh"), { f32: 4, f64: 3 }, "Inverse hyperbolic cosine."),
  floatMath("atanh", 1, call("Math.atanh"), { f32: 3, f64: 3 }, "Inverse hyperbolic tangent."),
  floatMath("log10", 1, call("Math.log10"), { f32: 2, f64: 2 }, "Base-10 logarithm."),
  floatMath("log1p", 1, call("Math.log1p"), { f32: 2, f64: 2 }, "log(1 + x), accurate for small x."),
  floatMath("expm1", 1, call("Math.expm1"), { f32: 2, f64: 2 }, "exp(x) - 1, accurate for small x."),
  floatMath("cbrt", 1, call("Math.cbrt"), { f32: 2, f64: 2 }, "The cube root of x."),
  floatMath("hypot", 2, call("Math.hypot"), { f32: 3, f64: 2 }, "sqrt(x*x + y*y) without overflow or underflow in between."),
  floatMath("erf", 1, call("$.erf"), { f32: 2, f64: 3 }, "The error function."),
  floatMath("erfc", 1, call("$.erfc"), { f32: 4, f64: 8 }, "1 - erf(x), accurate where erf(x) is close to 1."),
  floatMath("copysign", 2, call("$.copysign"), exact, "The magnitude of x with the sign of y."),
  floatMath("floor", 1, call("Math.floor"), exact, "Largest integer value not above x."),
  floatMath("ceil", 1, call("Math.ceil"), exact, "Smallest integer value not below x."),
  floatMath("round", 1, call("$.roundHalfAway"), exact, "Nearest integer value, halfway cases away from zero."),
  floatMath("trunc", 1, call("Math.trunc"), exact, "x rounded toward zero to an integer value."),
  {
    name: "fma",
    doc: "a * b + c rounded once.",
    rule: { kind: "math", arity: 3, operands: FLOAT, result: "operand" },
    js: { f32: call("$.fmaF32"), f64: call("$.fmaF64"), f16: call("$.fmaF16"), bf16: call("$.fmaBf16") },
    ulp: exactAll,
  },
  {
    name: "abs",
    doc: "Absolute value; for signed integers abs of the most negative value is itself (wraps).",
    rule: { kind: "math", arity: 1, operands: NUMERIC, result: "operand" },
    js: {
      i8: wrapJs(8, call("$.absI32")),
      i16: wrapJs(16, call("$.absI32")),
      u8: identity,
      u16: identity,
      f16: call("Math.abs"),
      bf16: call("Math.abs"),
      f32: call("Math.abs"),
      f64: call("Math.abs"),
      i32: call("$.absI32"),
      i64: call("$.absI64"),
      u32: raw((a) => `${a[0]}`),
      u64: raw((a) => `${a[0]}`),
    },
    ulp: exactAll,
  },
  minMax("min", "Smaller of a and b. For floats a NaN operand yields the other operand, and -0 is below +0."),
  minMax("max", "Larger of a and b. For floats a NaN operand yields the other operand, and +0 is above -0."),
  {
    name: "clamp",
    doc: "min(max(x, lo), hi).",
    rule: { kind: "math", arity: 3, operands: NUMERIC, result: "operand" },
    js: {
      f32: raw((a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`),
      f64: raw((a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`),
      f16: raw((a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`),
      bf16: raw((a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`),
      ...forSmallInts(raw((a) => `Math.min(Math.max(${a[0]}, ${a[1]}), ${a[2]})`)),
      i32: raw((a) => `Math.min(Math.max(${a[0]}, ${a[1]}), ${a[2]})`),
      u32: raw((a) => `Math.min(Math.max(${a[0]}, ${a[1]}), ${a[2]})`),
      i64: raw((a) => `$.minBig($.maxBig(${a[0]}, ${a[1]}), ${a[2]})`),
      u64: raw((a) => `$.minBig($.maxBig(${a[0]}, ${a[1]}), ${a[2]})`),
    },
    ulp: exactAll,
  },
  {
    name: "popcount",
    doc: "The number of one bits in x's binary representation (8, 16, 32 or 64 bits wide), as i32.",
    rule: { kind: "math", arity: 1, operands: INT, result: "i32" },
    js: {
      i8: raw((a) => `$.popc32(${a[0]} & 255)`),
      u8: call("$.popc32"),
      i16: raw((a) => `$.popc32(${a[0]} & 65535)`),
      u16: call("$.popc32"),
      i32: call("$.popc32"),
      u32: call("$.popc32"),
      i64: call("$.popc64"),
      u64: call("$.popc64"),
    },
    ulp: exactAll,
  },
  {
    name: "clz",
    doc: "The number of leading zero bits of x in its width (8, 16, 32 or 64 for zero), as i32.",
    rule: { kind: "math", arity: 1, operands: INT, result: "i32" },
    js: {
      i8: raw((a) => `(Math.clz32(${a[0]} & 255) - 24)`),
      u8: raw((a) => `(Math.clz32(${a[0]}) - 24)`),
      i16: raw((a) => `(Math.clz32(${a[0]} & 65535) - 16)`),
      u16: raw((a) => `(Math.clz32(${a[0]}) - 16)`),
      i32: call("Math.clz32"),
      u32: call("Math.clz32"),
      i64: call("$.clz64"),
      u64: call("$.clz64"),
    },
    ulp: exactAll,
  },
  {
    name: "isnan",
    doc: "True when x is a NaN.",
    rule: { kind: "math", arity: 1, operands: FLOAT, result: "bool" },
    js: Object.fromEntries(FLOAT_NAMES.map((t) => [t, raw((a) => `(${a[0]} !== ${a[0]})`, { once: false })])),
    ulp: exactAll,
  },
  {
    name: "isinf",
    doc: "True when x is +Infinity or -Infinity.",
    rule: { kind: "math", arity: 1, operands: FLOAT, result: "bool" },
    js: Object.fromEntries(FLOAT_NAMES.map((t) => [t, raw((a) => `(${a[0]} === Infinity || ${a[0]} === -Infinity)`, { once: false })])),
    ulp: exactAll,
  },
];

function minMax(name: "min" | "max", doc: string): MathEntry {
  return {
    name,
    doc,
    rule: { kind: "math", arity: 2, operands: NUMERIC, result: "operand" },
    js: {
      f32: call(`$.f${name}`),
      f64: call(`$.f${name}`),
      f16: call(`$.f${name}`),
      bf16: call(`$.f${name}`),
      ...forSmallInts(call(`Math.${name}`)),
      i32: call(`Math.${name}`),
      u32: call(`Math.${name}`),
      i64: call(`$.${name}Big`),
      u64: call(`$.${name}Big`),
    },
    ulp: exactAll,
  };
}

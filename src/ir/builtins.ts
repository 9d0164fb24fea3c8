/**
 * The builtin table is data. One entry per builtin: its name, its type rule, its CUDA
 * template, its JavaScript implementation for the simulator, and its doc line. The
 * checker, the CUDA backend, the simulator and the docs all read this table, and
 * test/ir/builtins.test.ts checks that every entry implements every type it accepts.
 *
 * Each backend has its column in an entry (`cuda`, `js`); each column holds structured
 * templates (src/ir/templates.ts): a call, or raw text with its precedence and whether it
 * evaluates each operand once declared beside it. `$` in a JavaScript template is the runtime
 * of src/ir/evalOp.ts (`makeRuntime`).
 */
import type { AtomicOp, Axis, SpecialName, WarpOp } from "./nodes.js";
import { call, evaluatesOnce, fill, raw, type Template } from "./templates.js";
import { FLOAT_NAMES, INT_NAMES, T, type FloatName, type ScalarName, type ScalarType, type ScalarValue, type ValueType } from "./types.js";
import type { CudaHelperName } from "../backends/cuda/helpers.js";
import { atomicEntries } from "./atomicBuiltins.js";
import { warpEntries } from "./warpBuiltins.js";
import { vectorEntries, vectorMemoryEntries, type VectorEntry, type VectorMemoryEntry, type VectorMemoryRule, type VectorRule } from "./vectorBuiltins.js";

export type { VectorEntry, VectorMemoryEntry, VectorMemoryRule, VectorRule };
import { fastMathEntries } from "./fastMath.js";
import { memoryEntries } from "./memoryBuiltins.js";

/** A class of scalar types ("f32": f32 alone, for CUDA's fast intrinsics). */
export type ScalarClass = "float" | "numeric" | "int" | "f32";

/**
 * A constraint on an operand's type, over the type algebra (src/ir/types.ts): a scalar of
 * the class, or also a vector of such scalars, lane by lane, where `vectors` is true.
 */
export interface TypeConstraint {
  readonly scalars: ScalarClass;
  readonly vectors: boolean;
}

const CLASS_SCALARS: Record<ScalarClass, readonly ScalarName[]> = {
  float: FLOAT_NAMES,
  int: INT_NAMES,
  numeric: [...INT_NAMES, ...FLOAT_NAMES],
  f32: ["f32"],
};

/** The scalar types a constraint admits (for a vector, its lanes' types). */
export function admittedScalars(c: TypeConstraint): readonly ScalarType[] {
  return CLASS_SCALARS[c.scalars].map((n) => T[n]);
}

/** Whether `t` satisfies the constraint. */
export function satisfies(t: ValueType, c: TypeConstraint): boolean {
  const lane = t.kind === "scalar" ? t : t.kind === "vector" && c.vectors ? t.elem : undefined;
  return lane !== undefined && CLASS_SCALARS[c.scalars].includes(lane.name);
}

export interface MathRule {
  readonly kind: "math";
  readonly arity: 1 | 2 | 3;
  /** Every operand has one type, which satisfies this constraint. */
  readonly operands: TypeConstraint;
  /** The result has the operands' type, or is bool, or is i32 (bit counts). */
  readonly result: "operand" | "bool" | "i32";
}

export interface AtomicRule {
  readonly kind: "atomic";
  readonly op: AtomicOp;
  /** Element types this atomic accepts. */
  readonly types: readonly ScalarName[];
}

export interface SyncRule {
  readonly kind: "sync";
}

export interface IndexRule {
  readonly kind: "index";
  readonly special: SpecialName;
  /** Whether it has members .x .y .z (laneId has none). */
  readonly axes: boolean;
}

/**
 * A warp operation (src/ir/warpBuiltins.ts): a shuffle of a value (`params`: the value and the
 * lane operand), a vote on a bool, or `syncWarp`.
 */
export interface WarpRule {
  readonly kind: "warp";
  /** A shuffle, a vote on a bool, a match of an integer value across the warp, or `syncWarp`. */
  readonly shape: "shuffle" | "vote" | "match" | "sync";
  /** The operands' names, for docs and messages. */
  readonly params: readonly string[];
  /** The result: the value's type (shuffles), u32 (ballot, matchAny), bool (anyLane, allLanes, matchAll), or none (syncWarp). */
  readonly result: "operand" | "u32" | "bool" | "void";
}

/**
 * Memory ordering (src/ir/memoryBuiltins.ts): a fence (a statement), or a load or store of one
 * element of global or shared memory with an ordering (spec: Memory model).
 */
export interface MemoryRule {
  readonly kind: "memory";
  readonly op: "fenceBlock" | "fenceDevice" | "loadAcquire" | "loadVolatile" | "storeRelease" | "storeVolatile";
  /** Element types a load or store accepts (none for a fence). */
  readonly types: readonly ScalarName[];
}

/**
 * A named constant of the language: `warpSize` (i32), and `Infinity` and `NaN`, which are
 * untyped float constants (`type: "float"`): like a float literal, they take their type from
 * the context, f32 by default.
 */
export interface ConstantRule {
  readonly kind: "constant";
  readonly type: ScalarName | "float";
  readonly value: ScalarValue;
}

export type TypeRule = MathRule | AtomicRule | SyncRule | IndexRule | WarpRule | ConstantRule | VectorRule | VectorMemoryRule | MemoryRule;

/** CUDA for one operand type: a template over the operands, and the prelude helpers it uses. */
export interface CudaImpl {
  readonly template: Template;
  readonly helpers?: readonly CudaHelperName[];
}

export interface MathEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: MathRule;
  readonly cuda: Partial<Record<ScalarName, CudaImpl>>;
  readonly js: Partial<Record<ScalarName, Template>>;
  /** How far GPU and simulator results may differ, in ulp of the result type: CUDA's documented error plus the simulator's; 0 means exact. */
  readonly ulp: Readonly<Record<FloatName, number>>;
  /** A fast, approximate intrinsic (src/ir/fastMath.ts): CUDA's documented bound and where it holds, in place of `ulp`. */
  readonly fast?: FastAccuracy;
}

/**
 * The accuracy of a fast intrinsic (`fastExp` is CUDA's `__expf`), which CUDA documents as a bound
 * that holds over some inputs (an absolute error for `__sinf` in [-π, π], ulp elsewhere).
 */
export interface FastAccuracy {
  /** CUDA's documented bound, in its words (or how gk derives one from the documented implementation). */
  readonly bound: string;
  /**
   * Where the tests compare the GPU with the simulator, and how closely: one range per operand
   * in each region, and the bound there plus the simulator's own rounding.
   */
  readonly regions: readonly FastRegion[];
  /** What the simulator computes outside the regions, where that differs from the accurate function. */
  readonly outside?: string;
}

export interface FastRegion {
  readonly operands: readonly (readonly [number, number])[];
  readonly tolerance: { readonly ulp?: number; readonly abs?: number };
}

export interface AtomicEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: AtomicRule;
  /**
   * A template over `[addr, ...operands]` (cas: `[addr, compare, value]`); `addr` is a C++
   * expression of type `T*` pointing at the element that binds as a unary expression
   * (`&a[i]`), so it may follow a cast.
   */
  readonly cuda: Partial<Record<ScalarName, CudaImpl>>;
  /**
   * The new value of the element: a template over `[old, ...operands]`, for an element of
   * global or shared memory (the GPU's f32 atomic add differs between them).
   */
  readonly js: Partial<Record<ScalarName, (space: "global" | "shared") => Template>>;
}

export interface SyncEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: SyncRule;
  readonly cuda: Template;
  /** The simulator suspends the thread here; there is no expression to evaluate. */
  readonly js: "barrier";
}

export interface IndexEntry {
  readonly name: SpecialName;
  readonly doc: string;
  readonly rule: IndexRule;
  /**
   * The value on an axis as CUDA computes it, an `unsigned int` spelled as a primary
   * expression (a name or a parenthesized whole); gk's i32 is that converted, `(int)` before it.
   */
  readonly cuda: (axis: Axis) => string;
  readonly helpers?: readonly CudaHelperName[];
  /** The simulator's per-thread variable holding this value on an axis. */
  readonly js: (axis: Axis) => string;
}

/**
 * The simulator's rule for a warp operation, applied once every thread of the warp has
 * arrived (src/runtime/sim/warps.ts). `size` is the number of threads the warp has (32, or
 * fewer in the last warp of a block whose size is not a multiple of 32).
 */
export type WarpJs =
  /** The lane whose value `lane` receives, from its lane operand; `size` or more: a lane that does not exist (an error). */
  | { readonly kind: "shuffle"; readonly source: (lane: number, operand: number, size: number) => number }
  /** The value every lane receives, from the predicates of the warp's lanes in order. */
  | { readonly kind: "vote"; readonly combine: (preds: readonly boolean[]) => ScalarValue }
  /** The value lane `lane` receives, from the values of the warp's lanes in order. */
  | { readonly kind: "match"; readonly result: (values: readonly ScalarValue[], lane: number) => ScalarValue }
  | { readonly kind: "sync" };

export interface WarpEntry {
  readonly name: WarpOp;
  readonly doc: string;
  readonly rule: WarpRule;
  /** CUDA for every operand type (the intrinsics are overloaded); a shuffle's lane operand arrives as an int in 0..31. */
  readonly cuda: CudaImpl;
  readonly js: WarpJs;
}

export interface ConstantEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: ConstantRule;
}

export interface MemoryEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: MemoryRule;
  /**
   * Per element type, a template over `[addr]` (loads) or `[addr, value]` (stores), `addr` a
   * C++ `T*` to the element binding as a unary expression (`&a[i]`), as for atomics; a fence's
   * one template, over nothing, is filed under `fence`.
   */
  readonly cuda: Partial<Record<ScalarName | "fence", CudaImpl>>;
}

export type BuiltinEntry = MathEntry | AtomicEntry | SyncEntry | IndexEntry | WarpEntry | ConstantEntry | VectorEntry | VectorMemoryEntry | MemoryEntry;

// ---------------------------------------------------------------- math

// Every math builtin works lane by lane on vectors too (src/ir/lanes.ts).
const FLOAT: TypeConstraint = { scalars: "float", vectors: true };
const NUMERIC: TypeConstraint = { scalars: "numeric", vectors: true };
const INT: TypeConstraint = { scalars: "int", vectors: true };

/**
 * The conversions of f16 and bf16 to f32 (exact) and back (rounded once) that the CUDA
 * templates below call, as this table spells CUDA functions (the backend's own conversions
 * are in src/backends/cuda/settings.ts, which `gkc check` does not load).
 */
const HALF_CUDA = { f16: { toF32: "__half2float", fromF32: "__float2half_rn" }, bf16: { toF32: "__bfloat162float", fromF32: "__float2bfloat16_rn" } } as const;

/** A half-precision function computed by the f32 one (`sinf`): operands converted exactly, the result rounded once. */
function throughF32(h: "f16" | "bf16", f32: Template, helpers?: readonly CudaHelperName[]): CudaImpl {
  const { toF32, fromF32 } = HALF_CUDA[h];
  return { template: raw((a) => `${fromF32}(${fill(f32, a.map((x) => `${toF32}(${x})`))})`), ...(helpers ? { helpers } : {}) };
}

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

/**
 * A float function of the f32 and f64 CUDA functions, for f16 also `h` (CUDA's approximate
 * half-precision intrinsic, `hexp`) where there is one; bf16 and the functions without one go
 * through the f32 function.
 */
function floatMath(name: string, arity: 1 | 2 | 3, cudaF32: string, cudaF64: string, js: Template, ulp: { f32: number; f64: number }, doc: string, h?: string): MathEntry {
  return {
    name,
    doc,
    rule: { kind: "math", arity, operands: FLOAT, result: "operand" },
    cuda: {
      f32: { template: call(cudaF32) },
      f64: { template: call(cudaF64) },
      f16: h ? { template: call(h) } : throughF32("f16", call(cudaF32)),
      bf16: throughF32("bf16", call(cudaF32)),
    },
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

const mathEntries: readonly MathEntry[] = [
  floatMath("sqrt", 1, "sqrtf", "sqrt", call("Math.sqrt"), exact, "Square root, correctly rounded."),
  floatMath("rsqrt", 1, "rsqrtf", "rsqrt", raw((a) => `(1 / Math.sqrt(${a[0]}))`), { f32: 2, f64: 1 }, "Reciprocal square root 1/sqrt(x).", "hrsqrt"),
  floatMath("exp", 1, "expf", "exp", call("Math.exp"), { f32: 2, f64: 1 }, "e raised to x.", "hexp"),
  floatMath("exp2", 1, "exp2f", "exp2", raw((a) => `Math.pow(2, ${a[0]})`), { f32: 2, f64: 1 }, "2 raised to x.", "hexp2"),
  floatMath("log", 1, "logf", "log", call("Math.log"), { f32: 1, f64: 1 }, "Natural logarithm.", "hlog"),
  floatMath("log2", 1, "log2f", "log2", call("Math.log2"), { f32: 1, f64: 1 }, "Base-2 logarithm.", "hlog2"),
  floatMath("sin", 1, "sinf", "sin", call("Math.sin"), { f32: 2, f64: 2 }, "Sine of x radians.", "hsin"),
  floatMath("cos", 1, "cosf", "cos", call("Math.cos"), { f32: 2, f64: 2 }, "Cosine of x radians.", "hcos"),
  floatMath("tan", 1, "tanf", "tan", call("Math.tan"), { f32: 4, f64: 2 }, "Tangent of x radians."),
  floatMath("tanh", 1, "tanhf", "tanh", call("Math.tanh"), { f32: 2, f64: 2 }, "Hyperbolic tangent."),
  floatMath("pow", 2, "powf", "pow", call("$.pow"), { f32: 4, f64: 2 }, "x raised to y (C pow: pow(1, y) and pow(x, 0) are 1)."),
  floatMath("atan", 1, "atanf", "atan", call("Math.atan"), { f32: 2, f64: 2 }, "Arc tangent, in radians."),
  floatMath("atan2", 2, "atan2f", "atan2", call("Math.atan2"), { f32: 3, f64: 2 }, "atan2(y, x): the angle of the point (x, y), in radians."),
  floatMath("asin", 1, "asinf", "asin", call("Math.asin"), { f32: 2, f64: 2 }, "Arc sine, in radians."),
  floatMath("acos", 1, "acosf", "acos", call("Math.acos"), { f32: 2, f64: 2 }, "Arc cosine, in radians."),
  floatMath("sinh", 1, "sinhf", "sinh", call("Math.sinh"), { f32: 3, f64: 2 }, "Hyperbolic sine."),
  floatMath("cosh", 1, "coshf", "cosh", call("Math.cosh"), { f32: 2, f64: 2 }, "Hyperbolic cosine."),
  floatMath("asinh", 1, "asinhf", "asinh", call("Math.asinh"), { f32: 3, f64: 3 }, "Inverse hyperbolic sine."),
  floatMath("acosh", 1, "acoshf", "acosh", call("Math.acosh"), { f32: 4, f64: 3 }, "Inverse hyperbolic cosine."),
  floatMath("atanh", 1, "atanhf", "atanh", call("Math.atanh"), { f32: 3, f64: 3 }, "Inverse hyperbolic tangent."),
  floatMath("log10", 1, "log10f", "log10", call("Math.log10"), { f32: 2, f64: 2 }, "Base-10 logarithm.", "hlog10"),
  floatMath("log1p", 1, "log1pf", "log1p", call("Math.log1p"), { f32: 2, f64: 2 }, "log(1 + x), accurate for small x."),
  floatMath("expm1", 1, "expm1f", "expm1", call("Math.expm1"), { f32: 2, f64: 2 }, "exp(x) - 1, accurate for small x."),
  floatMath("cbrt", 1, "cbrtf", "cbrt", call("Math.cbrt"), { f32: 2, f64: 2 }, "The cube root of x."),
  floatMath("hypot", 2, "hypotf", "hypot", call("Math.hypot"), { f32: 3, f64: 2 }, "sqrt(x*x + y*y) without overflow or underflow in between."),
  floatMath("erf", 1, "erff", "erf", call("$.erf"), { f32: 2, f64: 3 }, "The error function."),
  floatMath("erfc", 1, "erfcf", "erfc", call("$.erfc"), { f32: 4, f64: 8 }, "1 - erf(x), accurate where erf(x) is close to 1."),
  floatMath("copysign", 2, "copysignf", "copysign", call("$.copysign"), exact, "The magnitude of x with the sign of y."),
  floatMath("floor", 1, "floorf", "floor", call("Math.floor"), exact, "Largest integer value not above x."),
  floatMath("ceil", 1, "ceilf", "ceil", call("Math.ceil"), exact, "Smallest integer value not below x."),
  floatMath("round", 1, "roundf", "round", call("$.roundHalfAway"), exact, "Nearest integer value, halfway cases away from zero."),
  floatMath("trunc", 1, "truncf", "trunc", call("Math.trunc"), exact, "x rounded toward zero to an integer value."),
  {
    name: "fma",
    doc: "a * b + c rounded once.",
    rule: { kind: "math", arity: 3, operands: FLOAT, result: "operand" },
    cuda: { f32: { template: call("fmaf") }, f64: { template: call("fma") }, f16: { template: call("__hfma") }, bf16: { template: call("__hfma") } },
    js: { f32: call("$.fmaF32"), f64: call("$.fmaF64"), f16: call("$.fmaF16"), bf16: call("$.fmaBf16") },
    ulp: exactAll,
  },
  {
    name: "abs",
    doc: "Absolute value; for signed integers abs of the most negative value is itself (wraps).",
    rule: { kind: "math", arity: 1, operands: NUMERIC, result: "operand" },
    cuda: {
      // The small integers are computed as int; the backend converts the result back (wrapping).
      i8: { template: call("gk_abs_i32"), helpers: ["gk_abs_i32"] },
      i16: { template: call("gk_abs_i32"), helpers: ["gk_abs_i32"] },
      u8: { template: identity },
      u16: { template: identity },
      f16: { template: call("__habs") },
      bf16: { template: call("__habs") },
      f32: { template: call("fabsf") },
      f64: { template: call("fabs") },
      i32: { template: call("gk_abs_i32"), helpers: ["gk_abs_i32"] },
      i64: { template: call("gk_abs_i64"), helpers: ["gk_abs_i64"] },
      u32: { template: raw((a) => `(${a[0]})`) },
      u64: { template: raw((a) => `(${a[0]})`) },
    },
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
    cuda: {
      f32: { template: raw((a) => `gk_min_f32(gk_max_f32(${a[0]}, ${a[1]}), ${a[2]})`), helpers: ["gk_min_f32", "gk_max_f32"] },
      f64: { template: raw((a) => `gk_min_f64(gk_max_f64(${a[0]}, ${a[1]}), ${a[2]})`), helpers: ["gk_min_f64", "gk_max_f64"] },
      f16: throughF32("f16", raw((a) => `gk_min_f32(gk_max_f32(${a[0]}, ${a[1]}), ${a[2]})`), ["gk_min_f32", "gk_max_f32"]),
      bf16: throughF32("bf16", raw((a) => `gk_min_f32(gk_max_f32(${a[0]}, ${a[1]}), ${a[2]})`), ["gk_min_f32", "gk_max_f32"]),
      ...forSmallInts({ template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) }),
      i32: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
      u32: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
      i64: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
      u64: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
    },
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
    cuda: {
      i8: { template: raw((a) => `__popc((unsigned int)(unsigned char)(${a[0]}))`) },
      u8: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
      i16: { template: raw((a) => `__popc((unsigned int)(unsigned short)(${a[0]}))`) },
      u16: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
      i32: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
      u32: { template: call("__popc") },
      i64: { template: raw((a) => `__popcll((unsigned long long)(${a[0]}))`) },
      u64: { template: call("__popcll") },
    },
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
    cuda: {
      i8: { template: raw((a) => `(__clz((int)(unsigned char)(${a[0]})) - 24)`) },
      u8: { template: raw((a) => `(__clz((int)(${a[0]})) - 24)`) },
      i16: { template: raw((a) => `(__clz((int)(unsigned short)(${a[0]})) - 16)`) },
      u16: { template: raw((a) => `(__clz((int)(${a[0]})) - 16)`) },
      i32: { template: call("__clz") },
      u32: { template: raw((a) => `__clz((int)(${a[0]}))`) },
      i64: { template: call("__clzll") },
      u64: { template: raw((a) => `__clzll((long long)(${a[0]}))`) },
    },
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
    cuda: { f32: { template: call("isnan") }, f64: { template: call("isnan") }, f16: { template: call("__hisnan") }, bf16: { template: call("__hisnan") } },
    js: Object.fromEntries(FLOAT_NAMES.map((t) => [t, raw((a) => `(${a[0]} !== ${a[0]})`, { once: false })])),
    ulp: exactAll,
  },
  {
    name: "isinf",
    doc: "True when x is +Infinity or -Infinity.",
    rule: { kind: "math", arity: 1, operands: FLOAT, result: "bool" },
    cuda: {
      f32: { template: call("isinf") },
      f64: { template: call("isinf") },
      // __hisinf gives -1, 1 or 0.
      f16: { template: raw((a) => `(__hisinf(${a[0]}) != 0)`) },
      bf16: { template: raw((a) => `(__hisinf(${a[0]}) != 0)`) },
    },
    js: Object.fromEntries(FLOAT_NAMES.map((t) => [t, raw((a) => `(${a[0]} === Infinity || ${a[0]} === -Infinity)`, { once: false })])),
    ulp: exactAll,
  },
];

function minMax(name: "min" | "max", doc: string): MathEntry {
  const ints = { template: call(name) };
  return {
    name,
    doc,
    rule: { kind: "math", arity: 2, operands: NUMERIC, result: "operand" },
    cuda: {
      f32: { template: call(`gk_${name}_f32`), helpers: [`gk_${name}_f32`] },
      f64: { template: call(`gk_${name}_f64`), helpers: [`gk_${name}_f64`] },
      f16: throughF32("f16", call(`gk_${name}_f32`), [`gk_${name}_f32`]),
      bf16: throughF32("bf16", call(`gk_${name}_f32`), [`gk_${name}_f32`]),
      // The small integers are computed as int; the backend converts the result back.
      ...forSmallInts(ints),
      i32: ints,
      u32: ints,
      i64: ints,
      u64: ints,
    },
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

// ---------------------------------------------------------------- synchronization and thread indices

const syncEntries: readonly SyncEntry[] = [
  {
    name: "barrier",
    doc: "barrier(): waits until every thread of the block has reached this barrier (CUDA __syncthreads). All threads of a block must reach the same barriers.",
    rule: { kind: "sync" },
    cuda: call("__syncthreads"),
    js: "barrier",
  },
];

const AXES = ["x", "y", "z"] as const;
function indexEntry(name: SpecialName, cuda: (axis: Axis) => string, js: string, doc: string): IndexEntry {
  return { name, doc, rule: { kind: "index", special: name, axes: true }, cuda, js: (axis) => `${js}${AXES[axis]}` };
}

const indexEntries: readonly IndexEntry[] = [
  indexEntry("threadIdx", (a) => `threadIdx.${AXES[a]}`, "$t", "The thread's index within its block (.x .y .z), i32."),
  indexEntry("blockIdx", (a) => `blockIdx.${AXES[a]}`, "$b", "The block's index within the grid (.x .y .z), i32."),
  indexEntry("blockDim", (a) => `blockDim.${AXES[a]}`, "$bd", "Threads per block on each axis (.x .y .z), i32."),
  indexEntry("gridDim", (a) => `gridDim.${AXES[a]}`, "$gd", "Blocks per grid on each axis (.x .y .z), i32."),
  indexEntry(
    "globalId",
    (a) => `(blockIdx.${AXES[a]} * blockDim.${AXES[a]} + threadIdx.${AXES[a]})`,
    "$g",
    "blockIdx * blockDim + threadIdx on each axis (.x .y .z), i32.",
  ),
  {
    name: "laneId",
    doc: "The thread's lane in its warp, i32: its linear index in the block, threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), modulo 32.",
    rule: { kind: "index", special: "laneId", axes: false },
    cuda: () => "(gk_thread_rank() & 31u)",
    helpers: ["gk_thread_rank"],
    js: () => "$lane",
  },
];

const constantEntries: readonly ConstantEntry[] = [
  { name: "warpSize", doc: "The number of threads of a warp: 32, an i32 constant (it may size arrays).", rule: { kind: "constant", type: "i32", value: 32 } },
  { name: "Infinity", doc: "Positive infinity, an untyped float constant (f32 by default, f64 where an f64 is expected); `-Infinity` is negative infinity.", rule: { kind: "constant", type: "float", value: Infinity } },
  { name: "NaN", doc: "A quiet NaN, an untyped float constant (f32 by default, f64 where an f64 is expected). It equals nothing, itself included: test with isnan(x).", rule: { kind: "constant", type: "float", value: NaN } },
];

// ---------------------------------------------------------------- the table

export const builtins: readonly BuiltinEntry[] = [
  ...mathEntries, ...fastMathEntries, ...vectorEntries, ...vectorMemoryEntries, ...atomicEntries, ...syncEntries, ...memoryEntries, ...warpEntries, ...indexEntries, ...constantEntries,
];

export type BuiltinName = string;

const byName = new Map<string, BuiltinEntry>(builtins.map((b) => [b.name, b]));

export function lookupBuiltin(name: string): BuiltinEntry | undefined {
  return byName.get(name);
}

export function mathBuiltin(name: string): MathEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "math" ? (b as MathEntry) : undefined;
}

/** A vector builtin (`dot`, `select`, ...), by name. */
export function vectorBuiltin(name: string): VectorEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "vector" ? (b as VectorEntry) : undefined;
}

/** `load2 load4 store2 store4`, by name. */
export function vectorMemoryBuiltin(name: string): VectorMemoryEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "vectorMemory" ? (b as VectorMemoryEntry) : undefined;
}

export function atomicBuiltin(op: AtomicOp): AtomicEntry {
  const b = atomicEntries.find((e) => e.rule.op === op);
  if (!b) throw new Error(`internal compiler error: no atomic ${op}`);
  return b;
}

export function indexBuiltin(name: SpecialName): IndexEntry {
  return indexEntries.find((e) => e.name === name)!;
}

export function warpBuiltin(op: WarpOp): WarpEntry {
  const b = warpEntries.find((e) => e.name === op);
  if (!b) throw new Error(`internal compiler error: no warp operation ${op}`);
  return b;
}

export function memoryBuiltin(op: MemoryRule["op"]): MemoryEntry {
  const b = memoryEntries.find((e) => e.rule.op === op);
  if (!b) throw new Error(`internal compiler error: no memory operation ${op}`);
  return b;
}

export function constantBuiltin(name: string): ConstantEntry | undefined {
  return constantEntries.find((e) => e.name === name);
}

/**
 * The simulator's template of a math builtin on operand type `t`. In a module that flushes
 * f32 subnormals (`ftz`), its f32 operands are read flushed and an f32 result is written
 * flushed, as the GPU's `.ftz` instructions and library do; `copysign` alone moves bits.
 */
export function mathJs(entry: MathEntry, t: ScalarType, ftz: boolean): Template | undefined {
  const tpl = entry.js[t.name];
  if (!tpl || !ftz || t.name !== "f32" || entry.name === "copysign") return tpl;
  const result = entry.rule.result === "operand";
  return raw(
    (ops) => {
      const inner = fill(tpl, ops.map((x) => `$.ftz32(${x})`));
      return result ? `$.ftz32(${inner})` : inner;
    },
    { once: evaluatesOnce(tpl) },
  );
}

/** The scalar types a math rule accepts, by name. */
export function operandTypes(rule: MathRule): readonly ScalarName[] {
  return CLASS_SCALARS[rule.operands.scalars];
}

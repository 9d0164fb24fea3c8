/**
 * The builtin table is data. One entry per builtin: its name, its type rule, its CUDA
 * template, its JavaScript implementation for the simulator, and its doc line. The
 * checker, the CUDA backend, the simulator and the docs all read this table, and
 * test/ir/builtins.test.ts checks that every entry implements every type it accepts.
 *
 * Templates receive operand code as strings. JavaScript templates may use an operand more
 * than once, so callers pass variable names or cheap side-effect-free expressions. `$` in a
 * JavaScript template is the runtime of src/ir/evalOp.ts (`makeRuntime`).
 */
import { jsBinary } from "./evalOp.js";
import type { AtomicOp, Axis, SpecialName, WarpOp } from "./nodes.js";
import type { ScalarName, ScalarValue } from "./types.js";
import type { CudaHelperName } from "../backends/cuda/helpers.js";
import { warpEntries } from "./warpBuiltins.js";

export { cudaHelperDeps, cudaHelpers, type CudaHelperName } from "../backends/cuda/helpers.js";

/** Which operand types a math builtin takes: all operands share one type from the class. */
export type OperandClass = "float" | "numeric" | "int";

export interface MathRule {
  readonly kind: "math";
  readonly arity: 1 | 2 | 3;
  readonly operands: OperandClass;
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
  readonly shape: "shuffle" | "vote" | "sync";
  /** The operands' names, for docs and messages. */
  readonly params: readonly string[];
  /** The result: the value's type (shuffles), u32 (ballot), bool (anyLane, allLanes), or none (syncWarp). */
  readonly result: "operand" | "u32" | "bool" | "void";
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

export type TypeRule = MathRule | AtomicRule | SyncRule | IndexRule | WarpRule | ConstantRule;

/** CUDA for one operand type: an expression over the operands, and the prelude helpers it uses. */
export interface CudaImpl {
  readonly expr: (args: readonly string[]) => string;
  readonly helpers?: readonly CudaHelperName[];
}

export interface AtomicCudaImpl {
  /** `addr` is a C++ expression of type `T*` pointing at the element. */
  readonly expr: (addr: string, args: readonly string[]) => string;
  readonly helpers?: readonly CudaHelperName[];
}

export interface MathEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: MathRule;
  readonly cuda: Partial<Record<ScalarName, CudaImpl>>;
  readonly js: Partial<Record<ScalarName, (args: readonly string[]) => string>>;
  /** How far GPU and simulator results may differ, in ulp: CUDA's documented error plus the simulator's; 0 means exact. */
  readonly ulp: { readonly f32: number; readonly f64: number };
}

export interface AtomicEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: AtomicRule;
  readonly cuda: Partial<Record<ScalarName, AtomicCudaImpl>>;
  /**
   * The new value of the element from its old value and the operands (cas: [compare, value]),
   * for an element of global or shared memory (the GPU's f32 atomic add differs between them).
   */
  readonly js: Partial<Record<ScalarName, (old: string, args: readonly string[], space: "global" | "shared") => string>>;
}

export interface SyncEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: SyncRule;
  readonly cuda: string;
  /** The simulator suspends the thread here; there is no expression to evaluate. */
  readonly js: "barrier";
}

export interface IndexEntry {
  readonly name: SpecialName;
  readonly doc: string;
  readonly rule: IndexRule;
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

export type BuiltinEntry = MathEntry | AtomicEntry | SyncEntry | IndexEntry | WarpEntry | ConstantEntry;

// ---------------------------------------------------------------- math

const call = (fn: string) => (args: readonly string[]) => `${fn}(${args.join(", ")})`;
const floatCuda = (f32: string, f64: string) => ({ f32: { expr: call(f32) }, f64: { expr: call(f64) } });
const fround = (e: string) => `Math.fround(${e})`;
/** A float function computed in f64 by JavaScript, then rounded to f32 for f32 operands. */
const floatJs = (f: (a: readonly string[]) => string) => ({ f32: (a: readonly string[]) => fround(f(a)), f64: f });

function floatMath(name: string, arity: 1 | 2 | 3, cudaF32: string, cudaF64: string, js: (a: readonly string[]) => string, ulp: { f32: number; f64: number }, doc: string): MathEntry {
  return { name, doc, rule: { kind: "math", arity, operands: "float", result: "operand" }, cuda: floatCuda(cudaF32, cudaF64), js: floatJs(js), ulp };
}

const exact = { f32: 0, f64: 0 };

const mathEntries: readonly MathEntry[] = [
  floatMath("sqrt", 1, "sqrtf", "sqrt", (a) => `Math.sqrt(${a[0]})`, exact, "Square root, correctly rounded."),
  floatMath("rsqrt", 1, "rsqrtf", "rsqrt", (a) => `(1 / Math.sqrt(${a[0]}))`, { f32: 2, f64: 1 }, "Reciprocal square root 1/sqrt(x)."),
  floatMath("exp", 1, "expf", "exp", (a) => `Math.exp(${a[0]})`, { f32: 2, f64: 1 }, "e raised to x."),
  floatMath("exp2", 1, "exp2f", "exp2", (a) => `Math.pow(2, ${a[0]})`, { f32: 2, f64: 1 }, "2 raised to x."),
  floatMath("log", 1, "logf", "log", (a) => `Math.log(${a[0]})`, { f32: 1, f64: 1 }, "Natural logarithm."),
  floatMath("log2", 1, "log2f", "log2", (a) => `Math.log2(${a[0]})`, { f32: 1, f64: 1 }, "Base-2 logarithm."),
  floatMath("sin", 1, "sinf", "sin", (a) => `Math.sin(${a[0]})`, { f32: 2, f64: 2 }, "Sine of x radians."),
  floatMath("cos", 1, "cosf", "cos", (a) => `Math.cos(${a[0]})`, { f32: 2, f64: 2 }, "Cosine of x radians."),
  floatMath("tan", 1, "tanf", "tan", (a) => `Math.tan(${a[0]})`, { f32: 4, f64: 2 }, "Tangent of x radians."),
  floatMath("tanh", 1, "tanhf", "tanh", (a) => `Math.tanh(${a[0]})`, { f32: 2, f64: 2 }, "Hyperbolic tangent."),
  floatMath("pow", 2, "powf", "pow", (a) => `$.pow(${a[0]}, ${a[1]})`, { f32: 4, f64: 2 }, "x raised to y (C pow: pow(1, y) and pow(x, 0) are 1)."),
  floatMath("atan", 1, "atanf", "atan", (a) => `Math.atan(${a[0]})`, { f32: 2, f64: 2 }, "Arc tangent, in radians."),
  floatMath("atan2", 2, "atan2f", "atan2", (a) => `Math.atan2(${a[0]}, ${a[1]})`, { f32: 3, f64: 2 }, "atan2(y, x): the angle of the point (x, y), in radians."),
  floatMath("asin", 1, "asinf", "asin", (a) => `Math.asin(${a[0]})`, { f32: 2, f64: 2 }, "Arc sine, in radians."),
  floatMath("acos", 1, "acosf", "acos", (a) => `Math.acos(${a[0]})`, { f32: 2, f64: 2 }, "Arc cosine, in radians."),
  floatMath("sinh", 1, "sinhf", "sinh", (a) => `Math.sinh(${a[0]})`, { f32: 3, f64: 2 }, "Hyperbolic sine."),
  floatMath("cosh", 1, "coshf", "cosh", (a) => `Math.cosh(${a[0]})`, { f32: 2, f64: 2 }, "Hyperbolic cosine."),
  floatMath("asinh", 1, "asinhf", "asinh", (a) => `Math.asinh(${a[0]})`, { f32: 3, f64: 3 }, "Inverse hyperbolic sine."),
  floatMath("acosh", 1, "acoshf", "acosh", (a) => `Math.acosh(${a[0]})`, { f32: 4, f64: 3 }, "Inverse hyperbolic cosine."),
  floatMath("atanh", 1, "atanhf", "atanh", (a) => `Math.atanh(${a[0]})`, { f32: 3, f64: 3 }, "Inverse hyperbolic tangent."),
  floatMath("log10", 1, "log10f", "log10", (a) => `Math.log10(${a[0]})`, { f32: 2, f64: 2 }, "Base-10 logarithm."),
  floatMath("log1p", 1, "log1pf", "log1p", (a) => `Math.log1p(${a[0]})`, { f32: 2, f64: 2 }, "log(1 + x), accurate for small x."),
  floatMath("expm1", 1, "expm1f", "expm1", (a) => `Math.expm1(${a[0]})`, { f32: 2, f64: 2 }, "exp(x) - 1, accurate for small x."),
  floatMath("cbrt", 1, "cbrtf", "cbrt", (a) => `Math.cbrt(${a[0]})`, { f32: 2, f64: 2 }, "The cube root of x."),
  floatMath("hypot", 2, "hypotf", "hypot", (a) => `Math.hypot(${a[0]}, ${a[1]})`, { f32: 3, f64: 2 }, "sqrt(x*x + y*y) without overflow or underflow in between."),
  floatMath("erf", 1, "erff", "erf", (a) => `$.erf(${a[0]})`, { f32: 2, f64: 3 }, "The error function."),
  floatMath("erfc", 1, "erfcf", "erfc", (a) => `$.erfc(${a[0]})`, { f32: 4, f64: 8 }, "1 - erf(x), accurate where erf(x) is close to 1."),
  floatMath("copysign", 2, "copysignf", "copysign", (a) => `$.copysign(${a[0]}, ${a[1]})`, exact, "The magnitude of x with the sign of y."),
  floatMath("floor", 1, "floorf", "floor", (a) => `Math.floor(${a[0]})`, exact, "Largest integer value not above x."),
  floatMath("ceil", 1, "ceilf", "ceil", (a) => `Math.ceil(${a[0]})`, exact, "Smallest integer value not below x."),
  floatMath("round", 1, "roundf", "round", (a) => `$.roundHalfAway(${a[0]})`, exact, "Nearest integer value, halfway cases away from zero."),
  floatMath("trunc", 1, "truncf", "trunc", (a) => `Math.trunc(${a[0]})`, exact, "x rounded toward zero to an integer value."),
  {
    name: "fma",
    doc: "a * b + c rounded once.",
    rule: { kind: "math", arity: 3, operands: "float", result: "operand" },
    cuda: floatCuda("fmaf", "fma"),
    js: { f32: (a) => `$.fmaF32(${a.join(", ")})`, f64: (a) => `$.fmaF64(${a.join(", ")})` },
    ulp: exact,
  },
  {
    name: "abs",
    doc: "Absolute value; for signed integers abs of the most negative value is itself (wraps).",
    rule: { kind: "math", arity: 1, operands: "numeric", result: "operand" },
    cuda: {
      f32: { expr: call("fabsf") },
      f64: { expr: call("fabs") },
      i32: { expr: call("gk_abs_i32"), helpers: ["gk_abs_i32"] },
      i64: { expr: call("gk_abs_i64"), helpers: ["gk_abs_i64"] },
      u32: { expr: (a) => `(${a[0]})` },
      u64: { expr: (a) => `(${a[0]})` },
    },
    js: {
      f32: (a) => `Math.abs(${a[0]})`,
      f64: (a) => `Math.abs(${a[0]})`,
      i32: (a) => `$.absI32(${a[0]})`,
      i64: (a) => `$.absI64(${a[0]})`,
      u32: (a) => `${a[0]}`,
      u64: (a) => `${a[0]}`,
    },
    ulp: exact,
  },
  minMax("min", "Smaller of a and b. For floats a NaN operand yields the other operand, and -0 is below +0."),
  minMax("max", "Larger of a and b. For floats a NaN operand yields the other operand, and +0 is above -0."),
  {
    name: "clamp",
    doc: "min(max(x, lo), hi).",
    rule: { kind: "math", arity: 3, operands: "numeric", result: "operand" },
    cuda: {
      f32: { expr: (a) => `gk_min_f32(gk_max_f32(${a[0]}, ${a[1]}), ${a[2]})`, helpers: ["gk_min_f32", "gk_max_f32"] },
      f64: { expr: (a) => `gk_min_f64(gk_max_f64(${a[0]}, ${a[1]}), ${a[2]})`, helpers: ["gk_min_f64", "gk_max_f64"] },
      i32: { expr: (a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})` },
      u32: { expr: (a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})` },
      i64: { expr: (a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})` },
      u64: { expr: (a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})` },
    },
    js: {
      f32: (a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`,
      f64: (a) => `$.fmin($.fmax(${a[0]}, ${a[1]}), ${a[2]})`,
      i32: (a) => `Math.min(Math.max(${a[0]}, ${a[1]}), ${a[2]})`,
      u32: (a) => `Math.min(Math.max(${a[0]}, ${a[1]}), ${a[2]})`,
      i64: (a) => `$.minBig($.maxBig(${a[0]}, ${a[1]}), ${a[2]})`,
      u64: (a) => `$.minBig($.maxBig(${a[0]}, ${a[1]}), ${a[2]})`,
    },
    ulp: exact,
  },
  {
    name: "popcount",
    doc: "The number of one bits in x's binary representation, as i32.",
    rule: { kind: "math", arity: 1, operands: "int", result: "i32" },
    cuda: {
      i32: { expr: (a) => `__popc((unsigned int)(${a[0]}))` },
      u32: { expr: (a) => `__popc(${a[0]})` },
      i64: { expr: (a) => `__popcll((unsigned long long)(${a[0]}))` },
      u64: { expr: (a) => `__popcll(${a[0]})` },
    },
    js: {
      i32: (a) => `$.popc32(${a[0]})`,
      u32: (a) => `$.popc32(${a[0]})`,
      i64: (a) => `$.popc64(${a[0]})`,
      u64: (a) => `$.popc64(${a[0]})`,
    },
    ulp: exact,
  },
  {
    name: "clz",
    doc: "The number of leading zero bits of x (32 or 64 for zero), as i32.",
    rule: { kind: "math", arity: 1, operands: "int", result: "i32" },
    cuda: {
      i32: { expr: (a) => `__clz(${a[0]})` },
      u32: { expr: (a) => `__clz((int)(${a[0]}))` },
      i64: { expr: (a) => `__clzll(${a[0]})` },
      u64: { expr: (a) => `__clzll((long long)(${a[0]}))` },
    },
    js: {
      i32: (a) => `Math.clz32(${a[0]})`,
      u32: (a) => `Math.clz32(${a[0]})`,
      i64: (a) => `$.clz64(${a[0]})`,
      u64: (a) => `$.clz64(${a[0]})`,
    },
    ulp: exact,
  },
  {
    name: "isnan",
    doc: "True when x is a NaN.",
    rule: { kind: "math", arity: 1, operands: "float", result: "bool" },
    cuda: { f32: { expr: call("isnan") }, f64: { expr: call("isnan") } },
    js: { f32: (a) => `(${a[0]} !== ${a[0]})`, f64: (a) => `(${a[0]} !== ${a[0]})` },
    ulp: exact,
  },
  {
    name: "isinf",
    doc: "True when x is +Infinity or -Infinity.",
    rule: { kind: "math", arity: 1, operands: "float", result: "bool" },
    cuda: { f32: { expr: call("isinf") }, f64: { expr: call("isinf") } },
    js: {
      f32: (a) => `(${a[0]} === Infinity || ${a[0]} === -Infinity)`,
      f64: (a) => `(${a[0]} === Infinity || ${a[0]} === -Infinity)`,
    },
    ulp: exact,
  },
];

function minMax(name: "min" | "max", doc: string): MathEntry {
  const ints = { expr: call(name) };
  return {
    name,
    doc,
    rule: { kind: "math", arity: 2, operands: "numeric", result: "operand" },
    cuda: {
      f32: { expr: call(`gk_${name}_f32`), helpers: [`gk_${name}_f32`] },
      f64: { expr: call(`gk_${name}_f64`), helpers: [`gk_${name}_f64`] },
      i32: ints,
      u32: ints,
      i64: ints,
      u64: ints,
    },
    js: {
      f32: (a) => `$.f${name}(${a[0]}, ${a[1]})`,
      f64: (a) => `$.f${name}(${a[0]}, ${a[1]})`,
      i32: (a) => `Math.${name}(${a[0]}, ${a[1]})`,
      u32: (a) => `Math.${name}(${a[0]}, ${a[1]})`,
      i64: (a) => `$.${name}Big(${a[0]}, ${a[1]})`,
      u64: (a) => `$.${name}Big(${a[0]}, ${a[1]})`,
    },
    ulp: exact,
  };
}

// ---------------------------------------------------------------- atomics

const ULL = "unsigned long long";
const INTS: readonly ScalarName[] = ["i32", "u32", "i64", "u64"];
const NUMS: readonly ScalarName[] = ["i32", "u32", "i64", "u64", "f32", "f64"];

/** An atomic CUDA provides for i32/u32/u64 (and here i64 through u64, which is the same bits). */
function nativeInts(fn: string): Partial<Record<ScalarName, AtomicCudaImpl>> {
  const direct: AtomicCudaImpl = { expr: (p, a) => `${fn}(${p}, ${a.join(", ")})` };
  return {
    i32: direct,
    u32: direct,
    u64: direct,
    i64: { expr: (p, a) => `(long long)${fn}((${ULL}*)${p}, ${a.map((x) => `(${ULL})(${x})`).join(", ")})` },
  };
}

function jsOp(op: "add" | "sub" | "and" | "or" | "xor", types: readonly ScalarName[]) {
  const out: Partial<Record<ScalarName, (old: string, args: readonly string[]) => string>> = {};
  for (const t of types) {
    const tpl = jsBinary(op, { kind: "scalar", name: t });
    if (tpl) out[t] = (old, a) => tpl(old, a[0]!, "-1");
  }
  return out;
}

const bitsEqual = (a: string, b: string) => `Object.is(${a}, ${b})`;

const atomicEntries: readonly AtomicEntry[] = [
  {
    name: "atomicAdd",
    doc: "atomicAdd(arr, i, v): arr[i] += v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, as the GPU's global atomic add does.",
    rule: { kind: "atomic", op: "add", types: NUMS },
    cuda: {
      ...nativeInts("atomicAdd"),
      f32: { expr: (p, a) => `atomicAdd(${p}, ${a[0]})` },
      f64: { expr: (p, a) => `atomicAdd(${p}, ${a[0]})` },
    },
    js: { ...jsOp("add", NUMS), f32: (o, a, space) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) + $.ftz32(${a[0]})))` : `Math.fround(${o} + ${a[0]})`) },
  },
  {
    name: "atomicSub",
    doc: "atomicSub(arr, i, v): arr[i] -= v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, like atomicAdd.",
    rule: { kind: "atomic", op: "sub", types: NUMS },
    cuda: {
      // Not CUDA's atomicSub: its headers negate the operand as a signed int, which is
      // undefined for the most negative value, and nvcc then assumes the operand is not it.
      i32: { expr: (p, a) => `atomicAdd(${p}, (int)(0u - (unsigned int)(${a[0]})))` },
      u32: { expr: (p, a) => `atomicAdd(${p}, 0u - (${a[0]}))` },
      i64: { expr: (p, a) => `(long long)atomicAdd((${ULL}*)${p}, 0ull - (${ULL})(${a[0]}))` },
      u64: { expr: (p, a) => `atomicAdd(${p}, 0ull - (${a[0]}))` },
      f32: { expr: (p, a) => `atomicAdd(${p}, -(${a[0]}))` },
      f64: { expr: (p, a) => `atomicAdd(${p}, -(${a[0]}))` },
    },
    js: { ...jsOp("sub", NUMS), f32: (o, a, space) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) - $.ftz32(${a[0]})))` : `Math.fround(${o} - ${a[0]})`) },
  },
  {
    name: "atomicMin",
    doc: "atomicMin(arr, i, v): arr[i] = min(arr[i], v) atomically; returns the old value.",
    rule: { kind: "atomic", op: "min", types: NUMS },
    cuda: {
      i32: { expr: (p, a) => `atomicMin(${p}, ${a[0]})` },
      u32: { expr: (p, a) => `atomicMin(${p}, ${a[0]})` },
      i64: { expr: (p, a) => `atomicMin(${p}, ${a[0]})` },
      u64: { expr: (p, a) => `atomicMin(${p}, ${a[0]})` },
      f32: { expr: (p, a) => `gk_atomic_min_f32(${p}, ${a[0]})`, helpers: ["gk_atomic_min_f32"] },
      f64: { expr: (p, a) => `gk_atomic_min_f64(${p}, ${a[0]})`, helpers: ["gk_atomic_min_f64"] },
    },
    js: {
      i32: (o, a) => `Math.min(${o}, ${a[0]})`,
      u32: (o, a) => `Math.min(${o}, ${a[0]})`,
      i64: (o, a) => `$.minBig(${o}, ${a[0]})`,
      u64: (o, a) => `$.minBig(${o}, ${a[0]})`,
      f32: (o, a) => `$.fmin(${o}, ${a[0]})`,
      f64: (o, a) => `$.fmin(${o}, ${a[0]})`,
    },
  },
  {
    name: "atomicMax",
    doc: "atomicMax(arr, i, v): arr[i] = max(arr[i], v) atomically; returns the old value.",
    rule: { kind: "atomic", op: "max", types: NUMS },
    cuda: {
      i32: { expr: (p, a) => `atomicMax(${p}, ${a[0]})` },
      u32: { expr: (p, a) => `atomicMax(${p}, ${a[0]})` },
      i64: { expr: (p, a) => `atomicMax(${p}, ${a[0]})` },
      u64: { expr: (p, a) => `atomicMax(${p}, ${a[0]})` },
      f32: { expr: (p, a) => `gk_atomic_max_f32(${p}, ${a[0]})`, helpers: ["gk_atomic_max_f32"] },
      f64: { expr: (p, a) => `gk_atomic_max_f64(${p}, ${a[0]})`, helpers: ["gk_atomic_max_f64"] },
    },
    js: {
      i32: (o, a) => `Math.max(${o}, ${a[0]})`,
      u32: (o, a) => `Math.max(${o}, ${a[0]})`,
      i64: (o, a) => `$.maxBig(${o}, ${a[0]})`,
      u64: (o, a) => `$.maxBig(${o}, ${a[0]})`,
      f32: (o, a) => `$.fmax(${o}, ${a[0]})`,
      f64: (o, a) => `$.fmax(${o}, ${a[0]})`,
    },
  },
  {
    name: "atomicExch",
    doc: "atomicExch(arr, i, v): arr[i] = v atomically; returns the old value.",
    rule: { kind: "atomic", op: "exch", types: NUMS },
    cuda: {
      ...nativeInts("atomicExch"),
      f32: { expr: (p, a) => `atomicExch(${p}, ${a[0]})` },
      f64: {
        expr: (p, a) => `__longlong_as_double((long long)atomicExch((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]})))`,
      },
    },
    js: Object.fromEntries(NUMS.map((t) => [t, (_o: string, a: readonly string[]) => a[0]!])),
  },
  {
    name: "atomicCAS",
    doc: "atomicCAS(arr, i, compare, v): if arr[i] equals compare (bit for bit), arr[i] = v; atomically; returns the old value.",
    rule: { kind: "atomic", op: "cas", types: NUMS },
    cuda: {
      ...nativeInts("atomicCAS"),
      f32: {
        expr: (p, a) => `__int_as_float(atomicCAS((int*)${p}, __float_as_int(${a[0]}), __float_as_int(${a[1]})))`,
      },
      f64: {
        expr: (p, a) =>
          `__longlong_as_double((long long)atomicCAS((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]}), (${ULL})__double_as_longlong(${a[1]})))`,
      },
    },
    js: Object.fromEntries(
      NUMS.map((t) => [
        t,
        t === "f32" || t === "f64"
          ? (o: string, a: readonly string[]) => `(${bitsEqual(o, a[0]!)} ? ${a[1]} : ${o})`
          : (o: string, a: readonly string[]) => `(${o} === ${a[0]} ? ${a[1]} : ${o})`,
      ]),
    ),
  },
  {
    name: "atomicAnd",
    doc: "atomicAnd(arr, i, v): arr[i] &= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "and", types: INTS },
    cuda: nativeInts("atomicAnd"),
    js: jsOp("and", INTS),
  },
  {
    name: "atomicOr",
    doc: "atomicOr(arr, i, v): arr[i] |= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "or", types: INTS },
    cuda: nativeInts("atomicOr"),
    js: jsOp("or", INTS),
  },
  {
    name: "atomicXor",
    doc: "atomicXor(arr, i, v): arr[i] ^= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "xor", types: INTS },
    cuda: nativeInts("atomicXor"),
    js: jsOp("xor", INTS),
  },
];

// ---------------------------------------------------------------- synchronization and thread indices

const syncEntries: readonly SyncEntry[] = [
  {
    name: "barrier",
    doc: "barrier(): waits until every thread of the block has reached this barrier (CUDA __syncthreads). All threads of a block must reach the same barriers.",
    rule: { kind: "sync" },
    cuda: "__syncthreads()",
    js: "barrier",
  },
];

const AXES = ["x", "y", "z"] as const;
function indexEntry(name: SpecialName, cuda: (axis: Axis) => string, js: string, doc: string): IndexEntry {
  return { name, doc, rule: { kind: "index", special: name, axes: true }, cuda, js: (axis) => `${js}${AXES[axis]}` };
}

const indexEntries: readonly IndexEntry[] = [
  indexEntry("threadIdx", (a) => `(int)threadIdx.${AXES[a]}`, "$t", "The thread's index within its block (.x .y .z), i32."),
  indexEntry("blockIdx", (a) => `(int)blockIdx.${AXES[a]}`, "$b", "The block's index within the grid (.x .y .z), i32."),
  indexEntry("blockDim", (a) => `(int)blockDim.${AXES[a]}`, "$bd", "Threads per block on each axis (.x .y .z), i32."),
  indexEntry("gridDim", (a) => `(int)gridDim.${AXES[a]}`, "$gd", "Blocks per grid on each axis (.x .y .z), i32."),
  indexEntry(
    "globalId",
    (a) => `(int)(blockIdx.${AXES[a]} * blockDim.${AXES[a]} + threadIdx.${AXES[a]})`,
    "$g",
    "blockIdx * blockDim + threadIdx on each axis (.x .y .z), i32.",
  ),
  {
    name: "laneId",
    doc: "The thread's lane in its warp, i32: its linear index in the block, threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), modulo 32.",
    rule: { kind: "index", special: "laneId", axes: false },
    cuda: () => "(int)(gk_thread_rank() & 31u)",
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

export const builtins: readonly BuiltinEntry[] = [...mathEntries, ...atomicEntries, ...syncEntries, ...warpEntries, ...indexEntries, ...constantEntries];

export type BuiltinName = string;

const byName = new Map<string, BuiltinEntry>(builtins.map((b) => [b.name, b]));

export function lookupBuiltin(name: string): BuiltinEntry | undefined {
  return byName.get(name);
}

export function mathBuiltin(name: string): MathEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "math" ? (b as MathEntry) : undefined;
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

export function constantBuiltin(name: string): ConstantEntry | undefined {
  return constantEntries.find((e) => e.name === name);
}

/** The types a math rule accepts. */
export function operandTypes(rule: MathRule): readonly ScalarName[] {
  return rule.operands === "float" ? ["f32", "f64"] : rule.operands === "int" ? INTS : NUMS;
}

/**
 * The CUDA column of the math builtins (src/ir/mathBuiltins.ts, src/ir/fastMath.ts), keyed by
 * builtin name: per operand type, a template over the operands and the prelude helpers it uses.
 *
 * f16 and bf16 use CUDA's half-precision function where there is one and otherwise the f32
 * function, rounded once; the small integers (i8 u8 i16 u16) are computed as int, and the
 * backend converts the result back.
 */
import { call, fill, raw, type Template } from "../../ir/templates.js";
import type { CudaHelperName, CudaImpl, CudaPerType } from "./helpers.js";

/**
 * The conversions of f16 and bf16 to f32 (exact) and back (rounded once) that the
 * templates below call (the backend's own conversions are in settings.ts, which the checker's
 * spellings do not load).
 */
const HALF_CUDA = { f16: { toF32: "__half2float", fromF32: "__float2half_rn" }, bf16: { toF32: "__bfloat162float", fromF32: "__float2bfloat16_rn" } } as const;

/** A half-precision function computed by the f32 one (`sinf`): operands converted exactly, the result rounded once. */
function throughF32(h: "f16" | "bf16", f32: Template, helpers?: readonly CudaHelperName[]): CudaImpl {
  const { toF32, fromF32 } = HALF_CUDA[h];
  return { template: raw((a) => `${fromF32}(${fill(f32, a.map((x) => `${toF32}(${x})`))})`), ...(helpers ? { helpers } : {}) };
}

/**
 * A float function of the f32 and f64 CUDA functions, for f16 also `h` (CUDA's approximate
 * half-precision intrinsic, `hexp`) where there is one; bf16 and the functions without one go
 * through the f32 function.
 */
function floatCuda(f32: string, f64: string, h?: string): CudaPerType {
  return {
    f32: { template: call(f32) },
    f64: { template: call(f64) },
    f16: h ? { template: call(h) } : throughF32("f16", call(f32)),
    bf16: throughF32("bf16", call(f32)),
  };
}

/** The same implementation for i8 u8 i16 u16. */
function forSmallInts<V>(v: V): Record<"i8" | "u8" | "i16" | "u16", V> {
  return { i8: v, u8: v, i16: v, u16: v };
}

const identity = raw((a) => `(${a[0]})`);

/**
 * Float min and max are one instruction: fminf/fmin are PTX's min.f32/min.f64 (max alike), whose
 * definition (PTX ISA, "Floating Point Instructions: min/max") is gk's: a NaN operand yields the
 * other, -0.0 is below +0.0. Under -ftz=true fminf is min.ftz.f32, which flushes its operands
 * (sign kept) before comparing, as gk's @flushToZero does. test/gpu/minMax.test.ts checks both
 * on the GPU (the H200 agreed with the simulator on every pair of signed zeros, NaNs, subnormals,
 * extremes and infinities, 2026-11-29); bench/hints.mjs: a min/max chain 2.27x gk's earlier
 * sequence (an equality test and a bit OR/AND around fminf), 1.43x `a > b ? a : b`.
 */
const FLOAT_MIN_MAX = { min: { f32: "fminf", f64: "fmin" }, max: { f32: "fmaxf", f64: "fmax" } } as const;

function minMax(name: "min" | "max"): CudaPerType {
  const ints = { template: call(name) };
  const { f32, f64 } = FLOAT_MIN_MAX[name];
  return {
    f32: { template: call(f32) },
    f64: { template: call(f64) },
    f16: throughF32("f16", call(f32)),
    bf16: throughF32("bf16", call(f32)),
    // The small integers are computed as int; the backend converts the result back.
    ...forSmallInts(ints),
    i32: ints,
    u32: ints,
    i64: ints,
    u64: ints,
  };
}

/** The CUDA function a builtin calls on f32 (`fastExp`: `__expf`), where its template is a call (for the docs). */
export function cudaF32Function(builtin: string): string | undefined {
  const t = CUDA_MATH[builtin]?.f32?.template;
  return t?.form === "call" ? t.fn : undefined;
}

/** The fast intrinsics: f32 only. */
const fast = (fn: string): CudaPerType => ({ f32: { template: call(fn) } });

export const CUDA_MATH: Readonly<Record<string, CudaPerType>> = {
  sqrt: floatCuda("sqrtf", "sqrt"),
  rsqrt: floatCuda("rsqrtf", "rsqrt", "hrsqrt"),
  exp: floatCuda("expf", "exp", "hexp"),
  exp2: floatCuda("exp2f", "exp2", "hexp2"),
  log: floatCuda("logf", "log", "hlog"),
  log2: floatCuda("log2f", "log2", "hlog2"),
  sin: floatCuda("sinf", "sin", "hsin"),
  cos: floatCuda("cosf", "cos", "hcos"),
  tan: floatCuda("tanf", "tan"),
  tanh: floatCuda("tanhf", "tanh"),
  pow: floatCuda("powf", "pow"),
  atan: floatCuda("atanf", "atan"),
  atan2: floatCuda("atan2f", "atan2"),
  asin: floatCuda("asinf", "asin"),
  acos: floatCuda("acosf", "acos"),
  sinh: floatCuda("sinhf", "sinh"),
  cosh: floatCuda("coshf", "cosh"),
  asinh: floatCuda("asinhf", "asinh"),
  acosh: floatCuda("acoshf", "acosh"),
  atanh: floatCuda("atanhf", "atanh"),
  log10: floatCuda("log10f", "log10", "hlog10"),
  log1p: floatCuda("log1pf", "log1p"),
  expm1: floatCuda("expm1f", "expm1"),
  cbrt: floatCuda("cbrtf", "cbrt"),
  hypot: floatCuda("hypotf", "hypot"),
  erf: floatCuda("erff", "erf"),
  erfc: floatCuda("erfcf", "erfc"),
  copysign: floatCuda("copysignf", "copysign"),
  floor: floatCuda("floorf", "floor"),
  ceil: floatCuda("ceilf", "ceil"),
  round: floatCuda("roundf", "round"),
  trunc: floatCuda("truncf", "trunc"),
  fma: { f32: { template: call("fmaf") }, f64: { template: call("fma") }, f16: { template: call("__hfma") }, bf16: { template: call("__hfma") } },
  min: minMax("min"),
  max: minMax("max"),
  abs: {
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
  clamp: {
    f32: { template: raw((a) => `fminf(fmaxf(${a[0]}, ${a[1]}), ${a[2]})`) },
    f64: { template: raw((a) => `fmin(fmax(${a[0]}, ${a[1]}), ${a[2]})`) },
    f16: throughF32("f16", raw((a) => `fminf(fmaxf(${a[0]}, ${a[1]}), ${a[2]})`)),
    bf16: throughF32("bf16", raw((a) => `fminf(fmaxf(${a[0]}, ${a[1]}), ${a[2]})`)),
    ...forSmallInts({ template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) }),
    i32: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
    u32: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
    i64: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
    u64: { template: raw((a) => `min(max(${a[0]}, ${a[1]}), ${a[2]})`) },
  },
  popcount: {
    i8: { template: raw((a) => `__popc((unsigned int)(unsigned char)(${a[0]}))`) },
    u8: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
    i16: { template: raw((a) => `__popc((unsigned int)(unsigned short)(${a[0]}))`) },
    u16: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
    i32: { template: raw((a) => `__popc((unsigned int)(${a[0]}))`) },
    u32: { template: call("__popc") },
    i64: { template: raw((a) => `__popcll((unsigned long long)(${a[0]}))`) },
    u64: { template: call("__popcll") },
  },
  clz: {
    i8: { template: raw((a) => `(__clz((int)(unsigned char)(${a[0]})) - 24)`) },
    u8: { template: raw((a) => `(__clz((int)(${a[0]})) - 24)`) },
    i16: { template: raw((a) => `(__clz((int)(unsigned short)(${a[0]})) - 16)`) },
    u16: { template: raw((a) => `(__clz((int)(${a[0]})) - 16)`) },
    i32: { template: call("__clz") },
    u32: { template: raw((a) => `__clz((int)(${a[0]}))`) },
    i64: { template: call("__clzll") },
    u64: { template: raw((a) => `__clzll((long long)(${a[0]}))`) },
  },
  isnan: { f32: { template: call("isnan") }, f64: { template: call("isnan") }, f16: { template: call("__hisnan") }, bf16: { template: call("__hisnan") } },
  isinf: {
    f32: { template: call("isinf") },
    f64: { template: call("isinf") },
    // __hisinf gives -1, 1 or 0.
    f16: { template: raw((a) => `(__hisinf(${a[0]}) != 0)`) },
    bf16: { template: raw((a) => `(__hisinf(${a[0]}) != 0)`) },
  },
  fastExp: fast("__expf"),
  fastExp10: fast("__exp10f"),
  fastLog: fast("__logf"),
  fastLog2: fast("__log2f"),
  fastLog10: fast("__log10f"),
  fastSin: fast("__sinf"),
  fastCos: fast("__cosf"),
  fastTan: fast("__tanf"),
  fastPow: fast("__powf"),
  fastDiv: fast("__fdividef"),
};

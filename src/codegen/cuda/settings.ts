/**
 * Everything the CUDA backend knows about its target, in one record: type names, literal
 * suffixes, qualifiers, and the intrinsics that give conversions the spec's exact meaning.
 * The emitters read this record instead of spelling CUDA themselves.
 */
import { asScalar, SCALAR_INFO, type HalfName, type IntName, type ScalarName, type ValueType } from "../../ir/types.js";

type WideFloat = "f32" | "f64";
type WideInt = "i32" | "u32" | "i64" | "u64";

export const CUDA = {
  /** C++ spelling of each gk scalar type. */
  types: {
    bool: "bool",
    i8: "signed char",
    u8: "unsigned char",
    i16: "short",
    u16: "unsigned short",
    i32: "int",
    u32: "unsigned int",
    i64: "long long",
    u64: "unsigned long long",
    f32: "float",
    f64: "double",
    f16: "__half",
    bf16: "__nv_bfloat16",
  } satisfies Record<ScalarName, string>,

  /**
   * Suffix of an integer literal of each type (an `int` literal has none). There is no literal
   * of the small integer types: theirs are `int` literals converted, `(signed char)-5`.
   */
  intSuffix: { i8: "", u8: "", i16: "", u16: "", i32: "", u32: "u", i64: "ll", u64: "ull" } satisfies Record<IntName, string>,

  /** Suffix of a float literal of each type. */
  floatSuffix: { f32: "f", f64: "" } satisfies Record<WideFloat, string>,

  /**
   * f16 and bf16: CUDA's `__half` and `__nv_bfloat16` from their headers (included only where
   * used), with the intrinsics that convert exactly as gk defines: a literal from its bits, to
   * f32 exactly, from f32, f64 and every integer type rounded once to nearest even.
   */
  half: {
    f16: {
      header: "cuda_fp16.h",
      fromBits: "__ushort_as_half",
      toF32: "__half2float",
      fromF32: "__float2half_rn",
      fromF64: "__double2half",
      fromInt: { i32: "__int2half_rn", u32: "__uint2half_rn", i64: "__ll2half_rn", u64: "__ull2half_rn" },
    },
    bf16: {
      header: "cuda_bf16.h",
      fromBits: "__ushort_as_bfloat16",
      toF32: "__bfloat162float",
      fromF32: "__float2bfloat16_rn",
      fromF64: "__double2bfloat16",
      fromInt: { i32: "__int2bfloat16_rn", u32: "__uint2bfloat16_rn", i64: "__ll2bfloat16_rn", u64: "__ull2bfloat16_rn" },
    },
  } satisfies Record<HalfName, { header: string; fromBits: string; toF32: string; fromF32: string; fromF64: string; fromInt: Record<WideInt, string> }>,

  /** The float with the given bit pattern, and the integer literal type those bits are written in. */
  floatFromBits: {
    f32: { fn: "__int_as_float", nan: "0x7fc00000", inf: "0x7f800000", negInf: "0xff800000", zero: "0", negZero: "0x80000000" },
    f64: {
      fn: "__longlong_as_double",
      nan: "0x7ff8000000000000ll",
      inf: "0x7ff0000000000000ll",
      negInf: "0xfff0000000000000ll",
      zero: "0ll",
      negZero: "0x8000000000000000ll",
    },
  } satisfies Record<WideFloat, { fn: string; nan: string; inf: string; negInf: string; zero: string; negZero: string }>,

  /**
   * Float to integer: truncate toward zero, saturate at the target's range, NaN to 0. These are
   * PTX `cvt.rzi.sat`-style conversions; a C cast would be undefined for out-of-range values.
   */
  floatToInt: {
    f32: { i32: "__float2int_rz", u32: "__float2uint_rz", i64: "__float2ll_rz", u64: "__float2ull_rz" },
    f64: { i32: "__double2int_rz", u32: "__double2uint_rz", i64: "__double2ll_rz", u64: "__double2ull_rz" },
  } satisfies Record<WideFloat, Record<WideInt, string>>,

  /**
   * bitcast<T>(v) between a float and an integer of its width: the intrinsics that read one's
   * bits as the other ([float to integer, integer to float]); an integer of the other
   * signedness goes through these and a C cast (src/codegen/cuda/bitcast.ts).
   */
  bitcast: {
    f16: { i16: ["__half_as_short", "__short_as_half"], u16: ["__half_as_ushort", "__ushort_as_half"] },
    bf16: { i16: ["__bfloat16_as_short", "__short_as_bfloat16"], u16: ["__bfloat16_as_ushort", "__ushort_as_bfloat16"] },
    f32: { i32: ["__float_as_int", "__int_as_float"], u32: ["__float_as_uint", "__uint_as_float"] },
    f64: { i64: ["__double_as_longlong", "__longlong_as_double"] },
  } as Readonly<Record<"f16" | "bf16" | "f32" | "f64", Partial<Record<IntName, readonly [string, string]>>>>,

  /** 64-bit integer to f32 rounded once, to nearest even (a cast through double would round twice). */
  int64ToF32: { i64: "__ll2float_rn", u64: "__ull2float_rn" },

  /** f64 to f32, rounded to nearest even. */
  f64ToF32: "__double2float_rn",

  /** Float remainder (C fmod: exact, with the sign of the dividend). */
  floatRem: { f32: "fmodf", f64: "fmod" } satisfies Record<WideFloat, string>,

  kernelQualifier: 'extern "C" __global__',
  deviceFnQualifier: "static __device__",
  forceInline: "__forceinline__",
  helperQualifier: "static __device__ __forceinline__",
  sharedQualifier: "__shared__",
  constantQualifier: "__constant__",
  /** A device function's `view<T>` parameter: a prelude struct of a pointer and a stride (`gk_view`). */
  viewType: "gk_view",
  /** Pointer qualifier of a kernel's `readonly global<T>` parameter (launches never alias buffers). */
  kernelPointer: "__restrict__",
  /** Marks a declaration that is never read, so nvcc does not warn about it. */
  maybeUnused: "[[maybe_unused]]",

  /** Headers the generated code always includes: none, nvcc's device math and intrinsics are built in (see `half` for the others). */
  headers: [] as readonly string[],

  indent: "  ",
  /** Prefix of every name the backend invents (helpers, temporaries, labels); user names never start with it. */
  internalPrefix: "gk_",
} as const;

/** The C++ type of a value. */
export function cType(t: ValueType): string {
  return CUDA.types[asScalar(t).name];
}

/** Bit mask applied to shift counts of a type: counts are taken modulo the bit width. */
export function shiftMask(t: { readonly name: ScalarName }): number {
  return SCALAR_INFO[t.name].bits - 1;
}

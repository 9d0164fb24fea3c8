/**
 * The CUDA column of the atomics (src/ir/atomicBuiltins.ts), keyed by builtin name: per element
 * type, a template over `[addr, ...operands]` (cas: `[addr, compare, value]`), `addr` a C++
 * expression of type `T*` pointing at the element that binds as a unary expression (`&a[i]`),
 * so it may follow a cast. The 32- and 64-bit types use CUDA's atomics, and so do f16 and
 * bf16 atomicAdd (PTX atom.add.noftz.f16, sm_70; .bf16, sm_90, a loop in CUDA's headers
 * before) and every 2-byte atomicCAS (atom.cas.b16, sm_70); the other atomics of the 1- and
 * 2-byte types (i8 u8 i16 u16 f16 bf16) are a loop of atomicCAS, on the element itself for a
 * 2-byte one, on the aligned 32-bit word that holds it for a byte. atomicAdd of an f16x2 or
 * bf16x2 element is CUDA's atomicAdd of __half2 / __nv_bfloat162 (one atom.add.noftz.f16x2 /
 * .bf16x2; sm_60 / sm_90, a loop of atomicCAS in CUDA's headers before sm_90 for bf16x2).
 */
import { call, raw } from "../../ir/templates.js";
import type { AtomicTypeName } from "../../ir/atomicBuiltins.js";
import type { ScalarName } from "../../ir/types.js";
import type { CudaHelperName, CudaImpl, CudaPerType } from "./helpers.js";

const ULL = "unsigned long long";
const SMALL_INTS = ["i8", "u8", "i16", "u16"] as const satisfies readonly ScalarName[];
const HALVES = ["f16", "bf16"] as const satisfies readonly ScalarName[];

/**
 * An atomic on a 1- or 2-byte element, for which CUDA has no instruction: a loop of
 * atomicCAS (src/codegen/cuda/helpers.ts: on the element, or on the word holding a byte),
 * applying `op` (a `gk_op_*` struct) to the element and the operand converted to the element's type.
 */
function narrow(op: CudaHelperName): CudaPerType {
  return Object.fromEntries([...SMALL_INTS, ...HALVES].map((t) => [t, { template: raw(([p, ...a]) => `gk_atomic_narrow<${op}>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", op] }]));
}

/** An atomic CUDA provides for i32/u32/u64 (and here i64 through u64, which is the same bits). */
function nativeInts(fn: string): CudaPerType {
  const direct: CudaImpl = { template: call(fn) };
  return {
    i32: direct,
    u32: direct,
    u64: direct,
    i64: { template: raw(([p, ...a]) => `(long long)${fn}((${ULL}*)${p}, ${a.map((x) => `(${ULL})(${x})`).join(", ")})`, { prec: "unary" }) },
  };
}

export const CUDA_ATOMICS: Readonly<Record<string, Partial<Record<AtomicTypeName, CudaImpl>>>> = {
  atomicAdd: {
    ...narrow("gk_op_add"),
    ...nativeInts("atomicAdd"),
    f16: { template: call("atomicAdd") },
    bf16: { template: call("atomicAdd") },
    f32: { template: call("atomicAdd") },
    f64: { template: call("atomicAdd") },
    f16x2: { template: call("gk_atomic_add_f16x2"), helpers: ["gk_atomic_add_f16x2"] },
    bf16x2: { template: call("gk_atomic_add_bf16x2"), helpers: ["gk_atomic_add_bf16x2"] },
  },
  atomicSub: {
    ...narrow("gk_op_sub"),
    f16: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
    bf16: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
    // Not CUDA's atomicSub: its headers negate the operand as a signed int, which is
    // undefined for the most negative value, and nvcc then assumes the operand is not it.
    i32: { template: raw(([p, ...a]) => `atomicAdd(${p}, (int)(0u - (unsigned int)(${a[0]})))`) },
    u32: { template: raw(([p, ...a]) => `atomicAdd(${p}, 0u - (${a[0]}))`) },
    i64: { template: raw(([p, ...a]) => `(long long)atomicAdd((${ULL}*)${p}, 0ull - (${ULL})(${a[0]}))`, { prec: "unary" }) },
    u64: { template: raw(([p, ...a]) => `atomicAdd(${p}, 0ull - (${a[0]}))`) },
    f32: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
    f64: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
  },
  atomicMin: {
    ...narrow("gk_op_min_int"),
    f16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_min_f16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_min_f16"] },
    bf16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_min_bf16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_min_bf16"] },
    i32: { template: call("atomicMin") },
    u32: { template: call("atomicMin") },
    i64: { template: call("atomicMin") },
    u64: { template: call("atomicMin") },
    f32: { template: call("gk_atomic_min_f32"), helpers: ["gk_atomic_min_f32"] },
    f64: { template: call("gk_atomic_min_f64"), helpers: ["gk_atomic_min_f64"] },
  },
  atomicMax: {
    ...narrow("gk_op_max_int"),
    f16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_max_f16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_max_f16"] },
    bf16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_max_bf16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_max_bf16"] },
    i32: { template: call("atomicMax") },
    u32: { template: call("atomicMax") },
    i64: { template: call("atomicMax") },
    u64: { template: call("atomicMax") },
    f32: { template: call("gk_atomic_max_f32"), helpers: ["gk_atomic_max_f32"] },
    f64: { template: call("gk_atomic_max_f64"), helpers: ["gk_atomic_max_f64"] },
  },
  atomicExch: {
    ...narrow("gk_op_exch"),
    ...nativeInts("atomicExch"),
    f32: { template: call("atomicExch") },
    f64: {
      template: raw(([p, ...a]) => `__longlong_as_double((long long)atomicExch((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]})))`),
    },
  },
  atomicCAS: {
    ...Object.fromEntries(
      [...SMALL_INTS, ...HALVES].map((t) => [t, { template: raw(([p, ...a]) => `gk_atomic_cas_narrow(${p}, ${a[0]}, ${a[1]})`), helpers: ["gk_atomic_cas_narrow"] }]),
    ),
    ...nativeInts("atomicCAS"),
    f32: {
      template: raw(([p, ...a]) => `__int_as_float(atomicCAS((int*)${p}, __float_as_int(${a[0]}), __float_as_int(${a[1]})))`),
    },
    f64: {
      template: raw(([p, ...a]) => `__longlong_as_double((long long)atomicCAS((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]}), (${ULL})__double_as_longlong(${a[1]})))`),
    },
  },
  atomicAnd: { ...narrow("gk_op_and"), ...nativeInts("atomicAnd") },
  atomicOr: { ...narrow("gk_op_or"), ...nativeInts("atomicOr") },
  atomicXor: { ...narrow("gk_op_xor"), ...nativeInts("atomicXor") },
};

/**
 * The CUDA prelude helpers that the CUDA column of the builtin table names (builtins.ts):
 * small device functions the CUDA backend emits only when a kernel uses them. They pin down
 * what CUDA leaves open: abs of the most negative integer, float atomics that CUDA lacks,
 * atomics on 1- and 2-byte elements, warp masks of partial warps. Float min and max need none:
 * fminf/fmin are PTX's min.f32/min.f64, which already give gk's result (mathBuiltins.ts).
 */
import { orderedHelperDeps, orderedHelpers } from "./orderedHelpers.js";
import { mmaHelperDeps, mmaHelpers } from "./mmaHelpers.js";
import { asyncCopyHelpers } from "./asyncCopyHelpers.js";
import type { Template } from "../../ir/templates.js";
import type { ScalarName } from "../../ir/types.js";

export const cudaHelpers = {
  gk_abs_i32:
    "static __device__ __forceinline__ int gk_abs_i32(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }",
  gk_abs_i64:
    "static __device__ __forceinline__ long long gk_abs_i64(long long a) { return a < 0 ? (long long)(0ull - (unsigned long long)a) : a; }",
  gk_atomic_min_f32:
    "static __device__ float gk_atomic_min_f32(float* p, float v) { int* q = (int*)p; int old = *q, assumed; do { assumed = old; float n = fminf(__int_as_float(assumed), v); old = atomicCAS(q, assumed, __float_as_int(n)); } while (old != assumed); return __int_as_float(old); }",
  gk_atomic_max_f32:
    "static __device__ float gk_atomic_max_f32(float* p, float v) { int* q = (int*)p; int old = *q, assumed; do { assumed = old; float n = fmaxf(__int_as_float(assumed), v); old = atomicCAS(q, assumed, __float_as_int(n)); } while (old != assumed); return __int_as_float(old); }",
  gk_atomic_min_f64:
    "static __device__ double gk_atomic_min_f64(double* p, double v) { unsigned long long* q = (unsigned long long*)p; unsigned long long old = *q, assumed; do { assumed = old; double n = fmin(__longlong_as_double((long long)assumed), v); old = atomicCAS(q, assumed, (unsigned long long)__double_as_longlong(n)); } while (old != assumed); return __longlong_as_double((long long)old); }",
  gk_atomic_max_f64:
    "static __device__ double gk_atomic_max_f64(double* p, double v) { unsigned long long* q = (unsigned long long*)p; unsigned long long old = *q, assumed; do { assumed = old; double n = fmax(__longlong_as_double((long long)assumed), v); old = atomicCAS(q, assumed, (unsigned long long)__double_as_longlong(n)); } while (old != assumed); return __longlong_as_double((long long)old); }",
  // atomicAdd of an f16x2 / bf16x2 element: CUDA's atomicAdd of __half2 / __nv_bfloat162, one PTX atom.add.noftz.f16x2 / .bf16x2 (each lane rounded to nearest even, subnormals kept, each lane atomic on its own). Templates, as gk's vector structs are defined after the helpers; lane x is the low half.
  gk_atomic_add_f16x2:
    "template <typename V> static __device__ __forceinline__ V gk_atomic_add_f16x2(V* p, V v) { const __half2 r = atomicAdd(reinterpret_cast<__half2*>(p), __halves2half2(v.x, v.y)); return V{__low2half(r), __high2half(r)}; }",
  gk_atomic_add_bf16x2:
    "template <typename V> static __device__ __forceinline__ V gk_atomic_add_bf16x2(V* p, V v) { const __nv_bfloat162 r = atomicAdd(reinterpret_cast<__nv_bfloat162*>(p), __halves2bfloat162(v.x, v.y)); return V{__low2bfloat16(r), __high2bfloat16(r)}; }",
  // A 1- or 2-byte element's bits in the low bits of a word, and back (little-endian, as the GPU is).
  gk_narrow_from_bits:
    "template <typename T> static __device__ __forceinline__ T gk_narrow_from_bits(unsigned int b) { T v; memcpy(&v, &b, sizeof(T)); return v; }",
  gk_narrow_to_bits:
    "template <typename T> static __device__ __forceinline__ unsigned int gk_narrow_to_bits(T v) { unsigned int b = 0u; memcpy(&b, &v, sizeof(T)); return b; }",
  // An atomic read-modify-write of a 1- or 2-byte element, until no other thread changed it in between: a 2-byte one by atomicCAS on the element itself (PTX atom.cas.b16, sm_70 and later); a 1-byte one by atomicCAS on the aligned word that holds it, which changes only that byte. The operand is converted to the element's type (it holds a value of it).
  // The word's pointer is made from p by pointer arithmetic, not from its address as an integer: so nvcc knows the CAS writes p's array (a kernel's __restrict__ array it would otherwise take as never written, and read through the non-coherent cache, ld.global.nc, seeing stale values).
  gk_atomic_narrow:
    "template <typename Op, typename T, typename V> static __device__ T gk_atomic_narrow(T* p, V operand) { const T v = (T)operand; if (sizeof(T) == 2) { unsigned short* const h = (unsigned short*)p; unsigned short old = *h, assumed; do { assumed = old; old = atomicCAS(h, assumed, (unsigned short)gk_narrow_to_bits(Op::apply(gk_narrow_from_bits<T>(assumed), v))); } while (old != assumed); return gk_narrow_from_bits<T>(old); } unsigned int* const w = (unsigned int*)((char*)p - ((unsigned long long)p & 3ull)); const unsigned int shift = (unsigned int)((unsigned long long)p & 3ull) * 8u; const unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift; unsigned int old = *w, assumed; do { assumed = old; const T next = Op::apply(gk_narrow_from_bits<T>((assumed & mask) >> shift), v); old = atomicCAS(w, assumed, (assumed & ~mask) | (gk_narrow_to_bits(next) << shift)); } while (old != assumed); return gk_narrow_from_bits<T>((old & mask) >> shift); }",
  // atomicCAS of a 1- or 2-byte element, compared bit for bit, written only if equal: a 2-byte one is PTX's atom.cas.b16; a 1-byte one a loop on its word that stops once the byte differs.
  gk_atomic_cas_narrow:
    "template <typename T, typename C, typename V> static __device__ T gk_atomic_cas_narrow(T* p, C compare, V v) { if (sizeof(T) == 2) return gk_narrow_from_bits<T>(atomicCAS((unsigned short*)p, (unsigned short)gk_narrow_to_bits((T)compare), (unsigned short)gk_narrow_to_bits((T)v))); unsigned int* const w = (unsigned int*)((char*)p - ((unsigned long long)p & 3ull)); const unsigned int shift = (unsigned int)((unsigned long long)p & 3ull) * 8u; const unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift; unsigned int old = *w, assumed, cur; do { assumed = old; cur = (assumed & mask) >> shift; if (cur != gk_narrow_to_bits((T)compare)) break; old = atomicCAS(w, assumed, (assumed & ~mask) | (gk_narrow_to_bits((T)v) << shift)); } while (old != assumed); return gk_narrow_from_bits<T>(cur); }",
  // The operations of gk_atomic_narrow: a small integer's result is computed in int and wrapped back; f16 and bf16 min and max through fminf/fmaxf (exact: the result is an operand).
  gk_op_add: "struct gk_op_add { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return (T)(a + b); } };",
  gk_op_sub: "struct gk_op_sub { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return (T)(a - b); } };",
  gk_op_and: "struct gk_op_and { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return (T)(a & b); } };",
  gk_op_or: "struct gk_op_or { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return (T)(a | b); } };",
  gk_op_xor: "struct gk_op_xor { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return (T)(a ^ b); } };",
  gk_op_exch: "struct gk_op_exch { template <typename T> static __device__ __forceinline__ T apply(T, T b) { return b; } };",
  gk_op_min_int: "struct gk_op_min_int { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return b < a ? b : a; } };",
  gk_op_max_int: "struct gk_op_max_int { template <typename T> static __device__ __forceinline__ T apply(T a, T b) { return b > a ? b : a; } };",
  gk_op_min_f16: "struct gk_op_min_f16 { static __device__ __forceinline__ __half apply(__half a, __half b) { return __float2half_rn(fminf(__half2float(a), __half2float(b))); } };",
  gk_op_max_f16: "struct gk_op_max_f16 { static __device__ __forceinline__ __half apply(__half a, __half b) { return __float2half_rn(fmaxf(__half2float(a), __half2float(b))); } };",
  gk_op_min_bf16:
    "struct gk_op_min_bf16 { static __device__ __forceinline__ __nv_bfloat16 apply(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16_rn(fminf(__bfloat162float(a), __bfloat162float(b))); } };",
  gk_op_max_bf16:
    "struct gk_op_max_bf16 { static __device__ __forceinline__ __nv_bfloat16 apply(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16_rn(fmaxf(__bfloat162float(a), __bfloat162float(b))); } };",
  // The thread's linear index in its block: warps are 32 consecutive ones.
  gk_thread_rank:
    "static __device__ __forceinline__ unsigned int gk_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }",
  // The lanes of the thread's warp that exist: all 32, or fewer in a block's last warp. Each function using a warp operation keeps it in a local (WARP_MASK, builtins.ts): in place at every operation, nvcc 13 re-derived it at each (gk/std/scan's scanPacked: 0.188 ms against 0.171 with the local, H200).
  gk_warp_mask:
    "static __device__ __forceinline__ unsigned int gk_warp_mask() { const unsigned int left = blockDim.x * blockDim.y * blockDim.z - (gk_thread_rank() & ~31u); return left >= 32u ? 0xffffffffu : (1u << left) - 1u; }",
  // shflDown: a lane whose source (lane + delta) does not exist keeps its own value, in a partial warp too.
  gk_shfl_down:
    "template <typename T> static __device__ __forceinline__ T gk_shfl_down(unsigned int mask, T v, int delta) { const T r = __shfl_down_sync(mask, v, delta); return ((mask >> delta) >> (gk_thread_rank() & 31u)) & 1u ? r : v; }",
  // A device function's view<T> parameter: elements p[0], p[s], p[2s], ... of an array in any memory.
  gk_view:
    "template <typename T> struct gk_view { T* p; int s; __device__ __forceinline__ T& operator[](long long i) const { return p[i * s]; } };",
  // A subnormal f32 as a zero of its sign, written out so that it holds with or without -ftz.
  gk_ftz_f32: "static __device__ __forceinline__ float gk_ftz_f32(float x) { return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x; }",
  // matchAll: whether every lane of the warp (every one that exists) holds the same value.
  gk_match_all:
    "template <typename T> static __device__ __forceinline__ bool gk_match_all(unsigned int mask, T v) { int all; __match_all_sync(mask, v, &all); return all != 0; }",
  // Cache-hinted accesses of a value of 1 to 16 bytes (src/ir/cacheHintBuiltins.ts): CUDA's intrinsic on the unsigned type of its size, the bits moved with memcpy (gk's vectors are structs of their own, types.ts).
  gk_bits:
    "template <int N> struct gk_bits; template <> struct gk_bits<1> { typedef unsigned char t; }; template <> struct gk_bits<2> { typedef unsigned short t; }; template <> struct gk_bits<4> { typedef unsigned int t; }; template <> struct gk_bits<8> { typedef uint2 t; }; template <> struct gk_bits<16> { typedef uint4 t; };",
  // loadStreaming: ld.global.cs, data used once (evict first).
  gk_ld_cs:
    "template <typename T> static __device__ __forceinline__ T gk_ld_cs(const volatile T* p) { typedef typename gk_bits<sizeof(T)>::t B; const B b = __ldcs((const B*)p); T v; memcpy(&v, &b, sizeof(T)); return v; }",
  // storeStreaming: st.global.cs.
  gk_st_cs:
    "template <typename T, typename V> static __device__ __forceinline__ void gk_st_cs(volatile T* p, V w) { const T v = w; typedef typename gk_bits<sizeof(T)>::t B; B b; memcpy(&b, &v, sizeof(T)); __stcs((B*)p, b); }",
  // loadReadOnly: ld.global.nc, through the read-only data cache (the array is not written during the launch).
  gk_ld_nc:
    "template <typename T> static __device__ __forceinline__ T gk_ld_nc(const volatile T* p) { typedef typename gk_bits<sizeof(T)>::t B; const B b = __ldg((const B*)p); T v; memcpy(&v, &b, sizeof(T)); return v; }",
  ...orderedHelpers,
  ...mmaHelpers,
  ...asyncCopyHelpers,
} as const;
export type CudaHelperName = keyof typeof cudaHelpers;

/** Helpers a helper's own body calls, so the backend can emit them first. */
export const cudaHelperDeps: Partial<Record<CudaHelperName, readonly CudaHelperName[]>> = {
  gk_warp_mask: ["gk_thread_rank"],
  gk_atomic_narrow: ["gk_narrow_from_bits", "gk_narrow_to_bits"],
  gk_atomic_cas_narrow: ["gk_narrow_from_bits", "gk_narrow_to_bits"],
  gk_shfl_down: ["gk_thread_rank"],
  gk_ld_cs: ["gk_bits"],
  gk_st_cs: ["gk_bits"],
  gk_ld_nc: ["gk_bits"],
  ...orderedHelperDeps,
  ...mmaHelperDeps,
};

/** CUDA for one operand type: a template over the operands, and the prelude helpers it uses. */
export interface CudaImpl {
  readonly template: Template;
  readonly helpers?: readonly CudaHelperName[];
}

/** Per operand type (math: over the operands; atomics: over `[addr, ...operands]`, `addr` a `T*` binding as a unary expression). */
export type CudaPerType = Partial<Record<ScalarName, CudaImpl>>;

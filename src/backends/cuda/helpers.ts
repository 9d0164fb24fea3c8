/**
 * The CUDA prelude helpers that the builtin table's templates name (src/ir/builtins.ts):
 * small device functions the CUDA backend emits only when a kernel uses them. They pin down
 * what CUDA leaves open: the sign of min/max of zeros, abs of the most negative integer,
 * float atomics that CUDA lacks, warp masks of partial warps.
 */
import { orderedHelperDeps, orderedHelpers } from "./orderedHelpers.js";

export const cudaHelpers = {
  gk_min_f32:
    "static __device__ __forceinline__ float gk_min_f32(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) | __float_as_int(b)) : fminf(a, b); }",
  gk_max_f32:
    "static __device__ __forceinline__ float gk_max_f32(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) & __float_as_int(b)) : fmaxf(a, b); }",
  gk_min_f64:
    "static __device__ __forceinline__ double gk_min_f64(double a, double b) { return a == b ? __longlong_as_double(__double_as_longlong(a) | __double_as_longlong(b)) : fmin(a, b); }",
  gk_max_f64:
    "static __device__ __forceinline__ double gk_max_f64(double a, double b) { return a == b ? __longlong_as_double(__double_as_longlong(a) & __double_as_longlong(b)) : fmax(a, b); }",
  gk_abs_i32:
    "static __device__ __forceinline__ int gk_abs_i32(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }",
  gk_abs_i64:
    "static __device__ __forceinline__ long long gk_abs_i64(long long a) { return a < 0 ? (long long)(0ull - (unsigned long long)a) : a; }",
  gk_atomic_min_f32:
    "static __device__ float gk_atomic_min_f32(float* p, float v) { int* q = (int*)p; int old = *q, assumed; do { assumed = old; float n = gk_min_f32(__int_as_float(assumed), v); old = atomicCAS(q, assumed, __float_as_int(n)); } while (old != assumed); return __int_as_float(old); }",
  gk_atomic_max_f32:
    "static __device__ float gk_atomic_max_f32(float* p, float v) { int* q = (int*)p; int old = *q, assumed; do { assumed = old; float n = gk_max_f32(__int_as_float(assumed), v); old = atomicCAS(q, assumed, __float_as_int(n)); } while (old != assumed); return __int_as_float(old); }",
  gk_atomic_min_f64:
    "static __device__ double gk_atomic_min_f64(double* p, double v) { unsigned long long* q = (unsigned long long*)p; unsigned long long old = *q, assumed; do { assumed = old; double n = gk_min_f64(__longlong_as_double((long long)assumed), v); old = atomicCAS(q, assumed, (unsigned long long)__double_as_longlong(n)); } while (old != assumed); return __longlong_as_double((long long)old); }",
  gk_atomic_max_f64:
    "static __device__ double gk_atomic_max_f64(double* p, double v) { unsigned long long* q = (unsigned long long*)p; unsigned long long old = *q, assumed; do { assumed = old; double n = gk_max_f64(__longlong_as_double((long long)assumed), v); old = atomicCAS(q, assumed, (unsigned long long)__double_as_longlong(n)); } while (old != assumed); return __longlong_as_double((long long)old); }",
  // The thread's linear index in its block: warps are 32 consecutive ones.
  gk_thread_rank:
    "static __device__ __forceinline__ unsigned int gk_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }",
  // The lanes of the thread's warp that exist: all 32, or fewer in a block's last warp.
  gk_warp_mask:
    "static __device__ __forceinline__ unsigned int gk_warp_mask() { const unsigned int left = blockDim.x * blockDim.y * blockDim.z - (gk_thread_rank() & ~31u); return left >= 32u ? 0xffffffffu : (1u << left) - 1u; }",
  // shflDown: a lane whose source (lane + delta) does not exist keeps its own value, in a partial warp too.
  gk_shfl_down:
    "template <typename T> static __device__ __forceinline__ T gk_shfl_down(T v, int delta) { const unsigned int mask = gk_warp_mask(); const T r = __shfl_down_sync(mask, v, delta); return ((mask >> delta) >> (gk_thread_rank() & 31u)) & 1u ? r : v; }",
  // A device function's view<T> parameter: elements p[0], p[s], p[2s], ... of an array in any memory.
  gk_view:
    "template <typename T> struct gk_view { T* p; int s; __device__ __forceinline__ T& operator[](long long i) const { return p[i * s]; } };",
  // A subnormal f32 as a zero of its sign, written out so that it holds with or without -ftz.
  gk_ftz_f32: "static __device__ __forceinline__ float gk_ftz_f32(float x) { return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x; }",
  // matchAll: whether every lane of the warp (every one that exists) holds the same value.
  gk_match_all:
    "template <typename T> static __device__ __forceinline__ bool gk_match_all(T v) { int all; __match_all_sync(gk_warp_mask(), v, &all); return all != 0; }",
  ...orderedHelpers,
} as const;
export type CudaHelperName = keyof typeof cudaHelpers;

/**
 * Helpers whose body differs in a module built with -ftz=true (`@flushToZero;`). There min and
 * max flush their operands first: otherwise two that compare equal only once flushed (a
 * subnormal and a zero) would give the OR of their bits, an unflushed subnormal.
 */
export const cudaHelpersFtz: Partial<Record<CudaHelperName, { readonly code: string; readonly deps: readonly CudaHelperName[] }>> = {
  gk_min_f32: {
    code: "static __device__ __forceinline__ float gk_min_f32(float a, float b) { a = gk_ftz_f32(a); b = gk_ftz_f32(b); return a == b ? __int_as_float(__float_as_int(a) | __float_as_int(b)) : fminf(a, b); }",
    deps: ["gk_ftz_f32"],
  },
  gk_max_f32: {
    code: "static __device__ __forceinline__ float gk_max_f32(float a, float b) { a = gk_ftz_f32(a); b = gk_ftz_f32(b); return a == b ? __int_as_float(__float_as_int(a) & __float_as_int(b)) : fmaxf(a, b); }",
    deps: ["gk_ftz_f32"],
  },
};

/** Helpers a helper's own body calls, so the backend can emit them first. */
export const cudaHelperDeps: Partial<Record<CudaHelperName, readonly CudaHelperName[]>> = {
  gk_atomic_min_f32: ["gk_min_f32"],
  gk_atomic_max_f32: ["gk_max_f32"],
  gk_atomic_min_f64: ["gk_min_f64"],
  gk_atomic_max_f64: ["gk_max_f64"],
  gk_warp_mask: ["gk_thread_rank"],
  gk_shfl_down: ["gk_warp_mask", "gk_thread_rank"],
  gk_match_all: ["gk_warp_mask"],
  ...orderedHelperDeps,
};

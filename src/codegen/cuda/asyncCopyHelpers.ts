/**
 * Prelude helpers for the asynchronous-copy builtins (src/ir/asyncCopyBuiltins.ts): PTX
 * `cp.async` through inline assembly, sm_80 and later (`legalize` refuses them on a target
 * without the `asyncCopies` capability). A copy always takes the src-size form: `n` bytes read,
 * the rest of the `N` zero-filled (n = N for a whole copy). The shared address is the window's
 * (`__cvta_generic_to_shared`), the global one the global space's. Templates (of the size, or
 * of nothing), so an unused one draws no nvcc warning.
 */
const SHARED = `"r"((unsigned int)__cvta_generic_to_shared(dst))`;
const GLOBAL = `"l"(__cvta_generic_to_global(src))`;

export const asyncCopyHelpers = {
  gk_cp_async_ca: `template <int N> static __device__ __forceinline__ void gk_cp_async_ca(void* dst, const void* src, unsigned int n) { asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: ${SHARED}, ${GLOBAL}, "n"(N), "r"(n) : "memory"); }`,
  gk_cp_async_cg: `template <int N> static __device__ __forceinline__ void gk_cp_async_cg(void* dst, const void* src, unsigned int n) { asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;" :: ${SHARED}, ${GLOBAL}, "n"(N), "r"(n) : "memory"); }`,
  gk_cp_async_commit: `template <int = 0> static __device__ __forceinline__ void gk_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }`,
  gk_cp_async_wait: `template <int N> static __device__ __forceinline__ void gk_cp_async_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }`,
  gk_cp_async_wait_all: `template <int = 0> static __device__ __forceinline__ void gk_cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }`,
} as const;

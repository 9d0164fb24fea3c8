/**
 * Prelude helpers for the ordered loads and stores of src/ir/memoryBuiltins.ts: volatile ones
 * through a C++ volatile pointer, acquire and release ones as PTX `ld.acquire.gpu` and
 * `st.release.gpu` through the element's generic address, which reaches global and shared
 * memory alike (one overload per element type, over the bits of its width).
 */
const U32 = "unsigned int";
const U64 = "unsigned long long";

const LD_ACQUIRE_U32 = `static __device__ __forceinline__ ${U32} gk_ld_acquire(const ${U32}* p) { ${U32} v; asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }`;
const LD_ACQUIRE_U64 = `static __device__ __forceinline__ ${U64} gk_ld_acquire(const ${U64}* p) { ${U64} v; asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v; }`;
const ST_RELEASE_U32 = `static __device__ __forceinline__ void gk_st_release(${U32}* p, ${U32} v) { asm volatile("st.release.gpu.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }`;
const ST_RELEASE_U64 = `static __device__ __forceinline__ void gk_st_release(${U64}* p, ${U64} v) { asm volatile("st.release.gpu.b64 [%0], %1;" :: "l"(p), "l"(v) : "memory"); }`;

export const orderedHelpers = {
  gk_ld_volatile: "template <typename T> static __device__ __forceinline__ T gk_ld_volatile(const T* p) { return *(volatile const T*)p; }",
  gk_st_volatile: "template <typename T, typename U> static __device__ __forceinline__ void gk_st_volatile(T* p, U v) { *(volatile T*)p = (T)v; }",
  gk_ld_acquire_u32: LD_ACQUIRE_U32,
  gk_ld_acquire_i32: `static __device__ __forceinline__ int gk_ld_acquire(const int* p) { return (int)gk_ld_acquire((const ${U32}*)p); }`,
  gk_ld_acquire_f32: `static __device__ __forceinline__ float gk_ld_acquire(const float* p) { return __uint_as_float(gk_ld_acquire((const ${U32}*)p)); }`,
  gk_ld_acquire_u64: LD_ACQUIRE_U64,
  gk_ld_acquire_i64: `static __device__ __forceinline__ long long gk_ld_acquire(const long long* p) { return (long long)gk_ld_acquire((const ${U64}*)p); }`,
  gk_ld_acquire_f64: `static __device__ __forceinline__ double gk_ld_acquire(const double* p) { return __longlong_as_double((long long)gk_ld_acquire((const ${U64}*)p)); }`,
  gk_st_release_u32: ST_RELEASE_U32,
  gk_st_release_i32: `static __device__ __forceinline__ void gk_st_release(int* p, int v) { gk_st_release((${U32}*)p, (${U32})v); }`,
  gk_st_release_f32: `static __device__ __forceinline__ void gk_st_release(float* p, float v) { gk_st_release((${U32}*)p, __float_as_uint(v)); }`,
  gk_st_release_u64: ST_RELEASE_U64,
  gk_st_release_i64: `static __device__ __forceinline__ void gk_st_release(long long* p, long long v) { gk_st_release((${U64}*)p, (${U64})v); }`,
  gk_st_release_f64: `static __device__ __forceinline__ void gk_st_release(double* p, double v) { gk_st_release((${U64}*)p, (${U64})__double_as_longlong(v)); }`,
} as const;

/** Each narrower-typed overload calls the unsigned one of its width. */
export const orderedHelperDeps = {
  gk_ld_acquire_i32: ["gk_ld_acquire_u32"],
  gk_ld_acquire_f32: ["gk_ld_acquire_u32"],
  gk_ld_acquire_i64: ["gk_ld_acquire_u64"],
  gk_ld_acquire_f64: ["gk_ld_acquire_u64"],
  gk_st_release_i32: ["gk_st_release_u32"],
  gk_st_release_f32: ["gk_st_release_u32"],
  gk_st_release_i64: ["gk_st_release_u64"],
  gk_st_release_f64: ["gk_st_release_u64"],
} as const;

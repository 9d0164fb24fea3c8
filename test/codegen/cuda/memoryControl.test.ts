/**
 * The CUDA of the memory and control features: dynamic shared arrays (one extern buffer laid
 * out widest first, lengths as hidden parameters), constant arrays (`__constant__`), views and
 * references, ordered accesses and fences, cache hints, `#pragma unroll`, warp match, the fast intrinsics
 * and the explicit flushes of a -ftz=true module. nvcc.test.ts compiles the spec/ok programs.
 */
import { describe, expect, it } from "vitest";
import { cudaOf, expectCuda, kernelBody } from "./helpers.js";

describe("dynamic shared arrays", () => {
  it("live in one extern buffer, widest elements first, each length a hidden parameter after the kernel's own", () => {
    expectCuda(
      `device_kernel k(out: global<f64>) {
  shared a: bool[];
  shared b: f64[];
  shared c: f32[];
  a[0] = true;
  b[0] = 2.0;
  c[0] = 3.0;
  out[0] = b[0] + f64(c[0]) + (a[0] ? 1.0 : 0.0);
}`,
      'extern "C" __global__ void k(double* __restrict__ out, unsigned int gk_len_a, unsigned int gk_len_b, unsigned int gk_len_c) {',
      "extern __shared__ __align__(16) unsigned char gk_dynamic_shared[];",
      "double* b = (double*)(gk_dynamic_shared);",
      "float* c = (float*)(gk_dynamic_shared + 8ull * gk_len_b);",
      "bool* a = (bool*)(gk_dynamic_shared + 8ull * gk_len_b + 4ull * gk_len_c);",
    );
  });
});

describe("constant arrays", () => {
  it("are __constant__ variables of the module, read by kernels and device functions by name", () => {
    const cuda = cudaOf(`constant TAPS: f32[3];
constant M: i32[2][2];
device_fn tap(j: i32): f32 {
  return TAPS[j];
}
device_kernel k(out: global<f32>) {
  out[0] = tap(1) + f32(M[1][0]);
}`);
    expect(cuda).toContain("__constant__ float TAPS[3];\n__constant__ int M[2][2];");
    expect(cuda).toContain("return TAPS[j];");
    expect(cuda).toContain("out[0] = tap(1) + (float)M[1][0];");
  });
});

describe("references and views", () => {
  const src = `device_fn bump(x: inout i32, y: out f32) {
  x += 1;
  y = 2.0;
}
device_fn sum(v: readonly view<f32>): f32 {
  return v[0] + v[1];
}
device_fn zero(v: view<f32>) {
  v[0] = 0.0;
}
device_kernel k(g: global<f32>, h: global<i32>) {
  shared s: f32[4][8];
  let n = 0;
  bump(n, g[0]);
  bump(h[1], s[1][2]);
  g[1] = sum(view(g, 2, 4, 3)) + sum(s[3]);
  zero(view(s[2], 1, 2));
  h[0] = n;
}`;

  it("pass references as C++ references, inlined", () => {
    const cuda = cudaOf(src);
    expect(cuda).toContain("static __device__ __forceinline__ void bump(int& x, float& y) {");
    expect(kernelBody(src)).toContain("bump(n, g[0]);\nbump(h[1], s[1][2]);");
  });

  it("pass views as a gk_view of the first element's address and the stride", () => {
    const cuda = cudaOf(src);
    expect(cuda).toContain("template <typename T> struct gk_view { T* p; int s; __device__ __forceinline__ T& operator[](long long i) const { return p[i * s]; } };");
    expect(cuda).toContain("static __device__ __forceinline__ float sum(gk_view<const float> v) {");
    expect(cuda).toContain("static __device__ __forceinline__ void zero(gk_view<float> v) {");
    const body = kernelBody(src);
    expect(body).toContain("g[1] = sum(gk_view<const float>{g + 2, 3}) + sum(gk_view<const float>{&s[0][0] + 24, 1});");
    expect(body).toContain("zero(gk_view<float>{&s[0][0] + 17, 1});");
  });
});

describe("ordered accesses, fences and unrolling", () => {
  it("spell acquire and release as PTX at device scope, volatile through a volatile pointer, fences as CUDA's", () => {
    const cuda = cudaOf(`device_kernel k(flag: global<u32>, wide: global<u64>, f: global<f32>) {
  shared s: i32[2];
  storeRelease(flag, 0, 1);
  storeVolatile(s, 0, 2);
  threadfenceBlock();
  threadfence();
  wide[0] = loadAcquire(wide, 1);
  f[0] = loadVolatile(f, 1) + f32(loadAcquire(s, 1));
}`);
    expect(cuda).toContain('asm volatile("st.release.gpu.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory");');
    expect(cuda).toContain('asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");');
    expect(cuda).toContain("template <typename T, typename U> static __device__ __forceinline__ void gk_st_volatile(T* p, U v) { *(volatile T*)p = (T)v; }");
    expect(cuda).toContain("__threadfence_block();\n");
    expect(cuda).toContain("  __threadfence();\n");
    expect(cuda).toContain("wide[0] = gk_ld_acquire(&wide[1]);");
    expect(cuda).toContain("f[0] = gk_ld_volatile(&f[1]) + (float)gk_ld_acquire(&s[1]);");
  });

  it("writes @unroll and @unroll(N) as #pragma unroll before the loop", () => {
    expect(
      kernelBody(`device_kernel k(out: global<i32>) {
  let s = 0;
  @unroll
  for (let i = 0; i < 4; i++) {
    s += i;
  }
  @unroll(2)
  while (s < 100) {
    s *= 2;
  }
  out[0] = s;
}`),
    ).toContain("#pragma unroll\nfor (int i = 0; i < 4; i = (int)((unsigned int)i + 1u)) {\ns = (int)((unsigned int)s + (unsigned int)i);\n}\n#pragma unroll 2\nwhile (s < 100) {");
  });

  it("takes an unroll count of a generic kernel's constant parameter, each instance its own", () => {
    const cuda = cudaOf(`device_kernel k<N: i32>(out: global<i32>) {
  @unroll(N * 2)
  for (let i = 0; i < 8; i++) { out[i] = i; }
}
launch k<2>(out = zeros(8)) grid(1) block(1);
launch k<3>(out = zeros(8)) grid(1) block(1);`);
    expect(cuda).toContain("#pragma unroll 4\n  for");
    expect(cuda).toContain("#pragma unroll 6\n  for");
  });
});

describe("cache hints", () => {
  it("load and store through CUDA's __ldcs/__stcs/__ldg on the unsigned type of the value's size, vectors at the element's address", () => {
    const src = `device_kernel k(x: readonly global<f32>, h: readonly global<f16>, v: readonly global<f32x4>, y: global<f32>, b: global<bool>) {
  const i = globalId.x;
  storeStreaming4(y, 4 * i, loadStreaming4(x, 4 * i) + loadReadOnly4(x, 4 * i));
  storeStreaming(y, i, f32(loadReadOnly(h, i)) + loadStreaming(v, i).w);
  storeStreaming(b, i, loadStreaming2(h, 2 * i).x > f16(0.0));
}`;
    expect(kernelBody(src)).toMatchInlineSnapshot(`
      "const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
      gk_st_cs(reinterpret_cast<gk_f32x4*>(&y[(int)(4u * (unsigned int)i)]), gk_add_f32x4(gk_ld_cs(reinterpret_cast<const gk_f32x4*>(&x[(int)(4u * (unsigned int)i)])), gk_ld_nc(reinterpret_cast<const gk_f32x4*>(&x[(int)(4u * (unsigned int)i)]))));
      gk_st_cs(&y[i], __half2float(gk_ld_nc(&h[i])) + gk_ld_cs(&v[i]).w);
      gk_st_cs(&b[i], gk_ld_cs(reinterpret_cast<const gk_f16x2*>(&h[(int)(2u * (unsigned int)i)])).x > __ushort_as_half(0x0000));"
    `);
    const cuda = cudaOf(src);
    expect(cuda).toContain("template <typename T> static __device__ __forceinline__ T gk_ld_cs(const T* p) { typedef typename gk_bits<sizeof(T)>::t B; const B b = __ldcs((const B*)p);");
    expect(cuda.indexOf("struct gk_bits<16>")).toBeLessThan(cuda.indexOf("gk_ld_cs(const T* p)"));
  });
});

describe("warp match and fast math", () => {
  it("match with the mask of the warp's threads; matchAll as a helper returning whether all agree", () => {
    const cuda = cudaOf(`device_kernel k(x: readonly global<i64>, m: global<u32>, all: global<bool>) {
  m[0] = matchAny(x[0]);
  all[0] = matchAll(u32(x[0]));
}`);
    expect(cuda).toContain("m[0] = __match_any_sync(gk_warp_mask(), x[0]);");
    expect(cuda).toContain("all[0] = gk_match_all((unsigned int)x[0]);");
    expect(cuda).toContain("template <typename T> static __device__ __forceinline__ bool gk_match_all(T v) { int all; __match_all_sync(gk_warp_mask(), v, &all); return all != 0; }");
  });

  it("maps each fast builtin to its intrinsic", () => {
    expect(kernelBody(`device_kernel k(x: f32, out: global<f32>) {
  out[0] = fastExp(x) + fastLog(x) + fastLog2(x) + fastSin(x) + fastCos(x) + fastPow(x, x) + fastDiv(x, 3.0) + fastExp10(x) + fastTan(x) + fastLog10(x);
}`)).toBe("out[0] = __expf(x) + __logf(x) + __log2f(x) + __sinf(x) + __cosf(x) + __powf(x, x) + __fdividef(x, 3.0f) + __exp10f(x) + __tanf(x) + __log10f(x);");
  });
});

describe("@flushToZero", () => {
  it("writes the identities nvcc would fold away (keeping a subnormal) as the flush itself, and only in such a module", () => {
    const body = `device_kernel k(x: f32, out: global<f32>) {
  out[0] = x * 1.0;
  out[1] = 1.0 * x;
  out[2] = x / 1.0;
  out[3] = x + -0.0;
  out[4] = x - 0.0;
  out[5] = -(-x);
  out[6] = f32(f64(x));
  out[7] = x + 0.0;
  out[8] = x * 2.0;
}`;
    expect(kernelBody(`@flushToZero;\n${body}`)).toBe(
      "out[0] = gk_ftz_f32(x);\nout[1] = gk_ftz_f32(x);\nout[2] = gk_ftz_f32(x);\nout[3] = gk_ftz_f32(x);\nout[4] = gk_ftz_f32(x);\nout[5] = gk_ftz_f32(x);\nout[6] = gk_ftz_f32(x);\nout[7] = x + 0.0f;\nout[8] = x * 2.0f;",
    );
    expect(cudaOf(`@flushToZero;\n${body}`)).toContain("// @flushToZero: built with nvcc -ftz=true, f32 subnormals flush to zero.");
    expect(kernelBody(body)).toContain("out[0] = x * 1.0f;\nout[1] = 1.0f * x;\nout[2] = x / 1.0f;");
  });
});

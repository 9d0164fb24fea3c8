/**
 * The CUDA of the memory and control features: dynamic shared arrays (one extern buffer laid
 * out widest first, lengths as hidden parameters), constant arrays (`__constant__`), views and
 * references, ordered accesses and fences, cache hints, `#pragma unroll`, warp match, the fast intrinsics
 * and the explicit flushes of a -ftz=true module: whole functions or modules as inline
 * snapshots, fragments where one line is the point. nvcc.test.ts compiles the spec/ok programs.
 */
import { describe, expect, it } from "vitest";
import { compileAll, cudaFunction, cudaModule, cudaOf, expectClean, expectCuda, kernelBody, nvccPath } from "./helpers.js";

describe("dynamic shared arrays", () => {
  it("live in one extern buffer, widest elements first, each at a multiple of 16 bytes, each length a hidden parameter after the kernel's own", () => {
    const src = `device_kernel k(out: global<f64>) {
  shared a: bool[];
  shared b: f64[];
  shared c: f32[];
  a[0] = true;
  b[0] = 2.0;
  c[0] = 3.0;
  out[0] = b[0] + f64(c[0]) + (a[0] ? 1.0 : 0.0);
}`;
    expect(cudaFunction(src, "k")).toMatchInlineSnapshot(`
      "extern "C" __global__ void k(double* __restrict__ out, unsigned int gk_len_a, unsigned int gk_len_b, unsigned int gk_len_c) {
        extern __shared__ __align__(16) unsigned char gk_dynamic_shared[];
        double* b = (double*)(gk_dynamic_shared);
        float* c = (float*)(gk_dynamic_shared + ((8ull * gk_len_b + 15ull) & ~15ull));
        bool* a = (bool*)(gk_dynamic_shared + ((8ull * gk_len_b + 15ull) & ~15ull) + ((4ull * gk_len_c + 15ull) & ~15ull));
        a[0] = true;
        b[0] = 2.0;
        c[0] = 3.0f;
        out[0] = b[0] + (double)c[0] + (a[0] ? 1.0 : 0.0);
      }"
    `);
  });
});

describe("fixed-size shared arrays past 48 KiB", () => {
  const BIG = `device_fn fill(t: shared f32[128][128], v: f32) {
  t[threadIdx.y][threadIdx.x] = v;
}
device_kernel k(out: global<f32>) {
  shared small: i32[4];
  shared tile: f32[128][128];
  shared buf: f32[];
  fill(tile, 1.0);
  small[0] = 2;
  buf[threadIdx.x] = 3.0;
  barrier();
  out[0] = tile[127][0] + f32(small[0]) + buf[0];
}
`;
  it("lie in the dynamic region, each a reference to an array at a multiple of 16 bytes, the dynamic arrays after them", () => {
    expectCuda(
      BIG,
      "extern __shared__ __align__(16) unsigned char gk_dynamic_shared[];",
      "int (&small)[4] = *reinterpret_cast<int (*)[4]>(gk_dynamic_shared + 0ull);",
      "float (&tile)[128][128] = *reinterpret_cast<float (*)[128][128]>(gk_dynamic_shared + 16ull);",
      "float* buf = (float*)(gk_dynamic_shared + 65552ull);",
    );
    expect(cudaOf(BIG)).not.toContain("__shared__ float tile");
  });

  it("stay __shared__ arrays within 48 KiB", () => {
    expectCuda("device_kernel k(out: global<f32>) {\n  shared tile: f32[96][128];\n  tile[0][0] = 1.0;\n  out[0] = tile[0][0];\n}\n", "__shared__ float tile[96][128];");
  });

  it.skipIf(!nvccPath())("compile with nvcc for sm_90 (a 64 KiB __shared__ array would not)", async () => {
    const [r] = await compileAll(nvccPath()!, [{ name: "big", source: cudaOf(BIG), mode: "cubin" }]);
    expectClean([r!]);
  });
});

describe("constant arrays", () => {
  it("are __constant__ variables of the module, read by kernels and device functions by name", () => {
    const src = `constant TAPS: f32[3];
constant M: i32[2][2];
device_fn tap(j: i32): f32 {
  return TAPS[j];
}
device_kernel k(out: global<f32>) {
  out[0] = tap(1) + f32(M[1][0]);
}`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "__constant__ float TAPS[3];
      __constant__ int M[2][2];

      static __device__ float tap(int j) {
        return TAPS[j];
      }

      extern "C" __global__ void k(float* __restrict__ out) {
        out[0] = tap(1) + (float)M[1][0];
      }"
    `);
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

  it("pass references as C++ references and views as a gk_view of the first element's address and the stride, inlined", () => {
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "template <typename T> struct gk_view { T* p; int s; __device__ __forceinline__ T& operator[](long long i) const { return p[i * s]; } };

      static __device__ __forceinline__ void bump(int& x, float& y) {
        x = (int)((unsigned int)x + 1u);
        y = 2.0f;
      }

      static __device__ __forceinline__ float sum(gk_view<const float> v) {
        return v[0] + v[1];
      }

      static __device__ __forceinline__ void zero(gk_view<float> v) {
        v[0] = 0.0f;
      }

      extern "C" __global__ void k(float* __restrict__ g, int* __restrict__ h) {
        __shared__ float s[4][8];
        int n = 0;
        bump(n, g[0]);
        bump(h[1], s[1][2]);
        g[1] = sum(gk_view<const float>{g + 2, 3}) + sum(gk_view<const float>{&s[0][0] + 24, 1});
        zero(gk_view<float>{&s[0][0] + 17, 1});
        h[0] = n;
      }"
    `);
  });
});

describe("ordered accesses, fences and unrolling", () => {
  it("spell acquire and release as PTX at device scope, volatile through a volatile pointer, fences as CUDA's", () => {
    const src = `device_kernel k(flag: global<u32>, wide: global<u64>, f: global<f32>) {
  shared s: i32[2];
  storeRelease(flag, 0, 1);
  storeVolatile(s, 0, 2);
  threadfenceBlock();
  threadfence();
  wide[0] = loadAcquire(wide, 1);
  f[0] = loadVolatile(f, 1) + f32(loadAcquire(s, 1));
}`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "template <typename T> static __device__ __forceinline__ T gk_ld_volatile(const T* p) { return *(volatile const T*)p; }
      template <typename T, typename U> static __device__ __forceinline__ void gk_st_volatile(T* p, U v) { *(volatile T*)p = (T)v; }
      static __device__ __forceinline__ unsigned int gk_ld_acquire(const unsigned int* p) { unsigned int v; asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
      static __device__ __forceinline__ int gk_ld_acquire(const int* p) { return (int)gk_ld_acquire((const unsigned int*)p); }
      static __device__ __forceinline__ unsigned long long gk_ld_acquire(const unsigned long long* p) { unsigned long long v; asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v; }
      static __device__ __forceinline__ void gk_st_release(unsigned int* p, unsigned int v) { asm volatile("st.release.gpu.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }

      extern "C" __global__ void k(unsigned int* __restrict__ flag, unsigned long long* __restrict__ wide, float* __restrict__ f) {
        __shared__ int s[2];
        gk_st_release(&flag[0], 1u);
        gk_st_volatile(&s[0], 2);
        __threadfence_block();
        __threadfence();
        wide[0] = gk_ld_acquire(&wide[1]);
        f[0] = gk_ld_volatile(&f[1]) + (float)gk_ld_acquire(&s[1]);
      }"
    `);
  });

  it("writes @unroll and @unroll(N) as #pragma unroll before the loop", () => {
    const src = `device_kernel k(out: global<i32>) {
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
}`;
    expect(cudaFunction(src, "k")).toMatchInlineSnapshot(`
      "extern "C" __global__ void k(int* __restrict__ out) {
        int s = 0;
        #pragma unroll
        for (int i = 0; i < 4; i = (int)((unsigned int)i + 1u)) {
          s = (int)((unsigned int)s + (unsigned int)i);
        }
        #pragma unroll 2
        while (s < 100) {
          s = (int)((unsigned int)s * 2u);
        }
        out[0] = s;
      }"
    `);
  });

  it("takes an unroll count of a generic kernel's constant parameter, each instance its own", () => {
    const src = `device_kernel k<N: i32>(out: global<i32>) {
  @unroll(N * 2)
  for (let i = 0; i < 8; i++) { out[i] = i; }
}
launch k<2>(out = zeros(8)) grid(1) block(1);
launch k<3>(out = zeros(8)) grid(1) block(1);`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "extern "C" __global__ void k$2(int* __restrict__ out) {
        #pragma unroll 4
        for (int i = 0; i < 8; i = (int)((unsigned int)i + 1u)) {
          out[i] = i;
        }
      }

      extern "C" __global__ void k$3(int* __restrict__ out) {
        #pragma unroll 6
        for (int i = 0; i < 8; i = (int)((unsigned int)i + 1u)) {
          out[i] = i;
        }
      }"
    `);
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
    expect(cuda).toContain("template <typename T> static __device__ __forceinline__ T gk_ld_cs(const volatile T* p) { typedef typename gk_bits<sizeof(T)>::t B; const B b = __ldcs((const B*)p);");
    expect(cuda.indexOf("struct gk_bits<16>")).toBeLessThan(cuda.indexOf("gk_ld_cs(const volatile T* p)"));
  });
});

describe("warp match and fast math", () => {
  it("match with the mask of the warp's threads; matchAll as a helper returning whether all agree", () => {
    const src = `device_kernel k(x: readonly global<i64>, m: global<u32>, all: global<bool>) {
  m[0] = matchAny(x[0]);
  all[0] = matchAll(u32(x[0]));
}`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "static __device__ __forceinline__ unsigned int gk_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
      static __device__ __forceinline__ unsigned int gk_warp_mask() { const unsigned int left = blockDim.x * blockDim.y * blockDim.z - (gk_thread_rank() & ~31u); return left >= 32u ? 0xffffffffu : (1u << left) - 1u; }
      template <typename T> static __device__ __forceinline__ bool gk_match_all(unsigned int mask, T v) { int all; __match_all_sync(mask, v, &all); return all != 0; }

      extern "C" __global__ void k(const long long* x, unsigned int* __restrict__ m, bool* __restrict__ all) {
        const unsigned int gk_mask = gk_warp_mask();
        m[0] = __match_any_sync(gk_mask, x[0]);
        all[0] = gk_match_all(gk_mask, (unsigned int)x[0]);
      }"
    `);
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

/**
 * Vectors and structs in CUDA: the types and their layout assertions, one helper per lane-wise
 * operation, vector accesses as single wide loads and stores (read back from nvcc's PTX),
 * alignment of the arrays they touch, padding-free stores, kernel parameters as scalars, and
 * struct and field names that C++ would misread.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { cudaOf, expectCuda, kernelBody, nvccPath } from "./helpers.js";

const nvcc = nvccPath();
const dir = mkdtempSync(path.join(tmpdir(), "gk-compound-ptx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PTX nvcc makes of the CUDA of `src` (it must compile with no message at all). */
async function ptxOf(src: string): Promise<string> {
  const cu = path.join(dir, `m${Math.random().toString(36).slice(2)}.cu`);
  writeFileSync(cu, cudaOf(src));
  const r = await execa(nvcc!, ["-O3", "-arch=sm_90", "-ptx", cu, "-o", `${cu}.ptx`], { reject: false, stdin: "ignore" });
  expect(`${r.stderr}${r.stdout}`.trim(), "nvcc's messages").toBe("");
  return readFileSync(`${cu}.ptx`, "utf8");
}

describe("types", () => {
  it("defines gk's vector types, aligned to their size, and each struct with an assertion of its layout", () => {
    expectCuda(
      "struct P { flag: bool; pos: f32x3; n: i64; }\ndevice_kernel k(ps: global<P>, v: global<f64x2>, b: global<boolx2>) { ps[0].flag = b[0].x; v[0] = f64x2(1.0); }\n",
      "struct __align__(16) gk_f32x3 { float x, y, z; };",
      "struct __align__(16) gk_f64x2 { double x, y; };",
      "struct __align__(2) gk_boolx2 { bool x, y; };",
      "struct P {\n  bool flag;\n  gk_f32x3 pos;\n  long long n;\n};",
      'static_assert(sizeof(P) == 48 && alignof(P) == 16 && __builtin_offsetof(P, flag) == 0 && __builtin_offsetof(P, pos) == 16 && __builtin_offsetof(P, n) == 32, "gk: the layout of P");',
    );
  });

  it("calls one helper per lane-wise operation, whose lanes are the scalar operation's code", () => {
    expectCuda(
      "device_kernel k(a: i32x2, b: i32x2, out: global<i32x2>) { out[0] = a / b + a; }\n",
      "static __device__ __forceinline__ gk_i32x2 gk_div_i32x2(gk_i32x2 a, gk_i32x2 b) { return gk_i32x2{gk_div_i32(a.x, b.x), gk_div_i32(a.y, b.y)}; }",
      "static __device__ __forceinline__ gk_i32x2 gk_add_i32x2(gk_i32x2 a, gk_i32x2 b) { return gk_i32x2{(int)((unsigned int)a.x + (unsigned int)b.x), (int)((unsigned int)a.y + (unsigned int)b.y)}; }",
      "out[0] = gk_add_i32x2(gk_div_i32x2(a, b), a);",
    );
  });

  it("receives a kernel's vector or struct parameter as its scalars and puts it together", () => {
    expect(kernelBody("struct S { v: f32x2; n: i32; t: u32[2]; }\ndevice_kernel k(s: S, out: global<f32>) { out[0] = s.v.y + f32(s.t[1]); }\n").split("\n")[0]).toBe(
      "S s = S{gk_f32x2{gk_s_0, gk_s_1}, gk_s_2, {gk_s_3, gk_s_4}};",
    );
    expectCuda("struct S { v: f32x2; n: i32; }\ndevice_kernel k(s: S, out: global<f32>) { out[0] = 1.0; }\n", "void k(float gk_s_0, float gk_s_1, int gk_s_2, float* __restrict__ out)", "[[maybe_unused]] S s = S{");
  });

  it("stores values with padding to global memory leaf by leaf, and whole elsewhere", () => {
    const body = kernelBody("struct P { a: bool; v: f32x3; }\ndevice_kernel k(g: global<P>, v3: global<f32x3>) {\n  shared s: P[2];\n  let p: P;\n  s[0] = p;\n  barrier();\n  g[0] = s[0];\n  v3[1] = p.v;\n  g[1].v = p.v;\n}\n");
    expect(body).toContain("s[0] = p;");
    expect(body).toContain("gk_store_P(&g[0], s[0]);");
    expect(body).toContain("gk_store_f32x3(&v3[1], p.v);");
    expect(body).toContain("gk_store_f32x3(&g[1].v, p.v);");
  });
});

describe.skipIf(!nvcc)("vector accesses in PTX", () => {
  it("load and store 16 bytes at a time from global arrays, vectors of them and shared rows", async () => {
    const ptx = await ptxOf(`device_kernel k(x: readonly global<f32>, y: global<f32>, v: readonly global<f32x4>, out: global<f32x4>) {
  shared t: f32[8][68];
  const i = threadIdx.x;
  store4(t[i % 8], 4 * (i / 8), load4(x, 4 * i) + v[i]);
  barrier();
  const a = load4(t[i % 8], 0);
  store4(y, 4 * i, a);
  out[i] = a.wzyx;
}
`);
    expect(ptx).toMatch(/ld\.global\.nc\.v4\.f32/);
    expect(ptx).toMatch(/st\.shared\.v4\.f32/);
    expect(ptx).toMatch(/ld\.shared\.v4\.f32/);
    expect(ptx.match(/st\.global\.v4\.f32/g)?.length).toBe(2);
  });

  it("move half data 8 and 16 bytes at a time: load4/store4 and load8/store8 of f16 and bf16 arrays, shared ones too", async () => {
    const ptx = await ptxOf(`device_kernel k(x: readonly global<f16>, y: global<f16>, b: global<bf16>) {
  shared t: f16[512];
  const i = threadIdx.x;
  store8(t, 8 * i, load8(x, 8 * i));
  barrier();
  const a = load8(t, 8 * (63 - i));
  store8(y, 8 * i, a * a.s3);
  store4(b, 4 * i, bf16x4(f32x4(load4(x, 4 * i))));
}
`);
    expect(ptx).toMatch(/ld\.global\.nc\.v4\.u32/);
    expect(ptx).toMatch(/st\.shared\.v4\.u32/);
    expect(ptx).toMatch(/ld\.shared\.v4\.u32/);
    expect(ptx).toMatch(/st\.global\.v4\.u32/);
    expect(ptx).toMatch(/ld\.global\.nc\.v4\.u16|ld\.global\.nc\.v2\.u32/);
    expect(ptx).toMatch(/st\.global\.v4\.u16|st\.global\.v2\.u32/);
  });

  it("load and store 16 bytes at a time from dynamic shared arrays, the second one too (each starts at a multiple of 16 bytes)", async () => {
    // w (f64, the widest) comes first; t starts after it, at a multiple of 16 bytes.
    const ptx = await ptxOf(`device_kernel k(x: readonly global<f32>, y: global<f32>) {
  shared t: f32[];
  shared w: f64[];
  const i = threadIdx.x;
  w[i] = 1.0;
  store4(t, 4 * i, load4(x, 4 * i));
  barrier();
  store4(y, 4 * i, load4(t, 4 * (blockDim.x - 1 - i)) * f32(w[i]));
}
`);
    expect(ptx).toMatch(/st\.shared\.v4\.(f32|u32|b32)/);
    expect(ptx).toMatch(/ld\.shared\.v4\.f32/);
  });

  it("aligns a shared array for the vector accesses of the device functions it is passed to", async () => {
    const src = `device_fn sum4(t: shared f32[64], i: i32): f32 { const v = load4(t, i); return v.x + v.y + v.z + v.w; }
device_kernel k(out: global<f32>) {
  shared tile: f32[64];
  tile[threadIdx.x] = 1.0;
  barrier();
  out[threadIdx.x] = sum4(tile, 4 * (threadIdx.x % 16));
}
`;
    expect(cudaOf(src)).toContain("__shared__ __align__(16) float tile[64];");
    expect(await ptxOf(src)).toMatch(/ld\.shared\.v4\.f32/);
  });

  it("copies a vector or struct computed with temporaries before it goes into a braced list (nvcc 13.0 crashed on the comma expression)", async () => {
    const src = `struct S { n: u64; v: u32x3; }
device_kernel k(a: readonly global<u32>, out: global<S>, l: global<u32x3>) {
  let s: S = { n: 1, v: u32x3(u32x2(a[0], a[1]), 36) };
  let arr: u32x3[2] = [u32x3(l[0].zy, 1), (l[1] + 1).zyx];
  out[0] = s;
  l[0] = arr[a[2] % 2];
}
`;
    const cuda = kernelBody(src);
    expect(cuda).toMatch(/gk_copy_u32x3\(\(gk_t\d+ = /);
    expect(await ptxOf(src)).toMatch(/\.entry k/);
  });

  it("copies a vector or struct chosen by ?: before it goes into a braced list (nvcc 13.0 crashed on it; a random kernel)", async () => {
    const src = `struct S0 { v: u64; }
struct S1 { r: i64x3; a: S0; f: boolx3; }
device_kernel k(c: bool, x: i64, u: u64, out: global<S1>) {
  out[0] = { r: c ? i64x3(5, 8, x) : i64x3(x), a: { v: u }, f: boolx3(c) };
}
`;
    expect(kernelBody(src)).toMatch(/gk_copy_i64x3\(c \? gk_i64x3\{/);
    expect(await ptxOf(src)).toMatch(/\.entry k/);
  });

  it("store a 3-lane vector's three lanes, never its padding", async () => {
    const ptx = await ptxOf("device_kernel k(v: global<f32x3>, s: f32) { v[threadIdx.x] = f32x3(s, 2.0 * s, 3.0); }\n");
    expect(ptx).not.toMatch(/st\.global\.v4/);
    expect(ptx).toMatch(/st\.global(\.v2)?\.f32/);
  });
});

describe.skipIf(!nvcc)("names", () => {
  it("keeps structs and fields named like C++ and CUDA names, or like their struct, apart", async () => {
    await ptxOf(`struct int { float4: i32; int: f32; x: i32; }
struct float4 { int: int; float4: int[2]; }
device_fn f(p: float4): int { return p.float4[1]; }
device_kernel k(out: global<float4>, o2: global<int>) {
  let int4: float4;
  int4.int.int = 1.5;
  int4.float4[1] = f(int4);
  out[0] = int4;
  o2[0] = f(out[0]);
}
`);
  });
});

/** bitcast<T>(v) in CUDA (src/codegen/cuda/bitcast.ts): intrinsics, C casts, the memcpy helper; nvcc makes each a move. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cudaOf, kernelBody, nvccPath } from "./helpers.js";

const SRC = `device_kernel k(x: global<f32>, d: global<f64>, h: global<f16>, b: global<bf16>, hv: global<f16x2>, q: readonly global<u32x4>, o: global<u32>, ol: global<u64>, oh: global<u16>, ob: global<bf16>, ov: global<f16x2>) {
  o[0] = bitcast<u32>(x[0]);
  x[1] = bitcast<f32>(i32(o[1]));
  ol[0] = bitcast<u64>(d[0]);
  d[1] = bitcast<f64>(ol[1]);
  oh[0] = bitcast<u16>(h[0]);
  h[1] = bitcast<f16>(i16(3));
  ob[0] = bitcast<bf16>(h[2]);
  o[2] = bitcast<u32>(i32(-1));
  o[3] = bitcast<u32>(hv[0]);
  ov[threadIdx.x] = bitcast<f16x2>(q[threadIdx.x].y) + bitcast<f16x2>(o[4]);
  ol[2] = bitcast<u64>(f32x2(x[2], x[3]));
}
`;

describe("bitcast in CUDA", () => {
  it("is an intrinsic between a float and an integer, a C cast between integers, gk_bitcast for vectors", () => {
    expect(kernelBody(SRC)).toMatchInlineSnapshot(`
      "o[0] = __float_as_uint(x[0]);
      x[1] = __int_as_float((int)o[1]);
      ol[0] = (unsigned long long)__double_as_longlong(d[0]);
      d[1] = __longlong_as_double((long long)ol[1]);
      oh[0] = __half_as_ushort(h[0]);
      h[1] = __ushort_as_half(0x0003);
      ob[0] = __ushort_as_bfloat16(__half_as_ushort(h[2]));
      o[2] = 4294967295u;
      o[3] = gk_bitcast<unsigned int>(hv[0]);
      ov[(int)threadIdx.x] = gk_add_f16x2(gk_bitcast<gk_f16x2>(q[(int)threadIdx.x].y), gk_bitcast<gk_f16x2>(o[4]));
      ol[2] = gk_bitcast<unsigned long long>(gk_f32x2{x[2], x[3]});"
    `);
    expect(cudaOf(SRC)).toContain("template <typename To, typename From> static __device__ __forceinline__ To gk_bitcast(From v)");
  });

  it("has no helper where no vector is bitcast", () => {
    expect(cudaOf("device_kernel k(x: global<f32>, o: global<u32>) { o[0] = bitcast<u32>(x[0]); }\n")).not.toContain("gk_bitcast");
  });

  it.skipIf(!nvccPath())("compiles with nvcc to moves: no byte loads, no local memory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gk-bitcast-"));
    try {
      writeFileSync(path.join(dir, "k.cu"), cudaOf(SRC));
      const r = await execa(nvccPath()!, ["-O3", "-arch=sm_90", "-ptx", path.join(dir, "k.cu"), "-o", path.join(dir, "k.ptx")], { reject: false, stdin: "ignore" });
      expect(r.exitCode, r.stderr).toBe(0);
      const ptx = readFileSync(path.join(dir, "k.ptx"), "utf8");
      expect(ptx).not.toMatch(/\.local|ld\.global(\.nc)?\.u8/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

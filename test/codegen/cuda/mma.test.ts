/**
 * The tensor-core builtins in CUDA: the call and the prelude helper it uses (inline PTX
 * `mma.sync.aligned`), and, where nvcc is installed, spec/ok/tensor_cores.gk built to a cubin
 * for sm_90, so that ptxas assembles every shape's inline PTX (nvcc.test.ts builds it to PTX,
 * which leaves the inline assembly unread).
 */
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { frontEnd } from "../../../src/pipeline.js";
import { compileAll, cudaOf, expectClean, nvccPath } from "./helpers.js";

describe("mma in CUDA", () => {
  it("calls the prelude's template, which passes the registers to inline PTX", () => {
    const cu = cudaOf(`device_kernel k(A: readonly global<u32x4>, B: readonly global<u32x2>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k16_bf16(A[laneId], B[laneId], D[laneId]);
}`);
    expect(cu.split("\n").filter((l) => l.includes("gk_mma"))).toMatchInlineSnapshot(`
      [
        "template <int = 0> static __device__ __forceinline__ void gk_mma_m16n8k16_bf16_asm(const unsigned int* a, const unsigned int* b, const float* c, float* d) { asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3])); }",
        "template <typename A, typename B, typename C> static __device__ __forceinline__ C gk_mma_m16n8k16_bf16(A a, B b, C c) { C d; gk_mma_m16n8k16_bf16_asm(&a.x, &b.x, &c.x, &d.x); return d; }",
        "  D[(int)(gk_thread_rank() & 31u)] = gk_mma_m16n8k16_bf16(A[(int)(gk_thread_rank() & 31u)], B[(int)(gk_thread_rank() & 31u)], D[(int)(gk_thread_rank() & 31u)]);",
      ]
    `);
  });
});

const nvcc = nvccPath();

describe.skipIf(!nvcc)("mma's inline PTX assembles for sm_90", () => {
  it("spec/ok/tensor_cores.gk builds to a cubin with no message", async () => {
    const r = frontEnd("spec/ok/tensor_cores.gk");
    const source = emitCuda(r.ir!, { sources: r.sources, gkVersion: "test" }).source;
    expectClean(await compileAll(nvcc!, [{ name: "tensor_cores", source, mode: "cubin" }]));
  });
});

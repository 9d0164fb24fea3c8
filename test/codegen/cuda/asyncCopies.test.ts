/**
 * The asynchronous copies in CUDA (src/codegen/cuda/asyncCopyHelpers.ts): each builtin's call
 * and its inline PTX `cp.async`, the destination's `__align__` for the copy, and, where nvcc is
 * installed, spec/ok/async_copies.gk built to a cubin for sm_90 (ptxas reads the inline PTX).
 */
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { frontEnd } from "../../../src/pipeline.js";
import { compileAll, cudaOf, expectClean, nvccPath } from "./helpers.js";

describe("cp.async in CUDA", () => {
  it("copies through the prelude's templates, waits by group", () => {
    const cu = cudaOf(`device_kernel k(x: readonly global<f16>, out: global<f16>, n: i32) {
  shared t: f16[4][64];
  const i = threadIdx.x;
  cpAsync(t[0], 8 * i, x, 8 * i, 16);
  cpAsyncL2(t[1], 8 * i, x, 64 + 8 * i, 16, n - 8 * i);
  cpAsync(t[2], 2 * i, x, 2 * i, 4);
  cpAsyncCommit();
  cpAsyncWait(1);
  cpAsyncWaitAll();
  barrier();
  out[i] = t[0][i];
}`);
    expect(cu.split("\n").filter((l) => /gk_cp_async|__shared__/.test(l))).toMatchInlineSnapshot(`
      [
        "template <int N> static __device__ __forceinline__ void gk_cp_async_ca(void* dst, const void* src, unsigned int n) { asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" :: "r"((unsigned int)__cvta_generic_to_shared(dst)), "l"(__cvta_generic_to_global(src)), "n"(N), "r"(n) : "memory"); }",
        "template <int N> static __device__ __forceinline__ void gk_cp_async_cg(void* dst, const void* src, unsigned int n) { asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;" :: "r"((unsigned int)__cvta_generic_to_shared(dst)), "l"(__cvta_generic_to_global(src)), "n"(N), "r"(n) : "memory"); }",
        "template <int = 0> static __device__ __forceinline__ void gk_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }",
        "template <int N> static __device__ __forceinline__ void gk_cp_async_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }",
        "template <int = 0> static __device__ __forceinline__ void gk_cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }",
        "  __shared__ __align__(16) __half t[4][64];",
        "  gk_cp_async_ca<16>(&t[0][(int)(8u * (unsigned int)i)], &x[(int)(8u * (unsigned int)i)], 16u);",
        "  gk_cp_async_cg<16>(&t[1][(int)(8u * (unsigned int)i)], &x[(int)(64u + 8u * (unsigned int)i)], (unsigned int)((int)((unsigned int)n - 8u * (unsigned int)i)) * 2u);",
        "  gk_cp_async_ca<4>(&t[2][(int)(2u * (unsigned int)i)], &x[(int)(2u * (unsigned int)i)], 4u);",
        "  gk_cp_async_commit();",
        "  gk_cp_async_wait<1>();",
        "  gk_cp_async_wait_all();",
      ]
    `);
  });
});

const nvcc = nvccPath();

describe.skipIf(!nvcc)("cp.async's inline PTX assembles for sm_90", () => {
  it("spec/ok/async_copies.gk builds to a cubin with no message", async () => {
    const r = frontEnd("spec/ok/async_copies.gk");
    const source = emitCuda(r.ir!, { sources: r.sources, gkVersion: "test" }).source;
    expectClean(await compileAll(nvcc!, [{ name: "async_copies", source, mode: "cubin" }]));
  });
});

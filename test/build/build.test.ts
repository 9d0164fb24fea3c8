/**
 * buildModule (src/build/build.ts) legalizes for the GPU's architecture before it generates
 * CUDA: tensor-core builtins on an sm_75 GPU are refused, located (GK7008), before nvcc runs.
 */
import { describe, expect, it } from "vitest";
import { buildModule } from "../../src/build/build.js";
import { BuildError } from "../../src/build/nvcc.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";


describe("buildModule", () => {
  it("refuses mma on sm_75, at its use", async () => {
    const src = `device_kernel k(A: readonly global<u32x4>, B: readonly global<u32x2>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], D[laneId]);
}
`;
    const r = frontEnd("test.gk", { host: memoryHost({ "test.gk": src }) });
    const err = await buildModule(r.ir!, r.sources, { arch: "sm_75" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).diagnostics.map((d) => d.code)).toEqual(["GK7008"]);
    expect((err as BuildError).message).toContain("test.gk:2:15 - error GK7008: the CUDA sm_75 target has no tensor cores");
  });
});

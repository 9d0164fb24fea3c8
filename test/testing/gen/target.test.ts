/**
 * The generator's `target` option (src/testing/gen/kernel.ts): without one, the same seeds give
 * the same kernels as before the option existed (the CUDA differential's seeds keep their
 * meaning); with WGSL's, the kernels legalize for WGSL and Dawn takes their shaders.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { kernelSeed, sampleProgram } from "../../../src/testing/differential.js";
import { generatedKernel } from "../../../src/testing/gen/index.js";

/** A digest of 120 kernels' sources and arguments, seeds 1, 2 and 7, without a target. */
function untargetedDigest(): string {
  const h = createHash("sha256");
  for (const seed of [1, 2, 7])
    for (let i = 0; i < 40; i++) {
      const k = generatedKernel(sampleProgram(kernelSeed(seed, i)), "k");
      h.update(k.source);
      h.update(JSON.stringify(k.args, (_, v) => (typeof v === "bigint" ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<unknown>, String) : v)));
    }
  return h.digest("hex");
}

describe("no target: the kernels of before", () => {
  it("gives the same kernels for the same seeds", () => {
    expect(untargetedDigest()).toBe("69e2da135b34d2c3bad8f2a758f0024b6fe5a2e4ebd45333f012fac0c4b11fb8");
  });
});

/**
 * A target's restrictions of the random kernels (src/testing/gen/universe.ts) that are not a
 * matter of types: a kernel for a target without exact float division (WGSL) has at most
 * TARGET_FLOAT_REMAINDERS float `%` operations, each a loop in the shader, so that no chain
 * of them meets SwiftShader's compiler (seed 1's kernel 1808 had a chain of three that ran it
 * out of memory).
 */
import { describe, expect, it } from "vitest";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { kernelSeed, sampleProgram } from "../../../src/testing/differential.js";
import { floatRemainders, TARGET_FLOAT_REMAINDERS } from "../../../src/testing/gen/universe.js";

describe("random kernels for the WGSL target", () => {
  it(`have at most ${TARGET_FLOAT_REMAINDERS} float % operations (seed 1, kernels 1800..1819)`, () => {
    const counts = Array.from({ length: 20 }, (_, i) => floatRemainders(sampleProgram(kernelSeed(1, 1800 + i), { target: WGSL_TARGET })));
    expect(counts.filter((n) => n > TARGET_FLOAT_REMAINDERS)).toEqual([]);
    // Float % is still drawn.
    expect(counts.some((n) => n > 0)).toBe(true);
  });
});

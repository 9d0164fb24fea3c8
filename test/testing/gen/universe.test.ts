/**
 * A target's restrictions of the random kernels (src/testing/gen/universe.ts) that are not a
 * matter of types: a kernel for a target without exact float division (WGSL) has at most
 * TARGET_FLOAT_REMAINDERS float `%` operations, each a loop in the shader, so that no chain
 * of them meets SwiftShader's compiler (seed 1's kernel 1808 had a chain of three that ran it
 * out of memory); and its written arrays compare with subnormals equal to zero, which WGSL
 * lets an implementation flush them to.
 */
import { describe, expect, it } from "vitest";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { kernelSeed, sampleProgram } from "../../../src/testing/differential.js";
import { tolerances } from "../../../src/testing/gen/generated.js";
import { floatRemainders, TARGET_FLOAT_REMAINDERS } from "../../../src/testing/gen/universe.js";

describe("random kernels for the WGSL target", () => {
  it(`have at most ${TARGET_FLOAT_REMAINDERS} float % operations (seed 1, kernels 1800..1819)`, () => {
    const counts = Array.from({ length: 20 }, (_, i) => floatRemainders(sampleProgram(kernelSeed(1, 1800 + i), { target: WGSL_TARGET })));
    expect(counts.filter((n) => n > TARGET_FLOAT_REMAINDERS)).toEqual([]);
    // Float % is still drawn.
    expect(counts.some((n) => n > 0)).toBe(true);
  });
});

describe("random kernels for the WGSL target, compared", () => {
  it("accept a subnormal result flushed to zero (WGSL lets it be; SwiftShader does: kernel 3333 of seed 1)", () => {
    const tol = tolerances(sampleProgram(kernelSeed(1, 3333), { target: WGSL_TARGET }));
    expect(tol["out_f32"]?.abs).toBe(2 ** -126);
    // Without a target, bit for bit as before.
    expect(tolerances(sampleProgram(kernelSeed(1, 3333)))["out_f32"]).toBeUndefined();
  });
});

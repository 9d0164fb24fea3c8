/**
 * A kernel's launch plan (src/runtime/launchPlan.ts): which parameters take the fast path (a
 * scalar value as it is, an array of scalars as its TypedArray or GPU array) and which go
 * through wire.ts (vector and struct values, arrays of vectors and structs), which arrays the
 * kernel may write, and that the plan is made once per kernel.
 */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/index.js";
import { launchPlan } from "../../src/runtime/launchPlan.js";

const src = `struct Pair { a: i32; b: f32; }
device_kernel k(n: i32, v: f32x4, s: Pair, x: readonly global<f32>, xs: global<f32x4>, ps: global<Pair>, out: global<f32>) {
  const i = globalId.x;
  if (i < n) { out[i] = x[i] + v.x + s.b + xs[i].y + ps[i].b; }
}`;

describe("launchPlan", () => {
  it("sends scalars and arrays of scalars on the fast path, vectors, structs and arrays of them through wire.ts", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    try {
      const fn = mod.ir.kernels.find((f) => f.name === "k")!;
      const plan = launchPlan(mod.ir, fn);
      const facts = plan.params.map((p) => [p.name, p.scalar?.name ?? null, p.elem ?? null, p.wire, p.written]);
      expect(facts).toEqual([
        ["n", "i32", null, false, false],
        ["v", null, null, true, false],
        ["s", null, null, true, false],
        ["x", null, "f32", false, false],
        ["xs", null, null, true, true],
        ["ps", null, null, true, true],
        ["out", null, "f32", false, true],
      ]);
      expect(plan.written).toEqual([4, 5, 6]);
      expect(launchPlan(mod.ir, fn)).toBe(plan);
    } finally {
      await mod.close();
    }
  });
});

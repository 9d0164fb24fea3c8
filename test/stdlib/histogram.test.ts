// gk/std/histogram on the simulator: counts against plain JS (the bin computed in f32 as the kernel does), in shared memory and spilled to global.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stdModule } from "./helpers.js";

const SOURCE = `import { histogram } from "gk/std/histogram";\n`;

/** The reference: bin = i32((v - lo) * (bins / (hi - lo))) in f32, hi in the last bin, outside [lo, hi] and NaN ignored. */
function refHistogram(x: Float32Array, bins: number, lo: number, hi: number): number[] {
  const f = Math.fround;
  const counts = new Array<number>(bins).fill(0);
  const scale = f(f(bins) / f(f(hi) - f(lo)));
  for (const v of x) {
    if (!(v >= f(lo) && v <= f(hi))) continue;
    const b = Math.trunc(f(f(v - f(lo)) * scale));
    counts[Math.min(b, bins - 1)]!++;
  }
  return counts;
}

describe("gk/std/histogram", () => {
  it("counts every element in its bin, privatized (bins <= SHARED_BINS) or straight to global memory", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.float({ min: -2, max: 12, noNaN: false }), fc.constantFrom(0, 10, -0, Infinity)), { maxLength: 2000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(16, 64),
        fc.integer({ min: 1, max: 4 }),
        async (data, bins, sharedBins, grid) => {
          const x = Float32Array.from(data);
          const r = await mod.histogram!.with({ T: "f32", SHARED_BINS: sharedBins })({ grid, block: 64 }, { n: x.length, x, bins, lo: 0, hi: 10, counts: new Uint32Array(bins) });
          expect([...(r.counts as Uint32Array)]).toEqual(refHistogram(x, bins, 0, 10));
        },
      ),
      { numRuns: 30 },
    );
  });
});

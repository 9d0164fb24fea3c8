// gk/std/segmented on the simulator: one reduction per segment, empty segments included.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { OPS, refCombine, refIdentity, stdModule } from "./helpers.js";

const SOURCE = `import { segmentedReduce } from "gk/std/segmented";\n`;

describe("gk/std/segmented", () => {
  it("out[s] reduces x[offsets[s] .. offsets[s + 1]), the identity for an empty segment", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 150 }), { minLength: 0, maxLength: 12 }),
        fc.constantFrom("SUM", "MIN", "MAX", "XOR" as const),
        fc.integer({ min: 1, max: 5 }),
        async (segs, op, grid) => {
          const x = Int32Array.from(segs.flat());
          const offsets = Int32Array.from([0, ...segs.map((_, i) => segs.slice(0, i + 1).flat().length)]);
          const r = await mod.segmentedReduce!.with({ T: "i32", OP: OPS[op] })({ grid, block: 64 }, { segments: segs.length, offsets, x, out: new Int32Array(segs.length) });
          expect([...(r.out as Int32Array)]).toEqual(segs.map((s) => s.reduce(refCombine("i32", op), refIdentity("i32", op))));
        },
      ),
      { numRuns: 25 },
    );
  });
});

// gk/std/transpose on the simulator: any shape, element for element.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stdModule } from "./helpers.js";

const SOURCE = `import { transpose } from "gk/std/transpose";\n`;

describe("gk/std/transpose", () => {
  it("b[c * rows + r] = a[r * cols + c] for any rows and cols, with any tile", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70 }), fc.constantFrom([32, 8], [16, 4], [8, 8]), async (rows, cols, [tile, per]) => {
        const a = Int32Array.from({ length: rows * cols }, (_, i) => i * 3 - 7);
        const r = await mod.transpose!.with({ T: "i32", TILE: tile!, ROWS: per! })(
          { grid: [Math.ceil(cols / tile!), Math.ceil(rows / tile!)], block: [tile!, per!] },
          { rows, cols, a, b: new Int32Array(rows * cols) },
        );
        const b = r.b as Int32Array;
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) expect(b[j * rows + i]).toBe(a[i * cols + j]);
      }),
      { numRuns: 15 },
    );
  });
});

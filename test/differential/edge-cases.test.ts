/**
 * The edge-case kernels (edge-cases.ts) in CI: the simulator computes what the spec says
 * (or reports the error it says), and the CUDA builds to PTX. The GPU tier compares the
 * GPU with the simulator on the same kernels.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimError } from "../../src/runtime/sim/index.js";
import { checkProgram, runOnSimulator } from "../../src/testing/cpuGpu.js";
import { buildPtx } from "../../src/testing/differential.js";
import { EDGE_CASES, expectedDiffs } from "./edge-cases.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gk-diff-edges-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("edge cases on the simulator", () => {
  for (const c of EDGE_CASES) {
    it(c.name, async () => {
      const p = checkProgram(c.source, `${c.kernel}.gk`);
      const fn = p.ir.kernels.find((k) => k.name === c.kernel)!;
      const ptx = await buildPtx(p.ir, p.sources, { dir, name: c.kernel });
      expect(ptx.messages, ptx.output).toEqual([]);
      if (c.simError) {
        expect(() => runOnSimulator(p, fn, c.grid, c.block, c.args)).toThrow(SimError);
        try {
          runOnSimulator(p, fn, c.grid, c.block, c.args);
        } catch (e) {
          expect((e as SimError).code).toBe(c.simError);
        }
        return;
      }
      const diffs = expectedDiffs(c, runOnSimulator(p, fn, c.grid, c.block, c.args), "simulator");
      expect(diffs, diffs.join("\n")).toEqual([]);
    });
  }
});

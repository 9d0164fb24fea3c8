/**
 * The example kernels in CI (no GPU): each one's CUDA compiles to PTX for sm_90, with and
 * without FMA contraction; and each one's properties (examples.ts) hold with the simulator
 * on the unfolded IR as the runner, which checks that constant folding changes nothing.
 * test/gpu/differential.test.ts runs the same properties with the GPU as the runner.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOnSimulator } from "../../src/testing/cpuGpu.js";
import { buildPtx } from "../../src/testing/differential.js";
import { checkExampleProperty, EXAMPLE_PROPERTIES, loadExample, type Runner } from "./examples.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gk-diff-examples-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const simulator: Runner = async (p, kernel, c) => runOnSimulator(p, p.ir.kernels.find((k) => k.name === kernel)!, c.grid, c.block, c.args, c.extras);

describe("example kernels build to PTX", () => {
  for (const example of new Set(EXAMPLE_PROPERTIES.map((p) => p.example))) {
    it(example, async () => {
      const p = loadExample(example);
      const [plain, fused] = await Promise.all([false, true].map((fmad) => buildPtx(p.ir, p.sources, { dir, name: `${example}-${fmad ? "fmad" : "exact"}`, fmad })));
      expect(plain!.messages, plain!.output).toEqual([]);
      expect(fused!.messages, fused!.output).toEqual([]);
    });
  }
});

describe("example properties: the unfolded IR on the simulator computes what the folded IR does", () => {
  for (const p of EXAMPLE_PROPERTIES) {
    it(`${p.example} (${p.kernel})`, async () => {
      const unfolded = loadExample(p.example, "check");
      const runner: Runner = (_program, kernel, c) => simulator(unfolded, kernel, c);
      await checkExampleProperty(p, simulator, runner, false);
    });
  }
});

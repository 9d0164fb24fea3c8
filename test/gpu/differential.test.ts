/**
 * The GPU tier of differential testing: the GPU against the simulator, which defines gk's
 * semantics (spec/differential.md). Skipped, with the reason, where no GPU can be used.
 *
 *   npx vitest run test/gpu/differential.test.ts        (gpu-available.ts builds gpu_launcher first)
 *
 * (a) GK_DIFF_KERNELS random kernels (default 10000; seed GK_DIFF_SEED, default 1; from kernel
 *     GK_DIFF_START, default 0), 200 per
 *     module, built with --fmad=false through the kernel cache and run in one launcher
 *     session: every written array must agree bit for bit (approx_* arrays within the ulp
 *     of their builtins, fast_f32 within its fast builtin's documented bound). A mismatch is shrunk (for GK_DIFF_SHRINK_MS, default 300000; 0: not at all) and printed with its inputs; the shrunk
 *     kernel replays in CI with GK_DIFF_REPLAY=<seed> npx vitest run test/differential.
 * (b) every example's properties (test/differential/examples.ts), with FMA contraction
 *     (within the stated tolerance) and without (bit for bit).
 * (c) the edge cases of test/differential/edge-cases.ts: the GPU computes what the
 *     simulator computes and what the spec says (division by zero: 0, where the simulator
 *     reports GK8003).
 */
import { performance } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import type { SourceMap } from "../../src/diagnostics/source.js";
import type { Module } from "../../src/ir/nodes.js";
import type { Program } from "../../src/testing/gen/index.js";
import { checkProgram, CpuGpuComparer, runOnSimulator, type Comparison } from "../../src/testing/cpuGpu.js";
import { checkBatch, describeShrunk, kernelSeed, sampleProgram, shrinkKernel } from "../../src/testing/differential.js";
import { runProgress } from "../../src/testing/progress.js";
import { genericUse, printBatch, type Batch, type GenOptions } from "../../src/testing/gen/index.js";
import { EDGE_CASES, expectedDiffs } from "../differential/edge-cases.js";
import { checkExampleProperty, EXAMPLE_PROPERTIES, type Runner } from "../differential/examples.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/differential.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const COUNT = Number(process.env.GK_DIFF_KERNELS ?? 10_000);
/** GK_DIFF_START: the index of the first kernel (a multiple of 200), to replay one batch of a run on the GPU. */
const START = Number(process.env.GK_DIFF_START ?? 0);
/** GK_DIFF_FLOAT_ATOMICS=0 / GK_DIFF_APPROX=0 / GK_DIFF_GENERICS=0 leave out float atomics / inexact math builtins / generics (to look past a known difference). */
const GEN: GenOptions = { floatAtomics: process.env.GK_DIFF_FLOAT_ATOMICS !== "0", approx: process.env.GK_DIFF_APPROX !== "0", generics: process.env.GK_DIFF_GENERICS !== "0" };
const SEED = Number(process.env.GK_DIFF_SEED ?? 1);
/** GK_DIFF_SHRINK_MS: how long to shrink the first differing kernel (default 300000; 0 reports the list and the first kernel's comparison unshrunk). */
const SHRINK_MS = Number(process.env.GK_DIFF_SHRINK_MS ?? 300_000);
const BATCH = 200;
/** Batches checked and sent to nvcc ahead of the one running (nvcc runs beside the GPU and the simulator). */
const BUILDS_AHEAD = 4;

const comparer = new CpuGpuComparer({ kernelTimeoutMs: 20_000 });
afterAll(() => comparer.close());

const simulator: Runner = async (p, kernel, c) => runOnSimulator(p, p.ir.kernels.find((k) => k.name === kernel)!, c.grid, c.block, c.args, c.extras);
const onGpu = (fmad: boolean): Runner => (p, kernel, c) => comparer.runOnGpu(p, kernel, { grid: c.grid, block: c.block }, c.args, fmad, c.extras);

interface Prepared {
  readonly batch: Batch;
  readonly program: { readonly ir: Module; readonly sources: SourceMap };
}

function prepareBatch(start: number): Prepared {
  const entries = Array.from({ length: Math.min(BATCH, START + COUNT - start) }, (_, j) => ({ name: `k${start + j}`, program: sampleProgram(kernelSeed(SEED, start + j), GEN) }));
  const batch = printBatch(entries);
  const checked = checkBatch(batch, `batch${start / BATCH}.gk`);
  if (!checked.ir) throw new Error(`generated kernels do not check:\n${checked.problems.map((p) => `${p.kernel}: ${p.detail}`).join("\n")}`);
  const program = { ir: checked.ir, sources: checked.sources };
  void comparer.prepare(program, false);
  return { batch, program };
}

describe.skipIf(!gpu.ok)(title("GPU against simulator"), () => {
  it(`(a) ${COUNT} random kernels, seed ${SEED}, built with --fmad=false`, { timeout: 60 * 60_000 }, async () => {
    const t0 = performance.now();
    const starts = Array.from({ length: Math.ceil(COUNT / BATCH) }, (_, b) => START + b * BATCH);
    const ready: Prepared[] = [];
    const mismatches: { kernel: string; comparison: Comparison }[] = [];
    const programs: Program[] = [];
    const progress = runProgress("differential", COUNT);
    let compared = 0;
    for (let b = 0; b < starts.length; b++) {
      while (ready.length < Math.min(BUILDS_AHEAD, starts.length - b)) ready.push(prepareBatch(starts[b + ready.length]!));
      const { batch, program } = ready.shift()!;
      programs.push(...batch.kernels.map((k) => k.program));
      for (const k of batch.kernels) {
        const c = await comparer.compare(program, k.kernel, { grid: k.grid, block: k.block, shared: k.shared, constants: k.constants }, k.args, { fmad: false, tolerance: k.tolerance });
        if (!c.ok) mismatches.push({ kernel: k.name, comparison: c });
        progress.step(++compared, mismatches.length);
      }
    }
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`differential: ${COUNT} kernels, ${mismatches.length} mismatches, ${s} s`);
    console.log(genericUse(programs));
    if (mismatches.length === 0) return;
    // The list first: a run stopped while shrinking still says which kernels differed and how.
    console.log(mismatches.map((m) => `- ${m.kernel}: ${m.comparison.message.split("\n").slice(0, 3).join(" | ")}`).join("\n"));
    const first = mismatches[0]!;
    const seed = kernelSeed(SEED, Number(first.kernel.slice(1)));
    const shrunk = SHRINK_MS <= 0 ? undefined : await shrinkKernel(seed, GEN, async (k) => {
      const c = await comparer.compare(k.source, k.kernel, { grid: k.grid, block: k.block, shared: k.shared, constants: k.constants }, k.args, { fmad: false, tolerance: k.tolerance });
      return c.ok ? undefined : c.message.split("\nlaunch:")[0];
    }, SHRINK_MS);
    const list = mismatches.slice(0, 10).map((m) => `- ${m.kernel}: ${m.comparison.message.split("\n").slice(0, 3).join(" | ")}`);
    expect.fail([`${mismatches.length} of ${COUNT} kernels differ (seed ${SEED}):`, ...list, "", shrunk ? describeShrunk(shrunk, seed) : first.comparison.message].join("\n"));
  });

  describe("(b) example properties", () => {
    for (const p of EXAMPLE_PROPERTIES) {
      it(`${p.example} (${p.kernel}), default fmad, within the stated tolerance`, { timeout: 600_000 }, () => checkExampleProperty(p, simulator, onGpu(true), true));
      it(`${p.example} (${p.kernel}), --fmad=false, bit for bit`, { timeout: 600_000 }, () => checkExampleProperty(p, simulator, onGpu(false), false));
    }
  });

  describe("(c) edge cases", () => {
    for (const c of EDGE_CASES) {
      it(c.name, { timeout: 600_000 }, async () => {
        const p = checkProgram(c.source, `${c.kernel}.gk`);
        const out = await comparer.runOnGpu(p, c.kernel, c, c.args, false);
        const diffs = expectedDiffs(c, out, "gpu");
        if (!c.simError) {
          const r = await comparer.compare(p, c.kernel, c, c.args, { fmad: false });
          expect(r.ok, r.message).toBe(true);
        }
        expect(diffs, diffs.join("\n")).toEqual([]);
      });
    }
  });
});

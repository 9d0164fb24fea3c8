/**
 * The CI tier of differential testing (no GPU needed): random well-typed kernels, in
 * batches of 200 per module, must
 * - check without any diagnostic (the generator only writes valid, warning-free gk);
 * - compile to PTX for sm_90 with nvcc (an error there, for a kernel the checker accepted,
 *   is a bug in codegen or the checker, and so is a warning: users would see it as GK7005);
 * - run on the simulator without a SimError (every generated kernel is well-defined, so a
 *   SimError is a generator bug, or GK9001 a simulator bug), and compute the same results
 *   from the folded IR as from the checker's unfolded IR (a difference is a folding bug).
 *
 * Deterministic: seed GK_DIFF_SEED (default 1); GK_DIFF_CI_KERNELS kernels (default 400,
 * sized for a 2-core CI machine: about 60 CPU seconds; 1000 or more for a longer run). No time
 * limit: it is CPU-bound.
 * A failing kernel is shrunk and printed with its launch and arguments;
 * GK_DIFF_REPLAY=<seed> runs just the kernel drawn from that seed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildPtx, checkBatch, describeShrunk, kernelProblems, kernelSeed, nvccProblems, nvccWarnings, sampleProgram, shrinkKernel, simulateBoth,
  type Problem, type PtxResult, type Stage,
} from "../../src/testing/differential.js";
import { generatedKernel, genericUse, printBatch, type Program } from "../../src/testing/gen/index.js";
import { runProgress } from "../../src/testing/progress.js";

const SEED = Number(process.env.GK_DIFF_SEED ?? 1);
const COUNT = Number(process.env.GK_DIFF_CI_KERNELS ?? 400);
const BATCH = 200;
const NVCC_AT_ONCE = Math.max(1, Math.min(4, os.availableParallelism()));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gk-diff-ci-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `jobs` with at most `n` at once. */
function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    while (running >= n) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Shrinks the first failing kernel of each stage and describes it. */
async function explain(problems: readonly Problem[]): Promise<string> {
  const lines = [`${problems.length} problem(s) in ${COUNT} kernels (seed ${SEED}):`];
  const firstOf = new Map<Stage, Problem>();
  for (const p of problems) if (!firstOf.has(p.stage)) firstOf.set(p.stage, p);
  for (const p of problems.slice(0, 20)) lines.push(`- ${p.kernel} (${p.stage}): ${p.detail.split("\n")[0]}`);
  for (const [stage, p] of firstOf) {
    const id = /^k(\d+)$/.exec(p.kernel);
    if (!id) {
      lines.push("", `${stage}: ${p.detail}`);
      continue;
    }
    const seed = kernelSeed(SEED, Number(id[1]));
    const shrunk = await shrinkKernel(seed, {}, async (k) => {
      const found = (await kernelProblems(k, stage === "nvcc" ? dir : undefined)).find((q) => q.stage === stage);
      return found?.detail;
    });
    lines.push("", `--- ${stage} ---`, shrunk ? describeShrunk(shrunk, seed) : `${p.detail}\n(kernel ${p.kernel} does not fail on its own)`);
  }
  return lines.join("\n");
}

describe.skipIf(process.env.GK_DIFF_REPLAY !== undefined)("random kernels: check, PTX, simulator (CI tier)", () => {
  it(`${COUNT} kernels, seed ${SEED}`, async () => {
    const t0 = performance.now();
    const limit = limiter(NVCC_AT_ONCE);
    const problems: Problem[] = [];
    const builds: Promise<void>[] = [];
    const ptx: PtxResult[] = [];
    const programs: Program[] = [];
    const ms = { generate: 0, check: 0, simulate: 0, nvcc: 0 };
    const progress = runProgress("differential (CI)", COUNT, { problems: "problems" });
    for (let start = 0; start < COUNT; start += BATCH) {
      let t = performance.now();
      const entries = Array.from({ length: Math.min(BATCH, COUNT - start) }, (_, j) => ({
        name: `k${start + j}`,
        program: sampleProgram(kernelSeed(SEED, start + j)),
      }));
      ms.generate += performance.now() - t;
      programs.push(...entries.map((e) => e.program));
      t = performance.now();
      let batch = printBatch(entries);
      let checked = checkBatch(batch);
      if (!checked.ir) {
        // Report the kernels with diagnostics, and go on with the others.
        problems.push(...checked.problems);
        const bad = new Set(checked.problems.map((p) => p.kernel));
        batch = printBatch(entries.filter((e) => !bad.has(e.name)));
        checked = checkBatch(batch);
        problems.push(...checked.problems);
      }
      ms.check += performance.now() - t;
      const done = checked; // a const, for the callback below
      if (!done.ir) continue;
      const name = `b${start / BATCH}`;
      builds.push(
        limit(() => buildPtx(done.ir!, done.sources, { dir, name })).then((r: PtxResult) => {
          ms.nvcc += r.ms;
          ptx.push(r);
          problems.push(...nvccProblems(batch, r));
        }),
      );
      t = performance.now();
      for (const k of batch.kernels) problems.push(...simulateBoth(done, k));
      ms.simulate += performance.now() - t;
      progress.step(Math.min(start + BATCH, COUNT), problems.length);
    }
    await Promise.all(builds);
    const s = (performance.now() - t0) / 1000;
    const parts = Object.entries(ms).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ");
    console.log(genericUse(programs));
    console.log(`differential (CI): ${COUNT} kernels checked, built to PTX and simulated in ${s.toFixed(1)} s (${(COUNT / s).toFixed(0)} kernels/s; ${parts}; nvcc ${NVCC_AT_ONCE} at a time)`);
    if (problems.length) expect.fail(await explain(problems));
    // The generated CUDA compiles without a warning too: a user would see each one as GK7005.
    const warnings = [...nvccWarnings(ptx)].map(([text, n]) => `${n} x ${text}`);
    expect(warnings, `nvcc warnings:\n${warnings.join("\n")}`).toEqual([]);
  });
});

describe.skipIf(process.env.GK_DIFF_REPLAY === undefined)("replay one random kernel", () => {
  it(`the kernel drawn from seed ${process.env.GK_DIFF_REPLAY}`, async () => {
    const k = generatedKernel(sampleProgram(Number(process.env.GK_DIFF_REPLAY)), "k");
    console.log(`${k.source}\nlaunch: grid(${k.grid.join(", ")}) block(${k.block.join(", ")})`);
    expect(await kernelProblems(k, dir)).toEqual([]);
  });
});

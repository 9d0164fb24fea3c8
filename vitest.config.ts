import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A time limit is a statement about the machine's speed, and on a loaded 2-core machine
    // the CPU-heavy tests (the generator's coverage, the fuzzers, nvcc batches) run several
    // times slower than on an idle one: so the limit on a test or hook is a bound for a hang
    // only, 20 minutes, far above what any test takes on a loaded machine (the slowest take
    // about a minute there), so that a hang fails its test instead of running into CI's limit
    // on the whole job. GK_FUZZ_RUNS (test/helpers.ts) and GK_DIFF_CI_KERNELS
    // (test/differential/random.test.ts) size the long property runs.
    testTimeout: 20 * 60_000,
    hookTimeout: 20 * 60_000,
    // The random kernel generator, the simulator and the checker allocate many short-lived
    // objects: a larger young generation halves the time the workers spend collecting them
    // (test/differential/coverage.test.ts: 34 CPU s with Node's default, 18 with this).
    execArgv: ["--max-semi-space-size=32"],
    reporters: ["default"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/gpu/**"] } },
      // GPU tests skip themselves with a one-line reason where no GPU is present. Where there
      // is one, their files run one at a time: a kernel that faults or spins on purpose in one
      // file (launcher.test.ts) must not stall another file's launches on the same GPU.
      { extends: true, test: { name: "gpu", include: ["test/gpu/**/*.test.ts"], fileParallelism: false } },
      // examples/ts is a TypeScript project of its own, with gk/vite in its vitest.config.ts.
      "examples/ts",
    ],
  },
});

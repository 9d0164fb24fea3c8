import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
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

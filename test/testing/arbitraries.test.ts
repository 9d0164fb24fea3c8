/**
 * fast-check is an optional peer dependency: gk and gk/testing load without it, and only
 * the random kernels (arbKernel, arbProgram) need it, saying so in one line where it is
 * missing. Without it is tried on the built package (dist/, built by `npm test`'s pretest)
 * in a Node process where fast-check cannot be resolved (fixtures/without-fast-check.mjs).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbKernel, arbProgram } from "../../src/testing/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WITHOUT = fileURLToPath(new URL("fixtures/without-fast-check.mjs", import.meta.url));

describe("gk/testing's random kernels", () => {
  it("are fast-check arbitraries where fast-check is installed", () => {
    const [k] = fc.sample(arbKernel({ name: "rnd" }), { numRuns: 1, seed: 7 });
    expect(k!.source).toContain("device_kernel rnd(");
    expect(fc.sample(arbProgram(), { numRuns: 1, seed: 7 })).toHaveLength(1);
  });

  it("are the only part of gk and gk/testing that needs fast-check, and say so in one line without it", () => {
    const script = `
      const fcMissing = await import("fast-check").then(() => false, (e) => e.code === "ERR_MODULE_NOT_FOUND");
      const gk = await import("./dist/index.js");
      const testing = await import("./dist/testing/index.js");
      const errors = ["arbKernel", "arbProgram"].map((f) => { try { testing[f](); return "no error"; } catch (e) { return e.message; } });
      console.log(JSON.stringify({ fcMissing, gk: typeof gk.compile, expect: typeof testing.expectSameOnCpuAndGpu, print: typeof testing.printProgram, errors }));
    `;
    const r = spawnSync(process.execPath, ["--import", WITHOUT, "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      fcMissing: true,
      gk: "function",
      expect: "function",
      print: "function",
      errors: ["arbKernel", "arbProgram"].map(
        (f) => `gk/testing: ${f} needs fast-check, which is not installed (an optional peer dependency of gk, for property tests): npm install --save-dev fast-check`,
      ),
    });
  });
});

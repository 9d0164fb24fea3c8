/**
 * examples/ts, the TypeScript project (strict, noUncheckedIndexedAccess): TypeScript accepts
 * it; its fixture with three mistakes gets exactly those three errors at their lines; built
 * by tsc with source maps, it runs under Node 20 with gk/register (kernel() finds its source
 * through the maps), and a second run reads the lowered kernels from the cache without
 * loading TypeScript. Its vitest test runs as a project of vitest.config.ts.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFile } from "../../src/cli/commands/check.js";

const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
const ROOT = resolve("examples/ts");

function project(config: string) {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, config), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
  if (!parsed) throw new Error(`cannot read ${config}`);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

const where = (d: import("typescript").Diagnostic) => `${d.file ? `${d.file.fileName.slice(ROOT.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}` : "?"} TS${d.code}`;

describe("examples/*.ts, the examples written in TypeScript", () => {
  it("type-check, strict (examples/tsconfig.json)", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(resolve("examples/tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
    expect(parsed.fileNames.length).toBeGreaterThanOrEqual(7);
    expect(ts.getPreEmitDiagnostics(ts.createProgram(parsed.fileNames, parsed.options)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))).toEqual([]);
  });
});

describe("examples/ts", () => {
  it("type-checks under its strict tsconfig", () => {
    expect(ts.getPreEmitDiagnostics(project("tsconfig.json")).map(where)).toEqual([]);
  });

  it("its fixture fails with exactly three errors: a misspelled kernel, a wrong argument type, a wrong element type", () => {
    expect(ts.getPreEmitDiagnostics(project("tsconfig.fixtures.json")).map(where)).toEqual([
      "fixtures/wrong.ts:3 TS2724", // '"../src/kernels/scale.gk"' has no exported member named 'scael'. Did you mean 'scale'?
      "fixtures/wrong.ts:8 TS2322", // a: "2": Type 'string' is not assignable to type 'number'.
      "fixtures/wrong.ts:9 TS2322", // x: Float64Array for readonly global<f32>
    ]);
  });

  it("its committed declaration is up to date", () => {
    expect(checkFile("examples/ts/src/kernels/scale.gk").diagnostics).toEqual([]);
  });

  describe("built by tsc and run by Node 20", () => {
    let cache: string;
    beforeAll(() => {
      cache = mkdtempSync(join(tmpdir(), "gk-example-ts-"));
      rmSync(join(ROOT, "build"), { recursive: true, force: true });
      const emitted = project("tsconfig.build.json").emit();
      expect(emitted.diagnostics).toEqual([]);
      copyFileSync(join(ROOT, "src/kernels/scale.gk"), join(ROOT, "build/kernels/scale.gk"));
    });
    afterAll(() => rmSync(cache, { recursive: true, force: true }));

    const run = () =>
      spawnSync(process.execPath, ["--import", resolve("test/examples/fixtures/report-typescript.mjs"), "--import", "gk/register", join(ROOT, "build/main.js")], {
        encoding: "utf8",
        env: { ...process.env, GK_DEVICE: "cpu", GK_CACHE_DIR: cache },
      });

    it("finds the TypeScript kernel's source through tsc's source map, and runs both kernels", () => {
      expect(readFileSync(join(ROOT, "build/kernels/blur.js"), "utf8")).toContain("sourceMappingURL=blur.js.map");
      const r = run();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.split("\n").filter(Boolean)).toEqual(["device: cpu", "y = 1, 3, 5, 7, 9, 11, 13, 15", "blurred = 1.25, 3, 5, 7, 9, 11, 13, 10.75"]);
      expect(r.stderr).toMatch(/typescript-loaded: \[".*ts-morph/);
    });

    it("a second run reads the lowered kernel from the cache, and never loads TypeScript", () => {
      const r = run();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr.trim()).toBe("typescript-loaded: []");
    });
  });
});

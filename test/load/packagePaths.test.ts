// Package paths (src/load/packagePaths.ts): `gk/std/NAME` names stdlib/NAME.gk from .gk files and TypeScript kernels alike.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { resolvePackagePath, stdlibDir, stdlibModules } from "../../src/load/packagePaths.js";
import { checkSource, diagnosticLines, expectError } from "../helpers.js";
import { checkTs, GK_IMPORTS, lines } from "../tsfront/helpers.js";

describe("gk/std package paths", () => {
  it("find the package's stdlib folder and its modules", () => {
    expect(stdlibDir()).toBe(path.resolve(import.meta.dirname, "../../stdlib"));
    expect(stdlibModules()).toContain("reduce");
    expect(resolvePackagePath("gk/std/reduce")).toEqual({ file: path.join(stdlibDir(), "reduce.gk") });
    expect(resolvePackagePath("gk/std/reduce.gk")).toEqual({ file: path.join(stdlibDir(), "reduce.gk") });
  });

  it("ship with the package (package.json files)", () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("stdlib");
  });

  it("refuse names that are not modules, folders and parent paths", () => {
    for (const bad of ["gk/std/nope", "gk/std/../package", "gk/std/sub/reduce", "gk/std/", "gk/std/Reduce"]) {
      const r = resolvePackagePath(bad);
      expect("error" in r && r.error).toMatch(new RegExp(`^there is no standard-library module '${bad.replace(/[.]/g, "\\.")}': the modules are gk/std/`));
    }
  });

  it("resolve from a .gk file, whatever the host holds", () => {
    const r = checkSource(`import { combine, SUM } from "gk/std/ops";\ndevice_kernel k(out: global<f32>) { out[0] = combine<f32, SUM>(out[0], 1.0); }\n`);
    expect(diagnosticLines(r)).toEqual([]);
    expect(r.ir!.functions.some((f) => f.name.startsWith("combine"))).toBe(true);
  });

  it("report a missing module as GK6001 at the path, and a bare path as GK6004", () => {
    expectError(`import { x } from "gk/std/nope";\n`, "GK6001 1:19 cannot import 'gk/std/nope': there is no standard-library module 'gk/std/nope': the modules are gk/std/");
    expectError(`import { x } from "std/reduce";\n`, `GK6004 1:19 import paths are relative to the importing file (write "./std/reduce") or name a standard-library module`);
  });

  it("resolve from a TypeScript kernel file", () => {
    const r = checkTs(`${GK_IMPORTS}\nimport { warpSum } from "gk/std/reduce";\nexport const k = kernel((out: Global<f32>) => { out[threadIdx.x] = warpSum(out[threadIdx.x]); });\n`);
    expect(lines(r).filter((l) => !l.startsWith("GK4006"))).toEqual([]);
  });
});

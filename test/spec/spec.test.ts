/**
 * The spec's programs: every spec/errors/*.gk yields exactly the diagnostics in its
 * .expected file (what `gkc check` prints; for a GK8xxx program, the error its launches stop
 * with on the simulator, race checking on, as `gkc run --device cpu --check-races` prints it),
 * and every spec/ok/*.gk checks cleanly.
 * They are vitest file snapshots: `npx vitest run test/spec -u` rewrites the .expected files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { catalog } from "../../src/diagnostics/catalog.js";
import { formatDiagnostics } from "../../src/diagnostics/format.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { checkFile } from "../../src/cli/commands/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { SourceMap } from "../../src/diagnostics/source.js";
import { simulateLaunch } from "../../src/runtime/sim/launch.js";
import { SimError } from "../../src/runtime/sim/index.js";

const errorsDir = "spec/errors";
const okDir = "spec/ok";
// .gk programs, and TypeScript ones for what only TypeScript kernels can get wrong (not the declarations x.d.gk.ts).
const errorFiles = readdirSync(errorsDir).filter((f) => (f.endsWith(".gk") || f.endsWith(".ts")) && !f.endsWith(".d.gk.ts")).sort();

describe("spec/errors", () => {
  for (const f of errorFiles) {
    it(f, async () => {
      const path = join(errorsDir, f);
      const r = f.startsWith("GK8") ? runFile(path) : checkFile(path);
      const text = formatDiagnostics(r.diagnostics, r.sources) + "\n";
      await expect(text).toMatchFileSnapshot(resolve(path.replace(/\.(gk|ts)$/, ".expected")));
      const code = f.slice(0, 6);
      expect(r.diagnostics.map((d) => d.code), "the file's first diagnostic is the code it is named after").toContain(code);
      expect(r.diagnostics[0]?.code).toBe(code);
    });
  }

  it("has a program for every code a program can produce", () => {
    const covered = new Set(errorFiles.map((f) => f.slice(0, 6)));
    const producible = Object.keys(catalog).filter((c) => /^GK[1-6]/.test(c));
    expect(producible.filter((c) => !covered.has(c))).toEqual([]);
  });
});

/** A GK8xxx program: checked, then its launches run on the simulator until one fails. */
function runFile(path: string): { diagnostics: Diagnostic[]; sources: SourceMap } {
  const r = frontEnd(path);
  if (!r.ir || r.diagnostics.length) return r;
  try {
    for (const l of r.ir.launches) simulateLaunch(r.ir, l, r.sources, { checkRaces: true });
  } catch (e) {
    if (e instanceof SimError) return { diagnostics: [e.diagnostic], sources: r.sources };
    throw e;
  }
  return { diagnostics: [], sources: r.sources };
}

describe("spec/ok", () => {
  const files = readdirSync(okDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".gk")).sort();
  for (const f of files) {
    it(f, () => {
      const r = frontEnd(join(okDir, f));
      expect(formatDiagnostics(r.diagnostics, r.sources)).toBe("");
      expect(r.ir).toBeDefined();
    });
  }
});

describe("examples", () => {
  for (const f of readdirSync("examples").filter((x) => x.endsWith(".gk"))) {
    it(`${f} checks cleanly`, () => {
      const r = frontEnd(join("examples", f));
      expect(formatDiagnostics(r.diagnostics, r.sources)).toBe("");
    });
  }
});

describe("language.md's rule for shift counts", () => {
  const spec = readFileSync("spec/language.md", "utf8");
  const start = spec.indexOf("- **Shifts**");
  const rule = spec.slice(start, spec.indexOf("\n- **", start + 1));
  const check = (body: string) =>
    frontEnd("shift.gk", { host: memoryHost({ "shift.gk": `device_kernel k(out: global<i32>) {\n  let x = out[0];\n  ${body}\n}\n` }) }).diagnostics.map((d) => d.code);

  it("is the checker's: a constant count outside 0..width-1 is GK3006, a computed one is taken modulo the width", () => {
    expect(check("out[0] = x << 33;")).toEqual(["GK3006"]);
    expect(check("let s = 33;\n  out[0] = x << s;")).toEqual([]);
    expect(check("out[0] = x << i32(33);")).toEqual([]);
    expect(check("out[0] = x << (30 + 3);")).toEqual(["GK3006"]);
    expect(rule).toMatch(/constant count[^.]*GK3006/);
    expect(rule).not.toMatch(/`x << 33` on i32 is\s+`x << 1`/);
  });
});

/**
 * The library bundle (scripts/bundle-lib.mjs, dist/lib/): what `import "gk"` and its other
 * entry points load, as a user's program gets them through package.json's "exports", and
 * source maps that show gk's TypeScript without a src/ folder. bench/startup.mjs measures
 * the time itself.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TRACER = fileURLToPath(new URL("../cli/fixtures/trace-imports.mjs", import.meta.url));
const LIB = join(ROOT, "dist", "lib");
const dir = mkdtempSync(join(tmpdir(), "gk-bundle-lib-"));
let runs = 0;

beforeAll(() => {
  if (!existsSync(join(LIB, "index.js"))) throw new Error(`${LIB} is missing: run \`npm run build\` (it bundles the library)`);
  // A project that depends on gk, as an installed package would be found.
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "gk"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "bundle-lib-test", private: true, type: "module" }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The files a program that runs `code` loads, relative to the repository (or `node:` names). */
function loads(code: string): string[] {
  const trace = join(dir, `trace-${runs++}.txt`);
  const r = spawnSync(process.execPath, ["--import", TRACER, "--input-type=module", "-e", code], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, GK_TRACE_IMPORTS: trace, GK_CACHE_DIR: join(dir, "cache"), GK_DEVICE: "cpu" },
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return readFileSync(trace, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"))
    .map((u) => relative(ROOT, fileURLToPath(u)))
    .filter((f) => f !== relative(ROOT, TRACER) && !f.startsWith(".."));
}

describe("the library bundle", () => {
  it("import 'gk' reads a few chunks of dist/lib: no chevrotain or lodash-es from node_modules, no TypeScript", () => {
    const files = loads("await import('gk')");
    expect(files.filter((f) => !f.startsWith("dist/lib/"))).toEqual([]);
    // A bound, not a target: unbundled, `import "gk"` opened about 840 modules.
    expect(files.length).toBeLessThan(40);
  });

  it("every entry point of package.json's exports loads from dist/lib, and `gk` and `gk/modules` share their state", () => {
    const files = loads(`
const gk = await import("gk");
await import("gk/testing");
await import("gk/vite");
const { loadGkModule } = await import("gk/modules");
gk.configure({ device: "cpu" });
const m = await loadGkModule("/k.gk", { "/k.gk": "device_kernel k(out: global<f32>) { out[0] = 1.0; }" }, "");
if (!(m instanceof gk.GkModule) || m.device !== "cpu") throw new Error("not one runtime");
`);
    // gk/testing loads its random kernels' generator where fast-check (an optional peer
    // dependency, with its pure-rand) is installed, as here: those are the only files from outside.
    const optionalPeer = /^node_modules\/(fast-check|pure-rand)\//;
    expect(files.filter((f) => !f.startsWith("dist/lib/") && !optionalPeer.test(f))).toEqual([]);
  });

  it("source maps carry gk's TypeScript (the package has no src/), and name bundled dependencies only", () => {
    const maps = (readdirSync(LIB, { recursive: true }) as string[]).filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(5);
    for (const m of maps) {
      const map = JSON.parse(readFileSync(join(LIB, m), "utf8")) as { sources: string[]; sourcesContent: (string | null)[] };
      map.sources.forEach((s, i) => {
        if (s.includes("node_modules/")) expect(map.sourcesContent[i]).toBeNull();
        else {
          // gk's own source (a src/ file as the build read it; it may have been edited since).
          expect(s, m).toMatch(/^(\.\.\/)+src\/.*\.ts$/);
          expect(existsSync(join(LIB, m, "..", s)), `${m}: ${s}`).toBe(true);
          expect(map.sourcesContent[i]?.length, `${m}: ${s}`).toBeGreaterThan(0);
        }
      });
    }
  });
});

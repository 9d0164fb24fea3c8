/**
 * Paths that a shell would read as code: `$(…)`, backticks, quotes, spaces and newlines in the
 * cache folder (GK_CACHE_DIR), the `.gk` source's path, `gkc build --out` and TMPDIR (where
 * nvcc puts its own temporary files). nvcc runs its
 * stages through `sh -c` with file names in the command line, so none of these may reach it.
 * Each path carries a `touch` of a marker file: the marker must never appear.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { getOrBuild } from "../../../src/build/cache.js";
import { SAXPY } from "../fixtures/sources.js";

// Made when the file loads: the test names below are built from it.
const work = mkdtempSync(path.join(tmpdir(), "gk-cache-paths-"));
const gkc = fileURLToPath(new URL("../../../bin/gkc.js", import.meta.url));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Folder names that run `touch <marker>` if a shell reads them, and plain awkward ones. */
function hostileNames(tag: string): { name: string; marker: string }[] {
  const m = (i: number) => path.join(work, `pwned-${tag}-${i}`);
  return [
    { name: `c$(touch ${m(1)})d`, marker: m(1) },
    { name: `e\`touch ${m(2)}\`f`, marker: m(2) },
    { name: `g"$(touch ${m(3)})"h`, marker: m(3) },
    { name: `i'$(touch ${m(4)})'j`, marker: m(4) },
    { name: `k l\nm;touch ${m(5)};n`, marker: m(5) },
  ];
}

function markersMade(tag: string): string[] {
  return readdirSync(work).filter((n) => n.startsWith(`pwned-${tag}-`));
}

describe("a cache folder with shell characters in its path", () => {
  for (const [i, { name }] of hostileNames("root").entries()) {
    const tag = `root-${i}`;
    it(`builds in ${JSON.stringify(name)} and runs nothing that the path spells`, async () => {
      const root = path.join(work, tag, name.replaceAll("pwned-root-", `pwned-${tag}-`));
      const r = await getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, onWarning: (d) => expect.fail(d.message) });
      expect(r.hit).toBe(false);
      expect(r.entry.dir.startsWith(root + path.sep)).toBe(true);
      expect(readFileSync(r.entry.ptx, "utf8")).toMatch(/\.entry saxpy\(/);
      expect(markersMade(tag)).toEqual([]);
      const again = await getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root });
      expect(again.hit).toBe(true);
    });
  }
});

describe("gkc build with shell characters in GK_CACHE_DIR, the source path, --out and TMPDIR", () => {
  it("builds, copies the results into --out, and runs nothing that the paths spell", async () => {
    const [cacheName, srcName, outName, tmpName] = hostileNames("cli").map((h) => h.name);
    const tmp = path.join(work, "tmp", tmpName!);
    mkdirSync(tmp, { recursive: true });
    const srcDir = path.join(work, "src", srcName!);
    mkdirSync(srcDir, { recursive: true });
    const src = path.join(srcDir, `k "q" 'r' $(true) \`true\`.gk`);
    writeFileSync(src, "device_kernel twice(n: i32, x: global<f32>) {\n  const i = globalId.x;\n  if (i < n) { x[i] = 2.0 * x[i]; }\n}\n");
    const out = path.join(work, "out", outName!);
    const r = await execa(process.execPath, [gkc, "build", src, "--arch", "sm_90", "--out", out], {
      env: { GK_CACHE_DIR: path.join(work, "cache", cacheName!), TMPDIR: tmp },
      reject: false,
    });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.exitCode, r.stderr).toBe(0);
    const base = path.basename(src, ".gk");
    expect(r.stdout.split("\n")).toEqual(["cu", "ptx", "cubin"].map((ext) => path.join(out, `${base}.${ext}`)));
    expect(readFileSync(path.join(out, `${base}.ptx`), "utf8")).toMatch(/\.entry twice\(/);
    expect(existsSync(path.join(out, `${base}.cubin`))).toBe(true);
    expect(markersMade("cli")).toEqual([]);
  });
});

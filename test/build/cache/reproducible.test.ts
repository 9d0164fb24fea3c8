/**
 * A build is reproducible for its key: building the same key again (after the entry was
 * cleared) gives the same `.ptx` and `.cubin`, byte for byte, although every build runs in a
 * folder of its own. nvcc writes folder names into the line info of both, so the folders that
 * it sees must not depend on the build.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clearCache, getOrBuild } from "../../../src/build/cache.js";
import { LINED } from "../fixtures/sources.js";

const work = mkdtempSync(path.join(tmpdir(), "gk-cache-repro-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function buildBytes(root: string): Promise<{ ptx: string; cubin: string; key: string }> {
  const r = await getOrBuild({ source: LINED, arch: "sm_90", kernels: ["lined"], root, onWarning: (d) => expect.fail(d.message) });
  expect(r.hit).toBe(false);
  return { ptx: readFileSync(r.entry.ptx, "utf8"), cubin: readFileSync(r.entry.cubin).toString("hex"), key: r.entry.key };
}

describe("rebuilding a key", () => {
  for (const [what, name] of [["a plain cache folder", "plain"], ["a cache folder with shell characters", "c $(x) 'q'"]] as const) {
    it(`gives the same PTX and cubin, byte for byte, in ${what}`, async () => {
      const root = path.join(work, name);
      const first = await buildBytes(root);
      expect((await clearCache(root)).entries).toBe(1);
      const second = await buildBytes(root);
      expect(second.key).toBe(first.key);
      expect(second.ptx).toBe(first.ptx);
      expect(second.cubin).toBe(first.cubin);
      // The line info names the .gk files of the #line directives.
      expect(first.ptx).toMatch(/\.file\s+\d+ "[^"]*examples\/lined\.gk"/);
      expect(first.ptx).toMatch(/\.file\s+\d+ "\/abs\/lib\/more\.gk"/);
    });
  }
});

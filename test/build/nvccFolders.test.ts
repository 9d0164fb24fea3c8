/** Which paths nvcc may see: plain ones only (nvcc hands them to `sh -c`). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPlainName, isPlainPath, plainRealPath } from "../../src/build/nvccFolders.js";

const work = mkdtempSync(path.join(tmpdir(), "gk-nvcc-folders-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("plain paths", () => {
  it("accepts absolute paths of letters, digits and _ . + - / only", () => {
    for (const p of ["/tmp", "/home/u/.cache/gk/v1/tmp/ab12.3456.host-1.f00", "/a_b/c+d/e-f.g"]) expect(isPlainPath(p), p).toBe(true);
    for (const p of ["tmp", "", "/a b", "/a$(x)", "/a`x`", "/a'b", '/a"b', "/a\nb", "/a;b", "/a\\b", "/a*b", "/é", "/a:b", "/a=b", "/a~b"]) {
      expect(isPlainPath(p), JSON.stringify(p)).toBe(false);
    }
  });

  it("accepts plain file names that cannot be read as options", () => {
    for (const n of ["kernel", "k.2", "saxpy_f32", "+x"]) expect(isPlainName(n), n).toBe(true);
    for (const n of ["", "-o", ".hidden", "a/b", "a b", "a$b"]) expect(isPlainName(n), n).toBe(false);
  });

  it("judges a folder by its real path, as nvcc sees it", async () => {
    const hostile = path.join(work, "x$(touch y)z");
    mkdirSync(hostile);
    const plainLink = path.join(work, "plain-link");
    symlinkSync(hostile, plainLink);
    expect(await plainRealPath(plainLink)).toBeUndefined();
    const plain = path.join(work, "plain");
    mkdirSync(plain);
    const hostileLink = path.join(work, "a b");
    symlinkSync(plain, hostileLink);
    expect(await plainRealPath(hostileLink)).toBe(await plainRealPath(plain));
  });
});

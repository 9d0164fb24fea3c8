/**
 * The checked reader of src/regularFile.ts, sync and async alike: a regular file is read
 * whole; a FIFO, a device, a folder, a missing file, a symlink (when links are not followed) and
 * a file over the limit are refused in words, at once and without reading them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readProblem, readRegularFile, readRegularFileSync, type ReadRules, type RegularRead } from "../src/regularFile.js";

const work = mkdtempSync(path.join(tmpdir(), "gk-regular-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const at = (name: string) => path.join(work, name);
writeFileSync(at("small"), "twelve bytes");
writeFileSync(at("sparse"), "");
truncateSync(at("sparse"), 3 * 2 ** 30);
spawnSync("mkfifo", [at("fifo")]);
symlinkSync("/dev/zero", at("zero"));
symlinkSync("small", at("link"));
symlinkSync("loop", at("loop"));
mkdirSync(at("folder"));

/** Both readers, which must agree. */
async function read(name: string, rules: ReadRules): Promise<RegularRead> {
  const sync = readRegularFileSync(at(name), rules);
  expect(await readRegularFile(at(name), rules)).toEqual(sync);
  return sync;
}

const text = (r: RegularRead) => (r.kind === "ok" ? r.data.toString() : r.kind === "error" ? r.error : `too large: ${r.bytes}`);

describe("readRegularFile", () => {
  it("reads a regular file whole, and a link to one when links are followed", async () => {
    expect(text(await read("small", { maxBytes: 12 }))).toBe("twelve bytes");
    expect(text(await read("link", { maxBytes: 100 }))).toBe("twelve bytes");
  });

  it.each([
    ["fifo", "it is a FIFO (a named pipe), not a regular file"],
    ["zero", "it is a character device, not a regular file"],
    ["folder", "it is a directory"],
    ["missing", "no such file"],
    ["loop", "too many levels of symlinks (a symlink loop?)"],
  ])("refuses %s: %s", async (name, why) => {
    expect(text(await read(name, { maxBytes: 100 }))).toBe(why);
  });

  it("refuses a symlink of any kind when links are not followed", async () => {
    for (const name of ["link", "zero", "loop"]) expect(text(await read(name, { maxBytes: 100, followLinks: false })), name).toBe("it is a symlink");
  });

  it("refuses a file over the limit by its size, without reading it", async () => {
    expect(await read("small", { maxBytes: 11 })).toEqual({ kind: "tooLarge", bytes: 12 });
    expect(await read("sparse", { maxBytes: 2 ** 20 })).toEqual({ kind: "tooLarge", bytes: 3 * 2 ** 30 });
    const over = await read("small", { maxBytes: 11 });
    expect(over.kind === "tooLarge" && readProblem(over, 11)).toBe("it is 12 bytes (at most 11)");
  });

  it("says missing only for a path where nothing is", async () => {
    const missing = await read("missing", { maxBytes: 1 });
    expect(missing).toMatchObject({ kind: "error", missing: true, code: "ENOENT" });
    expect(await read("fifo", { maxBytes: 1 })).toMatchObject({ kind: "error", missing: false });
  });
});

/**
 * `gkc types`: declarations written beside .gk files (folders searched, node_modules and
 * hidden folders skipped), rewritten only when they change, none for a file with errors;
 * `--watch` writes them again when a file changes, in folders made while it watches too.
 * Real gkc processes; the names fuzzer (test/names.ts) runs gkc in-process.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { quotePath } from "../../src/load/sourceFiles.js";
import { hostileNames } from "../names.js";

const GKC = resolve("bin/gkc.js");
let dir: string;

function gkc(...args: string[]) {
  return spawnSync(process.execPath, [GKC, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, GK_CACHE_DIR: join(dir, ".cache") } });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gk-types-"));
  mkdirSync(join(dir, "kernels", "deep"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
  mkdirSync(join(dir, ".hidden"), { recursive: true });
  writeFileSync(join(dir, "kernels", "a.gk"), "device_kernel a(out: global<f32>) {\n  out[0] = 1.0;\n}\n");
  writeFileSync(join(dir, "kernels", "deep", "b.gk"), "const N = 2;\ndevice_kernel b(out: global<i32>) {\n  out[0] = N;\n}\n");
  writeFileSync(join(dir, "node_modules", "x", "c.gk"), "device_kernel c(out: global<f32>) {}\n");
  writeFileSync(join(dir, ".hidden", "d.gk"), "device_kernel d(out: global<f32>) {}\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("gkc types", () => {
  it("writes a declaration beside every .gk file under a folder, and says which", () => {
    const r = gkc("types", "kernels");
    expect(r.status).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean).sort()).toEqual(["wrote 'kernels/a.d.gk.ts'", "wrote 'kernels/deep/b.d.gk.ts'"]);
    expect(readFileSync(join(dir, "kernels", "deep", "b.d.gk.ts"), "utf8")).toContain("export { k0 as b, c0 as N };");
    expect(existsSync(join(dir, "node_modules", "x", "c.d.gk.ts"))).toBe(false);
    expect(existsSync(join(dir, ".hidden", "d.d.gk.ts"))).toBe(false);
  });

  it("leaves an up-to-date declaration alone (no argument: the current folder)", () => {
    const before = statSync(join(dir, "kernels", "a.d.gk.ts")).mtimeMs;
    const r = gkc("types");
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(statSync(join(dir, "kernels", "a.d.gk.ts")).mtimeMs).toBe(before);
  });

  it("writes none for a file with errors, prints its diagnostics and exits 1", () => {
    writeFileSync(join(dir, "bad.gk"), "device_kernel bad(out: global<f32>) {\n  out[0] = q;\n}\n");
    const r = gkc("types", "bad.gk");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("bad.gk:2:12 - error GK2001: unknown name 'q'");
    expect(existsSync(join(dir, "bad.d.gk.ts"))).toBe(false);
    rmSync(join(dir, "bad.gk"));
  });

  it("refuses what is not a .gk file or a folder", () => {
    writeFileSync(join(dir, "notes.txt"), "x");
    expect(gkc("types", "notes.txt").stderr).toContain("'notes.txt': not a .gk file or a folder");
    expect(gkc("types", "missing").stderr).toContain("'missing': no such file or folder");
  });

  it("--watch writes the declaration again when a .gk file changes", async () => {
    const child = spawn(process.execPath, [GKC, "types", "kernels", "--watch"], { cwd: dir, env: { ...process.env, GK_CACHE_DIR: join(dir, ".cache") } });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    try {
      const until = async (what: () => boolean) => {
        for (let i = 0; i < 2400 && !what(); i++) await new Promise((r) => setTimeout(r, 50)); // up to 2 min: a bound for a hang
        expect(what(), err).toBe(true);
      };
      await until(() => err.includes("watching"));
      writeFileSync(join(dir, "kernels", "a.gk"), "device_kernel a(out: global<f64>, n: i32) {\n  out[0] = 1.0;\n}\n");
      await until(() => readFileSync(join(dir, "kernels", "a.d.gk.ts"), "utf8").includes("readonly n: number;"));
      expect(readFileSync(join(dir, "kernels", "a.d.gk.ts"), "utf8")).toContain("A0 extends Float64Array | GpuArray<\"f64\">");
      // A folder made while watching is watched too, and its files get declarations.
      mkdirSync(join(dir, "kernels", "later"));
      writeFileSync(join(dir, "kernels", "later", "c.gk"), "device_kernel c(out: global<u8>) {\n  out[0] = 1;\n}\n");
      await until(() => existsSync(join(dir, "kernels", "later", "c.d.gk.ts")));
      writeFileSync(join(dir, "kernels", "later", "c.gk"), "device_kernel c(out: global<f16>) {\n  out[0] = 1.0;\n}\n");
      await until(() => readFileSync(join(dir, "kernels", "later", "c.d.gk.ts"), "utf8").includes("A0 extends Uint16Array | GpuArray<\"f16\">"));
    } finally {
      child.kill();
    }
  });
});

describe("gkc types and hostile file and folder names", () => {
  it("writes a declaration for each, and prints each path quoted, with no control character of the name", async () => {
    const names = hostileNames(60);
    const top = join(dir, "names");
    const decls: string[] = [];
    names.forEach((name, i) => {
      const folder = join(top, String(i), name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${name.split("/").pop()}.gk`), "device_kernel k(o: global<f32>) {\n  o[0] = 1.0;\n}\n");
      decls.push(join(folder, `${name.split("/").pop()}.d.gk.ts`));
    });
    let err = "";
    const io: Io = { out: () => undefined, err: (t) => (err += `${t}\n`), color: false, cwd: top, env: process.env };
    expect(await main(["types", "."], io)).toBe(0);
    // No character that moves the cursor or reaches the terminal as a command; one line per declaration.
    const control = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const raw = decls.filter((d) => control.test(relative(top, d)) && err.includes(relative(top, d)));
    expect(raw.length, `${raw.length} of ${names.length} names printed raw`).toBe(0);
    expect(err).not.toMatch(control);
    const lines = err.split("\n").slice(0, -1);
    expect(lines.length).toBe(names.length);
    for (const d of decls) expect(lines).toContain(`wrote ${quotePath(relative(top, d))}`);
  });
});

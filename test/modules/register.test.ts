/**
 * `node --import gk/register`: real Node processes importing .gk files (Node's module hooks,
 * no mocks). The module has compile()'s shape; a file with errors fails the import with its
 * diagnostics and no stack of gk's; a stale declaration is a warning; the program ends
 * without close(). It runs the package's own entry points, the library bundle in dist/lib/
 * (scripts/bundle-lib.mjs), whose loader thread keeps each module's code by content.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REGISTER = resolve("dist/lib/modules/register.js");
const GK = resolve("dist/lib/index.js");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gk-register-"));
  copyFileSync("examples/saxpy.gk", join(dir, "saxpy.gk"));
  writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 3.0;\nexport device_fn scaled(v: f32): f32 { return v * SCALE; }\n");
  writeFileSync(join(dir, "main.gk"), 'import { scaled, SCALE } from "./lib.gk";\nconst N = 4;\nconst TAPS: i32[2] = [7, 8];\ndevice_kernel apply(n: i32, x: global<f32>) {\n  if (globalId.x < n) { x[globalId.x] = scaled(x[globalId.x]); }\n}\n');
  writeFileSync(join(dir, "bad.gk"), "device_kernel k(out: global<f32>) {\n  out[0] = 1.0;\n  out[1] = q;\n}\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(script: string, env: Record<string, string> = {}) {
  writeFileSync(join(dir, "app.mjs"), script);
  return spawnSync(process.execPath, ["--import", REGISTER, join(dir, "app.mjs")], {
    cwd: dir,
    encoding: "utf8",
    timeout: 600_000,
    env: { ...process.env, GK_DEVICE: "cpu", GK_CACHE_DIR: join(dir, "cache"), ...env },
  });
}

describe("importing .gk files under gk/register", () => {
  it("gives compile()'s module as the default export, its kernels and constants as named exports", () => {
    const r = node(`
import { GkModule, compile } from ${JSON.stringify(GK)};
import * as ns from "./saxpy.gk";
import mod, { saxpy } from "./saxpy.gk";
import main, { apply, N, TAPS, SCALE } from "./main.gk";
const x = Float32Array.from([1, 2, 3, 4]);
const { out } = await saxpy({ grid: 1, block: 32 }, { n: 4, alpha: 2, x, y: new Float32Array(4).fill(1), out: new Float32Array(4) });
const y = Float32Array.from([1, 2, 3, 4]);
await apply({ grid: 1, block: 4 }, { n: N, x: y });
const compiled = await compile(${JSON.stringify(join(dir, "saxpy.gk"))}, { device: "cpu" });
console.log(JSON.stringify({
  out: [...out], y: [...y], N, TAPS: [...TAPS], SCALE, names: Object.keys(ns).sort(),
  module: mod instanceof GkModule, same: mod === ns.default, device: mod.device, kernels: mod.kernels, mainKernels: main.kernels,
  compiledKernels: compiled.kernels, members: Object.keys(mod).filter((k) => typeof mod[k] === "function"),
  compiledMembers: Object.keys(compiled).filter((k) => typeof compiled[k] === "function"),
}));
`);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      out: [3, 5, 7, 9], y: [3, 6, 9, 12], N: 4, TAPS: [7, 8], SCALE: 3, names: ["default", "saxpy"],
      module: true, same: true, device: "cpu", kernels: ["saxpy"], mainKernels: ["apply"],
      compiledKernels: ["saxpy"], members: ["saxpy"], compiledMembers: ["saxpy"],
    });
  });

  it("a file with errors fails the import with its diagnostics, and no stack of gk's", () => {
    const r = node('import "./bad.gk";\n');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`cannot import ${join(dir, "bad.gk")}: it has errors`);
    expect(r.stderr).toContain("bad.gk:3:12 - error GK2001: unknown name 'q'");
    expect(r.stderr).not.toMatch(/at gkModuleSource|hooks\.js/);
  });

  it("a .gk file that is not there fails the import naming it and the importer, and says that tsc copies no .gk files", () => {
    const r = node('import { saxpy } from "./filters.gk";\nconsole.log(saxpy);\n');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`cannot import ${join(dir, "filters.gk")} (from ${join(dir, "app.mjs")}): there is no such file.`);
    expect(r.stderr).toContain("tsc copies none (e.g. `cp src/*.gk build/` after tsc)");
    expect(r.stderr).not.toMatch(/hooks\.js/);
  });

  it("a declaration written for other content is a warning (GK6010); an up-to-date one is not", () => {
    writeFileSync(join(dir, "saxpy.d.gk.ts"), "// gk-source-hash: 1234\n");
    const stale = node('import "./saxpy.gk";\n');
    expect(stale.status).toBe(0);
    expect(stale.stderr).toMatch(/\[GK6010\] Warning: .*saxpy\.d\.gk\.ts' is out of date: it was written for other content of '.*saxpy\.gk'/);
    const types = spawnSync(process.execPath, [resolve("bin/gkc.js"), "types", join(dir, "saxpy.gk")], { encoding: "utf8" });
    expect(types.status).toBe(0);
    const fresh = node('import "./saxpy.gk";\n');
    expect(fresh.stderr).toBe("");
    rmSync(join(dir, "saxpy.d.gk.ts"));
  });

  it("a program that imports kernels and launches them ends without close()", () => {
    const r = node('import { saxpy } from "./saxpy.gk";\nawait saxpy({ grid: 1, block: 1 }, { n: 1, alpha: 1, x: [1], y: [1], out: new Float32Array(1) });\nconsole.log("done");\n', { GK_DEVICE: "auto" });
    expect(r.error).toBeUndefined();
    expect(r.stdout.trim()).toBe("done");
    expect(r.status).toBe(0);
  });

  it("a folder whose name ends a line and holds code: the name stays a name (issue 25)", () => {
    for (const name of ['x\nconsole.log("PWNED");var module={};', "x\u2028console.log('PWNED')//"]) {
      const sub = join(dir, name);
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, "*.gk"), "// */ ;//\ndevice_kernel k(o: global<f32>) { o[0] = 1.0; }\n");
      const r = node(`import m, { k } from ${JSON.stringify(pathToFileURL(join(sub, "*.gk")).href)};\nconst o = new Float32Array(1);\nawait k({ grid: 1, block: 1 }, { o });\nconsole.log(m.kernels.join(), o[0]);\n`);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("k 1\n");
    }
  });

  it("keeps a module's code by content, checked: a program imported again uses it, an edited entry or a changed import compiles again", () => {
    const cache = join(dir, "kept-cache");
    const run = () => node('import { SCALE } from "./main.gk";\nconsole.log(SCALE);\n', { GK_CACHE_DIR: cache });
    writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 3.0;\nexport device_fn scaled(v: f32): f32 { return v * SCALE; }\n");
    expect(run().stdout).toBe("3\n");
    const ts = join(cache, "v1", "ts");
    const entry = readdirSync(ts).map((f) => join(ts, f)).find((f) => f.endsWith(".module.json") && readFileSync(f, "utf8").includes("main.gk"));
    expect(entry).toBeDefined();
    const [header, ...rest] = readFileSync(entry!, "utf8").split("\n");
    const [tag, version, key] = header!.split(" ");
    const e = JSON.parse(rest.join("\n")) as { code: string };
    const marked = JSON.stringify({ ...e, code: `${e.code}console.log("kept");\n` });
    // A kept entry whose header matches its content is what a second run imports (marked here to see it).
    writeFileSync(entry!, `${tag} ${version} ${key} ${createHash("sha256").update(marked).digest("hex")}\n${marked}`);
    expect(run().stdout).toBe("kept\n3\n");
    // An entry edited after it was written (its hash no longer matches) is never run: the file is compiled again.
    writeFileSync(entry!, `${header}\n${marked}`);
    expect(run().stdout).toBe("3\n");
    expect(readFileSync(entry!, "utf8")).not.toContain('console.log("kept")');
    // An imported file that changed makes it compile again.
    writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 4.0;\nexport device_fn scaled(v: f32): f32 { return v * SCALE; }\n");
    expect(run().stdout).toBe("4\n");
    writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 3.0;\nexport device_fn scaled(v: f32): f32 { return v * SCALE; }\n");
  });

  it("GK_DEVICE must name a device", () => {
    const r = node('import "./saxpy.gk";\n', { GK_DEVICE: "tpu" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("GK8010: GK_DEVICE must be auto, cuda, cpu or webgpu, got 'tpu'");
  });
});

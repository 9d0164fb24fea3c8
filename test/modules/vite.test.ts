/**
 * gk/vite on real Vite (no mocks), in a project of its own (node_modules/gk linked to this
 * repository, as an install would put it): .gk files import as modules (compile()'s shape,
 * as under gk/register), a change to a file they import reloads them, errors fail with
 * their diagnostics, declarations are written; and a build lowers TypeScript kernels, so
 * the bundle runs with neither the TypeScript source nor the TypeScript compiler.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import gk from "../../src/modules/vite.js";

let dir: string;

beforeAll(() => {
  process.env.GK_DEVICE = "cpu";
  dir = mkdtempSync(join(tmpdir(), "gk-vite-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(resolve("."), join(dir, "node_modules", "gk"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
  writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 3.0;\n");
  writeFileSync(join(dir, "main.gk"), 'import { SCALE } from "./lib.gk";\ndevice_kernel scale(n: i32, x: global<f32>) {\n  if (globalId.x < n) { x[globalId.x] = x[globalId.x] * SCALE; }\n}\n');
  writeFileSync(join(dir, "bad.gk"), "device_kernel bad(out: global<f32>) {\n  out[0] = q;\n}\n");
  writeFileSync(
    join(dir, "blur.ts"),
    'import { f32, globalId, kernel, table, type Global, type i32, type ReadonlyGlobal } from "gk";\nconst TAPS = table(f32, [0.25, 0.5, 0.25]);\nexport const blur = kernel((n: i32, x: ReadonlyGlobal<f32>, out: Global<f32>) => {\n  const i = globalId.x;\n  if (i > 0 && i < n - 1) {\n    out[i] = TAPS[0] * x[i - 1] + TAPS[1] * x[i] + TAPS[2] * x[i + 1];\n  }\n});\n',
  );
  writeFileSync(
    join(dir, "app.ts"),
    'import { blur } from "./blur.js";\nimport { scale } from "./main.gk";\nconst x = Float32Array.from([4, 8, 4, 0]);\nawait scale({ grid: 1, block: 4 }, { n: 4, x });\nconst out = new Float32Array(4);\nawait blur({ grid: 1, block: 4 }, 4, x, out);\nconsole.log(JSON.stringify([...out]));\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("gk/vite in Vite's dev server", () => {
  let server: ViteDevServer;
  beforeAll(async () => {
    server = await createServer({ root: dir, configFile: false, logLevel: "silent", appType: "custom", plugins: [gk()], server: { middlewareMode: true, hmr: false } });
  });
  afterAll(async () => server?.close());

  it("imports a .gk file as compile()'s module, and writes its declaration", async () => {
    const m = await server.ssrLoadModule("/main.gk");
    // The constant it imports is one of its names, as in compile()'s module.
    expect(Object.keys(m).sort()).toEqual(["SCALE", "default", "scale"]);
    expect(m.default.kernels).toEqual(["scale"]);
    const x = Float32Array.from([1, 2]);
    await m.scale({ grid: 1, block: 2 }, { n: 2, x });
    expect([...x]).toEqual([3, 6]);
    expect(readFileSync(join(dir, "main.d.gk.ts"), "utf8")).toContain("export { k0 as scale, c0 as SCALE };");
  });

  it("reloads it when a file it imports changes", async () => {
    writeFileSync(join(dir, "lib.gk"), "export const SCALE: f32 = 5.0;\n");
    let x = Float32Array.from([1]);
    for (let i = 0; i < 100; i++) {
      x = Float32Array.from([1]);
      const m = await server.ssrLoadModule("/main.gk");
      await m.scale({ grid: 1, block: 1 }, { n: 1, x });
      if (x[0] === 5) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...x]).toEqual([5]);
  });

  it("a file with errors fails with its diagnostics", async () => {
    await expect(server.ssrLoadModule("/bad.gk")).rejects.toThrow(/bad\.gk:2:12 - error GK2001: unknown name 'q'/);
  });
});

describe("gk/vite in a build", () => {
  it("lowers TypeScript kernels at build time: the bundle runs without the source or TypeScript", async () => {
    // gk stays a dependency of the bundle, as it is where it is installed (here a link, which Vite would follow into the bundle).
    await build({ root: dir, configFile: false, logLevel: "silent", plugins: [gk()], ssr: { external: ["gk"] }, build: { ssr: "app.ts", outDir: "out", minify: false } });
    const bundle = readFileSync(join(dir, "out", "app.js"), "utf8");
    expect(bundle).toContain("__gk_prebuilt");
    // No TypeScript source to read at run time, and no cache that holds its lowering.
    rmSync(join(dir, "blur.ts"));
    writeFileSync(
      join(dir, "run.mjs"),
      'import { createRequire } from "node:module";\nawait import("./out/app.js");\nconst loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /ts-morph|typescript/.test(f));\nconsole.log(JSON.stringify(loaded));\n',
    );
    const r = spawnSync(process.execPath, [join(dir, "run.mjs")], { cwd: dir, encoding: "utf8", env: { ...process.env, GK_DEVICE: "cpu", GK_CACHE_DIR: join(dir, "fresh-cache") } });
    expect(r.stderr).toBe("");
    // SCALE is 5 by now (the test above changed lib.gk): x = [20, 40, 20, 0], blurred inside.
    expect(r.stdout.trim().split("\n")).toEqual([JSON.stringify([0, 30, 20, 0]), "[]"]);
  });

  it("a TypeScript kernel with errors fails the build with its diagnostics", async () => {
    writeFileSync(join(dir, "wrong.ts"), 'import { kernel, type f32, type Global } from "gk";\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = "x";\n});\n');
    await expect(build({ root: dir, configFile: false, logLevel: "silent", plugins: [gk()], build: { ssr: "wrong.ts", outDir: "out2" } })).rejects.toThrow(
      /wrong\.ts:3:12 - error GK1020: kernels have no strings/,
    );
  });
});

/**
 * What `gkc` loads at start-up, command by command: the guard that keeps the command line
 * fast as the language grows (bench/startup.mjs measures the time itself). bin/gkc.js runs
 * the bundle in dist/gkc/ (scripts/bundle-cli.mjs); each run here records every module Node
 * loads (fixtures/trace-imports.mjs), and esbuild's metafile, build/gkc-bundle.json, says
 * which source files each chunk of the bundle holds.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const METAFILE = join(ROOT, "build", "gkc-bundle.json");
const TRACER = fileURLToPath(new URL("fixtures/trace-imports.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gk-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, unknown> }>;
}
let meta: Metafile;

beforeAll(() => {
  if (!existsSync(METAFILE)) throw new Error(`${METAFILE} is missing: run \`npm run build\` (it bundles gkc)`);
  meta = JSON.parse(readFileSync(METAFILE, "utf8")) as Metafile;
});

interface Loaded {
  readonly status: number | null;
  readonly stdout: string;
  /** Every module loaded: paths relative to the repository, or `node:` names. */
  readonly files: readonly string[];
  /** The source files inside the bundle chunks loaded. */
  readonly sources: ReadonlySet<string>;
}

let runs = 0;
function gkc(...argv: string[]): Loaded {
  const trace = join(dir, `trace-${runs++}.txt`);
  const r = spawnSync(process.execPath, ["--import", TRACER, join(ROOT, "bin", "gkc.js"), ...argv], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, GK_TRACE_IMPORTS: trace, GK_CACHE_DIR: join(dir, "cache") },
  });
  const urls = readFileSync(trace, "utf8").split("\n").filter(Boolean);
  const files = urls.map((u) => (u.startsWith("file:") ? relative(ROOT, fileURLToPath(u)) : u)).filter((f) => f !== relative(ROOT, TRACER));
  const sources = new Set<string>();
  for (const f of files.filter((f) => f.startsWith("dist/gkc/"))) {
    const chunk = meta.outputs[f];
    if (!chunk) throw new Error(`${f} is not in ${METAFILE}: run \`npm run build\` again`);
    for (const input of Object.keys(chunk.inputs)) sources.add(input);
  }
  return { status: r.status, stdout: r.stdout, files, sources };
}

/** Only the launcher script, the bundle and Node's own modules: nothing from node_modules (no execa, no fast-check, no unbundled chevrotain). */
function expectOnlyTheBundle(l: Loaded): void {
  expect(l.files.filter((f) => !(f === "bin/gkc.js" || f.startsWith("dist/gkc/") || f.startsWith("node:")))).toEqual([]);
}

function matching(sources: ReadonlySet<string>, pattern: RegExp): string[] {
  return [...sources].filter((s) => pattern.test(s));
}

const SIMULATOR = /^src\/(runtime\/sim|codegen\/js)\//;
/**
 * Building and launching on a GPU: nvcc, the kernel cache's builds, the launcher client and the
 * engines that drive a GPU (the cache's key and layout are small and shared; so is the device
 * layer, device.ts, gpuArray.ts and launching.ts, which every run goes through, the simulator's too).
 */
const GPU_SIDE = /^src\/runtime\/(launcher\/|launcher\.ts$|device\/(addon|native|inProcess|serve)\.ts$)|^src\/build\/(nvcc\.ts$|build\.ts$|cache\.ts$|cache\/(entry|maintenance)\.ts$)|node_modules\/execa\//;
/**
 * The CUDA code generator, but for its target record, which the front end is handed (target.ts),
 * and what the record reads: the builtin column (for the spellings the checker names in its
 * messages), the spellings and the reserved names (GK2011).
 */
const CODEGEN = /^src\/codegen\/cuda\/(?!(target|builtins|mathBuiltins|atomicBuiltins|spellings|reserved)\.ts$)/;
const TESTING = /^src\/testing\/|node_modules\/fast-check\//;
const PARSER = /^src\/parser\/|node_modules\/chevrotain\//;

describe("what gkc loads at start-up", () => {
  it("--version: a few small chunks, no compiler", () => {
    const l = gkc("--version");
    expect(l.status).toBe(0);
    expectOnlyTheBundle(l);
    expect(matching(l.sources, PARSER)).toEqual([]);
    expect(l.files.length).toBeLessThan(20);
  });

  it("check: the front end only; no code generator, simulator, nvcc, launcher, execa or fast-check", () => {
    const l = gkc("check", "examples/saxpy.gk");
    expect(l.status).toBe(0);
    expectOnlyTheBundle(l);
    expect(l.sources).toContain("src/parser/grammar.ts");
    for (const part of [SIMULATOR, GPU_SIDE, CODEGEN, TESTING]) expect(matching(l.sources, part)).toEqual([]);
    // A bound, not a target: the unbundled CLI loaded 961 modules here.
    expect(l.files.length).toBeLessThan(40);
  });

  it("cuda: the code generator, and still no simulator, nvcc or launcher", () => {
    const l = gkc("cuda", "examples/saxpy.gk");
    expect(l.status).toBe(0);
    expect(l.stdout).toContain('extern "C" __global__');
    expectOnlyTheBundle(l);
    expect(matching(l.sources, CODEGEN).length).toBeGreaterThan(0);
    for (const part of [SIMULATOR, GPU_SIDE, TESTING]) expect(matching(l.sources, part)).toEqual([]);
  });

  it("run --device cpu: the simulator, and no nvcc, launcher or code generator", () => {
    const l = gkc("run", "examples/saxpy.gk", "--device", "cpu");
    expect(l.status).toBe(0);
    expect(l.stdout).toBe("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]\n");
    expectOnlyTheBundle(l);
    expect(matching(l.sources, SIMULATOR).length).toBeGreaterThan(0);
    for (const part of [GPU_SIDE, CODEGEN, TESTING]) expect(matching(l.sources, part)).toEqual([]);
  });
});

describe("gkc build of an unchanged file (a cache hit)", () => {
  const nvcc = spawnSync("nvcc", ["--version"], { encoding: "utf8" });
  it.skipIf(nvcc.status !== 0)("asks nvcc only its version, without loading execa: nothing but the bundle, as a check", () => {
    const first = gkc("build", "examples/saxpy.gk", "--arch", "sm_90");
    expect(first.status).toBe(0);
    const hit = gkc("build", "examples/saxpy.gk", "--arch", "sm_90");
    expect(hit.status).toBe(0);
    expectOnlyTheBundle(hit);
    // A bound, not a target (bench/startup.mjs measures the CPU time): the bundle's chunks, which grow with its entry points' shared code.
    expect(hit.files.length).toBeLessThan(48);
  });
});

describe("TypeScript stays off the path of commands that read no TypeScript kernel", () => {
  const REPORT = fileURLToPath(new URL("../examples/fixtures/report-typescript.mjs", import.meta.url));
  const loaded = (...argv: string[]) => {
    const r = spawnSync(process.execPath, ["--import", REPORT, join(ROOT, "bin", "gkc.js"), ...argv], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, GK_CACHE_DIR: join(dir, `ts-cache-${runs++}`) },
    });
    return { status: r.status, typescript: /typescript-loaded: (.*)/.exec(r.stderr)?.[1] };
  };

  it("check FILE.gk, run FILE.gk and types: no ts-morph, no typescript", () => {
    expect(loaded("check", "examples/saxpy.gk")).toEqual({ status: 0, typescript: "[]" });
    expect(loaded("run", "examples/saxpy.gk", "--device", "cpu")).toEqual({ status: 0, typescript: "[]" });
    expect(loaded("types", "--help")).toEqual({ status: 0, typescript: "[]" });
  });

  it("check FILE.ts loads it, to read the kernels", () => {
    const l = loaded("check", "examples/saxpy.ts");
    expect(l.status).toBe(0);
    expect(l.typescript).toMatch(/ts-morph/);
  });
});

describe("bin/gkc.js", () => {
  it("says what to do, not a stack trace, when the bundle was not built", () => {
    const pkg = join(dir, "no build");
    mkdirSync(join(pkg, "bin"), { recursive: true });
    copyFileSync(join(ROOT, "bin", "gkc.js"), join(pkg, "bin", "gkc.js"));
    const r = spawnSync(process.execPath, [join(pkg, "bin", "gkc.js"), "check", "examples/saxpy.gk"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(70);
    expect(r.stderr).toBe(`gkc: ${join(pkg, "dist", "gkc", "main.js")} is missing: build gk first (npm install, or npm run build)\n`);
  });
});

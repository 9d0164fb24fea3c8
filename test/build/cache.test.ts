import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSourceFile, SourceMap, type Diagnostic } from "../../src/diagnostics/index.js";
import {
  BuildError,
  cacheKey,
  cacheRoot,
  clearCache,
  entryDir,
  formatCacheTable,
  getOrBuild,
  gkVersion,
  listEntries,
  type CacheKeyInputs,
  type CacheRow,
  type GetOrBuildResult,
} from "../../src/build/cache.js";
import { scratchName } from "../../src/build/cache/layout.js";
import { cacheRootProblem } from "../../src/cacheFolder.js";
import { findNvcc } from "../../src/build/nvcc.js";
import { countingNvcc, type CountingNvcc } from "./fixtures/nvcc-wrapper.js";
import { BROKEN, BROKEN_GK, SAXPY, SCALE } from "./fixtures/sources.js";

let work: string;
let counting: CountingNvcc;
/** A cache holding one entry (SAXPY), built once; tests copy it rather than rebuild it. */
let pristine: string;
let first: GetOrBuildResult;
let runsForFirst: number;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "gk-cache-test-"));
  counting = countingNvcc(work, findNvcc().path);
  pristine = path.join(work, "pristine");
  first = await getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root: pristine, nvcc: counting.path });
  runsForFirst = counting.compileRuns().length;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let fresh = 0;
/** A new cache root, optionally a copy of the pristine one. */
function newRoot(copyPristine = false): string {
  const root = path.join(work, `root-${++fresh}`);
  if (copyPristine) cpSync(pristine, root, { recursive: true });
  return root;
}

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function buildError(p: Promise<unknown>): Promise<BuildError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BuildError);
  return e as BuildError;
}

describe("cacheRoot", () => {
  it("takes GK_CACHE_DIR, else XDG_CACHE_HOME/gk, else ~/.cache/gk", () => {
    expect(cacheRoot({ GK_CACHE_DIR: "/c/gk", XDG_CACHE_HOME: "/x" }, "/home/u")).toBe("/c/gk");
    expect(cacheRoot({ GK_CACHE_DIR: " ", XDG_CACHE_HOME: "/x" }, "/home/u")).toBe("/x/gk");
    expect(cacheRoot({}, "/home/u")).toBe("/home/u/.cache/gk");
    expect(cacheRoot({ GK_CACHE_DIR: "rel" }, "/home/u")).toBe(path.resolve("rel"));
  });

  it("refuses a root under /proc, /sys or /dev, also through a link, before creating anything (GK7006)", async () => {
    const viaLink = path.join(work, "proc-link");
    symlinkSync("/proc/self", viaLink);
    for (const root of ["/proc/self/gk-cache", "/sys/gk", "/dev/gk", path.join(viaLink, "gk")]) {
      expect(cacheRootProblem(root), root).toMatch(/^it is under \/(proc|sys|dev), a pseudo-filesystem/);
      const e = await buildError(getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path }));
      expect(e.diagnostics[0]).toMatchObject({ code: "GK7006", message: `cannot use the kernel cache at ${root}: ${cacheRootProblem(root)}` });
    }
    for (const root of ["/dev/shm/gk", path.join(work, "a", "b")]) expect(cacheRootProblem(root), root).toBeUndefined();
  });
});

describe("cacheKey", () => {
  const base: CacheKeyInputs = { source: SAXPY, nvccVersion: "V13.0.88", flags: ["-a", "-b"], arch: "sm_90", gkVersion: "0.1.0", format: 1 };

  it("is a sha256 that every input changes, flags in the order given", () => {
    const key = cacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...base })).toBe(key);
    const variants: CacheKeyInputs[] = [
      { ...base, source: SAXPY + " " },
      { ...base, nvccVersion: "V13.0.89" },
      { ...base, flags: ["-b", "-a"] },
      { ...base, flags: ["-a"] },
      { ...base, arch: "sm_80" },
      { ...base, gkVersion: "0.1.1" },
      { ...base, format: 2 },
    ];
    expect(new Set(variants.map(cacheKey)).size).toBe(variants.length);
    expect(variants.map(cacheKey)).not.toContain(key);
  });

  it("keeps field boundaries: moving text between fields changes the key", () => {
    expect(cacheKey({ ...base, flags: ["-a -b"] })).not.toBe(cacheKey({ ...base, flags: ["-a", "-b"] }));
    expect(cacheKey({ ...base, arch: "sm_9", source: "0" + SAXPY })).not.toBe(cacheKey(base));
  });

  it("uses gk's package.json version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(gkVersion()).toBe(pkg.version);
  });
});

describe("getOrBuild", () => {
  it("builds an entry once: .cu, .ptx, .cubin and meta.json under v1/<key[0..2]>/<key>/", () => {
    const { entry, hit, timings } = first;
    expect(hit).toBe(false);
    expect(runsForFirst).toBe(2);
    expect(entry.dir).toBe(path.join(pristine, "v1", entry.key.slice(0, 2), entry.key));
    expect(entry.dir).toBe(entryDir(pristine, entry.key));
    expect(names(entry.dir).sort()).toEqual(["kernel.cu", "kernel.cubin", "kernel.ptx", "meta.json"]);
    expect(readFileSync(entry.cu, "utf8")).toBe(SAXPY);
    expect(readFileSync(entry.ptx, "utf8")).toMatch(/\.entry saxpy\(/);
    const meta = JSON.parse(readFileSync(path.join(entry.dir, "meta.json"), "utf8"));
    expect(meta).toEqual(entry.meta);
    expect(meta).toMatchObject({
      format: 1,
      key: entry.key,
      inputs: { arch: "sm_90", flags: [], gkVersion: gkVersion() },
      kernels: ["saxpy"],
      gkVersion: gkVersion(),
    });
    expect(meta.inputs.nvccVersion).toMatch(/release \d+\.\d+, V\d+/);
    expect(meta.files["kernel.cubin"].size).toBe(readFileSync(entry.cubin).length);
    expect(Date.now() - Date.parse(meta.builtAt)).toBeLessThan(120_000);
    expect(timings.nvccMs).toBeGreaterThan(0);
    expect(names(path.join(pristine, "v1", "tmp"))).toEqual([]);
    expect(readFileSync(path.join(pristine, "CACHEDIR.TAG"), "utf8")).toMatch(/^Signature: 8a477f597d28d172789f06886806bc55/);
  });

  it("serves the second build from the cache without running nvcc, in a few milliseconds", async () => {
    const before = counting.compileRuns().length;
    const ms: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root: pristine, nvcc: counting.path });
      expect(r.hit).toBe(true);
      expect(r.entry).toEqual(first.entry);
      expect(r.timings.nvccMs).toBeUndefined();
      ms.push(r.timings.totalMs);
    }
    expect(counting.compileRuns().length).toBe(before);
    ms.sort((a, b) => a - b);
    expect(ms[10]).toBeLessThan(50);
  });

  it("keys on the flags: --fmad=false reaches nvcc and makes its own entry", async () => {
    const root = newRoot(true);
    const before = counting.compileRuns().length;
    const r = await getOrBuild({ source: SAXPY, arch: "sm_90", flags: ["--fmad=false"], kernels: ["saxpy"], root, nvcc: counting.path });
    expect(r.hit).toBe(false);
    expect(r.entry.key).not.toBe(first.entry.key);
    expect(r.entry.meta.inputs.flags).toEqual(["--fmad=false"]);
    const runs = counting.compileRuns().slice(before);
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run).toContain("-O3 -lineinfo -arch=sm_90 --fmad=false");
    expect((await listEntries(root)).map((row) => row.key).sort()).toEqual([first.entry.key, r.entry.key].sort());
  });

  const damages: [string, (dir: string) => void, RegExp][] = [
    ["a truncated cubin", (d) => truncateSync(path.join(d, "kernel.cubin"), 100), /kernel\.cubin has 100 bytes, meta\.json records \d+/],
    ["one altered byte of the ptx", (d) => flipByte(path.join(d, "kernel.ptx")), /kernel\.ptx does not match its recorded sha256/],
    ["a deleted meta.json", (d) => rmSync(path.join(d, "meta.json")), /meta\.json is missing/],
    ["a corrupt meta.json", (d) => writeFileSync(path.join(d, "meta.json"), '{"format": 1, "key": "'), /meta\.json is not valid JSON/],
    ["a meta.json without file records", (d) => editMeta(d, (m) => delete m.files), /meta\.json is malformed \(files\)/],
    ["a meta.json for another key", (d) => editMeta(d, (m) => (m.key = "0".repeat(64))), /meta\.json records another key/],
    ["a meta.json recording a negative size", (d) => editMeta(d, (m) => ((m.files as Record<string, { size: number }>)["kernel.ptx"]!.size = -1)), /meta\.json is malformed \(files\["kernel\.ptx"\]\)/],
    ["a meta.json recording a 1e300-byte file", (d) => editMeta(d, (m) => ((m.files as Record<string, { size: number }>)["kernel.cubin"]!.size = 1e300)), /meta\.json is malformed \(files\["kernel\.cubin"\]\)/],
    ["a deleted file", (d) => rmSync(path.join(d, "kernel.cu")), /kernel\.cu is missing/],
  ];

  it.each(damages)("detects %s, warns once (GK7003), rebuilds, and the new entry is valid", async (_, damage, reason) => {
    const root = newRoot(true);
    const dir = entryDir(root, first.entry.key);
    damage(dir);
    const before = counting.compileRuns().length;
    const warnings: Diagnostic[] = [];
    const opts = { source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path, onWarning: (d: Diagnostic) => warnings.push(d) };

    const rebuilt = await getOrBuild(opts);
    expect(rebuilt.hit).toBe(false);
    expect(counting.compileRuns().length).toBe(before + 2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "GK7003", severity: "warning" });
    expect(warnings[0]!.message).toMatch(reason);
    expect(rebuilt.entry.dir).toBe(dir);
    expect(readFileSync(rebuilt.entry.ptx, "utf8")).toMatch(/\.entry saxpy\(/);

    const again = await getOrBuild(opts);
    expect(again.hit).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(names(path.join(root, "v1", "tmp"))).toEqual([]);
    expect(names(path.join(root, "v1", "trash"))).toEqual([]);
  });

  it("never caches a failed build; keeps its source where the reported command can rerun it", async () => {
    const root = newRoot();
    const sources = new SourceMap();
    sources.add(makeSourceFile("k.gk", BROKEN_GK));
    const opts = { source: BROKEN, arch: "sm_90", kernels: ["fine", "broken"], root, nvcc: counting.path, sourceMap: sources };
    const e = await buildError(getOrBuild(opts));
    const mapped = e.diagnostics.find((d) => d.span !== undefined);
    expect(mapped).toMatchObject({ code: "GK7002", message: 'identifier "undefined_name" is undefined' });
    expect(sources.locate(mapped!.span!)).toMatch(/^k\.gk:3:/);

    const command = e.diagnostics.flatMap((d) => d.notes).find((n) => n.message.startsWith("command: "))!.message.slice(9);
    const kept = /^cd (\S+) && /.exec(command)![1]!;
    expect(path.dirname(kept)).toBe(path.join(root, "v1", "failed"));
    // The source, and nvcc's errors for processes that waited for this build.
    expect(names(kept)).toEqual(["failure.json", "kernel.cu"]);
    expect(readFileSync(path.join(kept, "kernel.cu"), "utf8")).toBe(BROKEN);
    const rerun = await execa("sh", ["-c", command], { reject: false });
    expect(rerun.stderr).toContain('k.gk(3): error: identifier "undefined_name" is undefined');

    expect(await listEntries(root)).toEqual([]);
    expect(names(path.join(root, "v1", "tmp"))).toEqual([]);
    const before = counting.compileRuns().length;
    await buildError(getOrBuild(opts));
    expect(counting.compileRuns().length).toBeGreaterThan(before);
    expect(await listEntries(root)).toEqual([]);
    expect(names(path.join(root, "v1", "tmp"))).toEqual([]);
  });

  it("reports GK7001 when nvcc is missing, and leaves no trace in the cache", async () => {
    const root = newRoot();
    const e = await buildError(getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc: "/nonexistent/nvcc" }));
    expect(e.diagnostics.map((d) => d.code)).toEqual(["GK7001"]);
    expect(existsSync(root)).toBe(false);
  });

  it("reads GK_NVCC from the environment when no nvcc is given (in a fresh process)", () => {
    const dist = new URL("../../dist/build/cache.js", import.meta.url).href;
    const script = `import { getOrBuild } from ${JSON.stringify(dist)};
      getOrBuild({ source: "", arch: "sm_90", kernels: [], root: ${JSON.stringify(newRoot())} })
        .then(() => console.log("built"), (e) => console.log(e.diagnostics.map((d) => d.code + ": " + d.message).join("\\n")));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, GK_NVCC: "/nonexistent" },
      encoding: "utf8",
    });
    expect(r.stdout.trim()).toBe("GK7001: nvcc not found: GK_NVCC is set to '/nonexistent', which is not an executable file");
  });

  it("reports a cache folder it cannot write as GK7006", async () => {
    const file = path.join(work, "a-file");
    writeFileSync(file, "");
    const e = await buildError(getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root: path.join(file, "cache") }));
    expect(e.diagnostics[0]).toMatchObject({ code: "GK7006" });
    expect(e.diagnostics[0]!.message).toContain("ENOTDIR");
  });

  it("removes build and trash folders abandoned an hour ago, and keeps young ones", async () => {
    const root = newRoot(true);
    const v1 = path.join(root, "v1");
    const key = first.entry.key;
    const hoursAgo = (h: number) => (Date.now() - h * 3600_000) / 1000;
    const folder = (...parts: string[]) => {
      const dir = path.join(v1, ...parts);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "kernel.cu"), "x");
      return dir;
    };
    const oldTmp = folder("tmp", scratchName(key));
    const youngTmp = folder("tmp", scratchName(key));
    const oldTrash = folder("trash", scratchName(key));
    const oldFailed = folder("failed", "f".repeat(64));
    utimesSync(oldTmp, hoursAgo(2), hoursAgo(2));
    utimesSync(oldTrash, hoursAgo(2), hoursAgo(2));
    utimesSync(oldFailed, hoursAgo(24 * 8), hoursAgo(24 * 8));

    await getOrBuild({ source: SCALE, arch: "sm_90", kernels: ["scale"], root, nvcc: counting.path });
    expect(names(path.join(v1, "tmp"))).toEqual([path.basename(youngTmp)]);
    expect(names(path.join(v1, "trash"))).toEqual([]);
    expect(names(path.join(v1, "failed"))).toEqual([]);
  });
});

describe("listEntries and formatCacheTable", () => {
  it("lists each entry with its key, kernels, arch, size and age", async () => {
    const root = newRoot(true);
    const [row, ...more] = await listEntries(root);
    expect(more).toEqual([]);
    const files = first.entry.meta.files;
    expect(row).toMatchObject({
      key: first.entry.key,
      dir: first.entry.dir.replace(pristine, root),
      kernels: ["saxpy"],
      arch: "sm_90",
      damaged: false,
      sizeBytes: files["kernel.cu"].size + files["kernel.ptx"].size + files["kernel.cubin"].size + readFileSync(path.join(first.entry.dir, "meta.json")).length,
    });
    expect(row!.ageMs).toBeGreaterThanOrEqual(0);
    rmSync(path.join(row!.dir, "meta.json"));
    expect((await listEntries(root))[0]).toMatchObject({ key: first.entry.key, kernels: [], damaged: true });
    expect(await listEntries(path.join(work, "no-such-cache"))).toEqual([]);
  });

  it("prints an aligned table with a total", () => {
    const row = (key: string, kernels: string[], sizeBytes: number, ageMs: number, damaged = false): CacheRow => ({
      key: key.repeat(64),
      dir: "/c",
      kernels,
      arch: "sm_90",
      sizeBytes,
      builtAt: new Date(0),
      ageMs,
      damaged,
    });
    const rows = [row("a", ["saxpy"], 8100, 5_000), row("b", ["matmul", "transpose"], 3 * 1024 * 1024, 3 * 86_400_000), row("c", [], 10, 7_200_000, true)];
    expect(formatCacheTable(rows)).toBe(
      [
        "KEY           ARCH   KERNELS                             SIZE  AGE",
        "aaaaaaaaaaaa  sm_90  saxpy                            7.9 KiB   5s",
        "bbbbbbbbbbbb  sm_90  matmul, transpose                3.0 MiB   3d",
        "cccccccccccc  sm_90  (damaged: meta.json unreadable)     10 B   2h",
        "",
        "3 entries, 3.0 MiB",
      ].join("\n"),
    );
    expect(formatCacheTable([])).toBe("(the kernel cache is empty)");
  });
});

describe("clearCache", () => {
  it("removes entries, failed sources, trash, abandoned builds and stale locks; leaves running builds, their locks and foreign files", async () => {
    const root = newRoot(true);
    const v1 = path.join(root, "v1");
    const key = first.entry.key;
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const [, , host] = scratchName(key).split(".");
    const running = path.join(v1, "tmp", scratchName(key));
    const abandoned = path.join(v1, "tmp", `${key}.${ended}.${host}.abcdef`);
    for (const dir of [running, abandoned, path.join(v1, "trash", scratchName(key)), path.join(v1, "failed", key)]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "kernel.cu"), "x");
    }
    writeFileSync(path.join(v1, "notes.txt"), "mine");
    mkdirSync(path.join(v1, "locks"), { recursive: true });
    const held = "a".repeat(64);
    writeFileSync(path.join(v1, "locks", held), JSON.stringify({ pid: process.pid, host, startedAt: "" }));
    writeFileSync(path.join(v1, "locks", "b".repeat(64)), JSON.stringify({ pid: ended, host, startedAt: "" }));
    // Sources of builds: one whose build runs (its lock is held), one left by a crash.
    for (const k of [held, "d".repeat(64)]) {
      mkdirSync(path.join(v1, "src", k), { recursive: true });
      writeFileSync(path.join(v1, "src", k, "kernel.cu"), "x");
    }

    const r = await clearCache(root);
    // In progress: the running build folder's key, and the key whose lock (and source) is held.
    expect(r).toMatchObject({ entries: 1, scratch: 4, failed: 1, inProgress: 2, unknown: ["notes.txt"] });
    expect(names(path.join(v1, "locks"))).toEqual([held]);
    expect(names(path.join(v1, "src"))).toEqual([held]);
    expect(r.bytes).toBeGreaterThan(first.entry.meta.files["kernel.cubin"].size);
    expect(await listEntries(root)).toEqual([]);
    expect(names(path.join(v1, "tmp"))).toEqual([path.basename(running)]);
    expect(names(path.join(v1, "trash"))).toEqual([]);
    expect(names(path.join(v1, "failed"))).toEqual([]);
    expect(readFileSync(path.join(v1, "notes.txt"), "utf8")).toBe("mine");
    expect(names(v1).sort()).toEqual(["failed", "locks", "notes.txt", "src", "tmp", "trash"]);
  });

  it("refuses a folder that is not a gk cache, and treats a missing one as empty", async () => {
    const mine = path.join(work, "my-documents");
    mkdirSync(path.join(mine, "ab"), { recursive: true });
    writeFileSync(path.join(mine, "ab", "thesis.tex"), "precious");
    const e = await buildError(clearCache(mine));
    expect(e.diagnostics[0]).toMatchObject({ code: "GK7007" });
    expect(e.diagnostics[0]!.message).toContain("does not look like a gk kernel cache");
    expect(readFileSync(path.join(mine, "ab", "thesis.tex"), "utf8")).toBe("precious");
    expect(await clearCache(path.join(work, "nothing-here"))).toMatchObject({ entries: 0, scratch: 0, failed: 0 });
  });
});

function flipByte(file: string): void {
  const data = readFileSync(file);
  data[data.length >> 1] ^= 0x01;
  writeFileSync(file, data);
}

function editMeta(dir: string, edit: (meta: Record<string, unknown>) => void): void {
  const file = path.join(dir, "meta.json");
  const meta = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(meta);
  writeFileSync(file, JSON.stringify(meta));
}

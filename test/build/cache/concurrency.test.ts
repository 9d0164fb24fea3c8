/**
 * Many processes on one cache at the same moment. Each worker is a separate Node process
 * (test/build/fixtures/cache-worker.mjs, running the built dist/), started together through
 * a barrier: every worker announces itself, then all wait for one "go" file.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryDir, getOrBuild, listEntries } from "../../../src/build/cache.js";
import { findNvcc } from "../../../src/build/nvcc.js";
import { countingNvcc, type CountingNvcc } from "../fixtures/nvcc-wrapper.js";
import { SAXPY, SCALE, SUM } from "../fixtures/sources.js";

const WORKERS = 8;
const workerScript = fileURLToPath(new URL("../fixtures/cache-worker.mjs", import.meta.url));
const builtCache = fileURLToPath(new URL("../../../dist/build/cache.js", import.meta.url));
const builds = [
  { source: SAXPY, arch: "sm_90", flags: [], kernels: ["saxpy"] },
  { source: SCALE, arch: "sm_90", flags: ["--fmad=false"], kernels: ["scale"] },
  { source: SUM, arch: "sm_90", flags: [], kernels: ["block_sum"] },
];

interface WorkerResult {
  ok: boolean;
  codes?: string[];
  key?: string;
  hit?: boolean;
  cubinSha?: string;
  error?: string;
}
interface WorkerReport {
  pid: number;
  startedAt: number;
  results: WorkerResult[];
  warnings: { code: string; message: string }[];
}

let work: string;
let root: string;
let counting: CountingNvcc;
let round = 0;

beforeAll(() => {
  expect(existsSync(builtCache), `${builtCache} is missing: run \`npm run build\` first`).toBe(true);
  work = mkdtempSync(path.join(tmpdir(), "gk-cache-race-"));
  root = path.join(work, "cache");
  counting = countingNvcc(work, findNvcc().path);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Starts `workers` processes, releases them together, and returns their reports. */
async function race(job: { root: string; builds: readonly object[] } = { root, builds }, workers = WORKERS): Promise<WorkerReport[]> {
  const barrier = path.join(work, `barrier-${++round}`);
  mkdirSync(barrier);
  const jobFile = path.join(barrier, "job.json");
  writeFileSync(jobFile, JSON.stringify(job));
  const procs = Array.from({ length: workers }, () =>
    execa(process.execPath, [workerScript, jobFile, barrier], {
      env: { GK_NVCC: counting.path },
      reject: false,
      timeout: 900_000, // a bound for a hang: 16 processes on a loaded 2-core machine take what they take
    }),
  );
  const deadline = Date.now() + 600_000;
  while (readdirSync(barrier).filter((n) => n.startsWith("ready-")).length < workers) {
    expect(Date.now(), "all workers ready within 10 min").toBeLessThan(deadline);
    await new Promise((r) => setTimeout(r, 5));
  }
  writeFileSync(path.join(barrier, "go"), "");
  const done = await Promise.all(procs);
  return done.map((p) => {
    expect(p.exitCode, p.stderr).toBe(0);
    return JSON.parse(p.stdout) as WorkerReport;
  });
}

/** The cache holds exactly one valid entry per build and no private folders. */
async function expectOneValidEntryPerKey(reports: WorkerReport[]): Promise<string[]> {
  for (const r of reports) {
    expect(r.results.map((x) => x.error ?? "ok")).toEqual(builds.map(() => "ok"));
  }
  const keys = builds.map((_, i) => reports[0]!.results[i]!.key!);
  expect(new Set(keys).size).toBe(builds.length);
  for (const r of reports) {
    expect(r.results.map((x) => x.key)).toEqual(keys);
    // Everyone ended up with the same published files.
    expect(r.results.map((x) => x.cubinSha)).toEqual(reports[0]!.results.map((x) => x.cubinSha));
  }
  const rows = await listEntries(root);
  expect(rows.map((row) => row.key).sort()).toEqual([...keys].sort());
  expect(rows.every((row) => !row.damaged)).toBe(true);

  const before = counting.compileRuns().length;
  for (const b of builds) {
    const r = await getOrBuild({ ...b, root, nvcc: counting.path, onWarning: (d) => expect.fail(d.message) });
    expect(r.hit).toBe(true);
  }
  expect(counting.compileRuns().length).toBe(before);
  for (const folder of ["tmp", "trash"]) {
    const dir = path.join(root, "v1", folder);
    expect(existsSync(dir) ? readdirSync(dir) : [], `${folder} is empty`).toEqual([]);
  }
  return keys;
}

describe("the cache under concurrent processes", () => {
  it(`${WORKERS} processes building the same ${builds.length} kernels into an empty cache publish one valid entry per key`, async () => {
    const reports = await race();
    const keys = await expectOneValidEntryPerKey(reports);
    const runs = counting.compileRuns().length;
    expect(runs).toBeGreaterThanOrEqual(2 * builds.length);
    expect(runs).toBeLessThanOrEqual(2 * builds.length * WORKERS);
    for (let i = 0; i < keys.length; i++) {
      expect(reports.some((r) => r.results[i]!.hit === false), `someone built ${keys[i]}`).toBe(true);
    }
    expect(reports.flatMap((r) => r.warnings)).toEqual([]);
  });

  it(`${WORKERS} processes on a full cache all hit, and none runs nvcc`, async () => {
    const before = counting.compileRuns().length;
    const reports = await race();
    await expectOneValidEntryPerKey(reports);
    expect(reports.every((r) => r.results.every((x) => x.hit === true))).toBe(true);
    expect(counting.compileRuns().length).toBe(before);
  });

  it(`${WORKERS} processes meeting the same damaged entries repair them once each and agree`, async () => {
    const dirs = (await listEntries(root)).map((row) => row.dir);
    expect(dirs).toHaveLength(3);
    truncateSync(path.join(dirs[0]!, "kernel.cubin"), 64);
    rmSync(path.join(dirs[1]!, "meta.json"));
    const ptx = path.join(dirs[2]!, "kernel.ptx");
    const bytes = readFileSync(ptx);
    bytes[10] ^= 0x20;
    writeFileSync(ptx, bytes);

    const reports = await race();
    const keys = await expectOneValidEntryPerKey(reports);
    expect(keys.map((k) => entryDir(root, k)).sort()).toEqual([...dirs].sort());
    const damage = reports.flatMap((r) => r.warnings);
    expect(damage.every((w) => w.code === "GK7003")).toBe(true);
    // Each process reports a damaged entry at most once; someone reported each of the three.
    for (const r of reports) expect(r.warnings.length).toBeLessThanOrEqual(builds.length);
    for (const reason of [/kernel\.cubin has 64 bytes/, /meta\.json is missing/, /kernel\.ptx does not match/]) {
      expect(damage.some((w) => reason.test(w.message)), String(reason)).toBe(true);
    }
  });
});

describe("one build per key at a time", () => {
  const MANY = 16;

  it(`${MANY} processes building the same new program run nvcc once (one PTX and one cubin run); the others wait and use its entry`, async () => {
    const before = counting.compileRuns().length;
    const source = `// one build for ${MANY} processes\n${SAXPY}`;
    const reports = await race({ root, builds: [{ source, arch: "sm_90", flags: [], kernels: ["saxpy"] }] }, MANY);
    const results = reports.map((r) => r.results[0]!);
    expect(results.map((x) => x.error ?? "ok")).toEqual(results.map(() => "ok"));
    expect(new Set(results.map((x) => x.cubinSha)).size).toBe(1);
    expect(results.filter((x) => x.hit === false)).toHaveLength(1);
    expect(counting.compileRuns().length - before).toBe(2);
  });

  it(`${MANY} processes building the same broken program run nvcc once, and all report its error`, async () => {
    const before = counting.compileRuns().length;
    const source = `extern "C" __global__ void broken(float* y) { y[0] = undefined_name_${MANY}; }\n`;
    const reports = await race({ root, builds: [{ source, arch: "sm_90", flags: [], kernels: ["broken"] }] }, MANY);
    for (const r of reports) {
      expect(r.results[0]!.ok).toBe(false);
      expect(r.results[0]!.codes).toContain("GK7002");
      expect(r.results[0]!.error).toContain(`identifier "undefined_name_${MANY}" is undefined`);
    }
    expect(counting.compileRuns().length - before).toBe(2);
  });
});

/**
 * Fuzzing the cache with fast-check: a cache holding one entry is damaged in random ways (files
 * truncated, altered, deleted or replaced; meta.json replaced by random JSON; the entry folder
 * replaced by a file; leftovers of crashed builders: locks, build and source folders, old
 * failure records), then 1 to 4 builds of the key run at once. Every build must succeed with
 * the entry's original bytes (builds are reproducible), nvcc must run at most once (one PTX
 * and one cubin run), only GK7003 may be reported, and one valid entry must remain.
 * And builders killed with SIGKILL at random moments: the next build of the key succeeds
 * without waiting for the dead builder's lock. GK_FUZZ_RUNS scales the number of cases
 * (test/helpers.ts; the default 50 gives 8 and 3 here, 150 gives 25 and 8). No time limit:
 * it is CPU-bound.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../helpers.js";
import type { Diagnostic } from "../../../src/diagnostics/index.js";
import { getOrBuild, listEntries, type GetOrBuildResult } from "../../../src/build/cache.js";
import { HOST } from "../../../src/build/cache/layout.js";
import { LOCK_STALE_MS } from "../../../src/build/cache/lock.js";
import { findNvcc } from "../../../src/build/nvcc.js";
import { countingNvcc, type CountingNvcc } from "../fixtures/nvcc-wrapper.js";
import { SAXPY } from "../fixtures/sources.js";

const RUNS = Math.max(5, Math.round(FUZZ_RUNS / 6));
const KILL_RUNS = Math.max(3, Math.round(FUZZ_RUNS / 18));
const worker = fileURLToPath(new URL("../fixtures/cache-build-once.mjs", import.meta.url));
const FILES = ["kernel.cu", "kernel.ptx", "kernel.cubin", "meta.json"] as const;

let work: string;
let counting: CountingNvcc;
/** Where every case's cache lies: builds are reproducible for their key within one cache folder. */
let root: string;
/** A copy of the cache after the first build, put back at `root` before each case. */
let pristine: string;
let original: GetOrBuildResult;
let originalBytes: Record<string, string>;

const build = (root: string, onWarning: (d: Diagnostic) => void) =>
  getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path, onWarning });

function bytesOf(dir: string): Record<string, string> {
  return Object.fromEntries(["kernel.cu", "kernel.ptx", "kernel.cubin"].map((f) => [f, readFileSync(path.join(dir, f)).toString("hex")]));
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "gk-cache-fuzz-"));
  counting = countingNvcc(work, findNvcc().path);
  root = path.join(work, "cache");
  original = await build(root, (d) => expect.fail(d.message));
  originalBytes = bytesOf(original.entry.dir);
  pristine = path.join(work, "pristine");
  cpSync(root, pristine, { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Damage =
  | { kind: "truncate"; file: (typeof FILES)[number]; keep: number }
  | { kind: "flip"; file: (typeof FILES)[number]; at: number; xor: number }
  | { kind: "delete"; file: (typeof FILES)[number] }
  | { kind: "meta"; value: unknown }
  | { kind: "stray"; name: string }
  | { kind: "entry-is-file" }
  | { kind: "crashed-builder"; lock: "dead-pid" | "old-foreign" | "junk"; scratch: boolean; source: boolean }
  | { kind: "old-failure" };

const file = fc.constantFrom(...FILES);
const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), file, keep: fc.nat({ max: 2000 }) }),
  fc.record({ kind: fc.constant("flip" as const), file, at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("delete" as const), file }),
  fc.record({ kind: fc.constant("meta" as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant("stray" as const), name: fc.constantFrom("extra.txt", "kernel.cu.bak", ".hidden") }),
  fc.constant({ kind: "entry-is-file" as const }),
  fc.record({ kind: fc.constant("crashed-builder" as const), lock: fc.constantFrom("dead-pid" as const, "old-foreign" as const, "junk" as const), scratch: fc.boolean(), source: fc.boolean() }),
  fc.constant({ kind: "old-failure" as const }),
);

function apply(d: Damage): void {
  const key = original.entry.key;
  const entry = original.entry.dir;
  const v1 = path.join(root, "v1");
  switch (d.kind) {
    case "truncate": {
      const f = path.join(entry, d.file);
      truncateSync(f, Math.min(d.keep, Math.max(0, readFileSync(f).length - 1)));
      break;
    }
    case "flip": {
      const f = path.join(entry, d.file);
      const b = readFileSync(f);
      if (b.length > 0) b[d.at % b.length] ^= d.xor;
      writeFileSync(f, b);
      break;
    }
    case "delete":
      rmSync(path.join(entry, d.file));
      break;
    case "meta":
      writeFileSync(path.join(entry, "meta.json"), JSON.stringify(d.value));
      break;
    case "stray":
      writeFileSync(path.join(entry, d.name), "not gk's");
      break;
    case "entry-is-file":
      rmSync(entry, { recursive: true });
      writeFileSync(entry, "a file where the entry was");
      break;
    case "crashed-builder": {
      mkdirSync(path.join(v1, "locks"), { recursive: true });
      const lock = path.join(v1, "locks", key);
      const ended = spawnSync(process.execPath, ["-e", "0"]).pid!;
      if (d.lock === "junk") writeFileSync(lock, "{not json");
      else writeFileSync(lock, JSON.stringify({ pid: d.lock === "dead-pid" ? ended : 1, host: d.lock === "dead-pid" ? HOST : "elsewhere", startedAt: "" }));
      if (d.lock !== "dead-pid") {
        const old = new Date(Date.now() - 60_000);
        utimesSync(lock, old, old);
      }
      if (d.scratch) {
        const scratch = path.join(v1, "tmp", `${key}.${ended}.${HOST}.abcdef`);
        mkdirSync(scratch, { recursive: true });
        writeFileSync(path.join(scratch, "kernel.ptx"), "half written");
      }
      if (d.source) {
        mkdirSync(path.join(v1, "src", key), { recursive: true });
        writeFileSync(path.join(v1, "src", key, "kernel.cu"), "// a different, half-written source");
      }
      rmSync(entry, { recursive: true }); // the crashed builder never published
      break;
    }
    case "old-failure": {
      const failed = path.join(v1, "failed", key);
      mkdirSync(failed, { recursive: true });
      const diagnostics = [{ code: "GK7002", severity: "error", message: "an old failure", notes: [] }];
      writeFileSync(path.join(failed, "failure.json"), JSON.stringify({ atMs: Date.now() - 3_600_000, diagnostics }));
      break;
    }
  }
}

describe("fuzzing the cache: damage, leftovers of crashed builders, and concurrent builds", () => {
  it(`always ends with the original bytes, at most one nvcc build, and only GK7003 (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4 }), async (damages, builds) => {
        rmSync(root, { recursive: true, force: true });
        cpSync(pristine, root, { recursive: true });
        for (const d of damages) {
          try {
            apply(d);
          } catch {
            // an earlier damage removed what this one touches
          }
        }
        const warnings: Diagnostic[] = [];
        const before = counting.compileRuns().length;
        const results = await Promise.all(Array.from({ length: builds }, () => build(root, (d) => warnings.push(d))));
        for (const r of results) {
          expect(r.entry.key).toBe(original.entry.key);
          expect(bytesOf(r.entry.dir)).toEqual(originalBytes);
        }
        expect([0, 2]).toContain(counting.compileRuns().length - before);
        expect(warnings.map((w) => w.code).filter((c) => c !== "GK7003")).toEqual([]);
        const rows = await listEntries(root);
        expect(rows.map((r) => [r.key, r.damaged])).toEqual([[original.entry.key, false]]);
        const again = await build(root, (d) => expect.fail(d.message));
        expect(again.hit).toBe(true);
        expect(readdirSync(path.join(root, "v1", "tmp")).filter((t) => t.includes(`.${process.pid}.`))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzzing the cache: builders killed with SIGKILL", () => {
  it(`the next build of the key succeeds without waiting for the dead builder (${KILL_RUNS} cases)`, async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1500 }), async (delayMs) => {
        const source = path.join(work, `killed-${++k}.cu`);
        writeFileSync(source, `// killed builder, case ${k}\n${SAXPY}`);
        const p = execa(process.execPath, [worker, root, source], { env: { GK_NVCC: counting.path }, reject: false, buffer: false });
        let out = "";
        p.stdout!.on("data", (b: Buffer) => (out += b.toString()));
        while (!out.includes("started")) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, delayMs));
        p.kill("SIGKILL");
        await p;
        const t0 = Date.now();
        const r = await getOrBuild({ source: readFileSync(source, "utf8"), arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path, onWarning: (d) => expect.fail(d.message) });
        expect(Date.now() - t0).toBeLessThan(LOCK_STALE_MS);
        expect(readFileSync(r.entry.ptx, "utf8")).toMatch(/\.entry saxpy\(/);
        const again = await getOrBuild({ source: readFileSync(source, "utf8"), arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path });
        expect(again.hit).toBe(true);
      }),
      { numRuns: KILL_RUNS },
    );
  });
});

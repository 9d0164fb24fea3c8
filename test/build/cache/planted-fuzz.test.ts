/**
 * Fuzzing both caches with planted files: at every file of a kernel-cache entry (meta.json,
 * kernel.cu, .ptx, .cubin, the entry folder itself, the key's lock, the folder where nvcc
 * reads the key's source) and of a TypeScript
 * lowering (the entry, the ts folder) a FIFO, a link to /dev/zero, a symlink loop, a link out
 * of the cache, a folder, garbage, a truncated file, an edited file and a 3 GiB (sparse) file
 * are planted in turn; then `gkc cache ls`'s listing, a build (a lowering) and `gkc cache
 * clear` run. Each must rebuild, or fail with a located message (a GK7xxx BuildError), never
 * hang, never exhaust the memory, never trust what was planted (a build ends with the
 * original bytes; a lowering equals a fresh one, and the damaged entry is replaced), and never
 * touch what a planted link points at outside the cache.
 *
 * The cases run in a worker process (fixtures/planted-worker.ts) with a fake nvcc that copies
 * the source into its outputs, so nvcc need not be installed; a case that prints nothing for
 * BOUND_MS, or whose worker grows past MEMORY_BYTES, is a defect and the worker is restarted
 * at the next case. Every case runs (9 plants x 9 targets = 81).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { copyingNvcc } from "../fixtures/nvcc-wrapper.js";
import { KERNEL_TARGETS, LOWERING_TARGETS, PLANTS, type PlantedCase } from "../fixtures/planted-worker.js";

/** A case that prints nothing for this long hangs (generous: a loaded CI machine is slow, a hang is forever). */
const BOUND_MS = Number(process.env.GK_PLANTED_BOUND_MS ?? 60_000);
/** A worker this large has read a planted device or an oversize file. */
const MEMORY_BYTES = 1.5 * 2 ** 30;
const worker = fileURLToPath(new URL("../fixtures/planted-worker.ts", import.meta.url));

const work = mkdtempSync(path.join(tmpdir(), "gk-planted-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CASES: PlantedCase[] = [...KERNEL_TARGETS, ...LOWERING_TARGETS].flatMap((target) => PLANTS.map((plant) => ({ target, plant }))).map((c, id) => ({ id, ...c }));

interface Outcome {
  readonly id: number;
  readonly defects: readonly string[];
}

/** Runs `cases` in one worker until it ends, hangs or grows too large; the outcomes of the cases it finished or broke on. */
function runWorker(nvcc: string, cases: readonly PlantedCase[]): Promise<Outcome[]> {
  const file = path.join(work, `cases-${cases[0]!.id}.json`);
  writeFileSync(file, JSON.stringify(cases));
  const child = spawn(process.execPath, ["--import", "tsx", worker, work, nvcc, file], { stdio: ["ignore", "pipe", "pipe"] });
  const outcomes: Outcome[] = [];
  let current: number | undefined;
  let stderr = "";
  let buffered = "";
  let broke: string | undefined;
  let timer: NodeJS.Timeout;
  const stop = (why: string) => {
    broke ??= why;
    child.kill("SIGKILL");
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop(`hangs (nothing for ${BOUND_MS / 1000} s)`), BOUND_MS);
  };
  const memory = setInterval(() => {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (rss && Number(rss[1]) * 1024 > MEMORY_BYTES) stop(`grew past ${MEMORY_BYTES / 2 ** 30} GiB`);
    } catch {
      // no /proc, or the worker has ended
    }
  }, 100);
  arm();
  child.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
  child.stdout.on("data", (b: Buffer) => {
    buffered += b.toString();
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      arm();
      if (line.startsWith("start ")) current = Number(line.slice(6));
      else {
        outcomes.push(JSON.parse(line) as Outcome);
        current = undefined;
      }
    }
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      clearInterval(memory);
      if (current !== undefined) outcomes.push({ id: current, defects: [broke ?? `the worker ended (${code}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`] });
      else if (outcomes.length === 0) outcomes.push({ id: cases[0]!.id, defects: [`the worker could not start (${broke ?? code}): ${stderr.trim().slice(-500)}`] });
      resolve(outcomes);
    });
  });
}

describe("fuzzing both caches with planted files", () => {
  it(`every planted file is rebuilt over or refused with a located message (${CASES.length} cases)`, async () => {
    const nvcc = copyingNvcc(work);
    const outcomes: Outcome[] = [];
    while (outcomes.length < CASES.length) {
      const done = new Set(outcomes.map((o) => o.id));
      outcomes.push(...(await runWorker(nvcc, CASES.filter((c) => !done.has(c.id)))));
    }
    const defects = outcomes.filter((o) => o.defects.length > 0).map((o) => `${CASES[o.id]!.target} <- ${CASES[o.id]!.plant}: ${o.defects.join("; ")}`);
    console.log(`planted-files fuzzer: ${outcomes.length} cases run, ${defects.length} with defects`);
    expect(defects).toEqual([]);
  }, 30 * 60_000);
});

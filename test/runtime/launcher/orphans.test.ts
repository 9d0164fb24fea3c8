// A launcher whose client is gone ends by itself, also while a kernel runs (ending the process
// is what stops a kernel). On the fake driver, whose "spin" kernel never ends: a Node client
// killed with SIGKILL (its sockets close), a parent that dies while the launcher's stdin and
// stdout are files (only the parent-pid check can tell), and a reader that closes stdout.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../helpers.js";
import { encodeFrame } from "../../../src/runtime/launcher/frames.js";
import { childrenOf, isRunning, processesWithEnv, waitEnded } from "../fixtures/processes.js";
import { buildFakeDriver, ensureLauncher, fakeModule, removeTempDirs, tempDir } from "./helpers.js";

const client = fileURLToPath(new URL("../fixtures/launcher-client.mjs", import.meta.url));
/**
 * How long a launcher may take to notice that its client is gone before the test calls it
 * hung: it checks every 100 ms (spec/launcher-protocol.md), and the test goes on as soon as
 * it has ended, so this is a bound for a hang, far above what a loaded machine's delays make.
 */
const NOTICE_MS = 30_000;
/** Cases of the SIGKILL fuzzer (test/helpers.ts: the default GK_FUZZ_RUNS=50 gives 3, 150 gives 10). */
const KILL_RUNS = Math.max(3, Math.round(FUZZ_RUNS / 15));

let bin: string;
let env: Record<string, string>;
let mod: string;
let dir: string;
const started: number[] = [];

beforeAll(async () => {
  bin = await ensureLauncher();
  dir = tempDir("orphans");
  env = await buildFakeDriver(dir);
  mod = fakeModule(dir, ["spin"]);
});
afterAll(() => {
  for (const pid of started.filter(isRunning)) process.kill(pid, "SIGKILL"); // a failed test leaves nothing behind
  removeTempDirs();
});

/** The frames that make a server start the fake driver's never-ending kernel (handles: module 1, buffer 2). */
function spinFrames(): Buffer {
  const frames = [
    { op: "init", id: 1 },
    { op: "load", id: 2, path: mod },
    { op: "alloc", id: 3, bytes: 4 },
    { op: "launch", id: 4, module: 1, kernel: "spin", grid: [1, 1, 1], block: [1, 1, 1], args: [{ type: "i64", value: "1000000000000" }, { type: "buffer", buffer: 2 }] },
  ];
  return Buffer.concat(frames.flatMap((f) => encodeFrame(f)));
}

async function waitFor(what: string, ok: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a launcher whose client is gone", () => {
  for (const mode of ["serve", "oneshot", "idle"] as const) {
    it(`ends when its Node client is killed with SIGKILL (${mode === "idle" ? "an idle --serve" : `${mode}, a kernel running`})`, async () => {
      const c = execa(process.execPath, [client, mode, mod], { env: { ...env, GK_LAUNCHER: bin }, reject: false, buffer: false });
      let out = "";
      c.stdout!.on("data", (b: Buffer) => (out += b.toString()));
      await waitFor("the client", () => out.includes("ready"));
      const launchers = childrenOf(c.pid!).filter((p) => p.comm === "gpu_launcher").map((p) => p.pid);
      expect(launchers).toHaveLength(1);
      started.push(...launchers);
      c.kill("SIGKILL");
      await c;
      expect(await waitEnded(launchers, NOTICE_MS), "the launcher still runs").toEqual([]);
    });
  }

  it("ends when its parent dies while its stdin and stdout are files (the parent-pid check)", async () => {
    const frames = join(dir, "frames.bin");
    writeFileSync(frames, spinFrames());
    const pidFile = join(dir, "launcher.pid");
    // The shell starts the server in the background, with files for stdin and stdout, and waits.
    const sh = execa("sh", ["-c", `"$1" --serve < "$2" > "$3" 2>&1 & echo $! > "$4"; wait`, "sh", bin, frames, join(dir, "answers.bin"), pidFile], {
      env,
      reject: false,
    });
    let launcher = 0;
    await waitFor("the launcher's pid", () => {
      try {
        launcher = Number(readFileSync(pidFile, "utf8").trim());
      } catch {
        return false;
      }
      return launcher > 0;
    });
    started.push(launcher);
    await new Promise((r) => setTimeout(r, 300)); // into the kernel
    expect(isRunning(launcher)).toBe(true);
    sh.kill("SIGKILL");
    await sh;
    expect(await waitEnded([launcher], NOTICE_MS), "the launcher still runs").toEqual([]);
  });

  it("ends when the reader of its answers closes its stdout, while a kernel runs", async () => {
    const child = spawn(bin, ["--serve"], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
    started.push(child.pid!);
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
    child.stdin.on("error", () => undefined);
    child.stdin.write(spinFrames());
    let answers = 0;
    child.stdout.on("data", () => answers++);
    await waitFor("the first answers", () => answers > 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(child.pid!)).toBe(true);
    child.stdout.destroy();
    expect(await waitEnded([child.pid!], NOTICE_MS), "the launcher still runs").toEqual([]);
    expect((await exited).signal).toBeNull();
  });

  it(`ends whenever its Node client is killed with SIGKILL, at any moment (fuzzed, ${KILL_RUNS} cases)`, async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("serve", "oneshot", "idle"), fc.integer({ min: 0, max: 1200 }), async (mode, delayMs) => {
        // A tag in the environment finds the client's launchers even after they lost their parent.
        const tag = `${process.pid}-${++k}`;
        const c = execa(process.execPath, [client, mode, mod], { env: { ...env, GK_LAUNCHER: bin, GK_ORPHAN_TAG: tag }, reject: false, buffer: false });
        await new Promise((r) => setTimeout(r, delayMs));
        // The launchers of the moment of the kill (they end within milliseconds after it).
        const before = processesWithEnv("GK_ORPHAN_TAG", tag).filter((pid) => pid !== c.pid);
        c.kill("SIGKILL");
        await c;
        const launchers = [...new Set([...before, ...processesWithEnv("GK_ORPHAN_TAG", tag)])];
        started.push(...launchers);
        expect(await waitEnded(launchers, NOTICE_MS), `${mode} after ${delayMs} ms: the launcher still runs`).toEqual([]);
      }),
      { numRuns: KILL_RUNS },
    );
  });
});

/**
 * runInGroup: a program and everything it starts end together, on a time limit, on a cancel,
 * when the program itself ends, and when the Node process that started them is stopped.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../src/runtime/processGroup.js";
import { isRunning, waitEnded } from "./fixtures/processes.js";

let work: string;
const worker = fileURLToPath(new URL("./fixtures/group-worker.mjs", import.meta.url));
const builtGroup = fileURLToPath(new URL("../../dist/runtime/processGroup.js", import.meta.url));

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "gk-group-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A shell that starts `sleep 30` in the background, writes its pid to a file, and waits. */
function tree(name: string): { args: string[]; pidFile: string } {
  const pidFile = path.join(work, `${name}.pid`);
  return { args: ["-c", 'sleep 30 & echo $! > "$0"; wait', pidFile], pidFile };
}

async function pidFrom(file: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (!existsSync(file) || readFileSync(file, "utf8").trim() === "") {
    if (Date.now() > deadline) throw new Error(`${file} was not written within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Number(readFileSync(file, "utf8").trim());
}

describe("runInGroup", () => {
  it("reports output and exit codes like any run", async () => {
    expect(await runInGroup("sh", ["-c", "echo out; echo err >&2"], { timeoutMs: 0 })).toMatchObject({ kind: "ok", stdout: "out\n", stderr: "err\n" });
    expect(await runInGroup("sh", ["-c", "echo bad >&2; exit 3"], { timeoutMs: 0 })).toMatchObject({ kind: "exit", exitCode: 3, output: "bad\n" });
    expect(await runInGroup("/nonexistent/gk/prog", [], { timeoutMs: 0 })).toMatchObject({ kind: "spawn", code: "ENOENT" });
  });

  it("ends the whole group on a time limit", async () => {
    const t = tree("limit");
    const t0 = Date.now();
    expect(await runInGroup("sh", t.args, { timeoutMs: 200 })).toMatchObject({ kind: "timeout" });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await waitEnded([await pidFrom(t.pidFile)], 30_000)).toEqual([]);
  });

  it("ends the whole group on a cancel", async () => {
    const t = tree("cancel");
    const ac = new AbortController();
    const run = runInGroup("sh", t.args, { timeoutMs: 0, cancel: ac.signal });
    const child = await pidFrom(t.pidFile);
    ac.abort();
    expect(await run).toEqual({ kind: "canceled" });
    expect(await waitEnded([child], 30_000)).toEqual([]);
  });

  it("ends what is left of the group when its leader ends", async () => {
    const pidFile = path.join(work, "leftover.pid");
    // The leader exits at once; its background child would go on for 30 s with the pipes open.
    const t0 = Date.now();
    const r = await runInGroup("sh", ["-c", 'sleep 30 & echo $! > "$0"; exit 4', pidFile], { timeoutMs: 0 });
    expect(r).toMatchObject({ kind: "exit", exitCode: 4 });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await waitEnded([await pidFrom(pidFile)], 30_000)).toEqual([]);
  });

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`ends the group when the Node process that started it gets ${signal}, and that process still ends`, async () => {
      expect(existsSync(builtGroup), `${builtGroup} is missing: run \`npm run build\` first`).toBe(true);
      const t = tree(`parent-${signal}`);
      const parent = execa(process.execPath, [worker, "sh", ...t.args], { reject: false, timeout: 300_000 });
      const child = await pidFrom(t.pidFile);
      expect(isRunning(child)).toBe(true);
      parent.kill(signal);
      const r = await parent;
      expect(r.signal).toBe(signal);
      expect(await waitEnded([child], 30_000)).toEqual([]);
    });
  }
});

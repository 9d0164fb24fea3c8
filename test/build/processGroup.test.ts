/**
 * runInGroup: a program and everything it starts end together, on a time limit, on a cancel,
 * when the program itself ends, and when the Node process that started them is stopped.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../src/build/processGroup.js";
import { isRunning, waitEnded } from "../runtime/fixtures/processes.js";

let work: string;
const worker = fileURLToPath(new URL("./fixtures/group-worker.mjs", import.meta.url));
const builtGroup = fileURLToPath(new URL("../../dist/build/processGroup.js", import.meta.url));

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

  it("ends the group when the Node process that started it is killed with SIGKILL (no handler runs)", async () => {
    expect(existsSync(builtGroup), `${builtGroup} is missing: run \`npm run build\` first`).toBe(true);
    const t = tree("parent-SIGKILL");
    const parent = execa(process.execPath, [worker, "sh", ...t.args], { reject: false, timeout: 20_000 });
    const child = await pidFrom(t.pidFile);
    parent.kill("SIGKILL");
    expect((await parent).signal).toBe("SIGKILL");
    // Generous: the guard's kill comes at once, but a loaded machine is slow to schedule it.
    expect(await waitEnded([child], 20_000)).toEqual([]);
  });

  it("reports a program that is not there, or not executable, as a spawn failure", async () => {
    const notExecutable = path.join(work, "not-executable");
    writeFileSync(notExecutable, "#!/bin/sh\n");
    expect(await runInGroup(notExecutable, [], { timeoutMs: 0 })).toMatchObject({ kind: "spawn", code: "EACCES" });
    expect(await runInGroup("gk-no-such-program", [], { timeoutMs: 0 })).toMatchObject({ kind: "spawn", code: "ENOENT" });
    // A name without a slash is found on PATH, as a spawn finds it.
    expect(await runInGroup("sh", ["-c", "echo $0"], { timeoutMs: 0 })).toMatchObject({ kind: "ok", stdout: expect.stringMatching(/^\/.*\/sh\n$/) });
  });
});

describe("gkc build killed with SIGKILL", () => {
  it("leaves none of nvcc's stages running (a fake nvcc whose stage sleeps)", async () => {
    const gkc = fileURLToPath(new URL("../../bin/gkc.js", import.meta.url));
    expect(existsSync(builtGroup), `${builtGroup} is missing: run \`npm run build\` first`).toBe(true);
    const pids = path.join(work, "stages.pid");
    // Answers --version; a compile starts a "cicc" stage in the background, as nvcc's shell does, and waits for it.
    const nvcc = path.join(work, "nvcc-with-stages");
    writeFileSync(nvcc, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 12.0, V12.0.1"; exit 0; fi\nsleep 300 &\necho $! >> ${JSON.stringify(pids)}\nwait\n`);
    chmodSync(nvcc, 0o755);
    const source = path.join(work, "k.gk");
    writeFileSync(source, "device_kernel k(o: global<f32>) { o[0] = 1.0; }\n");
    const build = execa(process.execPath, [gkc, "build", source, "--arch", "sm_90"], {
      env: { GK_NVCC: nvcc, GK_CACHE_DIR: path.join(work, "build-cache") },
      reject: false,
      timeout: 60_000,
    });
    const deadline = Date.now() + 30_000;
    while ((existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").length : 0) < 2) {
      if (Date.now() > deadline || build.exitCode !== undefined && build.exitCode !== null) throw new Error("the two nvcc runs did not start within 30 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    build.kill("SIGKILL");
    expect((await build).signal).toBe("SIGKILL");
    const stages = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(await waitEnded(stages, 20_000)).toEqual([]);
  });
});

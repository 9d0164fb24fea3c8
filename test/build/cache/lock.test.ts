/**
 * The per-key build lock (src/build/cache/lock.ts): one owner at a time, waiters that return
 * when it is released, and locks of owners that are gone broken instead of waited for.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrBuild } from "../../../src/build/cache.js";
import { HOST } from "../../../src/build/cache/layout.js";
import { HEARTBEAT_MS, LOCK_STALE_MS, tryLock, waitForLock } from "../../../src/build/cache/lock.js";
import { findNvcc } from "../../../src/build/nvcc.js";
import { countingNvcc, type CountingNvcc } from "../fixtures/nvcc-wrapper.js";
import { SAXPY } from "../fixtures/sources.js";

let work: string;
let counting: CountingNvcc;
let n = 0;
const KEY = "c".repeat(64);

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "gk-cache-lock-"));
  counting = countingNvcc(work, findNvcc().path);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function locksDir(): string {
  const d = path.join(work, `locks-${++n}`);
  mkdirSync(d);
  return d;
}

/** The result of `p`, or "pending" if it has not settled after `ms`. */
function settledWithin<T>(p: Promise<T>, ms: number): Promise<T | "pending"> {
  return Promise.race([p, new Promise<"pending">((r) => setTimeout(() => r("pending"), ms))]);
}

const endedPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

describe("the build lock", () => {
  it("has one owner at a time, and can be taken again once released", async () => {
    const dir = locksDir();
    const a = await tryLock(dir, KEY);
    expect(a).toBeDefined();
    expect(await tryLock(dir, KEY)).toBeUndefined();
    await a!.release();
    expect(existsSync(path.join(dir, KEY))).toBe(false);
    const b = await tryLock(dir, KEY);
    expect(b).toBeDefined();
    await b!.release();
  });

  it("keeps its file fresh while held", async () => {
    const dir = locksDir();
    const lock = (await tryLock(dir, KEY))!;
    const file = path.join(dir, KEY);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS + 500));
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(HEARTBEAT_MS + 500);
    await lock.release();
  });

  it("makes a waiter wait until the owner releases it", async () => {
    const dir = locksDir();
    const lock = (await tryLock(dir, KEY))!;
    const waiting = waitForLock(dir, KEY);
    expect(await settledWithin(waiting, 300)).toBe("pending");
    await lock.release();
    expect(await settledWithin(waiting, 1_000)).toBeUndefined();
  });

  it("is broken at once when its owner is a process of this host that has ended", async () => {
    const dir = locksDir();
    writeFileSync(path.join(dir, KEY), JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" }));
    expect(await settledWithin(waitForLock(dir, KEY), 1_000)).toBeUndefined();
    expect(existsSync(path.join(dir, KEY))).toBe(false);
    expect(await tryLock(dir, KEY)).toBeDefined();
  });

  it("has one owner at a time when many waiters find the lock of an ended owner at once", async () => {
    for (let round = 0; round < 10; round++) {
      const dir = locksDir();
      writeFileSync(path.join(dir, KEY), JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" }));
      let holders = 0;
      let most = 0;
      let owners = 0;
      // What getOrBuild does: try the lock, else wait for it; the first owner keeps it a while.
      const contender = async () => {
        for (;;) {
          const lock = await tryLock(dir, KEY);
          if (lock !== undefined) {
            owners++;
            most = Math.max(most, ++holders);
            await new Promise((r) => setTimeout(r, 30));
            holders--;
            return; // the lock stays held: every later contender must keep waiting
          }
          if ((await settledWithin(waitForLock(dir, KEY), 200)) === "pending") return;
        }
      };
      await Promise.all(Array.from({ length: 8 }, contender));
      expect(most, `round ${round}`).toBe(1);
      expect(owners, `round ${round}`).toBe(1);
    }
  });

  it("is broken by one waiter at a time: not while another's guard is up, and a guard whose breaker ended is removed", async () => {
    const dir = locksDir();
    const lock = path.join(dir, KEY);
    const guard = `${lock}.break`;
    writeFileSync(lock, JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" }));
    writeFileSync(guard, JSON.stringify({ pid: process.pid, host: HOST, startedAt: "" })); // a live breaker
    const waiting = waitForLock(dir, KEY);
    expect(await settledWithin(waiting, 400)).toBe("pending");
    expect(existsSync(lock)).toBe(true);
    rmSync(guard);
    expect(await settledWithin(waiting, 1_000)).toBeUndefined();
    expect(existsSync(lock)).toBe(false);

    writeFileSync(lock, JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" }));
    writeFileSync(guard, JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" })); // its breaker ended
    expect(await settledWithin(waitForLock(dir, KEY), 1_000)).toBeUndefined();
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(guard)).toBe(false);
  });

  it("from another host, is waited for while fresh and broken once untouched for LOCK_STALE_MS", async () => {
    const dir = locksDir();
    const file = path.join(dir, KEY);
    writeFileSync(file, JSON.stringify({ pid: 1, host: "elsewhere", startedAt: "" }));
    expect(await settledWithin(waitForLock(dir, KEY), 300)).toBe("pending");
    const old = new Date(Date.now() - LOCK_STALE_MS - 1_000);
    utimesSync(file, old, old);
    expect(await settledWithin(waitForLock(dir, KEY), 1_000)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });
});

describe("getOrBuild and the lock", () => {
  const build = (root: string) => getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc: counting.path });

  it("waits for a build in flight in another process rather than running nvcc itself", async () => {
    const root = path.join(work, "root-wait");
    const probe = await build(root); // learn the key, then start over with an empty cache
    rmSync(root, { recursive: true });
    const lock = (await tryLock(path.join(root, "v1", "locks"), probe.entry.key))!;
    const before = counting.compileRuns().length;
    const waiting = build(root);
    expect(await settledWithin(waiting, 500)).toBe("pending");
    expect(counting.compileRuns().length).toBe(before);
    await lock.release(); // the "other process" gave up without an entry: the waiter builds
    expect((await waiting).hit).toBe(false);
    expect(counting.compileRuns().length).toBe(before + 2);
  });

  it("builds at once over the lock of a builder that crashed", async () => {
    const root = path.join(work, "root-crashed");
    const probe = await build(root);
    rmSync(root, { recursive: true });
    mkdirSync(path.join(root, "v1", "locks"), { recursive: true });
    writeFileSync(path.join(root, "v1", "locks", probe.entry.key), JSON.stringify({ pid: endedPid(), host: HOST, startedAt: "" }));
    const t0 = Date.now();
    expect((await build(root)).hit).toBe(false);
    expect(Date.now() - t0).toBeLessThan(LOCK_STALE_MS);
  });
});

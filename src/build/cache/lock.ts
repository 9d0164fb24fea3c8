/**
 * One build per key at a time. A process that builds a key first creates `v1/locks/<key>`
 * (exclusively, so only one can); the others wait for that file to go and then find the
 * entry, or the failure the builder recorded, instead of running nvcc again.
 *
 * A lock never blocks for long after its owner is gone: the owner touches the file every
 * `HEARTBEAT_MS`, and a waiter breaks a lock whose owner is a process on this host that has
 * ended, or whose file has not been touched for `LOCK_STALE_MS` (an owner on another host that
 * stopped). One waiter breaks at a time: it first creates `<key>.break` exclusively, then looks
 * at the lock again and removes it only if it is still stale. (Renaming the lock away and
 * putting back a fresh one taken meanwhile left a window where a third process took the name
 * and two owners built; the cache fuzz test found it.) A guard left by a breaker that ended is
 * judged like a lock. A lock broken by mistake (an owner frozen past the limit) costs one more
 * nvcc run, never a wrong entry: entries are still published by rename. A lock file is always
 * a small regular file: anything else at a lock's name (a FIFO, a folder, a symlink, planted
 * or left by something other than gk) is judged stale at once and removed, and is never read.
 */
import { randomBytes } from "node:crypto";
import { link, lstat, open, rm, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { readRegularFile } from "../../regularFile.js";
import { errnoOf, makeFolder } from "./entry.js";
import { HOST, processAlive } from "./layout.js";

export const HEARTBEAT_MS = 2_000;
export const LOCK_STALE_MS = 15_000;
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 250;

export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export interface BuildLock {
  /** Whether the lock file is still this lock's (not broken by a waiter that judged it stale). */
  held(): Promise<boolean>;
  /** Stops the heartbeat and removes the lock file if it is still this lock's. */
  release(): Promise<void>;
}

/** Takes the key's lock, or says (undefined) that another process holds it. */
export async function tryLock(locksDir: string, key: string): Promise<BuildLock | undefined> {
  const file = path.join(locksDir, key);
  await makeFolder(locksDir);
  const owner: LockOwner = { pid: process.pid, host: HOST, startedAt: new Date().toISOString() };
  const ino = await createWithOwner(file, JSON.stringify(owner) + "\n");
  if (ino === undefined) return undefined;
  const beat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  const held = async () => (await lstat(file, { bigint: true }).catch(() => undefined))?.ino === ino;
  return {
    held,
    async release() {
      clearInterval(beat);
      if (await held()) await unlink(file).catch(() => undefined);
    },
  };
}

/**
 * Creates the lock file `file` holding `text` at once, so that no waiter ever sees a lock
 * without its owner (one that would be judged by its age alone, 15 s, had its owner died
 * between creating and writing it): the text is written to a private file first, then
 * hard-linked to the lock's name, which fails if the lock is held. Where the file system has no
 * hard links, the lock is created and then written. The new lock's inode, or undefined when the
 * lock is held.
 */
async function createWithOwner(file: string, text: string): Promise<bigint | undefined> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.owner`;
  await writeFile(tmp, text, { flag: "wx" });
  try {
    await link(tmp, file);
    return (await lstat(file, { bigint: true })).ino;
  } catch (e) {
    if (errnoOf(e) === "EEXIST") return undefined;
    if (errnoOf(e) !== "EPERM" && errnoOf(e) !== "ENOTSUP" && errnoOf(e) !== "EOPNOTSUPP") throw e;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  let fh;
  try {
    fh = await open(file, "wx");
  } catch (e) {
    if (errnoOf(e) === "EEXIST") return undefined;
    throw e;
  }
  try {
    await fh.writeFile(text);
    return (await fh.stat({ bigint: true })).ino;
  } finally {
    await fh.close();
  }
}

/**
 * Waits until the key's lock file is gone: released by its owner, or broken here because its
 * owner is gone. Returns at once when there is no lock.
 */
export async function waitForLock(locksDir: string, key: string): Promise<void> {
  const file = path.join(locksDir, key);
  let pause = POLL_FIRST_MS;
  for (;;) {
    const st = await lstat(file, { bigint: true }).catch((e: unknown) => {
      if (errnoOf(e) === "ENOENT") return undefined;
      throw e;
    });
    if (st === undefined) return;
    if ((await isStale(file)) && (await breakLock(file))) return;
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(POLL_MAX_MS, pause * 2);
  }
}

/**
 * For `gkc cache clear` and the sweep: removes a lock file whose owner is gone, and leftovers of
 * broken locks. "held" when the lock's owner still runs.
 */
export async function removeIfStale(locksDir: string, name: string): Promise<"held" | "removed" | "gone"> {
  const file = path.join(locksDir, name);
  const st = await lstat(file, { bigint: true }).catch(() => undefined);
  if (st === undefined) return "gone";
  if (name.includes(".stale.")) {
    // Left by gk before 2026-11-24, which renamed a lock away to break it.
    if (Date.now() - Number(st.mtimeMs) <= LOCK_STALE_MS) return "held";
    await unlink(file).catch(() => undefined);
    return "removed";
  }
  if (!(await isStale(file))) return "held";
  if (name.endsWith(".break")) {
    await removeLockFile(file); // the guard of a breaker that ended
    return "removed";
  }
  return (await breakLock(file)) ? "removed" : "held";
}

/** The largest lock file read: its owner's pid, host and start time. */
const MAX_LOCK_BYTES = 4096;

/** Whether the lock at `file` may be broken: not a regular file (not gk's), untouched for too long, or its owner gone. */
async function isStale(file: string): Promise<boolean> {
  const st = await lstat(file).catch(() => undefined);
  if (st === undefined) return false; // gone: nothing to break
  if (!st.isFile()) return true;
  if (Date.now() - st.mtimeMs > LOCK_STALE_MS) return true;
  const owner = await readOwner(file);
  // An owner still writing its name, or one on another host, is judged by the heartbeat alone.
  return owner !== undefined && owner.host === HOST && !processAlive(owner.pid);
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  const r = await readRegularFile(file, { maxBytes: MAX_LOCK_BYTES, followLinks: false });
  if (r.kind !== "ok") return undefined;
  try {
    const o = JSON.parse(r.data.toString("utf8")) as Partial<LockOwner>;
    return typeof o.pid === "number" && typeof o.host === "string" ? (o as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock file if it is (still) stale, as the one breaker of the moment (see the top of
 * this file): true when the lock is gone, false when it is held after all or another waiter is
 * breaking it.
 */
async function breakLock(file: string): Promise<boolean> {
  const guard = `${file}.break`;
  let fh;
  try {
    fh = await open(guard, "wx");
  } catch (e) {
    if (errnoOf(e) !== "EEXIST") throw e;
    if (await isStale(guard)) await removeLockFile(guard);
    return false;
  }
  try {
    const owner: LockOwner = { pid: process.pid, host: HOST, startedAt: new Date().toISOString() };
    await fh.writeFile(JSON.stringify(owner) + "\n");
    await fh.close();
    fh = undefined;
    if ((await lstat(file).catch(() => undefined)) === undefined) return true;
    if (!(await isStale(file))) return false;
    await removeLockFile(file);
    return (await lstat(file).catch(() => undefined)) === undefined;
  } finally {
    await fh?.close();
    await unlink(guard).catch(() => undefined);
  }
}

/** Removes what is at a lock's name: a lock file, or a folder or anything else planted there. */
async function removeLockFile(file: string): Promise<void> {
  await rm(file, { recursive: true, force: true }).catch(() => undefined);
}

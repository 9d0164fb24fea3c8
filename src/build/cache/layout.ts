/**
 * Where things live in the kernel cache, and how the private folders are named. The root and
 * its folders are src/cacheFolder.ts's (the layout is drawn there); a published entry sits at
 * `<root>/v1/<key[0..2]>/<key>/`.
 *
 * A scratch name is `<key>.<pid>.<host>.<random>`, so that a folder's owner can be told apart.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { FORMAT_DIR, layoutOf } from "../../cacheFolder.js";

export const BASE_NAME = "kernel";
export const ENTRY_FILES = ["kernel.cu", "kernel.ptx", "kernel.cubin"] as const;
export type EntryFile = (typeof ENTRY_FILES)[number];
export const META_FILE = "meta.json";

export const KEY_RE = /^[0-9a-f]{64}$/;
export const SHARD_RE = /^[0-9a-f]{2}$/;

/** Private folders older than this are abandoned: no build runs that long (nvcc's default limit is 5 minutes). */
export const STALE_AFTER_MS = 60 * 60_000;
/** Kept sources of failed builds are removed after a week. */
export const FAILED_KEPT_MS = 7 * 24 * 60 * 60_000;

export function entryDir(root: string, key: string): string {
  return path.join(root, FORMAT_DIR, key.slice(0, 2), key);
}

export function failedDir(root: string, key: string): string {
  return path.join(layoutOf(root).failed, key);
}

export const HOST = os.hostname().replace(/[^A-Za-z0-9-]/g, "-").slice(0, 40) || "host";

export function scratchName(key: string): string {
  return `${key}.${process.pid}.${HOST}.${randomBytes(6).toString("hex")}`;
}

/**
 * Whether a private folder (tmp or trash) may be removed by someone other than its owner:
 * it is older than `STALE_AFTER_MS`, or, when `checkOwner` is set, its owner was a process
 * on this host that has ended.
 */
export function isAbandoned(name: string, mtimeMs: number, now: number, checkOwner: boolean): boolean {
  if (now - mtimeMs > STALE_AFTER_MS) return true;
  if (!checkOwner) return false;
  const m = /^[0-9a-f]{64}\.(\d+)\.([A-Za-z0-9-]+)\.[0-9a-f]+$/.exec(name);
  if (!m || m[2] !== HOST) return false;
  return !processAlive(Number(m[1]));
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Where things live in the kernel cache, and how the private folders are named.
 *
 *   <root>/CACHEDIR.TAG                 tells backup tools to skip the cache
 *   <root>/v1/<key[0..2]>/<key>/        a published entry: kernel.cu .ptx .cubin meta.json
 *   <root>/v1/tmp/<scratch>/            a build in progress (private to one process)
 *   <root>/v1/trash/<scratch>/          an entry moved aside (damaged or cleared), being deleted
 *   <root>/v1/failed/<key>/kernel.cu    the source of a failed build, for the reported nvcc command
 *   <root>/v1/failed/<key>/failure.json what nvcc said, for processes that waited for that build
 *   <root>/v1/locks/<key>               held while a process builds the key (cache/lock.ts)
 *   <root>/v1/src/<key>/kernel.cu       the source of a build in progress, where nvcc reads it
 *   <root>/v1/ts/<key>.json             a TypeScript kernel file lowered to gk's AST (tsfront/cache.ts)
 *                                       or the module code of an imported .gk file (modules/codeCache.ts)
 *
 * A scratch name is `<key>.<pid>.<host>.<random>`, so that a folder's owner can be told apart.
 * Everything sits under one root, so every rename stays on one filesystem and is atomic.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";

/** The cache format's folder; also the marker that says a folder is a gk cache. */
export const FORMAT_DIR = "v1";
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

/**
 * The cache root: `$GK_CACHE_DIR`, else `$XDG_CACHE_HOME/gk`, else `~/.cache/gk`. The one
 * place that reads the environment; everything else takes a root.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const explicit = env.GK_CACHE_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg) return path.resolve(xdg, "gk");
  return path.resolve(home, ".cache", "gk");
}

export interface CacheLayout {
  readonly root: string;
  readonly base: string;
  readonly tmp: string;
  readonly trash: string;
  readonly failed: string;
  readonly locks: string;
  readonly src: string;
  readonly ts: string;
}

export function layoutOf(root: string): CacheLayout {
  const base = path.join(root, FORMAT_DIR);
  return {
    root,
    base,
    tmp: path.join(base, "tmp"),
    trash: path.join(base, "trash"),
    failed: path.join(base, "failed"),
    locks: path.join(base, "locks"),
    src: path.join(base, "src"),
    ts: path.join(base, "ts"),
  };
}

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

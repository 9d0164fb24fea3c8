/**
 * Looking after the cache: listing entries, clearing it (`gkc cache ls | clear`), and
 * removing private folders that killed processes left behind. Only names that gk itself
 * creates are ever removed, and only under `<root>/v1`; a folder without `v1` is refused.
 */
import { constants } from "node:fs";
import { access, lstat, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { error } from "../../diagnostics/index.js";
import { BuildError } from "../nvcc.js";
import { cacheIoError, errnoOf, isMissing, makeFolder, MAX_META_BYTES, metaShapeProblem, readEntryFile, type EntryMeta } from "./entry.js";
import { removeIfStale } from "./lock.js";
import { FAILED_KEPT_MS, isAbandoned, KEY_RE, META_FILE, scratchName, SHARD_RE, STALE_AFTER_MS } from "./layout.js";
import { layoutOf } from "../../cacheFolder.js";

export interface CacheRow {
  readonly key: string;
  readonly dir: string;
  /** Kernel names from meta.json; empty when it cannot be read. */
  readonly kernels: readonly string[];
  readonly arch?: string;
  /** Bytes of all files in the entry. */
  readonly sizeBytes: number;
  /** From meta.json's build time, else the folder's modification time. */
  readonly builtAt: Date;
  readonly ageMs: number;
  /** meta.json is missing or unreadable (files are not hashed here; a lookup checks those). */
  readonly damaged: boolean;
}

/** Every published entry under the root, newest first. An absent cache lists as empty. */
export async function listEntries(root: string, now: number = Date.now()): Promise<CacheRow[]> {
  const rows: CacheRow[] = [];
  const base = layoutOf(root).base;
  for (const shard of await namesIn(base)) {
    if (!SHARD_RE.test(shard)) continue;
    for (const key of await namesIn(path.join(base, shard))) {
      if (!KEY_RE.test(key)) continue;
      const row = await describeEntry(path.join(base, shard, key), key, now);
      if (row !== undefined) rows.push(row);
    }
  }
  return rows.sort((a, b) => a.ageMs - b.ageMs || (a.key < b.key ? -1 : 1));
}

async function describeEntry(dir: string, key: string, now: number): Promise<CacheRow | undefined> {
  try {
    const dirStat = await lstat(dir); // a link at the entry's name is not followed: it lists as damaged
    const sizeBytes = dirStat.isDirectory() ? await folderSize(dir) : 0;
    const meta = dirStat.isDirectory() ? await readMeta(dir) : undefined;
    const builtAt = meta ? new Date(meta.builtAt) : dirStat.mtime;
    const when = Number.isNaN(builtAt.getTime()) ? dirStat.mtime : builtAt;
    return {
      key,
      dir,
      kernels: meta?.kernels ?? [],
      ...(meta ? { arch: meta.inputs.arch } : {}),
      sizeBytes,
      builtAt: when,
      ageMs: Math.max(0, now - when.getTime()),
      damaged: meta === undefined,
    };
  } catch (e) {
    if (isMissing(e)) return undefined; // removed while listing
    throw e;
  }
}

async function readMeta(dir: string): Promise<EntryMeta | undefined> {
  try {
    const text = await readEntryFile(dir, META_FILE, MAX_META_BYTES);
    if (typeof text === "string") return undefined;
    const parsed: unknown = JSON.parse(text.toString("utf8"));
    return metaShapeProblem(parsed) === undefined ? (parsed as EntryMeta) : undefined;
  } catch {
    return undefined;
  }
}

/** An aligned table: key prefix, arch, kernels, size, age, and a total line. */
export function formatCacheTable(rows: readonly CacheRow[]): string {
  if (rows.length === 0) return "(the kernel cache is empty)";
  const header = ["KEY", "ARCH", "KERNELS", "SIZE", "AGE"];
  const body = rows.map((r) => [
    r.key.slice(0, 12),
    r.arch ?? "?",
    r.damaged ? "(damaged: meta.json unreadable)" : ellipsis(r.kernels.join(", ") || "-", 48),
    formatBytes(r.sizeBytes),
    formatAge(r.ageMs),
  ]);
  const table = [header, ...body];
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const rightAligned = new Set([3, 4]);
  const lines = table.map((row) =>
    row
      .map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
  const total = rows.reduce((s, r) => s + r.sizeBytes, 0);
  lines.push("", `${rows.length} ${rows.length === 1 ? "entry" : "entries"}, ${formatBytes(total)}`);
  return lines.join("\n");
}

function ellipsis(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + "…";
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

export function formatAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

export interface ClearResult {
  readonly entries: number;
  /** Private folders of builds and repairs removed (abandoned ones, or trash), and stale locks. */
  readonly scratch: number;
  /** Kept sources of failed builds removed. */
  readonly failed: number;
  /** Builds (keys) still running in other processes, whose folders and locks were left alone. */
  readonly inProgress: number;
  readonly bytes: number;
  /** Names under `v1` that gk did not create, left alone. */
  readonly unknown: readonly string[];
}

/** The folders under `v1` that are not shards. */
const KNOWN_FOLDERS = ["tmp", "trash", "src", "locks", "failed", "ts"];

/**
 * Removes every entry, the kept sources of failed builds, trash, abandoned build folders and
 * the locks of builds whose process is gone.
 * Entries are first renamed into trash, so a concurrent reader sees an entry or none, never a
 * half-deleted one. Refuses (GK7007) a root that has no `v1` folder.
 */
export async function clearCache(root: string, now: number = Date.now()): Promise<ClearResult> {
  try {
    return await clearFolders(root, now);
  } catch (e) {
    throw cacheIoError(e, root);
  }
}

async function clearFolders(root: string, now: number): Promise<ClearResult> {
  const layout = layoutOf(root);
  const rootStat = await stat(root).catch((e: unknown) => {
    if (isMissing(e)) return undefined;
    throw e;
  });
  if (rootStat === undefined) return { entries: 0, scratch: 0, failed: 0, inProgress: 0, bytes: 0, unknown: [] };
  const baseStat = await stat(layout.base).catch(() => undefined);
  if (!rootStat.isDirectory() || baseStat === undefined || !baseStat.isDirectory()) {
    throw new BuildError([
      error("GK7007", undefined, `refusing to clear ${root}: it does not look like a gk kernel cache (it has no v1 folder)`, [
        { message: "check GK_CACHE_DIR; gk only removes folders that it created itself" },
      ]),
    ]);
  }
  // Said plainly before anything is moved (a recursive mkdir on a read-only disk says ENOENT).
  await access(layout.base, constants.W_OK);
  let entries = 0;
  let scratch = 0;
  let failed = 0;
  const inProgress = new Set<string>(); // keys: a build has a lock, a source folder and a build folder
  let bytes = 0;
  const unknown: string[] = [];
  const removeVia = async (dir: string, key: string): Promise<boolean> => {
    const size = await folderSize(dir).catch(() => 0);
    const removed = await removeViaTrash(dir, layout.trash, key);
    if (removed) bytes += size;
    return removed;
  };

  for (const name of await namesIn(layout.base)) {
    const dir = path.join(layout.base, name);
    const known = SHARD_RE.test(name) || KNOWN_FOLDERS.includes(name);
    if (known && (await lstat(dir).then((st) => !st.isDirectory(), () => false))) {
      // A file, a FIFO or a link (a loop, or out of the cache) at one of gk's folder names: removed, never followed.
      await rm(dir, { force: true });
      scratch++;
    } else if (SHARD_RE.test(name)) {
      for (const key of await namesIn(dir)) {
        if (!KEY_RE.test(key)) unknown.push(path.join(name, key));
        else if (await removeVia(path.join(dir, key), key)) entries++;
      }
      await rmdir(dir).catch(() => undefined); // only when empty; a concurrent publish keeps it
    } else if (name === "tmp") {
      for (const t of await namesIn(dir)) {
        const mtime = await lstat(path.join(dir, t)).then((s) => s.mtimeMs, () => undefined);
        if (mtime === undefined) continue;
        if (!isAbandoned(t, mtime, now, true)) inProgress.add(t.slice(0, 64));
        else if (await removeVia(path.join(dir, t), t.slice(0, 64))) scratch++;
      }
    } else if (name === "trash") {
      for (const t of await namesIn(dir)) {
        bytes += await folderSize(path.join(dir, t)).catch(() => 0);
        await rm(path.join(dir, t), { recursive: true, force: true });
        scratch++;
      }
    } else if (name === "src") {
      // A source folder is in use while its key's lock is held.
      for (const key of await namesIn(dir)) {
        if (!KEY_RE.test(key)) unknown.push(path.join(name, key));
        else if ((await removeIfStale(layout.locks, key)) === "held") inProgress.add(key);
        else if (await removeVia(path.join(dir, key), key)) scratch++;
      }
    } else if (name === "locks") {
      for (const l of await namesIn(dir)) {
        const state = await removeIfStale(dir, l);
        if (state === "held") inProgress.add(l.slice(0, 64));
        else if (state === "removed") scratch++;
      }
    } else if (name === "failed") {
      for (const key of await namesIn(dir)) {
        if (!KEY_RE.test(key)) unknown.push(path.join(name, key));
        else if (await removeVia(path.join(dir, key), key)) failed++;
      }
    } else if (name === "ts") {
      // TypeScript kernel files lowered to gk's AST (tsfront/cache.ts): written atomically, removed whole.
      for (const f of await namesIn(dir)) {
        if (!/^[0-9a-f]{64}\.json(\.[0-9]+\.[0-9a-f]{8})?$/.test(f)) unknown.push(path.join(name, f));
        else {
          bytes += await lstat(path.join(dir, f)).then((s) => (s.isFile() ? s.size : 0), () => 0);
          await rm(path.join(dir, f), { recursive: true, force: true }); // a folder planted at the name goes too
          scratch++;
        }
      }
    } else {
      unknown.push(name);
    }
  }
  return { entries, scratch, failed, inProgress: inProgress.size, bytes, unknown };
}

/**
 * Opportunistic clean-up after a build: removes trash and build folders older than an hour
 * (left by killed processes), locks whose owner is gone, and kept failed sources older than a
 * week. Never throws.
 */
export async function sweepStale(root: string, now: number = Date.now()): Promise<number> {
  const layout = layoutOf(root);
  let removed = 0;
  const sweep = async (dir: string, maxAgeMs: number, keyOf: (name: string) => string) => {
    for (const name of await namesIn(dir).catch(() => [])) {
      const mtime = await lstat(path.join(dir, name)).then((s) => s.mtimeMs, () => undefined);
      if (mtime === undefined || now - mtime <= maxAgeMs) continue;
      if (await removeViaTrash(path.join(dir, name), layout.trash, keyOf(name)).catch(() => false)) removed++;
    }
  };
  await sweep(layout.tmp, STALE_AFTER_MS, (n) => n.slice(0, 64));
  await sweep(layout.src, STALE_AFTER_MS, (n) => n);
  for (const name of await namesIn(layout.locks).catch(() => [])) {
    if ((await removeIfStale(layout.locks, name).catch(() => "held")) === "removed") removed++;
  }
  await sweep(layout.failed, FAILED_KEPT_MS, (n) => n);
  for (const name of await namesIn(layout.trash).catch(() => [])) {
    const t = path.join(layout.trash, name);
    const mtime = await lstat(t).then((s) => s.mtimeMs, () => undefined);
    if (mtime !== undefined && now - mtime > STALE_AFTER_MS) {
      await rm(t, { recursive: true, force: true }).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}

/** Renames a folder to a unique trash name, then deletes it; false when it was already gone. */
async function removeViaTrash(dir: string, trash: string, key: string): Promise<boolean> {
  await makeFolder(trash);
  const target = path.join(trash, scratchName(key));
  try {
    await rename(dir, target);
  } catch (e) {
    if (errnoOf(e) === "ENOENT") return false;
    throw e;
  }
  await rm(target, { recursive: true, force: true });
  return true;
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (e) {
    if (isMissing(e)) return [];
    throw e;
  }
}

/** Bytes of the files directly inside a folder (entries and scratch folders are flat). */
async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const name of await namesIn(dir)) {
    total += await lstat(path.join(dir, name)).then((s) => (s.isFile() ? s.size : 0), () => 0);
  }
  return total;
}

/**
 * TypeScript kernel files lowered once, kept by content: `<cache>/v1/ts/<key>.json` holds a
 * file's gk AST and diagnostics, keyed by the front end's code, the file's path and its text. The
 * kernel cache's root (src/cacheFolder.ts) holds it, `gkc cache clear` removes it, and
 * a write that fails (a read-only cache) only costs the next run the lowering again.
 *
 * An entry is checked as a kernel-cache entry is: its first line records its key and the
 * sha256 of the rest, and it is read through the checked reader (a regular file, not a link,
 * at most MAX_LOWERING_BYTES). Anything else at its name (an edit, garbage, a truncated file, a
 * FIFO, a folder, a link) is not trusted: the file is lowered again and the entry replaced.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { readRegularFileSync } from "../regularFile.js";
import type { ParseResult } from "../parser/index.js";
import { cacheRoot, cacheRootProblem, gkVersion, layoutOf, sha256 } from "../cacheFolder.js";

let frontEndStamp: string | undefined;

/**
 * What identifies the front end's own code: gk's version, and the size and time of each of
 * this folder's files (so that a development build that changes the lowering does not read
 * what an earlier one wrote).
 */
function stamp(): string {
  if (frontEndStamp !== undefined) return frontEndStamp;
  try {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const files = readdirSync(dir).filter((f) => /\.(js|ts)$/.test(f)).sort();
    const parts = files.map((f) => {
      const st = statSync(path.join(dir, f));
      return `${f}:${st.size}:${st.mtimeMs}`;
    });
    frontEndStamp = `${gkVersion()}\0${parts.join("\0")}`;
  } catch {
    // gk bundled into a program (no package.json, no folder of its own): no disk cache.
    frontEndStamp = "";
  }
  return frontEndStamp;
}

/** The cache key of a file's lowering. */
export function loweringKey(file: string, text: string): string {
  return sha256(`gk typescript\0${stamp()}\0${file}\0${text}`);
}

/** The largest entry read: the lowering of a 4 MiB source file (the largest gk reads) with room to spare. */
export const MAX_LOWERING_BYTES = 256 * 2 ** 20;
const LOWERING_TAG = "gk-lowering";

/** The ts folder, or undefined when there is no disk cache (gk bundled) or the root cannot hold one (under /proc). */
export function folder(): string | undefined {
  if (stamp() === "") return undefined;
  const root = cacheRoot();
  return cacheRootProblem(root) === undefined ? layoutOf(root).ts : undefined;
}

/** The checked lowering of `key`, or undefined when there is none or it is damaged. */
export function readLowered(key: string): ParseResult | undefined {
  const dir = folder();
  if (dir === undefined) return undefined;
  return checkedLowering(path.join(dir, `${key}.json`), key);
}

/** The lowering at `p` if it is a checked entry of `key` (readCheckedEntry) holding a lowering, else undefined. */
function checkedLowering(p: string, key: string): ParseResult | undefined {
  const payload = readCheckedEntry(p, LOWERING_TAG, key, MAX_LOWERING_BYTES);
  if (payload === undefined) return undefined;
  try {
    const result = JSON.parse(payload) as ParseResult;
    return result && result.module?.kind === "Module" && Array.isArray(result.diagnostics) ? result : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payload of the entry at `p` if it is a regular file (not followed through a link, at
 * most `maxBytes`) whose first line is `<tag> 1 <key> <sha256 of the rest>`, else undefined:
 * what was edited, truncated, planted or written for another key is never trusted.
 */
export function readCheckedEntry(p: string, tag: string, key: string, maxBytes: number): string | undefined {
  const r = readRegularFileSync(p, { maxBytes, followLinks: false });
  if (r.kind !== "ok") return undefined;
  const nl = r.data.indexOf(10);
  const header = /^(\S+) 1 ([0-9a-f]{64}) ([0-9a-f]{64})$/.exec(r.data.subarray(0, Math.max(0, nl)).toString("latin1"));
  const payload = r.data.subarray(nl + 1);
  if (nl < 0 || !header || header[1] !== tag || header[2] !== key || header[3] !== sha256(payload)) return undefined;
  return payload.toString("utf8");
}

/** Writes the lowering of `key` (writeCheckedEntry); a failure is ignored. */
export function writeLowered(key: string, result: ParseResult): void {
  const dir = folder();
  if (dir !== undefined) writeCheckedEntry(dir, `${key}.json`, LOWERING_TAG, key, JSON.stringify(result));
}

/**
 * Writes `payload` as the checked entry `name` of the folder `dir` (readCheckedEntry's form):
 * a temporary file renamed over whatever is at its name, after anything gk does not put there
 * (a link or file at the folder's name, a folder at the entry's) is removed, never followed.
 * A failure (a read-only or full cache) is ignored: it costs the next run the work again.
 */
export function writeCheckedEntry(dir: string, name: string, tag: string, key: string, payload: string): void {
  const file = path.join(dir, name);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    clearName(dir, false);
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, `${tag} 1 ${key} ${sha256(payload)}\n${payload}`, { flag: "wx" });
    clearName(file, true);
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the folder itself is gone or unusable: nothing was written
    }
  }
}

/**
 * Removes what is at a name of the cache that is not what gk puts there: anything but a folder
 * at the ts folder's name; a folder at an entry's name (a file, a FIFO or a link is replaced by
 * the rename itself). Links are removed, never followed.
 */
function clearName(p: string, isEntry: boolean): void {
  let st;
  try {
    st = lstatSync(p);
  } catch {
    return;
  }
  if (isEntry ? st.isDirectory() : !st.isDirectory()) rmSync(p, { recursive: true, force: true });
}

/** A kept lowering, as `gkc cache ls` lists it. */
export interface LoweredRow {
  readonly key: string;
  /** The TypeScript file it is the lowering of, or undefined where the entry is damaged (it is lowered again when next used). */
  readonly file: string | undefined;
  readonly sizeBytes: number;
  readonly ageMs: number;
}

/** The lowerings kept in the cache at `root`, newest first; each read as readLowered reads it (checked, never followed through a link). */
export function listLowered(root: string, now = Date.now()): LoweredRow[] {
  const dir = layoutOf(root).ts;
  let names: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return []; // a link or file planted at the folder's name is not followed
    names = readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.json$/.test(n));
  } catch {
    return [];
  }
  const rows: LoweredRow[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    const key = name.slice(0, -".json".length);
    try {
      const st = lstatSync(p);
      rows.push({ key, file: checkedLowering(p, key)?.module.file, sizeBytes: st.size, ageMs: now - st.mtimeMs });
    } catch {
      // removed meanwhile (gkc cache clear in another process)
    }
  }
  return rows.sort((a, b) => a.ageMs - b.ageMs);
}

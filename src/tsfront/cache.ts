/**
 * TypeScript kernel files lowered once, kept by content: `<cache>/v1/ts/<key>.json` holds a
 * file's gk AST and diagnostics, keyed by the front end's code, the file's path and its text. The
 * kernel cache's root (runtime/cache/layout.ts) holds it, `gkc cache clear` removes it, and
 * a write that fails (a read-only cache) only costs the next run the lowering again.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { ParseResult } from "../parser/index.js";
import { cacheRoot, layoutOf } from "../runtime/cache/layout.js";
import { gkVersion } from "../runtime/cache/key.js";

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
  return createHash("sha256").update(`gk typescript\0${stamp()}\0${file}\0${text}`).digest("hex");
}

function entryPath(key: string): string {
  return path.join(layoutOf(cacheRoot()).ts, `${key}.json`);
}

export function readLowered(key: string): ParseResult | undefined {
  if (stamp() === "") return undefined;
  try {
    const r = JSON.parse(readFileSync(entryPath(key), "utf8")) as ParseResult;
    return r && r.module?.kind === "Module" && Array.isArray(r.diagnostics) ? r : undefined;
  } catch {
    return undefined;
  }
}

export function writeLowered(key: string, result: ParseResult): void {
  if (stamp() === "") return;
  const file = entryPath(key);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, JSON.stringify(result));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** A kept lowering, as `gkc cache ls` lists it. */
export interface LoweredRow {
  readonly key: string;
  /** The TypeScript file it is the lowering of, or undefined where the entry cannot be read. */
  readonly file: string | undefined;
  readonly sizeBytes: number;
  readonly ageMs: number;
}

/** The lowerings kept in the cache at `root`, newest first. */
export function listLowered(root: string, now = Date.now()): LoweredRow[] {
  const dir = layoutOf(root).ts;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.json$/.test(n));
  } catch {
    return [];
  }
  const rows: LoweredRow[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    try {
      const st = statSync(p);
      let file: string | undefined;
      try {
        const r = JSON.parse(readFileSync(p, "utf8")) as Partial<ParseResult>;
        file = typeof r.module?.file === "string" ? r.module.file : undefined;
      } catch {
        file = undefined;
      }
      rows.push({ key: name.slice(0, -".json".length), file, sizeBytes: st.size, ageMs: now - st.mtimeMs });
    } catch {
      // removed meanwhile (gkc cache clear in another process)
    }
  }
  return rows.sort((a, b) => a.ageMs - b.ageMs);
}

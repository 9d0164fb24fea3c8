/**
 * The module code of imported `.gk` files (code.ts's), kept by content for the Node loader
 * (hooks.ts), so that a program imported again under `node --import gk/register` does not
 * load and run the front end on the loader thread as well as on its own (where
 * runtime.ts compiles the embedded sources): a hit costs reading and hashing the files.
 *
 * `<cache>/v1/ts/<key>.module.json` (in the folder of the front end's results,
 * tsfront/cache.ts, which `gkc cache clear` empties) holds `{ files, code }` as a checked
 * entry (its header names its key and the sha256 of the rest; it is read only as a regular
 * file, never through a link, and an edited, truncated or planted one is compiled again,
 * never run): the key hashes gk's own code, the file's path and its text; `files` the hash
 * of every other file the module read (its imports), checked again on a hit. Every file is
 * read as a source file is (load/sourceFiles.ts). Only modules without errors are kept; a
 * write that fails only costs the next run the compile.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { gkVersion } from "../cacheFolder.js";
import { readSourceFile } from "../load/sourceFiles.js";
import { folder, readCheckedEntry, writeCheckedEntry } from "../tsfront/cache.js";

interface Entry {
  /** The sha256 of each other file the module's program read, by path. */
  readonly files: Record<string, string>;
  readonly code: string;
}

let codeStamp: string | undefined;

/**
 * What identifies gk's own code: its version, and the size and time of each JavaScript or
 * TypeScript file in the folder it runs from (src/, dist/ or dist/lib/), so that a
 * development build never reads what an earlier one wrote. "" where that cannot be read.
 */
function stamp(): string {
  if (codeStamp !== undefined) return codeStamp;
  try {
    const dir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(js|ts)$/.test(f)).sort();
    const stats = files.map((f) => {
      const st = statSync(path.join(dir, f));
      return `${f}:${st.size}:${st.mtimeMs}`;
    });
    codeStamp = [gkVersion(), ...stats].join("\0");
  } catch {
    codeStamp = "";
  }
  return codeStamp;
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");
const TAG = "gk-module";
/** The largest entry read: the module of a 4 MiB source file embeds its sources, with room for its imports. */
const MAX_ENTRY_BYTES = 64 * 2 ** 20;

/** A source file's text, read as the front end reads one, or undefined. */
function sourceText(file: string): string | undefined {
  const r = readSourceFile(file);
  return "text" in r ? r.text : undefined;
}

/** The kept module code of `file`, or undefined where there is none, it is damaged, or a file it read has changed. */
export function readModuleCode(file: string): string | undefined {
  const dir = stamp() === "" ? undefined : folder();
  const text = dir === undefined ? undefined : sourceText(file);
  if (dir === undefined || text === undefined) return undefined;
  const key = sha(`gk module\0${stamp()}\0${file}\0${text}`);
  const payload = readCheckedEntry(path.join(dir, `${key}.module.json`), TAG, key, MAX_ENTRY_BYTES);
  if (payload === undefined) return undefined;
  try {
    const e = JSON.parse(payload) as Entry;
    if (typeof e.code !== "string" || typeof e.files !== "object" || e.files === null) return undefined;
    for (const [f, hash] of Object.entries(e.files)) {
      const t = sourceText(f);
      if (t === undefined || sha(t) !== hash) return undefined;
    }
    return e.code;
  } catch {
    return undefined;
  }
}

/** Keeps the module code of `file`, made from `sources` (every file its program read, `file` included). */
export function writeModuleCode(file: string, sources: Readonly<Record<string, string>>, code: string): void {
  const text = sources[file];
  const dir = stamp() === "" ? undefined : folder();
  if (text === undefined || dir === undefined) return;
  const files = Object.fromEntries(Object.entries(sources).filter(([f]) => f !== file).map(([f, t]) => [f, sha(t)]));
  const key = sha(`gk module\0${stamp()}\0${file}\0${text}`);
  writeCheckedEntry(dir, `${key}.module.json`, TAG, key, JSON.stringify({ files, code } satisfies Entry));
}

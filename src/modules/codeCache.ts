/**
 * The module code of imported `.gk` files (code.ts's), kept by content for the Node loader
 * (hooks.ts), so that a program imported again under `node --import gk/register` does not
 * load and run the front end on the loader thread as well as on its own (where
 * runtime.ts compiles the embedded sources): a hit costs reading and hashing the files.
 *
 * `<cache>/v1/ts/<key>.json` (the folder of the front end's results, tsfront/cache.ts, which
 * `gkc cache clear` empties) holds `{ files, code }`: the key hashes gk's own code, the
 * file's path and its text; `files` the hash of every other file the module read (its
 * imports), checked again on a hit. Only modules without errors are kept; a write that
 * fails only costs the next run the compile.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, gkVersion, layoutOf } from "../cacheFolder.js";

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

function entryPath(file: string, text: string): string {
  return path.join(layoutOf(cacheRoot()).ts, `${sha(`gk module\0${stamp()}\0${file}\0${text}`)}.json`);
}

/** The kept module code of `file`, or undefined where there is none or a file it read has changed. */
export function readModuleCode(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8");
    if (stamp() === "") return undefined;
    const e = JSON.parse(readFileSync(entryPath(file, text), "utf8")) as Entry;
    if (typeof e.code !== "string" || typeof e.files !== "object") return undefined;
    for (const [f, hash] of Object.entries(e.files)) if (sha(readFileSync(f, "utf8")) !== hash) return undefined;
    return e.code;
  } catch {
    return undefined;
  }
}

/** Keeps the module code of `file`, made from `sources` (every file its program read, `file` included). */
export function writeModuleCode(file: string, sources: Readonly<Record<string, string>>, code: string): void {
  const text = sources[file];
  if (text === undefined || stamp() === "") return;
  const files = Object.fromEntries(Object.entries(sources).filter(([f]) => f !== file).map(([f, t]) => [f, sha(t)]));
  const out = entryPath(file, text);
  const tmp = `${out}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(tmp, JSON.stringify({ files, code } satisfies Entry));
    renameSync(tmp, out);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * One cache entry: its metadata, checking it on read, sealing it before publication, and
 * moving a damaged one aside. Publication is a single `rename` of a complete, fsynced private
 * folder, so a reader sees either no entry or a whole one.
 */
import type { BigIntStats } from "node:fs";
import { lstat, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { error } from "../../diagnostics/index.js";
import { readProblem, readRegularFile } from "../../regularFile.js";
import { BuildError } from "../nvcc.js";
import { sha256 } from "../../cacheFolder.js";
import { DISK_ERRORS } from "../diskSpace.js";
import { ENTRY_FILES, META_FILE, scratchName, type EntryFile } from "./layout.js";

export interface FileRecord {
  readonly size: number;
  readonly sha256: string;
}

/** The key's inputs as recorded in meta.json (the source itself is kernel.cu; its hash is here). */
export interface EntryInputs {
  readonly arch: string;
  readonly flags: readonly string[];
  readonly nvccVersion: string;
  readonly gkVersion: string;
  readonly sourceSha256: string;
}

export interface EntryMeta {
  readonly format: number;
  readonly key: string;
  readonly inputs: EntryInputs;
  /** Kernel names, as the caller gave them. */
  readonly kernels: readonly string[];
  readonly files: Readonly<Record<EntryFile, FileRecord>>;
  /** Wall time of the nvcc runs that built the entry. */
  readonly nvccMs: number;
  /** ISO 8601. */
  readonly builtAt: string;
  readonly gkVersion: string;
}

export interface ExpectedEntry {
  readonly format: number;
  readonly key: string;
  readonly inputs: EntryInputs;
}

/** Enough to tell one folder from another that later took its name (of what is at the path itself: a link is not followed). */
export interface DirIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly birthtimeNs: bigint;
  /** It is a folder (not a file, a FIFO or a symlink planted at the entry's name). */
  readonly isDirectory: boolean;
}

/** The largest meta.json read (an entry's records are a few hundred bytes, and one name per kernel). */
export const MAX_META_BYTES = 16 * 2 ** 20;

export type Inspection =
  | { readonly kind: "missing" }
  | { readonly kind: "valid"; readonly meta: EntryMeta }
  | { readonly kind: "damaged"; readonly reason: string; readonly identity: DirIdentity }
  /** The folder was removed or replaced while it was being read: look again. */
  | { readonly kind: "changed" };

/**
 * Reads and checks an entry: meta.json parses, matches the key and its inputs, and every file
 * has the recorded size and sha256. A folder that changes under the reader is `changed`, not
 * damaged, so a concurrent repair or clear is never reported as damage.
 */
export async function inspectEntry(dir: string, expected: ExpectedEntry): Promise<Inspection> {
  const before = await identityOf(dir);
  if (before === undefined) return { kind: "missing" };
  // Not followed: a link at the entry's name could lead anywhere, a loop nowhere.
  if (!before.isDirectory) return { kind: "damaged", reason: "the entry is not a folder (a file, a FIFO or a symlink is at its name)", identity: before };
  const checked = await checkEntry(dir, expected);
  if (checked.ok) return { kind: "valid", meta: checked.meta };
  const after = await identityOf(dir);
  if (after === undefined || !sameDir(before, after)) return { kind: "changed" };
  return { kind: "damaged", reason: checked.reason, identity: before };
}

type Check = { readonly ok: true; readonly meta: EntryMeta } | { readonly ok: false; readonly reason: string };

async function checkEntry(dir: string, expected: ExpectedEntry): Promise<Check> {
  const bad = (reason: string): Check => ({ ok: false, reason });
  const text = await readEntryFile(dir, META_FILE, MAX_META_BYTES);
  if (typeof text === "string") return bad(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString("utf8"));
  } catch {
    return bad(`${META_FILE} is not valid JSON`);
  }
  const shapeProblem = metaShapeProblem(parsed);
  if (shapeProblem !== undefined) return bad(`${META_FILE} is malformed (${shapeProblem})`);
  const meta = parsed as EntryMeta;
  if (meta.format !== expected.format) return bad(`${META_FILE} has format ${meta.format}, expected ${expected.format}`);
  if (meta.key !== expected.key) return bad(`${META_FILE} records another key (${meta.key.slice(0, 12)}…)`);
  const inputsProblem = inputsMismatch(meta.inputs, expected.inputs);
  if (inputsProblem !== undefined) return bad(`${META_FILE} records a different ${inputsProblem}`);
  if (meta.files["kernel.cu"].sha256 !== expected.inputs.sourceSha256) return bad(`${META_FILE} records another source`);

  const problems = await Promise.all(
    ENTRY_FILES.map(async (name) => {
      const want = meta.files[name];
      // At most the recorded size is read: a planted device or a grown file is told by its size.
      const data = await readEntryFile(dir, name, want.size, (bytes) => `${name} has ${bytes ?? `more than ${want.size}`} bytes, ${META_FILE} records ${want.size}`);
      if (typeof data === "string") return data;
      if (data.length !== want.size) return `${name} has ${data.length} bytes, ${META_FILE} records ${want.size}`;
      if (sha256(data) !== want.sha256) return `${name} does not match its recorded sha256`;
      return undefined;
    }),
  );
  const problem = problems.find((p) => p !== undefined);
  return problem === undefined ? { ok: true, meta } : bad(problem);
}

function inputsMismatch(got: EntryInputs, want: EntryInputs): string | undefined {
  if (got.arch !== want.arch) return "arch";
  if (got.flags.length !== want.flags.length || got.flags.some((f, i) => f !== want.flags[i])) return "flag list";
  if (got.nvccVersion !== want.nvccVersion) return "nvcc version";
  if (got.gkVersion !== want.gkVersion) return "gk version";
  if (got.sourceSha256 !== want.sourceSha256) return "source";
  return undefined;
}

/** What is wrong with the shape of a parsed meta.json, or undefined when it has every field. */
export function metaShapeProblem(m: unknown): string | undefined {
  if (!isObject(m)) return "not an object";
  if (typeof m.format !== "number") return "format";
  if (typeof m.key !== "string") return "key";
  if (!isObject(m.inputs)) return "inputs";
  const i = m.inputs;
  for (const f of ["arch", "nvccVersion", "gkVersion", "sourceSha256"] as const) {
    if (typeof i[f] !== "string") return `inputs.${f}`;
  }
  if (!isStringArray(i.flags)) return "inputs.flags";
  if (!isStringArray(m.kernels)) return "kernels";
  if (!isObject(m.files)) return "files";
  for (const name of ENTRY_FILES) {
    const r = m.files[name];
    // A size is a read limit (readEntryFile): a byte count that a Buffer can hold.
    if (!isObject(r) || !isByteCount(r.size) || typeof r.sha256 !== "string") return `files["${name}"]`;
  }
  if (typeof m.nvccMs !== "number") return "nvccMs";
  if (typeof m.builtAt !== "string") return "builtAt";
  if (typeof m.gkVersion !== "string") return "gkVersion";
  return undefined;
}

function isByteCount(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) < 2 ** 31;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isStringArray(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === "string");
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Size and sha256 of each entry file in a folder. */
export async function recordFiles(dir: string): Promise<Record<EntryFile, FileRecord>> {
  const records = await Promise.all(
    ENTRY_FILES.map(async (name) => {
      const data = await readFile(path.join(dir, name));
      return [name, { size: data.length, sha256: sha256(data) }] as const;
    }),
  );
  return Object.fromEntries(records) as Record<EntryFile, FileRecord>;
}

/** Makes a private build folder durable: every file fsynced, meta.json written last, then the folder. */
export async function sealEntry(dir: string, meta: EntryMeta): Promise<void> {
  await Promise.all(ENTRY_FILES.map((name) => syncPath(path.join(dir, name))));
  const fh = await open(path.join(dir, META_FILE), "wx");
  try {
    await fh.writeFile(JSON.stringify(meta, null, 2) + "\n");
    await fh.sync();
  } finally {
    await fh.close();
  }
  await syncPath(dir);
}

/**
 * Renames a sealed private folder into place. `taken` when another process published the
 * same key first (the caller then checks theirs). Missing shard folders are created, also
 * when a concurrent `clear` removed one between the mkdir and the rename.
 */
export async function publish(tmp: string, dir: string): Promise<"published" | "taken"> {
  for (let attempt = 0; ; attempt++) {
    await makeFolder(path.dirname(dir));
    try {
      await rename(tmp, dir);
      await syncPath(path.dirname(dir));
      return "published";
    } catch (e) {
      const code = errnoOf(e);
      if (code === "EEXIST" || code === "ENOTEMPTY") return "taken";
      if (code === "ENOENT" && attempt < 3 && (await identityOf(tmp)) !== undefined) continue;
      throw e;
    }
  }
}

/**
 * Moves a damaged entry out of the way (to a unique name in `trash`) and deletes it. Does
 * nothing when the folder is already gone or is no longer the one found damaged; if a fresh
 * entry was published between that check and the rename, it is put back.
 */
export async function moveAside(dir: string, damaged: DirIdentity, trash: string, key: string): Promise<void> {
  const current = await identityOf(dir);
  if (current === undefined || !sameDir(current, damaged)) return;
  await makeFolder(trash);
  const target = path.join(trash, scratchName(key));
  try {
    await rename(dir, target);
  } catch (e) {
    if (errnoOf(e) === "ENOENT") return;
    throw e;
  }
  const moved = await identityOf(target);
  if (moved !== undefined && !sameDir(moved, damaged)) {
    try {
      await rename(target, dir);
      return;
    } catch {
      // Yet another entry took the name meanwhile; the one we moved is surplus.
    }
  }
  await rm(target, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Filesystem helpers

export async function identityOf(dir: string): Promise<DirIdentity | undefined> {
  let s: BigIntStats;
  try {
    s = await lstat(dir, { bigint: true });
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
  return { dev: s.dev, ino: s.ino, birthtimeNs: s.birthtimeNs, isDirectory: s.isDirectory() };
}

function sameDir(a: DirIdentity, b: DirIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.birthtimeNs === b.birthtimeNs;
}

/**
 * A file of an entry, read through the checked reader (regular, not a link, at most `maxBytes`),
 * or why the entry is damaged ("meta.json is missing", "kernel.ptx: it is a FIFO …"). A failure
 * that is no damage (no permission, an I/O error) is thrown, as the cache's I/O errors are.
 */
export async function readEntryFile(dir: string, name: string, maxBytes: number, tooLarge?: (bytes: number | undefined) => string): Promise<Buffer | string> {
  const file = path.join(dir, name);
  const r = await readRegularFile(file, { maxBytes, followLinks: false });
  if (r.kind === "ok") return r.data;
  if (r.kind === "tooLarge" && tooLarge) return tooLarge(r.bytes);
  if (r.kind === "error" && r.missing) return `${name} is missing`;
  if (r.kind === "error" && r.code !== undefined && !["ELOOP", "EISDIR", "ENXIO", "EINVAL"].includes(r.code)) {
    throw Object.assign(new Error(`${file}: ${r.error}`), { code: r.code });
  }
  return `${name}: ${readProblem(r, maxBytes)}`;
}

async function syncPath(p: string): Promise<void> {
  const fh = await open(p, "r");
  try {
    await fh.sync();
  } catch (e) {
    // Some filesystems cannot fsync a folder; the file data itself is already synced.
    if (!["EINVAL", "EISDIR", "EPERM", "EBADF", "ENOTSUP"].includes(errnoOf(e) ?? "")) throw e;
  } finally {
    await fh.close();
  }
}

export function errnoOf(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && typeof (e as { code?: unknown }).code === "string"
    ? (e as { code: string }).code
    : undefined;
}

/** A path that is not there, or a file where a folder should be (or the reverse). */
export function isMissing(e: unknown): boolean {
  const code = errnoOf(e);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/** A filesystem failure in the cache as a diagnostic that says what to do; anything else unchanged. */
export function cacheIoError(e: unknown, root: string): unknown {
  const code = errnoOf(e);
  if (e instanceof BuildError || code === undefined) return e;
  const detail = e instanceof Error ? e.message : String(e);
  const meaning = DISK_ERRORS[code];
  return new BuildError([
    error("GK7006", undefined, `cannot use the kernel cache at ${root}: ${code}${meaning ? ` (${meaning})` : ""}`, [
      { message: detail },
      { message: "make the folder writable, free some space, or point GK_CACHE_DIR at another folder" },
    ]),
  ]);
}

/**
 * `mkdir -p` that reports the real error: on a read-only disk, Node's recursive mkdir says
 * ENOENT, so on ENOENT the folders are made again one at a time from the top, and the first
 * failure (EROFS, EACCES, a file in the way) is thrown.
 */
export async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    return;
  } catch (e) {
    if (errnoOf(e) !== "ENOENT") throw e;
  }
  const folders: string[] = [];
  for (let d = path.resolve(dir); path.dirname(d) !== d; d = path.dirname(d)) folders.unshift(d);
  for (const d of folders) {
    try {
      await mkdir(d);
    } catch (e) {
      if (errnoOf(e) !== "EEXIST") throw e;
    }
  }
}

/** Writes a small file without caring about atomicity (used for CACHEDIR.TAG). */
export async function writeIfAbsent(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text, { flag: "wx" });
  } catch (e) {
    if (errnoOf(e) !== "EEXIST") throw e;
  }
}

/**
 * The one checked way gk reads a file it did not just write itself: source files
 * (sourceFiles.ts), declaration files, and the files of both caches (the kernel cache's
 * entries, locks and failure records; the TypeScript lowerings). A file is read only when it
 * is a regular file of at most `maxBytes` bytes: the open never blocks (O_NONBLOCK, so a FIFO
 * planted at the path is refused, not waited on), the kind and size are checked on the open
 * file (fstat), and the read itself stops after `maxBytes` + 1 bytes (a file that grows while
 * read, or a link to /dev/zero, never fills the memory). With `followLinks: false` a symlink at
 * the path is refused too (O_NOFOLLOW): a cache never follows a link out of its folder.
 *
 * Errors say what is wrong with the file in words, never what it holds.
 */
import * as fs from "node:fs";
import { open } from "node:fs/promises";

export interface ReadRules {
  /** The largest file read; a larger one is `tooLarge`. */
  readonly maxBytes: number;
  /** false: a symlink at the path is refused (`"it is a symlink"`); default true. */
  readonly followLinks?: boolean;
  /** The file must be this one (a path that was stat-ed before): else it changed while being opened. */
  readonly identity?: { readonly dev: number; readonly ino: number };
}

export type RegularRead =
  | { readonly kind: "ok"; readonly data: Buffer }
  /** `bytes` undefined: more than the limit, by an unknown amount (a file that grew while read). */
  | { readonly kind: "tooLarge"; readonly bytes: number | undefined }
  /** `missing`: nothing is at the path (ENOENT, or a file where a folder was expected). */
  | { readonly kind: "error"; readonly error: string; readonly missing: boolean; readonly code?: string };

/** The error of a path where there is no file. */
export const NO_SUCH_FILE = "no such file";

/** Why a file of this kind cannot be read as text or data, or undefined for a regular file. */
export function notRegular(st: fs.Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return "it is a directory";
  if (st.isSymbolicLink()) return "it is a symlink";
  if (st.isFIFO()) return "it is a FIFO (a named pipe), not a regular file";
  if (st.isSocket()) return "it is a socket, not a regular file";
  if (st.isCharacterDevice()) return "it is a character device, not a regular file";
  if (st.isBlockDevice()) return "it is a block device, not a regular file";
  return "it is not a regular file";
}

/** A failed open or read in words. */
export function ioProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case "ENOENT":
    case "ENOTDIR":
      return NO_SUCH_FILE;
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "too many levels of symlinks (a symlink loop?)";
    case "ENAMETOOLONG":
      return "the path is too long";
    case "EISDIR":
      return "it is a directory";
    default:
      return err.code ? `cannot be read (${err.code})` : "cannot be read";
  }
}

function failure(e: unknown, rules: ReadRules): RegularRead {
  const code = (e as NodeJS.ErrnoException).code;
  // O_NOFOLLOW on a symlink fails with ELOOP: that is the link refused, not a loop.
  const error = code === "ELOOP" && rules.followLinks === false ? "it is a symlink" : ioProblem(e);
  return { kind: "error", error, missing: code === "ENOENT" || code === "ENOTDIR", ...(code ? { code } : {}) };
}

// Read when a file is opened, not when this module loads: a browser build loads it (the loader
// of an imported .gk module) with node:fs as an empty stand-in, and never opens a file.
function openFlags(rules: ReadRules): number {
  const c = fs.constants;
  return c.O_RDONLY | (c.O_NONBLOCK ?? 0) | (c.O_NOCTTY ?? 0) | (rules.followLinks === false ? (c.O_NOFOLLOW ?? 0) : 0);
}

/** What is wrong with the open file, or undefined. */
function openedProblem(st: fs.Stats, rules: ReadRules): RegularRead | undefined {
  const kind = notRegular(st);
  if (kind) return { kind: "error", error: kind, missing: false };
  if (rules.identity && (st.ino !== rules.identity.ino || st.dev !== rules.identity.dev)) {
    return { kind: "error", error: "it changed while being opened; try again", missing: false };
  }
  if (st.size > rules.maxBytes) return { kind: "tooLarge", bytes: st.size };
  return undefined;
}

/**
 * The buffer to read on into, holding the `n` bytes read so far: grown (doubled) when full,
 * up to `maxBytes` + 1 bytes, enough to know whether the file is over the limit. When it is
 * full at that size, reading stops.
 */
function room(buf: Buffer, n: number, maxBytes: number): Buffer {
  if (n < buf.length || buf.length > maxBytes) return buf;
  const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buf.length * 2));
  buf.copy(bigger, 0, 0, n);
  return bigger;
}

function bounded(buf: Buffer, n: number, maxBytes: number): RegularRead {
  return n > maxBytes ? { kind: "tooLarge", bytes: undefined } : { kind: "ok", data: buf.subarray(0, n) };
}

/** Reads a file under the rules above, synchronously. */
export function readRegularFileSync(file: string, rules: ReadRules): RegularRead {
  let fd: number;
  try {
    fd = fs.openSync(file, openFlags(rules));
  } catch (e) {
    return failure(e, rules);
  }
  try {
    const st = fs.fstatSync(fd);
    const problem = openedProblem(st, rules);
    if (problem) return problem;
    let buf: Buffer = Buffer.allocUnsafe(Math.min(rules.maxBytes + 1, st.size + 1));
    let n = 0;
    while ((buf = room(buf, n, rules.maxBytes)).length > n) {
      const got = fs.readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    return bounded(buf, n, rules.maxBytes);
  } catch (e) {
    return failure(e, rules);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a file under the rules above, off the event loop. */
export async function readRegularFile(file: string, rules: ReadRules): Promise<RegularRead> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await open(file, openFlags(rules));
  } catch (e) {
    return failure(e, rules);
  }
  try {
    const st = await fh.stat();
    const problem = openedProblem(st, rules);
    if (problem) return problem;
    let buf: Buffer = Buffer.allocUnsafe(Math.min(rules.maxBytes + 1, st.size + 1));
    let n = 0;
    while ((buf = room(buf, n, rules.maxBytes)).length > n) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return bounded(buf, n, rules.maxBytes);
  } catch (e) {
    return failure(e, rules);
  } finally {
    await fh.close();
  }
}

/** A read's problem as a short phrase, for messages: "it is a FIFO …", "it is 3221225472 bytes (at most 4096)". */
export function readProblem(r: Exclude<RegularRead, { kind: "ok" }>, maxBytes: number): string {
  if (r.kind === "error") return r.error;
  return `it is ${r.bytes === undefined ? `more than ${maxBytes}` : r.bytes} bytes (at most ${maxBytes})`;
}

/**
 * How gk writes a file it hands to the user (a declaration beside a .gk file, `gkc build
 * --out`'s files): only ever as a regular file, new and whole. It is written under a fresh
 * name in the same folder (created exclusively: never through a link) and renamed over the
 * path, which replaces a regular file that stands there (a hard link's other names keep
 * their content) and never writes through a symlink. Where a symlink, a directory, a FIFO or
 * a device stands at the path, nothing is written: a cloned repository can plant a link
 * there, and what it points at is not gk's to overwrite. The caches write their own files
 * (build/cache, tsfront/cache).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { ioProblem, NO_SUCH_FILE, notRegular } from "../regularFile.js";

/** Why nothing may be written at `file` (what stands there, in words: "it is a symlink"), or undefined (nothing, or a regular file). */
export function replaceProblem(file: string): string | undefined {
  try {
    return notRegular(fs.lstatSync(file));
  } catch (e) {
    const problem = ioProblem(e);
    return problem === NO_SUCH_FILE ? undefined : problem;
  }
}

/** A write's failure in words (the read-side words of ioProblem do not fit a write). */
function writeProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "its folder does not exist";
  if (code === "EISDIR") return "it is a directory";
  if (code === "ENOSPC") return "the disk is full";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code ? `cannot be written (${code})` : "cannot be written";
}

/** Writes `data` as the regular file `file`, replacing a regular file there; returns why it cannot (undefined: written). */
export function replaceFile(file: string, data: string | Uint8Array): string | undefined {
  const problem = replaceProblem(file);
  if (problem) return problem;
  // A short name of its own (the path's name may already be as long as a name can be).
  const temp = path.join(path.dirname(file), `.gk-${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  try {
    fs.writeFileSync(temp, data, { flag: "wx" });
    fs.renameSync(temp, file);
    return undefined;
  } catch (e) {
    fs.rmSync(temp, { force: true });
    // Something else may have been planted at the path since it was looked at: say what.
    return replaceProblem(file) ?? writeProblem(e);
  }
}

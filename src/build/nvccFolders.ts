/**
 * Folders that nvcc may work in. nvcc runs its stages through `sh -c`, with its working folder,
 * its input and output names and its temporary folder inside double quotes in the command line,
 * where `$(…)`, backticks and `"` still act. So every path that reaches nvcc is one that gk
 * chose and checked: its real path is plain (letters, digits and `_ . + - /`). Whether a folder
 * can take nvcc's output at all is diskSpace.ts's question.
 */
import { lstat, mkdir, realpath } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { error } from "../diagnostics/index.js";
import { BuildError } from "./nvcc.js";

const PLAIN_PATH = /^\/[A-Za-z0-9_.\/+-]*$/;
const PLAIN_NAME = /^[A-Za-z0-9_+][A-Za-z0-9_.+-]*$/;

/** An absolute path that no shell reads as anything but itself, inside double quotes or not. */
export function isPlainPath(p: string): boolean {
  return PLAIN_PATH.test(p);
}

/** A file name (no folder) that is plain and cannot be read as an option. */
export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name);
}

/** The real path of an existing folder when it is plain (symbolic links resolved, as nvcc sees it), else undefined. */
export async function plainRealPath(dir: string): Promise<string | undefined> {
  const real = await realpath(dir);
  return isPlainPath(real) ? real : undefined;
}

/**
 * A temporary folder with a plain real path, for nvcc's own temporary files (its TMPDIR) and
 * for building where the caller's folder is not plain: the system's (`$TMPDIR`) when plain,
 * else `/tmp`. Throws GK7006 when neither is.
 */
export async function plainTempDir(): Promise<string> {
  for (const candidate of [os.tmpdir(), "/tmp"]) {
    try {
      await mkdir(candidate, { recursive: true });
      const real = await plainRealPath(candidate);
      if (real !== undefined) return real;
    } catch {
      // not usable: try the next
    }
  }
  throw new BuildError([
    error("GK7006", undefined, `no temporary folder with a plain path for nvcc: ${JSON.stringify(os.tmpdir())} and /tmp are not usable`, [
      { message: "nvcc passes its folders to a shell; set TMPDIR to a folder whose path holds only letters, digits and _ . + - /" },
    ]),
  ]);
}

/**
 * `<parent>/<name>`, a folder of this user's that only this user can write: made with mode 0700
 * when missing, and checked when it exists (a folder, not a link, owned by this user, not
 * writable by others), so that a shared parent such as /tmp cannot hand gk someone else's.
 * Throws GK7006 when the folder there fails the check.
 */
export async function privateFolder(parent: string, name: string): Promise<string> {
  const dir = path.join(parent, name);
  await mkdir(dir, { mode: 0o700 }).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  });
  const st = await lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new BuildError([
      error("GK7006", undefined, `refusing to build in ${dir}: it is not a private folder of this user`, [
        { message: "remove it, or set GK_CACHE_DIR to a folder whose path holds only letters, digits and _ . + - /" },
      ]),
    ]);
  }
  return dir;
}

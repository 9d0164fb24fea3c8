/**
 * Whether a folder can take a write at all: a full disk (or one over quota, or read-only) makes
 * nvcc crash ("exit code 139") or write empty files, and the cache's writes fail with the same
 * codes. When nvcc failed or wrote nothing, a probe write tells which (issue 25): the build
 * then says ENOSPC, EDQUOT or EROFS and the folder (GK7006), with nvcc's failure as a note.
 */
import { randomBytes } from "node:crypto";
import { open, rm } from "node:fs/promises";
import path from "node:path";
import { error, type Diagnostic } from "../diagnostics/index.js";

/** The write failures that are the disk's, not the writer's, in words. */
export const DISK_ERRORS: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
  EROFS: "the file system is read-only",
};

/** What a probe writes: about what nvcc writes for a small module. */
const PROBE_BYTES = 256 * 1024;

/**
 * Whether `dir` can take a write of PROBE_BYTES (written, fsynced, removed): the disk's error
 * code (ENOSPC, EDQUOT, EROFS) when it cannot, else undefined (also for any other failure,
 * which says nothing about the disk).
 */
export async function diskProblem(dir: string): Promise<string | undefined> {
  const probe = path.join(dir, `.gk-space-probe.${process.pid}.${randomBytes(4).toString("hex")}`);
  try {
    const fh = await open(probe, "wx");
    try {
      await fh.write(Buffer.alloc(PROBE_BYTES));
      await fh.sync();
    } finally {
      await fh.close();
    }
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== undefined && code in DISK_ERRORS ? code : undefined;
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/**
 * When nvcc failed or wrote nothing (`what` says how) because a folder it writes is full (or
 * over quota, or read-only), that is the error: GK7006 naming the cause and the folder, with
 * nvcc's failure as a note; undefined when every folder takes a write.
 */
export async function fullDisk(dirs: readonly string[], what: string): Promise<Diagnostic | undefined> {
  for (const dir of dirs) {
    const code = await diskProblem(dir);
    if (code === undefined) continue;
    return error("GK7006", undefined, `cannot write nvcc's output to ${dir}: ${code} (${DISK_ERRORS[code]})`, [
      { message: `${what}, which is what a full disk does to it` },
      { message: "free some space, or point GK_CACHE_DIR (the kernel cache) or TMPDIR (nvcc's temporary files) at another disk" },
    ]);
  }
  return undefined;
}

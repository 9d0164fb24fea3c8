/**
 * The probe that tells a full, over-quota or read-only disk from nvcc's own failure
 * (src/build/diskSpace.ts): on a folder that takes a write it finds nothing and leaves nothing;
 * a failure that is not the disk's says nothing about it; on a real full disk (a tmpfs) and a
 * read-only one (a bind mount), in a mount namespace of an unprivileged user (`unshare -rm`),
 * it names ENOSPC and EROFS and the folder. Where namespaces are not allowed those tests skip.
 * The cache's end-to-end behaviour on such disks is cache/disk.test.ts's.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { diskProblem, fullDisk } from "../../src/build/diskSpace.js";

const worker = fileURLToPath(new URL("./fixtures/disk-worker.ts", import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), "gk-disk-space-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const noNamespace = spawnSync("unshare", ["-rm", "true"]).status === 0 ? undefined : "unshare -rm is not allowed here (no user namespaces)";

/** The worker's probe of `dir` after `setup` (shell commands), in a new mount namespace. */
function probeInNamespace(setup: string, dir: string): { problem: string | null; diagnostic: { code: string; message: string; notes: string[] } | null } {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync("unshare", ["-rm", "sh", "-c", `${setup} && exec ${q(process.execPath)} --import tsx ${q(worker)} probe ${q(dir)}`], { encoding: "utf8" });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  expect(line, r.stderr).toMatch(/^\{/);
  return JSON.parse(line) as ReturnType<typeof probeInNamespace>;
}

describe("the disk probe", () => {
  it("finds nothing wrong with a folder that takes a write, and leaves no file there", async () => {
    const dir = path.join(work, "fine");
    mkdirSync(dir);
    expect(await diskProblem(dir)).toBeUndefined();
    expect(await fullDisk([dir], "nvcc failed (exit code 1)")).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("says nothing about the disk when the write fails for another reason (a missing folder)", async () => {
    const missing = path.join(work, "missing");
    expect(await diskProblem(missing)).toBeUndefined();
    expect(await fullDisk([missing], "nvcc failed (exit code 1)")).toBeUndefined();
  });
});

describe.skipIf(noNamespace !== undefined)(`the disk probe on real disks${noNamespace ? ` (skipped: ${noNamespace})` : ""}`, () => {
  it("names a full disk ENOSPC, with the folder, and nvcc's failure as a note", () => {
    const disk = path.join(work, "full");
    mkdirSync(disk);
    const r = probeInNamespace(`mount -t tmpfs -o size=64k tmpfs ${disk} && (head -c 1048576 /dev/zero > ${disk}/filler 2>/dev/null || true)`, disk);
    expect(r.problem).toBe("ENOSPC");
    expect(r.diagnostic).toEqual({
      code: "GK7006",
      message: `cannot write nvcc's output to ${disk}: ENOSPC (no space left on the device)`,
      notes: [
        "nvcc failed (exit code 139), which is what a full disk does to it",
        "free some space, or point GK_CACHE_DIR (the kernel cache) or TMPDIR (nvcc's temporary files) at another disk",
      ],
    });
  });

  it("names a read-only disk EROFS", () => {
    const disk = path.join(work, "ro");
    mkdirSync(disk);
    const r = probeInNamespace(`mount --bind ${disk} ${disk} && mount -o remount,bind,ro ${disk}`, disk);
    expect(r.problem).toBe("EROFS");
    expect(r.diagnostic?.message).toBe(`cannot write nvcc's output to ${disk}: EROFS (the file system is read-only)`);
  });
});

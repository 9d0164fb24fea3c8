/**
 * A cache on a full or read-only disk: the error names the cause (ENOSPC, EROFS) and the path,
 * never blames nvcc ("exit code 139", "an empty kernel.cubin") or crashes (GK9001). The disks
 * are real: a 256 KiB tmpfs and a read-only bind mount, in a mount namespace of an unprivileged
 * user (`unshare -rm`); where that is not allowed the tests skip.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { getOrBuild } from "../../../src/build/cache.js";
import { copyingNvcc, fakeNvcc } from "../fixtures/nvcc-wrapper.js";
import { SAXPY } from "../fixtures/sources.js";

const worker = fileURLToPath(new URL("../fixtures/disk-worker.ts", import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), "gk-cache-disk-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const noNamespace = spawnSync("unshare", ["-rm", "true"]).status === 0 ? undefined : "unshare -rm is not allowed here (no user namespaces)";

/** Runs the disk worker in a new mount namespace after `setup` (shell commands); its JSON line. */
function inNamespace(setup: string, op: "build" | "clear", root: string, nvcc: string): Record<string, unknown> {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync("unshare", ["-rm", "sh", "-c", `${setup} && exec ${q(process.execPath)} --import tsx ${q(worker)} ${op} ${q(root)} ${q(nvcc)}`], { encoding: "utf8" });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  expect(line, r.stderr).toMatch(/^\{/);
  return JSON.parse(line) as Record<string, unknown>;
}

describe.skipIf(noNamespace !== undefined)(`the cache on a full or read-only disk${noNamespace ? ` (skipped: ${noNamespace})` : ""}`, () => {
  it("a full disk is reported as ENOSPC with the path, not as nvcc's failure", () => {
    const disk = path.join(work, "full");
    mkdirSync(disk);
    // nvcc's outputs are 1 MiB; like nvcc, the fake fails with exit code 139 when it cannot write them.
    const nvcc = fakeNvcc(work, "big-nvcc", `
if [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 12.0, V12.0.1 (fake)"; exit 0; fi
out=""; prev=""
for a in "$@"; do if [ "$prev" = "-o" ]; then out="$a"; fi; prev="$a"; done
head -c 1048576 /dev/zero > "$out" 2>/dev/null || exit 139`);
    const r = inNamespace(`mount -t tmpfs -o size=256k tmpfs ${disk}`, "build", path.join(disk, "cache"), nvcc);
    expect(r.code).toBe("GK7006");
    expect(r.message).toContain(`${path.join(disk, "cache")}/`);
    expect(r.message).toMatch(/: ENOSPC \(no space left on the device\)$/);
    expect(r.message).not.toMatch(/exit code|empty/); // nvcc's crash is a note: the consequence, not the cause
  });

  it("gkc cache clear and a build on a read-only disk say EROFS and where", async () => {
    const disk = path.join(work, "ro");
    const root = path.join(disk, "cache");
    const nvcc = copyingNvcc(work);
    await getOrBuild({ source: SAXPY, arch: "sm_90", kernels: ["saxpy"], root, nvcc });
    const readOnly = `mount --bind ${disk} ${disk} && mount -o remount,bind,ro ${disk}`;
    const cleared = inNamespace(readOnly, "clear", root, nvcc);
    expect(cleared).toMatchObject({ code: "GK7006" });
    expect(cleared.message).toBe(`cannot use the kernel cache at ${root}: EROFS (the file system is read-only)`);
    const built = inNamespace(readOnly, "build", path.join(root, "..", "cache2"), nvcc);
    expect(built).toMatchObject({ code: "GK7006" });
    expect(built.message, JSON.stringify(built)).toMatch(/EROFS \(the file system is read-only\)/);
  });
});

/**
 * The package as a user gets it: `npm pack`, then an install of the tarball into an empty
 * project, whose install script builds the native parts (scripts/build-native.mjs: the
 * launcher with g++, the in-process addon with node-gyp), and `npx gkc run` there. Also the
 * one line the install prints, and its success, where g++ and make are missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gk-package-"));
const project = join(dir, "project");
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" }, timeout: 240_000 });

let tarball: string;
let install: ReturnType<typeof npm>;

beforeAll(() => {
  // dist/ is built (npm test builds it first); the pack takes it as it is.
  const packed = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "gk-package-test", private: true, type: "module" }));
  copyFileSync(join(ROOT, "examples", "saxpy.gk"), join(project, "saxpy.gk"));
  install = npm(["install", "--prefer-offline", "--no-package-lock", tarball], project);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed package", () => {
  it("ships the native sources and their build script, and no build output", () => {
    const listed = npm(["pack", "--dry-run", "--ignore-scripts", "--json"], ROOT);
    const files = (JSON.parse(listed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const f of ["native/addon.cpp", "native/waits.cpp", "native/context.hpp", "native/binding.gyp", "launcher/queues.cpp", "scripts/build-native.mjs", "scripts/build-launcher.mjs", "dist/lib/index.js", "dist/index.d.ts", "dist/gkc/main.js", "bin/gkc.js"]) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith("build/") || f.startsWith("native/build/") || f.endsWith(".node"))).toEqual([]);
  });

  it("installs into an empty project, building the launcher and the addon on install", () => {
    expect(install.status, install.stderr).toBe(0);
    const gk = join(project, "node_modules", "gk");
    expect(existsSync(join(gk, "build", "gpu_launcher"))).toBe(true);
    expect(existsSync(join(gk, "native", "build", "Release", "gk_native.node"))).toBe(true);
  });

  it("runs `npx gkc run` there (on the simulator where there is no GPU)", () => {
    const r = spawnSync("npx", ["--no-install", "gkc", "run", "saxpy.gk", "--device", "cpu"], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(r.stdout).toBe("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]\n");
    expect(r.status).toBe(0);
  });

  it("says in one line what is missing, and succeeds, where g++ and make are not found", () => {
    const gk = join(project, "node_modules", "gk");
    // Only node on PATH: no g++, no make.
    const r = spawnSync(process.execPath, [join(gk, "scripts", "build-native.mjs"), "--force"], {
      cwd: gk,
      encoding: "utf8",
      env: { ...process.env, PATH: dirname(process.execPath) === "/usr/bin" ? join(dir, "empty-bin") : dirname(process.execPath) },
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gk: gpu_launcher not built \(g\+\+ not found\); the in-process addon not built: .*\. The CPU simulator works without them; GPU runs need them \(install g\+\+ and reinstall gk\)\.$/);
    expect(readdirSync(gk)).toContain("dist");
  });
});

/**
 * The package as a user gets it: `npm pack`, then an install of the tarball into an empty
 * project, and `npx gkc run` there. The install script (scripts/build-native.mjs --install)
 * builds the native parts (the launcher with g++, the in-process addon with node-gyp) only
 * where a CUDA driver is present; elsewhere it builds nothing, says so in one line on the
 * terminal (npm shows an install script's output only when it fails), and the first GPU use
 * builds them. Also the one line it prints, and its success, where g++ and make are missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a JavaScript module without declarations
import { driverPresent } from "../../scripts/build-native.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gk-package-"));
const project = join(dir, "project");
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" }, timeout: 600_000 });

let tarball: string;
let install: ReturnType<typeof npm>;
/** What the install wrote to its terminal, where it had one. */
let terminal: string | undefined;
const SCRIPT = "/usr/bin/script";
const NPM_ENV = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
const DRIVER = driverPresent() as boolean;

beforeAll(() => {
  // dist/ is built (npm test builds it first); the pack takes it as it is.
  const packed = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "gk-package-test", private: true, type: "module" }));
  copyFileSync(join(ROOT, "examples", "saxpy.gk"), join(project, "saxpy.gk"));
  // Through a pseudo-terminal where `script` is there, to see what reaches a user's terminal.
  const args = ["install", "--prefer-offline", "--no-package-lock", tarball];
  install = existsSync(SCRIPT)
    ? spawnSync(SCRIPT, ["-qec", ["npm", ...args].join(" "), join(dir, "terminal.txt")], { cwd: project, encoding: "utf8", env: NPM_ENV, timeout: 600_000 })
    : npm(args, project);
  terminal = existsSync(join(dir, "terminal.txt")) ? readFileSync(join(dir, "terminal.txt"), "utf8") : undefined;
}, 0); // no time limit: it builds C++ where there is a driver, however loaded the machine
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed package", () => {
  it("ships the native sources and their build script, and no build output", () => {
    const listed = npm(["pack", "--dry-run", "--ignore-scripts", "--json"], ROOT);
    const files = (JSON.parse(listed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const f of ["native/addon.cpp", "native/waits.cpp", "native/context.hpp", "native/binding.gyp", "launcher/queues.cpp", "scripts/build-native.mjs", "scripts/build-launcher.mjs", "dist/lib/index.js", "dist/index.d.ts", "dist/gkc/main.js", "bin/gkc.js"]) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith("build/") || f.startsWith("native/build/") || f.endsWith(".node"))).toEqual([]);
  });

  it.skipIf(DRIVER)("installs with no C++ build where there is no CUDA driver, saying so in one line on the terminal (no driver here)", () => {
    expect(install.status, install.stderr).toBe(0);
    const gk = join(project, "node_modules", "gk");
    expect(existsSync(join(gk, "build", "gpu_launcher"))).toBe(false);
    expect(existsSync(join(gk, "native", "build"))).toBe(false);
    const line = "gk: no CUDA driver here, so no C++ was built; the CPU simulator works as it is, and the first GPU run builds the launcher and the in-process addon (g++, about a minute, once).";
    expect(JSON.parse(readFileSync(join(gk, "build", "native.json"), "utf8"))).toEqual({ state: "deferred", line });
    if (terminal !== undefined) expect(terminal).toContain(line);
  });

  it.skipIf(!DRIVER)("installs into an empty project, building the launcher and the addon on install where a CUDA driver is present", () => {
    expect(install.status, install.stderr).toBe(0);
    const gk = join(project, "node_modules", "gk");
    expect(existsSync(join(gk, "build", "gpu_launcher"))).toBe(true);
    expect(existsSync(join(gk, "native", "build", "Release", "gk_native.node"))).toBe(true);
    if (terminal !== undefined) expect(terminal).toMatch(/gk: built the GPU launcher and the in-process addon in \d+ s\./);
  });

  it("runs `npx gkc run` there (on the simulator where there is no GPU)", () => {
    const r = spawnSync("npx", ["--no-install", "gkc", "run", "saxpy.gk", "--device", "cpu"], { cwd: project, encoding: "utf8", timeout: 600_000 });
    expect(r.stdout).toBe("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]\n");
    expect(r.status).toBe(0);
  });

  it.skipIf(DRIVER)("the first GPU use builds what the install deferred, saying so in one line (a driver library named by GK_LIBCUDA)", () => {
    const gk = join(project, "node_modules", "gk");
    // A file where the driver library should be: enough for the build to go ahead; the launcher then finds no usable driver in it.
    const r = spawnSync("npx", ["--no-install", "gkc", "devices"], { cwd: project, encoding: "utf8", env: { ...process.env, GK_LIBCUDA: join(project, "package.json") }, timeout: 600_000 });
    expect(r.stderr.split("\n")[0]).toBe("gk: building the GPU launcher and the in-process addon for this first GPU run (g++, about a minute, once: the install found no CUDA driver)");
    expect(r.stdout + r.stderr).toMatch(/no CUDA driver found/);
    expect(existsSync(join(gk, "build", "gpu_launcher"))).toBe(true);
    expect(existsSync(join(gk, "native", "build", "Release", "gk_native.node"))).toBe(true);
    expect(JSON.parse(readFileSync(join(gk, "build", "native.json"), "utf8"))).toMatchObject({ state: "built" });
    // Built once: the next run says nothing of it.
    const again = spawnSync("npx", ["--no-install", "gkc", "devices"], { cwd: project, encoding: "utf8", env: { ...process.env, GK_LIBCUDA: join(project, "package.json") }, timeout: 60_000 });
    expect(again.stderr).not.toMatch(/building/);
  }, 0); // no time limit: it builds C++, however loaded the machine

  it("says in one line what is missing, and succeeds, where g++ and make are not found", () => {
    const gk = join(project, "node_modules", "gk");
    // Only node on PATH: no g++, no make.
    const r = spawnSync(process.execPath, [join(gk, "scripts", "build-native.mjs"), "--force"], {
      cwd: gk,
      encoding: "utf8",
      env: { ...process.env, PATH: dirname(process.execPath) === "/usr/bin" ? join(dir, "empty-bin") : dirname(process.execPath) },
      timeout: 600_000,
    });
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gk: gpu_launcher not built \(g\+\+ not found\); the in-process addon not built: .*\. The CPU simulator works without them; GPU runs need them \(install g\+\+ and reinstall gk\)\.$/);
    expect(readdirSync(gk)).toContain("dist");
  });
});

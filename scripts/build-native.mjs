#!/usr/bin/env node
/**
 * Builds gk's native parts: build/gpu_launcher (g++, scripts/build-launcher.mjs) and the
 * in-process addon native/build/Release/gk_native.node (node-gyp, native/binding.gyp), side
 * by side. Neither needs CUDA to build: both load libcuda.so.1 at run time.
 *
 * As the package's `install` script (`--install`) it builds only where a CUDA driver is
 * present (driverPresent()): elsewhere nothing can use them, so it records the build as
 * deferred in build/native.json and the first GPU use builds them (runtime/nativeParts.ts),
 * saying so. GK_BUILD_NATIVE=1 builds at install anyway (an image built without a GPU for
 * one that has it), GK_BUILD_NATIVE=0 never builds at install. In a checkout (src/ is there)
 * `--install` does nothing: `npm install` runs `prepare` next, which builds with --strict.
 *
 * It ends with one line saying what it built, deferred or could not build; npm shows an
 * install script's output only when it fails (or with --foreground-scripts), so under npm
 * that line also goes to the terminal (/dev/tty) where there is one. Where g++, node-gyp or
 * the Node.js headers are missing, the line says what is missing and what still works, and
 * it exits 0: the CPU simulator needs neither part. A part that fails to compile (an
 * unsupported platform) is reported the same way, with the compiler's output above the
 * line; `--strict` makes that exit 1.
 *
 *   node scripts/build-native.mjs            build what is out of date
 *   node scripts/build-native.mjs --install  the same where a CUDA driver is present (npm install)
 *   node scripts/build-native.mjs --force    rebuild both
 *   node scripts/build-native.mjs --addon    the addon only (tests use buildAddon())
 *   node scripts/build-native.mjs --strict   exit 1 when a part fails to compile (development)
 *
 * node-gyp is npm's own copy (npm hands it to install scripts as $npm_config_node_gyp), else
 * one installed beside gk, else the copy inside the npm that came with this Node.js. The
 * Node.js headers are taken from this Node.js's installation when they are there (no
 * download), else node-gyp fetches them.
 */
import { execa } from "execa";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, realpathSync, statSync, writeFileSync, writeSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildLauncher, isMain } from "./build-launcher.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ADDON = join(root, "native", "build", "Release", "gk_native.node");
/** What the last build did: `{ state: "built" | "deferred" | "incomplete", line }`; runtime/nativeParts.ts reads it. */
export const STATUS = join(root, "build", "native.json");

/** The folders where a CUDA driver's libcuda.so.1 is found on Linux, containers and WSL included. */
const DRIVER_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/wsl/lib"];

/**
 * Whether a CUDA driver is present: $GK_LIBCUDA (a driver library named for tests) exists,
 * the NVIDIA kernel module is loaded, or libcuda.so.1 is in a library folder (those of
 * $LD_LIBRARY_PATH and the usual ones).
 */
export function driverPresent(env = process.env) {
  if (env.GK_LIBCUDA) return existsSync(env.GK_LIBCUDA);
  if (existsSync("/proc/driver/nvidia/version")) return true;
  const dirs = [...(env.LD_LIBRARY_PATH ?? "").split(":").filter(Boolean), ...DRIVER_DIRS];
  return dirs.some((d) => existsSync(join(d, "libcuda.so.1")));
}

/** Records what a build did (best effort: a read-only package only loses the record). */
function writeStatus(state, line) {
  try {
    mkdirSync(dirname(STATUS), { recursive: true });
    writeFileSync(STATUS, `${JSON.stringify({ state, line })}\n`);
  } catch {
    // a read-only install: the first GPU use then finds the parts missing and says so
  }
}

/** The closing line: on stderr, and under npm (which hides an install script's output) on the terminal too, where there is one. */
function say(line) {
  console.warn(line);
  if (process.env.npm_lifecycle_event !== "install" || process.stderr.isTTY) return;
  try {
    const fd = openSync("/dev/tty", "w");
    writeSync(fd, `\r\x1b[K${line}\n`); // from the start of a cleared line: npm's spinner may be drawn there
    closeSync(fd);
  } catch {
    // no terminal (CI, a pipe): npm keeps the line in its log, and shows it when the script fails
  }
}

/** node-gyp's script, or undefined where none can be found. */
export function findNodeGyp(env = process.env) {
  const candidates = [env.npm_config_node_gyp];
  try {
    candidates.push(createRequire(import.meta.url).resolve("node-gyp/bin/node-gyp.js"));
  } catch {
    // not installed beside gk
  }
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  candidates.push(join(prefix, "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  candidates.push(join(dirname(realpathSync(process.execPath)), "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  return candidates.find((c) => c && existsSync(c));
}

/** The folder holding include/node/node_api.h for this Node.js, or undefined (node-gyp then downloads them). */
export function localNodeDir() {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return existsSync(join(prefix, "include", "node", "node_api.h")) && existsSync(join(prefix, "include", "node", "common.gypi")) ? prefix : undefined;
}

async function upToDate(out, inputs) {
  if (!existsSync(out)) return false;
  const built = statSync(out).mtimeMs;
  return inputs.every((f) => statSync(f).mtimeMs < built);
}

/**
 * @returns {Promise<{ status: "built" | "up-to-date" | "missing", path: string, why?: string }>}
 * "missing" says why (no g++, no node-gyp, no headers); a failed compile throws with its output.
 */
export async function buildAddon(opts = {}) {
  const nativeDir = join(root, "native");
  const sources = [
    ...(await readdir(nativeDir)).filter((n) => /\.(cpp|hpp|gyp)$/.test(n)).map((n) => join(nativeDir, n)),
    ...(await readdir(join(root, "launcher"))).filter((n) => /\.(c|h)pp$/.test(n)).map((n) => join(root, "launcher", n)),
  ];
  if (!opts.force && (await upToDate(ADDON, sources))) return { status: "up-to-date", path: ADDON };
  const gyp = findNodeGyp();
  if (!gyp) return { status: "missing", path: ADDON, why: "node-gyp was not found (it comes with npm)" };
  const nodedir = localNodeDir();
  const r = await execa(process.execPath, [gyp, "rebuild", ...(nodedir ? [`--nodedir=${nodedir}`] : [])], { cwd: nativeDir, reject: false, all: true });
  if (r.exitCode === 0 && existsSync(ADDON)) return { status: "built", path: ADDON };
  const out = r.all ?? "";
  if (/not found: make|not found: g\+\+|g\+\+: (command )?not found|spawn g\+\+ ENOENT|No such file or directory.*g\+\+/i.test(out)) {
    return { status: "missing", path: ADDON, why: "g++ (or make) was not found" };
  }
  if (/node_api\.h|common\.gypi|Could not find any Python|find Python|ENOTFOUND|EAI_AGAIN|getaddrinfo|download/i.test(out)) {
    const line = out.split("\n").find((l) => /node_api\.h|Python|ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(l)) ?? "";
    return { status: "missing", path: ADDON, why: `the Node.js headers or Python that node-gyp needs are missing (${line.replace(/^gyp ERR! /, "").trim()})` };
  }
  throw new Error(`node-gyp failed building ${ADDON}:\n${out.slice(-6000)}`);
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const force = argv.includes("--force");
  const strict = argv.includes("--strict");
  const addonOnly = argv.includes("--addon");
  const install = argv.includes("--install");
  const wanted = process.env.GK_BUILD_NATIVE;
  if (install && existsSync(join(root, "src"))) {
    // a checkout: `prepare` builds next, with --strict
  } else if (install && (wanted === "0" || (wanted !== "1" && !driverPresent()))) {
    const why = wanted === "0" ? "GK_BUILD_NATIVE=0" : "no CUDA driver here";
    const line = `gk: ${why}, so no C++ was built; the CPU simulator works as it is, and the first GPU run builds the launcher and the in-process addon (g++, about a minute, once).`;
    writeStatus("deferred", line);
    say(line);
  } else {
    const t0 = performance.now();
    const [launcher, addon] = await Promise.allSettled([addonOnly ? Promise.resolve(undefined) : buildLauncher({ force }), buildAddon({ force })]);
    const lines = [];
    const built = [];
    if (launcher.status === "rejected") {
      console.error(String(launcher.reason?.message ?? launcher.reason));
      lines.push("gpu_launcher failed to compile (above)");
      if (strict) process.exitCode = 1;
    } else if (launcher.value?.status === "no-compiler") {
      lines.push("gpu_launcher not built (g++ not found)");
    } else if (launcher.value?.status === "built") {
      built.push("the GPU launcher");
    }
    if (addon.status === "rejected") {
      console.error(String(addon.reason?.message ?? addon.reason));
      lines.push("the in-process addon failed to compile (above)");
      if (strict) process.exitCode = 1;
    } else if (addon.value.status === "missing") {
      lines.push(`the in-process addon not built: ${addon.value.why}`);
    } else if (addon.value.status === "built") {
      built.push("the in-process addon");
    }
    const seconds = ((performance.now() - t0) / 1000).toFixed(0);
    if (lines.length > 0) {
      const line = `gk: ${lines.join("; ")}. The CPU simulator works without them; GPU runs need them (install g++ and reinstall gk).`;
      writeStatus("incomplete", line);
      say(line);
    } else {
      const line = built.length ? `gk: built ${built.join(" and ")} in ${seconds} s.` : "gk: the GPU launcher and the in-process addon are up to date.";
      writeStatus("built", line);
      if (install || built.length) say(line);
    }
  }
}

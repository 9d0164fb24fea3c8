#!/usr/bin/env node
/**
 * Builds build/gpu_launcher from launcher/*.cpp with g++ (no CUDA headers or libraries: the
 * launcher loads libcuda.so.1 at run time). Skips the compile when the binary is newer than
 * every source. Without g++ it prints one warning and exits 0: the simulator works without
 * a launcher.
 *
 *   node scripts/build-launcher.mjs            build if out of date
 *   node scripts/build-launcher.mjs --force    build even if up to date
 *   node scripts/build-launcher.mjs --asan     build/gpu_launcher-asan, with AddressSanitizer and UBSan
 *
 * Tests import buildLauncher() to build the same way.
 */
import { execa } from "execa";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { realpathSync } from "node:fs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const WARNINGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror"];
export const RELEASE_FLAGS = ["-O2", ...WARNINGS];
export const SANITIZER_FLAGS = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", ...WARNINGS];

/**
 * @param {{ out?: string, flags?: string[], force?: boolean }} [opts]
 * @returns {Promise<{ status: "built" | "up-to-date" | "no-compiler", path: string, output?: string }>}
 * Throws an Error carrying the compiler's output when g++ fails.
 */
export async function buildLauncher(opts = {}) {
  const out = opts.out ?? join(root, "build", "gpu_launcher");
  const flags = opts.flags ?? RELEASE_FLAGS;
  const srcDir = join(root, "launcher");
  const names = (await readdir(srcDir)).filter((n) => n.endsWith(".cpp") || n.endsWith(".hpp")).sort();
  const sources = names.filter((n) => n.endsWith(".cpp")).map((n) => join(srcDir, n));
  if (!opts.force && (await upToDate(out, [...names.map((n) => join(srcDir, n)), fileURLToPath(import.meta.url)]))) {
    return { status: "up-to-date", path: out };
  }
  await mkdir(dirname(out), { recursive: true });
  // Built beside the target and renamed into place, so concurrent builds never leave a torn binary.
  const tmp = `${out}.tmp-${process.pid}-${Date.now()}`;
  // -pthread: the launcher watches for its client in a thread of its own (launcher/lifeline.cpp).
  const args = [...flags, "-pthread", "-o", tmp, ...sources, "-ldl"];
  let result;
  try {
    result = await execa("g++", args, { reject: false, all: true });
  } catch (e) {
    if (isMissing(e)) return { status: "no-compiler", path: out };
    throw e;
  }
  if (isMissing(result)) return { status: "no-compiler", path: out };
  if (result.exitCode !== 0) {
    await rm(tmp, { force: true });
    const err = new Error(`g++ failed building ${out}:\n${result.all ?? ""}`);
    throw err;
  }
  await rename(tmp, out);
  return { status: "built", path: out, output: result.all ?? "" };
}

function isMissing(e) {
  return e != null && typeof e === "object" && "code" in e && e.code === "ENOENT";
}

async function upToDate(out, inputs) {
  let built;
  try {
    built = (await stat(out)).mtimeMs;
  } catch {
    return false;
  }
  for (const f of inputs) {
    if ((await stat(f)).mtimeMs >= built) return false;
  }
  return true;
}

/** Whether the script at `url` is the one node was asked to run (also through a symlink, as npm's bin links are). */
export function isMain(url) {
  if (!process.argv[1]) return false;
  try {
    return pathToFileURL(realpathSync(process.argv[1])).href === pathToFileURL(realpathSync(fileURLToPath(url))).href;
  } catch {
    return false;
  }
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const asan = argv.includes("--asan");
  const opts = {
    force: argv.includes("--force"),
    ...(asan ? { out: join(root, "build", "gpu_launcher-asan"), flags: SANITIZER_FLAGS } : {}),
  };
  try {
    const r = await buildLauncher(opts);
    if (r.status === "no-compiler") {
      console.warn("build-launcher: g++ not found, gpu_launcher not built (GPU runs need it; the simulator works without it)");
    } else if (r.status === "built") {
      console.log(`build-launcher: built ${r.path}`);
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}

/**
 * The native parts (build/gpu_launcher and the in-process addon) built at the first GPU use
 * where the install deferred them: scripts/build-native.mjs --install builds nothing where no
 * CUDA driver is present and records that in build/native.json. Where that record says
 * "deferred" and a driver is present now (the script's driverPresent()), the first process
 * that looks for a GPU runs the build script, saying so in one
 * line (and what it could not build, if anything), and records what it built; a process that
 * finds another one building waits for it. Anything else (built at install, a checkout, a
 * launcher or addon named by the environment) costs one file read.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { packageRoot } from "./launcher/process.js";

/** A lock older than this was left by a build that was killed. */
const STALE_LOCK_MS = 15 * 60_000;

let pending: Promise<void> | undefined;

/** Builds the deferred native parts, once per process; resolves when they are built, or could not be. */
export function buildDeferredNativeParts(): Promise<void> {
  return (pending ??= build(packageRoot()));
}

function recorded(root: string): { state?: string; line?: string } {
  try {
    return JSON.parse(readFileSync(join(root, "build", "native.json"), "utf8")) as { state?: string; line?: string };
  } catch {
    return {};
  }
}

async function build(root: string): Promise<void> {
  if (recorded(root).state !== "deferred") return;
  const script = join(root, "scripts", "build-native.mjs");
  const { driverPresent } = (await import(pathToFileURL(script).href)) as { driverPresent: () => boolean };
  if (!driverPresent()) return; // nothing could use them: the GPU is reported missing as it is
  const lock = join(root, "build", "native.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another process builds them: wait for its record, or take over a lock it left behind.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (recorded(root).state !== "deferred") return;
      await sleep(250);
    }
  }
  try {
    if (recorded(root).state !== "deferred") return;
    process.stderr.write("gk: building the GPU launcher and the in-process addon for this first GPU run (g++, about a minute, once: the install found no CUDA driver)\n");
    const errors = await new Promise<string>((resolve) => {
      let out = "";
      const child = spawn(process.execPath, [script], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      child.on("close", () => resolve(out));
      child.on("error", (e) => resolve(`gk: the build could not start: ${e.message}\n`));
    });
    const after = recorded(root);
    if (after.state !== "built") process.stderr.write(errors.endsWith("\n") || errors === "" ? errors : `${errors}\n`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

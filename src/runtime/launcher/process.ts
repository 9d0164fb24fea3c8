/** Finding the gpu_launcher binary and running it once, without a shell. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { packageRoot } from "../../cacheFolder.js";
import type { LauncherOptions } from "./types.js";

/** The gk package root (cacheFolder.ts's walk). */
export { packageRoot };

/** `opts.launcherPath`, else `$GK_LAUNCHER`, else `<package root>/build/gpu_launcher`. */
export function launcherPath(opts: LauncherOptions = {}): string {
  return opts.launcherPath ?? process.env.GK_LAUNCHER ?? join(packageRoot(), "build", "gpu_launcher");
}

export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  /** The last 16 KiB of stderr. */
  readonly stderr: string;
  /** Set when the process could not be started (ENOENT: no binary; EACCES: not executable). */
  readonly spawnError?: NodeJS.ErrnoException;
  readonly timedOut: boolean;
}

const STDERR_TAIL = 16 * 1024;

/**
 * Runs `file args` with `input` streamed to stdin (with backpressure, so hundreds of megabytes
 * never sit in memory twice) and collects stdout as Buffers. Never rejects: every outcome is
 * in the result. If the process ends before reading all input, the rest is dropped. `fds` are
 * passed to the process as descriptors 3, 4, ...
 */
export function runProcess(
  file: string,
  args: readonly string[],
  input: Iterable<string | Uint8Array>,
  opts: { env?: Readonly<Record<string, string>>; timeoutMs?: number; fds?: readonly number[] } = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { stdio: ["pipe", "pipe", "pipe", ...(opts.fds ?? [])], env: { ...process.env, ...opts.env } });
    const out: Buffer[] = [];
    let err = "";
    let spawnError: NodeJS.ErrnoException | undefined;
    let timedOut = false;
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, opts.timeoutMs)
        : undefined;
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => {
      err = (err + c.toString("utf8")).slice(-STDERR_TAIL);
    });
    child.on("error", (e: NodeJS.ErrnoException) => {
      spawnError = e;
    });
    child.on("close", (exitCode, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ exitCode, signal, stdout: Buffer.concat(out), stderr: err, spawnError, timedOut });
    });
    // EPIPE when the launcher answers (an error) before reading everything: its answer says why.
    pipeline(Readable.from(input, { objectMode: false }), child.stdin!).catch(() => undefined);
  });
}

/** "exit status 3" / "signal SIGSEGV", and the stderr tail, for GK8008 messages. */
export function describeExit(r: ProcessResult): string {
  const how = r.signal ? `was killed by ${r.signal}` : `exited with status ${r.exitCode}`;
  const tail = r.stderr.trim();
  return tail ? `${how}; stderr: ${tail.slice(-2000)}` : how;
}

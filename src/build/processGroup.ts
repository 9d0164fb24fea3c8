/**
 * Running a program in a process group of its own, so that it can be stopped together with
 * everything it started. nvcc runs its stages (cicc, ptxas, ...) through `sh -c`: killing nvcc
 * alone leaves them running, gigabytes large, with nvcc's output pipes open.
 *
 * A group started here is ended (SIGTERM) when this process exits or is stopped by SIGINT,
 * SIGTERM or SIGHUP, since a group of its own no longer gets the terminal's Ctrl-C. And it is
 * ended (SIGKILL) when this process dies in a way no handler sees (SIGKILL, a crash), by a
 * guard inside the group: the group's leader is first a shell that starts the guard in the
 * background and then becomes the program (`exec`, the same pid). The guard waits to read fd 3,
 * the child's end of a socket pair whose other end only this process holds; the read returns
 * when that end closes, which is when this process has ended (or ended the run), and the guard
 * then kills its whole group, itself included. The program runs without fd 3.
 */
import { accessSync, constants as fsConstants, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

export type GroupOutcome =
  | { readonly kind: "ok"; readonly stdout: string; readonly stderr: string; readonly ms: number }
  | { readonly kind: "spawn"; readonly code: string; readonly detail: string }
  | { readonly kind: "exit"; readonly exitCode: number; readonly output: string; readonly ms: number }
  | { readonly kind: "timeout"; readonly output: string; readonly ms: number }
  | { readonly kind: "signal"; readonly signal: string; readonly output: string; readonly ms: number }
  | { readonly kind: "canceled" };

export interface GroupRunOptions {
  readonly cwd?: string;
  /** Variables added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** 0: no limit. */
  readonly timeoutMs: number;
  readonly cancel?: AbortSignal;
  /** After SIGTERM, how long the group has before SIGKILL; default 2 s. */
  readonly killAfterMs?: number;
}

/**
 * Runs `file args` (no shell, stdin closed) as the leader of a new process group and turns every
 * way it can end into a value; never rejects. On timeout or cancel the whole group gets SIGTERM,
 * then SIGKILL; when the leader ends, whatever is left of its group is killed.
 */
export async function runInGroup(file: string, args: readonly string[], opts: GroupRunOptions): Promise<GroupOutcome> {
  // execa is loaded on the first run, not with this module: commands that never build stay fast to start.
  const { execa, ExecaError } = await import("execa");
  const t0 = performance.now();
  let stopped: "timeout" | "canceled" | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let limitTimer: NodeJS.Timeout | undefined;
  let pid: number | undefined;
  const stop = (why: "timeout" | "canceled") => {
    if (stopped !== undefined || pid === undefined) return;
    stopped = why;
    const leader = pid;
    signalGroup(leader, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(leader, "SIGKILL"), opts.killAfterMs ?? 2000);
  };
  const onAbort = () => stop("canceled");
  // Before the spawn: a signal that comes between the spawn and the bookkeeping below must
  // find a listener (Node runs it later, on the event loop), not the default that ends Node.
  watchSignals();
  const program = findProgram(file, opts);
  if (typeof program !== "string") return program;
  try {
    const sub = execa(SHELL, ["-c", GUARD, "gk-group", program, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      cleanup: false,
      // stdin closed; stdout, stderr; fd 3: the guard's lifeline (never written).
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      stripFinalNewline: false,
    });
    pid = sub.pid;
    if (pid !== undefined) {
      const leader = pid;
      live.add(leader);
      // The leader ended: anything it left in its group is orphaned work.
      sub.once("exit", () => signalGroup(leader, "SIGKILL"));
      if (opts.timeoutMs > 0) limitTimer = setTimeout(() => stop("timeout"), opts.timeoutMs);
      if (opts.cancel?.aborted) stop("canceled");
      else opts.cancel?.addEventListener("abort", onAbort, { once: true });
    }
    const r = await sub;
    return { kind: "ok", stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
  } catch (e) {
    if (!(e instanceof ExecaError)) throw e;
    const ms = performance.now() - t0;
    const output = `${e.stderr ?? ""}${e.stdout ?? ""}`;
    if (stopped === "canceled") return { kind: "canceled" };
    if (stopped === "timeout") return { kind: "timeout", output, ms };
    if (e.exitCode !== undefined) return { kind: "exit", exitCode: e.exitCode, output, ms };
    if (e.signal !== undefined) return { kind: "signal", signal: e.signal, output, ms };
    return { kind: "spawn", code: e.code ?? "unknown error", detail: e.originalMessage ?? e.shortMessage };
  } finally {
    clearTimeout(limitTimer);
    clearTimeout(killTimer);
    opts.cancel?.removeEventListener("abort", onAbort);
    if (pid !== undefined) live.delete(pid);
    if (live.size === 0) unwatchSignals();
  }
}

const SHELL = "/bin/sh";
/**
 * The group leader's script (see the top of this file). The guard ignores the signals that stop
 * a run (a SIGTERM to the group ends the program, and the guard stays until the group is killed
 * or this process ends); `kill -KILL 0` is its whole group.
 */
const GUARD = `( trap '' INT TERM HUP; read _ <&3; kill -KILL 0 ) </dev/null >/dev/null 2>&1 &\nexec "$@" 3<&-`;

/**
 * The program's absolute path, found as a spawn finds it (a name without a slash on PATH), or
 * the spawn failure it would be: the shell that runs it could only report an exit code.
 */
function findProgram(file: string, opts: GroupRunOptions): string | Extract<GroupOutcome, { kind: "spawn" }> {
  const candidates = file.includes("/")
    ? [path.resolve(opts.cwd ?? ".", file)]
    : ((opts.env?.PATH ?? process.env.PATH) ?? "").split(path.delimiter).filter((d) => d !== "").map((d) => path.resolve(opts.cwd ?? ".", d, file));
  let code = "ENOENT";
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EACCES") code = "EACCES";
    }
  }
  return { kind: "spawn", code, detail: `spawn ${file} ${code}` };
}

/** Sends `signal` to the group led by `leader`; a group that has ended already is no error. */
export function signalGroup(leader: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-leader, signal);
  } catch {
    // ESRCH: nothing of the group is left
  }
}

// ---------------------------------------------------------------------------------------------
// Ending the groups with this process

/** Leaders of the groups started here that have not been waited for yet. */
const live = new Set<number>();
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let watching = false;

function endAll(): void {
  for (const leader of live) signalGroup(leader, "SIGTERM");
}

function onSignal(signal: NodeJS.Signals): void {
  endAll();
  // Alone on this signal, the listener took away Node's default of ending the process: unwatch
  // and send the signal again, so the process ends as it would have without gk.
  if (process.listenerCount(signal) === 1) {
    unwatchSignals();
    process.kill(process.pid, signal);
  }
}

function watchSignals(): void {
  if (watching) return;
  watching = true;
  process.on("exit", endAll);
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
}

function unwatchSignals(): void {
  if (!watching) return;
  watching = false;
  process.off("exit", endAll);
  for (const s of STOP_SIGNALS) process.off(s, onSignal);
}

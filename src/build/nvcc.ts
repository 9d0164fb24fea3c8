/**
 * Running nvcc: finding it, asking its version, and compiling generated CUDA to PTX and a
 * cubin. nvcc always runs without a shell, arguments as an array, in a process group of its own
 * that a time limit or a cancel ends whole (processGroup.ts). Its messages come back as
 * diagnostics, mapped to `.gk` lines through the `#line` directives that codegen writes
 * (nvccMessages.ts); a folder it cannot write is named as the cause (diskSpace.ts).
 * Whatever goes wrong (no nvcc, a compile error, a timeout, a killed process) surfaces as one
 * `BuildError` carrying diagnostics, never as a raw spawn failure.
 */
import { accessSync, constants as fsConstants, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { error, formatDiagnostics, SourceMap, type Diagnostic, type RelatedNote } from "../diagnostics/index.js";
import { invariant } from "../util.js";
import { fullDisk } from "./diskSpace.js";
import { dedupe, messageDiagnostic, parseNvccOutput, type MessageContext } from "./nvccMessages.js";
import { isPlainName, plainRealPath, plainTempDir } from "./nvccFolders.js";
import { runInGroup, type GroupOutcome } from "./processGroup.js";
import { showWhile } from "../progress.js";

/** The one error type that building throws: everything the user needs is in `diagnostics`. */
export class BuildError extends Error {
  override readonly name = "BuildError";
  readonly diagnostics: readonly Diagnostic[];
  /**
   * nvcc itself rejected the source (it exited with a status, neither stopped nor killed): the
   * same build fails the same way again, so the cache tells processes waiting for it.
   */
  readonly rejected: boolean;

  constructor(diagnostics: readonly Diagnostic[], sources: SourceMap = new SourceMap(), rejected = false) {
    super(formatDiagnostics(diagnostics, sources));
    this.diagnostics = diagnostics;
    this.rejected = rejected;
  }
}

// ---------------------------------------------------------------------------------------------
// Finding nvcc

export interface NvccLocation {
  readonly path: string;
  /** Where it was found: the override, PATH, a toolkit variable, or a default install folder. */
  readonly via: "GK_NVCC" | "PATH" | "CUDA_HOME" | "CUDA_PATH" | "default";
}

/** Install folders tried after PATH and the toolkit variables. */
export const DEFAULT_NVCC_PATHS: readonly string[] = ["/usr/local/cuda/bin/nvcc", "/opt/cuda/bin/nvcc"];

const INSTALL_HINT =
  "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin folder on PATH, " +
  "or set GK_NVCC to the nvcc executable";

/**
 * `$GK_NVCC` if set (and then only it: a wrong override is an error, not a reason to pick
 * another nvcc), else `nvcc` on `PATH`, else `$CUDA_HOME/bin/nvcc`, `$CUDA_PATH/bin/nvcc`, and
 * the default install folders. Throws a `BuildError` with GK7001 naming everything it tried.
 */
export function findNvcc(
  env: NodeJS.ProcessEnv = process.env,
  defaults: readonly string[] = DEFAULT_NVCC_PATHS,
): NvccLocation {
  const exe = process.platform === "win32" ? "nvcc.exe" : "nvcc";
  const override = nonEmpty(env.GK_NVCC);
  if (override !== undefined) {
    const resolved = /[\\/]/.test(override) ? path.resolve(override) : searchPath(override, env.PATH);
    if (resolved !== undefined && isExecutable(resolved)) return { path: resolved, via: "GK_NVCC" };
    throw new BuildError([
      error("GK7001", undefined, `nvcc not found: GK_NVCC is set to '${override}', which is not an executable file`, [
        { message: "point GK_NVCC at the nvcc executable (for example /usr/local/cuda/bin/nvcc), or unset it to search PATH" },
      ]),
    ]);
  }
  const looked: string[] = [];
  const onPath = searchPath(exe, env.PATH);
  if (onPath !== undefined) return { path: onPath, via: "PATH" };
  const pathDirs = (env.PATH ?? "").split(path.delimiter).filter((d) => d !== "").length;
  looked.push(`'${exe}' on PATH (${pathDirs} folders)`);
  for (const via of ["CUDA_HOME", "CUDA_PATH"] as const) {
    const home = nonEmpty(env[via]);
    if (home === undefined) {
      looked.push(`$${via}/bin/${exe} ($${via} is not set)`);
      continue;
    }
    const candidate = path.join(home, "bin", exe);
    if (isExecutable(candidate)) return { path: candidate, via };
    looked.push(`$${via}/bin/${exe} (${candidate}: not there)`);
  }
  for (const candidate of defaults) {
    if (isExecutable(candidate)) return { path: candidate, via: "default" };
    looked.push(`${candidate} (not there)`);
  }
  throw new BuildError([
    error("GK7001", undefined, `nvcc not found; looked for ${looked.join(", ")}`, [{ message: INSTALL_HINT }]),
  ]);
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === "" ? undefined : s;
}

function searchPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.resolve(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Running it

type RunOutcome = GroupOutcome;

interface RunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly cancel?: AbortSignal;
}

/**
 * Runs nvcc (no shell) in a process group of its own and turns every way it can end into a
 * value; never rejects. A timeout or a cancel ends the whole group: nvcc's stages (cicc, ptxas)
 * run under `sh -c` and would outlive nvcc, holding its output pipes open.
 */
function runNvcc(nvcc: string, args: readonly string[], opts: RunOptions): Promise<RunOutcome> {
  return runInGroup(nvcc, args, opts);
}

function spawnFailure(nvcc: string, o: { code: string; detail: string }): BuildError {
  return new BuildError([
    error("GK7001", undefined, `nvcc not found: could not run '${nvcc}' (${o.code}: ${o.detail})`, [
      { message: INSTALL_HINT },
    ]),
  ]);
}

/**
 * Runs a command that starts no children (`nvcc --version`) with Node's own child_process,
 * not execa: a build that hits the cache asks nvcc only its version, and loading execa (some
 * 150 modules) would cost it more than the rest of the hit. Never rejects.
 */
async function quickRun(file: string, args: readonly string[], timeoutMs: number): Promise<RunOutcome> {
  const { execFile } = await import("node:child_process");
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 1 << 20, encoding: "utf8" }, (e, stdout, stderr) => {
      const ms = performance.now() - t0;
      if (!e) return resolve({ kind: "ok", stdout, stderr, ms });
      const err = e as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null; code?: string | number | null };
      const output = `${stdout}${stderr}`;
      if (typeof err.code === "string") return resolve({ kind: "spawn", code: err.code, detail: err.message });
      if (err.killed && err.signal === "SIGTERM") return resolve({ kind: "timeout", output, ms });
      if (err.signal) return resolve({ kind: "signal", signal: err.signal, output, ms });
      resolve({ kind: "exit", exitCode: typeof err.code === "number" ? err.code : 1, output, ms });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Version

export interface NvccVersion {
  /** `13.0` */
  readonly release: string;
  /** `13.0.88` */
  readonly version: string;
  /** The whole `nvcc --version` text, trimmed; this is what cache keys hash. */
  readonly text: string;
}

/** Memoized per process and per nvcc path; a failed query is not remembered. */
const versionMemo = new Map<string, Promise<NvccVersion>>();

/** `nvcc --version`, parsed. Throws a `BuildError` (GK7001 or GK7002) when nvcc cannot answer. */
export function nvccVersion(nvcc: string = findNvcc().path): Promise<NvccVersion> {
  let pending = versionMemo.get(nvcc);
  if (pending === undefined) {
    pending = queryVersion(nvcc);
    versionMemo.set(nvcc, pending);
    pending.catch(() => versionMemo.delete(nvcc));
  }
  return pending;
}

async function queryVersion(nvcc: string): Promise<NvccVersion> {
  const args = ["--version"];
  const o = await quickRun(nvcc, args, 60_000);
  if (o.kind === "spawn") throw spawnFailure(nvcc, o);
  const command = quoteCommand([nvcc, ...args]);
  if (o.kind !== "ok") {
    const why = describeOutcome(o);
    throw new BuildError([error("GK7002", undefined, `nvcc failed (${why}) answering '${command}'`, outputNotes(o))]);
  }
  const text = o.stdout.replace(/\r\n/g, "\n").trim();
  const m = /release (\d+\.\d+), V(\d+\.\d+\.\d+)/.exec(text);
  if (!m) {
    throw new BuildError([
      error("GK7002", undefined, `'${command}' printed no version that gk recognises`, [
        { message: `it printed: ${text.slice(0, 300) || "(nothing)"}` },
        { message: "check that GK_NVCC or PATH points at NVIDIA's nvcc" },
      ]),
    ]);
  }
  return { release: m[1]!, version: m[2]!, text };
}

// ---------------------------------------------------------------------------------------------
// Compiling

export interface CompileCudaOptions {
  /** The generated CUDA C++ (with `#line` directives naming `.gk` files). */
  readonly source: string;
  /** A real GPU architecture, e.g. `sm_90`. */
  readonly arch: string;
  /** Extra nvcc flags, after `-O3 -lineinfo -arch=<arch>`; e.g. `--fmad=false`. */
  readonly flags?: readonly string[];
  /**
   * Folder that receives `<baseName>.cu`, `.ptx` and `.cubin`. nvcc runs in it when its real
   * path is plain (nvcc hands its folders to a shell: see nvccFolders.ts), else in a private
   * temporary folder whose results are copied here. nvcc records its folder in the line info:
   * the `.cu` and any relative `#line` file name are made absolute against it, so only
   * absolute `#line` paths point tools at the real `.gk` files.
   */
  readonly outDir: string;
  /** Letters, digits and `_ . + -`. */
  readonly baseName: string;
  /**
   * A folder for the source whose path depends only on what is built (the cache passes one per
   * key), with a plain real path: nvcc then runs in it and reads `<baseName>.cu` there, writing
   * its results to a folder of this build. nvcc writes its folder and the source's path into
   * the line info of the PTX and the cubin, so with it every build of the same source gives the
   * same bytes. The `.cu` is written there by rename (callers building the same source at once
   * write the same bytes). Default: nvcc runs where it writes, so the results name that folder.
   */
  readonly sourceDir?: string;
  /** How messages name the generated CUDA outside `#line` regions; default `<baseName>.cu`. */
  readonly sourceName?: string;
  /** The `.gk` sources, so that `file.gk(12): error` becomes a diagnostic with a span. */
  readonly sourceMap?: SourceMap;
  /** The nvcc to run; default `findNvcc()`. */
  readonly nvcc?: string;
  /** Time limit for each nvcc run; default `nvccTimeoutMs()` ($GK_NVCC_TIMEOUT, else 5 minutes). */
  readonly timeoutMs?: number;
  /**
   * The folder that the reported command `cd`s into; default `outDir`. The cache passes the
   * folder where it keeps a failed build's `.cu`, so that the command can still be pasted.
   */
  readonly commandDir?: string;
}

export interface CompileCudaResult {
  readonly cu: string;
  readonly ptx: string;
  readonly cubin: string;
  /** The nvcc that ran. */
  readonly nvcc: string;
  /** Each run's arguments (after the nvcc path), to run in a folder holding the `.cu`. */
  readonly commands: { readonly ptx: readonly string[]; readonly cubin: readonly string[] };
  /** nvcc's warnings (GK7005), mapped like errors. */
  readonly warnings: readonly Diagnostic[];
  /** Milliseconds: each run, and the whole call (the two runs overlap). */
  readonly timings: { readonly ptxMs: number; readonly cubinMs: number; readonly totalMs: number };
}

type Mode = "ptx" | "cubin";

export const DEFAULT_NVCC_TIMEOUT_MS = 5 * 60_000;

/**
 * The time limit of each nvcc run: `$GK_NVCC_TIMEOUT` seconds (0: no limit), else 5 minutes.
 * The one place that reads it; every build (compile(), kernel(), gkc build, the loaders) goes
 * through here. Throws GK7002 for a value that is not a number of seconds.
 */
export function nvccTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.GK_NVCC_TIMEOUT?.trim();
  if (v === undefined || v === "") return DEFAULT_NVCC_TIMEOUT_MS;
  const seconds = /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(seconds) || seconds * 1000 > 2 ** 31 - 1) {
    throw new BuildError([
      error("GK7002", undefined, `GK_NVCC_TIMEOUT must be a number of seconds (0: no limit), got ${JSON.stringify(env.GK_NVCC_TIMEOUT)}`, [
        { message: "for example GK_NVCC_TIMEOUT=1800 lets each nvcc run take half an hour" },
      ]),
    ]);
  }
  return Math.round(seconds * 1000);
}

/**
 * The arguments of one nvcc run in the folder holding the `.cu`; the output goes beside it, or
 * into `outDir` when given.
 */
export function nvccArgs(arch: string, flags: readonly string[], mode: Mode, baseName: string, outDir?: string): string[] {
  const out = outDir === undefined ? `${baseName}.${mode}` : path.join(outDir, `${baseName}.${mode}`);
  return ["-O3", "-lineinfo", `-arch=${arch}`, ...flags, `-${mode}`, `${baseName}.cu`, "-o", out];
}

/**
 * Writes `<outDir>/<baseName>.cu` and runs nvcc twice in parallel, once for PTX and once for a
 * cubin. When one run fails the other is stopped. Throws a `BuildError`: GK7001 when nvcc
 * cannot be run, GK7002 when it fails (with the command and nvcc's messages).
 */
export async function compileCuda(opts: CompileCudaOptions): Promise<CompileCudaResult> {
  const t0 = performance.now();
  const nvcc = opts.nvcc ?? findNvcc().path;
  const flags = opts.flags ?? [];
  const cuName = `${opts.baseName}.cu`;
  invariant(isPlainName(opts.baseName), `compileCuda: baseName ${JSON.stringify(opts.baseName)} is not a plain file name`);
  refuseShellText(opts.arch, flags);
  await mkdir(opts.outDir, { recursive: true });
  await writeFile(path.join(opts.outDir, cuName), opts.source);
  const tmp = await plainTempDir();
  const plainOut = await plainRealPath(opts.outDir);
  const workDir = plainOut ?? (await mkdtemp(path.join(tmp, "gk-nvcc-")));
  try {
    let sourceDir = workDir;
    if (opts.sourceDir !== undefined) {
      await mkdir(opts.sourceDir, { recursive: true });
      const real = await plainRealPath(opts.sourceDir);
      invariant(real !== undefined, `compileCuda: sourceDir ${JSON.stringify(opts.sourceDir)} has no plain real path`);
      sourceDir = real;
      const part = path.join(real, `${cuName}.${process.pid}.${randomBytes(6).toString("hex")}`);
      await writeFile(part, opts.source);
      await utimes(part, 0, 0); // the cubin's line table records the file's modification time
      await rename(part, path.join(real, cuName));
    } else if (workDir !== plainOut) {
      await writeFile(path.join(workDir, cuName), opts.source);
    }
    // A build over a second says so on the status line (src/progress.ts), where there is one.
    const r = await showWhile((s) => `building ${cuName} with nvcc (${opts.arch}): ${s} s`, compileIn({ sourceDir, workDir }, nvcc, flags, tmp, opts, t0));
    if (workDir !== plainOut) {
      for (const mode of ["ptx", "cubin"] as const) await copyFile(path.join(workDir, `${opts.baseName}.${mode}`), r[mode]);
    }
    return r;
  } finally {
    if (workDir !== plainOut) await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * nvcc copies the architecture and many flags into its `sh -c` command lines: both must be
 * plain text (letters, digits and `_ = . , + - /`), so that none of them runs as shell code.
 */
function refuseShellText(arch: string, flags: readonly string[]): void {
  const bad = [arch, ...flags].find((a) => !/^[A-Za-z0-9_=.,+\/-]+$/.test(a));
  if (bad === undefined) return;
  throw new BuildError([
    error("GK7002", undefined, `refusing to pass ${JSON.stringify(bad)} to nvcc: ${bad === arch ? "an architecture" : "a flag"} may hold only letters, digits and _ = . , + - /`, [
      { message: "nvcc hands its architecture and flags to a shell, which would read the other characters as code" },
    ]),
  ]);
}

/**
 * The two nvcc runs in `sourceDir` (plain, holding the `.cu`), writing to `workDir` (plain); the
 * result names the files as they will be in `outDir`.
 */
async function compileIn(
  { sourceDir, workDir }: { readonly sourceDir: string; readonly workDir: string },
  nvcc: string,
  flags: readonly string[],
  tmp: string,
  opts: CompileCudaOptions,
  t0: number,
): Promise<CompileCudaResult> {
  const cuName = `${opts.baseName}.cu`;
  const timeoutMs = opts.timeoutMs ?? nvccTimeoutMs();
  const stopOthers = new AbortController();
  const run = async (mode: Mode) => {
    const args = nvccArgs(opts.arch, flags, mode, opts.baseName, sourceDir === workDir ? undefined : workDir);
    const outcome = await runNvcc(nvcc, args, {
      cwd: sourceDir,
      // nvcc's temporary files are named in its shell commands too.
      env: { TMPDIR: tmp },
      timeoutMs,
      cancel: stopOthers.signal,
    });
    if (outcome.kind !== "ok" && outcome.kind !== "canceled") stopOthers.abort();
    return { mode, args, outcome };
  };
  const runs = await Promise.all([run("ptx"), run("cubin")]);

  const ctx: MessageContext = {
    sourceMap: opts.sourceMap,
    cuName,
    sourceName: opts.sourceName ?? cuName,
  };
  const failed = runs.filter((r) => r.outcome.kind !== "ok" && r.outcome.kind !== "canceled");
  for (const r of failed) if (r.outcome.kind === "spawn") throw spawnFailure(nvcc, r.outcome);
  if (failed.length > 0) await refuseFullDisk([workDir, tmp], `nvcc failed (${failed.map((r) => describeOutcome(r.outcome)).join(", ")})`);
  if (failed.length > 0) {
    const seen = new Set<string>();
    const diags = failed.flatMap((r) =>
      failureDiagnostics(r.outcome, {
        ...ctx,
        arch: opts.arch,
        limitMs: timeoutMs,
        mode: r.mode,
        // Relative names: the command runs in a folder holding the `.cu`, writing beside it.
        command: `cd ${quoteArg(opts.commandDir ?? opts.outDir)} && ${quoteCommand([nvcc, ...nvccArgs(opts.arch, flags, r.mode, opts.baseName)])}`,
        seen,
      }),
    );
    throw new BuildError(diags, opts.sourceMap, failed.every((r) => r.outcome.kind === "exit"));
  }

  const [ptxRun, cubinRun] = runs as [(typeof runs)[number], (typeof runs)[number]];
  const files = { ptx: path.join(opts.outDir, `${opts.baseName}.ptx`), cubin: path.join(opts.outDir, `${opts.baseName}.cubin`) };
  for (const mode of ["ptx", "cubin"] as const) {
    const size = await stat(path.join(workDir, `${opts.baseName}.${mode}`)).then((s) => s.size, () => -1);
    if (size <= 0) await refuseFullDisk([workDir, tmp], `nvcc wrote ${size < 0 ? "no" : "an empty"} ${opts.baseName}.${mode}`);
    if (size <= 0) {
      throw new BuildError([
        error("GK7002", undefined, `nvcc reported success but wrote ${size < 0 ? "no" : "an empty"} ${opts.baseName}.${mode}`, [
          { message: `command: ${quoteCommand([nvcc, ...runs.find((r) => r.mode === mode)!.args])}` },
        ]),
      ]);
    }
  }
  const warnings = dedupe(
    runs.flatMap((r) => (r.outcome.kind === "ok" ? parseNvccOutput(r.outcome.stderr + r.outcome.stdout).messages : [])),
  ).map((m) => messageDiagnostic(m, ctx));
  const ms = (o: RunOutcome) => (o.kind === "ok" ? o.ms : 0);
  return {
    cu: path.join(opts.outDir, cuName),
    ...files,
    nvcc,
    commands: { ptx: ptxRun.args, cubin: cubinRun.args },
    warnings,
    timings: { ptxMs: ms(ptxRun.outcome), cubinMs: ms(cubinRun.outcome), totalMs: performance.now() - t0 },
  };
}

/** Throws GK7006 when a folder nvcc writes cannot take a write (diskSpace.ts): then that, not `what` nvcc did, is the error. */
async function refuseFullDisk(dirs: readonly string[], what: string): Promise<void> {
  const full = await fullDisk(dirs, what);
  if (full !== undefined) throw new BuildError([full]);
}

function describeOutcome(o: RunOutcome): string {
  return o.kind === "exit" ? `exit code ${o.exitCode}` : o.kind === "signal" ? `killed by ${o.signal}` : o.kind;
}

interface FailureContext extends MessageContext {
  readonly arch: string;
  /** The time limit of the run, in milliseconds. */
  readonly limitMs: number;
  readonly mode: Mode;
  /** The command, quoted for a POSIX shell, prefixed by `cd <folder> &&`. */
  readonly command: string;
  /** Messages already reported by the other run (both runs usually print the same errors). */
  readonly seen: Set<string>;
}

/** A summary (what failed, the command, unrecognised output) followed by one diagnostic per message. */
function failureDiagnostics(o: RunOutcome, ctx: FailureContext): Diagnostic[] {
  if (o.kind === "ok" || o.kind === "canceled" || o.kind === "spawn") return [];
  const { messages, other } = parseNvccOutput(o.output);
  const fresh = dedupe(messages, ctx.seen);
  // The other run failed first with the same messages: one summary is enough.
  if (o.kind === "exit" && messages.length > 0 && fresh.length === 0 && other.length === 0) return [];
  const errors = messages.filter((m) => m.severity === "error").length;
  const what = `${ctx.sourceName} to ${ctx.mode === "ptx" ? "PTX" : "a cubin"} for ${ctx.arch}`;
  const notes: RelatedNote[] = [{ message: `command: ${ctx.command}` }];
  let summary: string;
  switch (o.kind) {
    case "exit":
      summary = `nvcc failed with exit code ${o.exitCode} compiling ${what}` + (errors > 0 ? ` (${plural(errors, "error")})` : "");
      break;
    case "timeout":
      summary = `nvcc timed out after ${(o.ms / 1000).toFixed(1)} s compiling ${what} and was stopped`;
      notes.push({ message: `a very large kernel may need a longer time limit: set GK_NVCC_TIMEOUT to the seconds nvcc may take (now ${ctx.limitMs / 1000}; 0: no limit)` });
      break;
    case "signal":
      summary = `nvcc was killed by ${o.signal} while compiling ${what}`;
      notes.push({ message: "something outside gk stopped it (for example the system, when memory ran out); try again" });
      break;
  }
  const shown = messages.length === 0 ? other.slice(-40) : other.slice(0, 20);
  for (const line of shown) notes.push({ message: `nvcc: ${line}` });
  return [error("GK7002", undefined, summary, notes), ...fresh.map((m) => messageDiagnostic(m, ctx))];
}

function outputNotes(o: RunOutcome): RelatedNote[] {
  const text = "output" in o ? o.output.trim() : "";
  return text === "" ? [] : text.split("\n").slice(-20).map((l) => ({ message: `nvcc: ${l}` }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// ---------------------------------------------------------------------------------------------
// Quoting, for commands that a user can paste into a POSIX shell

export function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_\-+=.,/:@%]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function quoteCommand(argv: readonly string[]): string {
  return argv.map(quoteArg).join(" ");
}

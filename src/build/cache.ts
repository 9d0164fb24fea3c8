/**
 * The content-addressed kernel cache. `getOrBuild` hashes everything that decides nvcc's
 * output, returns a checked entry when there is one, and otherwise builds one privately and
 * publishes it with a single rename.
 *
 * Guarantees, also with many processes on one cache:
 * - a reader sees a whole entry or none: entries are built in a private folder under the root,
 *   fsynced with meta.json written last, then renamed into place;
 * - every hit is checked (meta.json matches the key; every file has its recorded size and
 *   sha256); a damaged entry is reported once (GK7003), moved aside and rebuilt;
 * - one process at a time builds a key (cache/lock.ts): the others wait for it and use its
 *   entry, or report the errors it recorded when nvcc rejected the source;
 * - when two processes publish the same key all the same (a lock broken as stale), the loser
 *   checks the winner's entry, uses it and deletes its own folder;
 * - a failed build never leaves an entry or a private folder behind;
 * - a build is reproducible for its key: nvcc reads the source from `v1/src/<key>` (a folder
 *   named by the key alone) and writes into the private folder, so the folder names that it
 *   writes into the line info of the PTX and the cubin are the same for every build of a key.
 */
import { lstat, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { error, formatDiagnostic, SourceMap, warning, type Diagnostic } from "../diagnostics/index.js";
import { cacheIoError, inspectEntry, makeFolder, moveAside, publish, readEntryFile, recordFiles, sealEntry, writeIfAbsent } from "./cache/entry.js";
import type { EntryInputs, EntryMeta, ExpectedEntry, Inspection } from "./cache/entry.js";
import { CACHE_FORMAT_VERSION, cacheKey } from "./cache/key.js";
import { cacheRoot, cacheRootProblem, gkVersion, layoutOf, sha256 } from "../cacheFolder.js";
import { BASE_NAME, entryDir, failedDir, scratchName } from "./cache/layout.js";
import { tryLock, waitForLock } from "./cache/lock.js";
import { sweepStale } from "./cache/maintenance.js";
import { BuildError, compileCuda, findNvcc, nvccVersion } from "./nvcc.js";
import { plainRealPath, plainTempDir, privateFolder } from "./nvccFolders.js";

export { entryDir } from "./cache/layout.js";
export { cacheRoot, gkVersion } from "../cacheFolder.js";
export { cacheKey, canonicalKeyText, CACHE_FORMAT_VERSION, type CacheKeyInputs } from "./cache/key.js";
export type { EntryInputs, EntryMeta, FileRecord } from "./cache/entry.js";
export { clearCache, formatCacheTable, listEntries, type CacheRow, type ClearResult } from "./cache/maintenance.js";
export { BuildError } from "./nvcc.js";

export interface GetOrBuildOptions {
  /** The generated CUDA source. */
  readonly source: string;
  /** A real GPU architecture, e.g. `sm_90`. */
  readonly arch: string;
  /** Extra nvcc flags, in order; part of the key. */
  readonly flags?: readonly string[];
  /** Kernel names, recorded in meta.json for `gkc cache ls`. */
  readonly kernels: readonly string[];
  /** The `.gk` sources, so nvcc's errors get spans. */
  readonly sourceMap?: SourceMap;
  /** The cache root; default `cacheRoot()`. */
  readonly root?: string;
  /** The nvcc to run; default `findNvcc()`. */
  readonly nvcc?: string;
  /** Time limit for each nvcc run. */
  readonly timeoutMs?: number;
  /** Receives warnings (GK7003 damaged entry, GK7005 nvcc warnings); default: print to stderr. */
  readonly onWarning?: (d: Diagnostic) => void;
}

export interface CacheEntry {
  readonly key: string;
  readonly dir: string;
  readonly cu: string;
  readonly ptx: string;
  readonly cubin: string;
  readonly meta: EntryMeta;
}

export interface CacheTimings {
  /** Finding nvcc and asking its version (a fraction of a millisecond once memoized in this process). */
  readonly versionMs: number;
  /** Computing the key. */
  readonly hashMs: number;
  /** Reading and checking the entry (all lookups, including repairs and races). */
  readonly lookupMs: number;
  /** The nvcc runs, when this call built the entry. */
  readonly nvccMs?: number;
  readonly totalMs: number;
}

export interface GetOrBuildResult {
  readonly entry: CacheEntry;
  /** True when no nvcc ran in this call. */
  readonly hit: boolean;
  readonly timings: CacheTimings;
}

/** Lookups and publication attempts before giving up on a cache that keeps changing underfoot. */
const MAX_ATTEMPTS = 8;

/** Returns the checked cache entry for this build, building and publishing it when needed. */
export async function getOrBuild(opts: GetOrBuildOptions): Promise<GetOrBuildResult> {
  const t0 = performance.now();
  const root = path.resolve(opts.root ?? cacheRoot());
  refuseRoot(root);
  const nvcc = opts.nvcc ?? findNvcc().path;
  const version = (await nvccVersion(nvcc)).text;
  const t1 = performance.now();

  const inputs: EntryInputs = {
    arch: opts.arch,
    flags: [...(opts.flags ?? [])],
    nvccVersion: version,
    gkVersion: gkVersion(),
    sourceSha256: sha256(opts.source),
  };
  const key = cacheKey({ ...inputs, source: opts.source, format: CACHE_FORMAT_VERSION });
  const expected: ExpectedEntry = { format: CACHE_FORMAT_VERSION, key, inputs };
  const dir = entryDir(root, key);
  const t2 = performance.now();

  const onWarning = opts.onWarning ?? printWarning(opts.sourceMap);
  const lookup = new Lookup(dir, expected, root, onWarning);

  const timing = (nvccMs?: number): CacheTimings => ({
    versionMs: t1 - t0,
    hashMs: t2 - t1,
    lookupMs: lookup.ms,
    ...(nvccMs === undefined ? {} : { nvccMs }),
    totalMs: performance.now() - t0,
  });
  const hit = (meta: EntryMeta): GetOrBuildResult => ({ entry: entryOf(key, dir, meta), hit: true, timings: timing() });

  try {
    const found = await lookup.find();
    if (found !== undefined) return hit(found);
    // One process builds the key; the others wait for it and take its entry (or its error).
    const locks = layoutOf(root).locks;
    const waitedSince = Date.now();
    for (;;) {
      const lock = await tryLock(locks, key);
      if (lock !== undefined) {
        let sourceDir: string | undefined;
        try {
          const published = await lookup.find(); // by the owner of the lock before ours
          if (published !== undefined) return hit(published);
          sourceDir = await sourceDirFor(root, key);
          const built = await build(opts, { root, nvcc, key, inputs, lookup, onWarning, sourceDir });
          return { entry: entryOf(key, dir, built.meta), hit: false, timings: timing(built.nvccMs) };
        } finally {
          // Another builder may read it only if our lock was broken: then it is left to the sweep.
          if (sourceDir !== undefined && (await lock.held())) await rm(sourceDir, { recursive: true, force: true }).catch(() => undefined);
          await lock.release();
        }
      }
      await waitForLock(locks, key);
      const theirs = await lookup.find();
      if (theirs !== undefined) return hit(theirs);
      const failure = await readFailure(failedDir(root, key), waitedSince);
      if (failure !== undefined) throw new BuildError(failure, opts.sourceMap, true);
    }
  } catch (e) {
    throw cacheIoError(e, root);
  }
}

/** A root where no cache can live (under /proc, /sys or /dev): GK7006, before anything is created there. */
function refuseRoot(root: string): void {
  const problem = cacheRootProblem(root);
  if (problem === undefined) return;
  throw new BuildError([
    error("GK7006", undefined, `cannot use the kernel cache at ${root}: ${problem}`, [
      { message: "point GK_CACHE_DIR at a folder on a disk (or unset it: the default is ~/.cache/gk)" },
    ]),
  ]);
}

/** Checking one entry, with repairs of damage and retries while other processes change it. */
class Lookup {
  ms = 0;
  private reported = false;

  constructor(
    readonly dir: string,
    readonly expected: ExpectedEntry,
    readonly root: string,
    private readonly onWarning: (d: Diagnostic) => void,
  ) {}

  /** The valid entry's metadata, or undefined when it must be built. */
  async find(): Promise<EntryMeta | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const state = await this.inspect();
      if (state.kind === "valid") return state.meta;
      if (state.kind === "missing") return undefined;
      if (state.kind === "damaged") await this.repair(state);
    }
    return undefined;
  }

  async inspect(): Promise<Inspection> {
    const t = performance.now();
    try {
      return await inspectEntry(this.dir, this.expected);
    } finally {
      this.ms += performance.now() - t;
    }
  }

  /** Reports the damage (once per lookup, however often it is met) and moves the damaged folder aside. */
  async repair(state: Extract<Inspection, { kind: "damaged" }>): Promise<void> {
    if (!this.reported) {
      this.reported = true;
      this.onWarning(
        warning("GK7003", undefined, `damaged cache entry rebuilt: ${state.reason}`, [
          { message: `entry: ${this.dir}` },
          { message: "if this keeps happening, check the disk and anything else that writes under the cache folder" },
        ]),
      );
    }
    await moveAside(this.dir, state.identity, layoutOf(this.root).trash, this.expected.key);
  }
}

/**
 * Where nvcc reads the source of a key: a folder named by the key (and the cache) only, so that
 * the line info nvcc writes is the same for every build of it. In the cache (`v1/src/<key>`) when the cache's
 * real path is plain, else in a private folder of this user's under a plain temporary folder.
 */
async function sourceDirFor(root: string, key: string): Promise<string> {
  const real = await plainRealPath(root);
  // Named by the cache too: another cache's lock does not keep its builds away from this folder.
  const uid = process.getuid?.() ?? 0;
  const dir = real !== undefined ? path.join(layoutOf(real).src, key) : path.join(await privateFolder(await plainTempDir(), `gk-src-${uid}`), `${sha256(root).slice(0, 16)}-${key}`);
  // Only a folder is used: anything else at the name (a link out of the cache, a FIFO, a file) is removed, never followed.
  const st = await lstat(dir).catch(() => undefined);
  if (st !== undefined && !st.isDirectory()) await rm(dir, { force: true, recursive: true });
  return dir;
}

interface BuildContext {
  readonly root: string;
  readonly sourceDir: string;
  readonly nvcc: string;
  readonly key: string;
  readonly inputs: EntryInputs;
  readonly lookup: Lookup;
  readonly onWarning: (d: Diagnostic) => void;
}

/** Builds in a private folder and publishes it; on a lost race, uses the winner's entry. */
async function build(opts: GetOrBuildOptions, ctx: BuildContext): Promise<{ meta: EntryMeta; nvccMs: number }> {
  const layout = layoutOf(ctx.root);
  await makeFolder(layout.tmp);
  await writeIfAbsent(path.join(ctx.root, "CACHEDIR.TAG"), CACHEDIR_TAG);
  const tmp = path.join(layout.tmp, scratchName(ctx.key));
  await mkdir(tmp);
  try {
    const compiled = await compileOrKeepSource(opts, ctx, tmp);
    for (const w of compiled.warnings) ctx.onWarning(w);
    const meta: EntryMeta = {
      format: CACHE_FORMAT_VERSION,
      key: ctx.key,
      inputs: ctx.inputs,
      kernels: [...opts.kernels],
      files: await recordFiles(tmp),
      nvccMs: Math.round(compiled.timings.totalMs),
      builtAt: new Date().toISOString(),
      gkVersion: ctx.inputs.gkVersion,
    };
    await sealEntry(tmp, meta);
    const published = await publishOrAdopt(tmp, meta, ctx);
    await sweepStale(ctx.root);
    return { meta: published, nvccMs: compiled.timings.totalMs };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function publishOrAdopt(tmp: string, meta: EntryMeta, ctx: BuildContext): Promise<EntryMeta> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if ((await publish(tmp, ctx.lookup.dir)) === "published") return meta;
    const theirs = await ctx.lookup.inspect();
    if (theirs.kind === "valid") return theirs.meta;
    if (theirs.kind === "damaged") await ctx.lookup.repair(theirs);
  }
  throw new BuildError([
    error("GK7006", undefined, `could not publish cache entry ${ctx.key}: the entry kept changing under gk`, [
      { message: `entry: ${ctx.lookup.dir}` },
    ]),
  ]);
}

/**
 * Runs nvcc in the private folder. When nvcc fails, its `.cu` is kept in `failed/<key>/`
 * (never as an entry), so that the command in the diagnostic can be pasted and rerun.
 */
async function compileOrKeepSource(opts: GetOrBuildOptions, ctx: BuildContext, tmp: string) {
  const keepIn = failedDir(ctx.root, ctx.key);
  try {
    return await compileCuda({
      source: opts.source,
      arch: opts.arch,
      flags: ctx.inputs.flags,
      outDir: tmp,
      sourceDir: ctx.sourceDir,
      baseName: BASE_NAME,
      sourceMap: opts.sourceMap,
      nvcc: ctx.nvcc,
      timeoutMs: opts.timeoutMs,
      commandDir: keepIn,
    });
  } catch (e) {
    if (e instanceof BuildError && e.diagnostics.some((d) => d.code === "GK7002")) {
      await keepFailedSource(tmp, keepIn, e).catch(() => undefined);
    }
    throw e;
  }
}

/**
 * Moves the failed build's `.cu` to `failed/<key>/`; when nvcc rejected the source, records its
 * diagnostics there too (`failure.json`), for the processes that waited for this build.
 */
async function keepFailedSource(tmp: string, keepIn: string, e: BuildError): Promise<void> {
  await rm(path.join(tmp, `${BASE_NAME}.ptx`), { force: true });
  await rm(path.join(tmp, `${BASE_NAME}.cubin`), { force: true });
  await makeFolder(path.dirname(keepIn));
  await rm(keepIn, { recursive: true, force: true });
  await rename(tmp, keepIn);
  if (e.rejected) {
    const record: FailureRecord = { atMs: Date.now(), diagnostics: e.diagnostics };
    await writeFile(path.join(keepIn, FAILURE_FILE), JSON.stringify(record) + "\n");
  }
}

interface FailureRecord {
  readonly atMs: number;
  readonly diagnostics: readonly Diagnostic[];
}

const FAILURE_FILE = "failure.json";
/** The largest failure.json read (nvcc's messages, as diagnostics). */
const MAX_FAILURE_BYTES = 16 * 2 ** 20;

/** The diagnostics of a build of this key that nvcc rejected at or after `since` (ms), if one was recorded. */
async function readFailure(keptIn: string, since: number): Promise<Diagnostic[] | undefined> {
  try {
    const text = await readEntryFile(keptIn, FAILURE_FILE, MAX_FAILURE_BYTES);
    if (typeof text === "string") return undefined;
    const r = JSON.parse(text.toString("utf8")) as Partial<FailureRecord>;
    if (typeof r.atMs !== "number" || r.atMs < since || r.atMs > Date.now() || !Array.isArray(r.diagnostics)) return undefined;
    return r.diagnostics as Diagnostic[];
  } catch {
    return undefined;
  }
}

function entryOf(key: string, dir: string, meta: EntryMeta): CacheEntry {
  return {
    key,
    dir,
    cu: path.join(dir, `${BASE_NAME}.cu`),
    ptx: path.join(dir, `${BASE_NAME}.ptx`),
    cubin: path.join(dir, `${BASE_NAME}.cubin`),
    meta,
  };
}

function printWarning(sources: SourceMap = new SourceMap()): (d: Diagnostic) => void {
  return (d) => process.stderr.write(formatDiagnostic(d, sources) + "\n");
}

/** https://bford.info/cachedir/ — backup tools skip folders holding this file. */
const CACHEDIR_TAG =
  "Signature: 8a477f597d28d172789f06886806bc55\n" +
  "# This file is a cache directory tag created by gk (its kernel cache).\n" +
  "# For information about cache directory tags, see https://bford.info/cachedir/\n";

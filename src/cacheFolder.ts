/**
 * The folder gk keeps what it builds in, and which gk built it: the cache root
 * (`$GK_CACHE_DIR`, ...) and its layout, and gk's own version, which keys every entry. Shared
 * by the kernel cache (src/build/cache) and the TypeScript front end's cache of lowered files
 * (src/tsfront/cache.ts), which live under the same root; here, below both, so the front end
 * does not reach up into the build for them. The layout of the root:
 *
 *   <root>/CACHEDIR.TAG                 tells backup tools to skip the cache
 *   <root>/v1/<key[0..2]>/<key>/        a published entry: kernel.cu .ptx .cubin meta.json
 *   <root>/v1/tmp/<scratch>/            a build in progress (private to one process)
 *   <root>/v1/trash/<scratch>/          an entry moved aside (damaged or cleared), being deleted
 *   <root>/v1/failed/<key>/kernel.cu    the source of a failed build, for the reported nvcc command
 *   <root>/v1/failed/<key>/failure.json what nvcc said, for processes that waited for that build
 *   <root>/v1/locks/<key>               held while a process builds the key (build/cache/lock.ts)
 *   <root>/v1/src/<key>/kernel.cu       the source of a build in progress, where nvcc reads it
 *   <root>/v1/ts/<key>.json             a TypeScript kernel file lowered to gk's AST (tsfront/cache.ts)
 *                                       or the module code of an imported .gk file (modules/codeCache.ts)
 *
 * Everything sits under one root, so every rename stays on one filesystem and is atomic.
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InternalError } from "./util.js";

/** The cache format's folder; also the marker that says a folder is a gk cache. */
export const FORMAT_DIR = "v1";

/**
 * The cache root: `$GK_CACHE_DIR`, else `$XDG_CACHE_HOME/gk`, else `~/.cache/gk`. The one
 * place that reads the environment; everything else takes a root.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const explicit = env.GK_CACHE_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg) return path.resolve(xdg, "gk");
  return path.resolve(home, ".cache", "gk");
}

/**
 * The kernel's pseudo-filesystems: no cache can live there (under /proc/self, Node's recursive
 * mkdir loops forever; elsewhere gk would write into the kernel's files). /dev/shm is memory.
 */
const PSEUDO_ROOTS = ["/proc", "/sys", "/dev"];
const PSEUDO_EXCEPTIONS = ["/dev/shm"];

/**
 * Why `root` cannot hold a cache, or undefined: it is (or resolves, through the links of its
 * nearest existing folder, to a place) under /proc, /sys or /dev.
 */
export function cacheRootProblem(root: string): string | undefined {
  const under = (p: string, dir: string) => p === dir || p.startsWith(dir + path.sep);
  const pseudo = (p: string) => (PSEUDO_EXCEPTIONS.some((x) => under(p, x)) ? undefined : PSEUDO_ROOTS.find((d) => under(p, d)));
  const abs = path.resolve(root);
  let found = pseudo(abs);
  for (let p = abs; found === undefined; p = path.dirname(p)) {
    try {
      found = pseudo(path.join(realpathSync(p), path.relative(p, abs)));
      break;
    } catch {
      if (path.dirname(p) === p) break; // nothing of it exists
    }
  }
  return found === undefined ? undefined : `it is under ${found}, a pseudo-filesystem of the kernel, where no cache can be kept`;
}

export interface CacheLayout {
  readonly root: string;
  readonly base: string;
  readonly tmp: string;
  readonly trash: string;
  readonly failed: string;
  readonly locks: string;
  readonly src: string;
  readonly ts: string;
}

export function layoutOf(root: string): CacheLayout {
  const base = path.join(root, FORMAT_DIR);
  return {
    root,
    base,
    tmp: path.join(base, "tmp"),
    trash: path.join(base, "trash"),
    failed: path.join(base, "failed"),
    locks: path.join(base, "locks"),
    src: path.join(base, "src"),
    ts: path.join(base, "ts"),
  };
}

let rootMemo: string | undefined;
let gkVersionMemo: string | undefined;

/**
 * The gk package's folder: the nearest folder above this module whose package.json is named
 * "gk", so that it is the same from `src/` (tests), `dist/` (the published package) and a
 * bundle's chunks. The one walk for gk's own files: its version, the launcher, the stdlib.
 */
export function packageRoot(): string {
  if (rootMemo !== undefined) return rootMemo;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = readPackage(path.join(dir, "package.json"));
    if (pkg?.name === "gk") {
      if (typeof pkg.version === "string") gkVersionMemo = pkg.version;
      return (rootMemo = dir);
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new InternalError("internal compiler error: cannot find gk's package.json above " + import.meta.url);
    dir = parent;
  }
}

/** gk's package.json version, read once (with packageRoot's walk). */
export function gkVersion(): string {
  if (gkVersionMemo !== undefined) return gkVersionMemo;
  packageRoot();
  if (gkVersionMemo === undefined) throw new InternalError(`internal compiler error: gk's package.json in ${packageRoot()} has no version`);
  return gkVersionMemo;
}

function readPackage(file: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

/** The sha256 of a text or bytes, in hex: the kernel cache's keys and entries and the lowerings' checks. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

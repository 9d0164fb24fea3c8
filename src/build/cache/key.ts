/** The cache key: sha256 over a canonical serialization of everything that decides the build's output. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InternalError } from "../../util.js";

/** Bumped whenever the entry layout or the meaning of a key changes. */
export const CACHE_FORMAT_VERSION = 1;

export interface CacheKeyInputs {
  /** The generated CUDA source, as nvcc will see it. */
  readonly source: string;
  /** The whole `nvcc --version` text. */
  readonly nvccVersion: string;
  /** Extra nvcc flags, in the order given (order can matter to nvcc). */
  readonly flags: readonly string[];
  readonly arch: string;
  /** gk's own version (the package.json version). */
  readonly gkVersion: string;
  readonly format: number;
}

/**
 * A fixed-order JSON array of tagged fields: JSON escaping is deterministic, and the tags and
 * array nesting keep field boundaries unambiguous (no concatenation can collide).
 */
export function canonicalKeyText(k: CacheKeyInputs): string {
  return JSON.stringify([
    ["format", k.format],
    ["gk", k.gkVersion],
    ["nvcc", k.nvccVersion],
    ["arch", k.arch],
    ["flags", [...k.flags]],
    ["source", k.source],
  ]);
}

export function cacheKey(k: CacheKeyInputs): string {
  return sha256(canonicalKeyText(k));
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

let gkVersionMemo: string | undefined;

/**
 * gk's package.json version, read once. The package root is found by walking up from this
 * module, so it works from `src/` (tests) and from `dist/` (the published package).
 */
export function gkVersion(): string {
  if (gkVersionMemo !== undefined) return gkVersionMemo;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const version = readPackageVersion(path.join(dir, "package.json"));
    if (version !== undefined) return (gkVersionMemo = version);
    const parent = path.dirname(dir);
    if (parent === dir) throw new InternalError("internal compiler error: cannot find gk's package.json above " + import.meta.url);
    dir = parent;
  }
}

function readPackageVersion(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
  return pkg.name === "gk" && typeof pkg.version === "string" ? pkg.version : undefined;
}

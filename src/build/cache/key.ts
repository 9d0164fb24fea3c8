/** The cache key: sha256 over a canonical serialization of everything that decides the build's output. */
import { sha256 } from "../../cacheFolder.js";

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


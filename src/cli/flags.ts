/** Flag parsing for every command (node:util parseArgs), with gk's usage errors. */
import type { Dim3 } from "../ir/limits.js";
import { UsageError } from "./io.js";

/** Runs a node:util `parseArgs` call, turning its errors into usage errors. */
export function flags<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ""));
  }
}

/** `X`, `X,Y` or `X,Y,Z` of positive integers, padded with 1s. */
export function parseDims(text: string, what: string): Dim3 {
  const parts = text.split(",").map((s) => s.trim());
  if (parts.length < 1 || parts.length > 3 || parts.some((p) => !/^[0-9]+$/.test(p) || Number(p) < 1)) {
    throw new UsageError(`--${what} takes 1 to 3 positive integers separated by commas, e.g. --${what} 4,4 (got '${text}')`);
  }
  const n = parts.map(Number);
  return [n[0]!, n[1] ?? 1, n[2] ?? 1];
}

/** Helpers for the TypeScript front end's tests: lowering snippets, comparing programs with places removed, the TypeScript twins of spec/ok programs. */
import { readFileSync } from "node:fs";
import { lineColOf } from "../../src/diagnostics/source.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd, type FrontEndResult } from "../../src/pipeline.js";

/** A value with every `span` and `file` removed: what two programs share when only their source files differ. */
export function withoutPlaces(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPlaces);
  if (v && typeof v === "object" && !ArrayBuffer.isView(v)) {
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== "span" && k !== "file" && k !== "opSpan" && k !== "pathSpan").map(([k, x]) => [k, withoutPlaces(x)]));
  }
  return v;
}

/** Checks TypeScript source as the file `test.ts` (and other in-memory files it imports). */
export function checkTs(src: string, files: Record<string, string> = {}): FrontEndResult {
  return frontEnd("test.ts", { host: memoryHost({ "test.ts": src, ...files }) });
}

/** Checks gk source as the file `test.gk`. */
export function checkGk(src: string, files: Record<string, string> = {}): FrontEndResult {
  return frontEnd("test.gk", { host: memoryHost({ "test.gk": src, ...files }) });
}

/** Diagnostics as `GK1234 line:col message`. */
export function lines(r: FrontEndResult): string[] {
  return r.diagnostics.map((d) => {
    if (!d.span) return `${d.code} ${d.message}`;
    const f = r.sources.get(d.span.file);
    const at = f ? lineColOf(f, d.span.start) : { line: 0, col: 0 };
    return `${d.code} ${at.line}:${at.col} ${d.message}`;
  });
}

/** gk's imports for a TypeScript test file: every name a snippet may use. */
export const GK_IMPORTS = `import {
  kernel, deviceFn, shared, local, table, globalId, threadIdx, blockIdx, blockDim, gridDim, barrier, atomicAdd, atomicCAS, shflDown, ballot, laneId, warpSize,
  sqrt, min, max, f32, f64, i32, u32, i64, u64, bool, i8, u8, i16, u16, f16, bf16, type Global, type ReadonlyGlobal, type Shared, dynamicShared, constant, view, unroll, flushToZero, launchBounds, maxRegisters,
  fastExp, fastLog, fastDiv, fastSin, fastPow, threadfence, threadfenceBlock, loadAcquire, storeRelease, loadVolatile, storeVolatile, matchAny, matchAll, type View, type ReadView, type InOut, type Out } from "gk";
`;

/**
 * Each .gk program and its TypeScript twin. `renames`: names the twin spells differently,
 * applied to the .gk text (small_ints.gk names a local array `local`, which is gk's local()
 * in TypeScript).
 */
export const SCALAR_TWINS = [
  { gk: "spec/ok/small_ints.gk", ts: "test/tsfront/fixtures/small_ints.ts", renames: { local: "lows" } },
  { gk: "spec/ok/halves.gk", ts: "test/tsfront/fixtures/halves.ts", renames: {} },
] as const;

/** The .gk program of a twin, with the twin's names. */
export function gkProgram(twin: (typeof SCALAR_TWINS)[number]) {
  let text = readFileSync(twin.gk, "utf8");
  for (const [from, to] of Object.entries(twin.renames)) text = text.replace(new RegExp(`\\b${from}\\b`, "g"), to);
  return frontEnd(twin.gk, { host: memoryHost({ [twin.gk]: text }) });
}

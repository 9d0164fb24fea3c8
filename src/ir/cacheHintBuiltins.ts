/**
 * The cache-hinted accesses of the builtin table (src/ir/builtins.ts): loads and stores of
 * global memory that tell the GPU's caches how the data will be used, one element or 2 or 4
 * consecutive ones as a vector (as `load2`/`load4` do):
 *
 * - `loadStreaming(a, i)`, `storeStreaming(a, i, v)`: data touched once, which should not push
 *   out of L2 what is reused (CUDA `__ldcs`/`__stcs`, PTX `ld.global.cs`/`st.global.cs`);
 * - `loadReadOnly(a, i)`: through the read-only (non-coherent) data cache (CUDA `__ldg`, PTX
 *   `ld.global.nc`), of a `readonly global<T>` array, which no thread writes during a launch
 *   (the aliasing rule, spec/language.md).
 *
 * A hint never changes what a program computes: in the IR it is `LoadExpr.cache` /
 * `StoreStmt.cache`, the simulator does a plain access, and a target without the hint may do
 * one too (spec: Cache hints).
 */
import type { CacheHint } from "./nodes.js";

/** `loadStreaming4` and the others: a load or a store of `lanes` consecutive elements of a global array, with a hint. */
export interface CacheHintRule {
  readonly kind: "cacheHint";
  readonly op: "load" | "store";
  readonly hint: CacheHint;
  /** 1: one element (a scalar, or a vector element of 2 or 4 lanes); 2 or 4: that many consecutive scalars as a vector. */
  readonly lanes: 1 | 2 | 4;
}

export interface CacheHintEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: CacheHintRule;
}

const WHAT: Record<CacheHint, { readonly load: string; readonly store?: string }> = {
  streaming: {
    load: "read as data used once (CUDA __ldcs: cached so as not to push out of L2 what is reused)",
    store: "written as data used once (CUDA __stcs)",
  },
  readOnly: { load: "read through the read-only data cache (CUDA __ldg); arr is a readonly global array of the kernel, which no thread writes during the launch" },
};

function access(lanes: 1 | 2 | 4, op: "load" | "store"): string {
  const element = lanes === 1 ? "arr[i]" : `arr[i .. i + ${lanes - 1}]`;
  return op === "load" ? (lanes === 1 ? element : `${element} as a ${lanes}-lane vector`) : `${element} = v${lanes === 1 ? "" : ` (a ${lanes}-lane vector)`}`;
}

function entries(hint: CacheHint, op: "load" | "store"): CacheHintEntry[] {
  const what = WHAT[hint][op]!;
  const base = `${op}${hint[0]!.toUpperCase()}${hint.slice(1)}`;
  return ([1, 2, 4] as const).map((lanes) => ({
    name: lanes === 1 ? base : `${base}${lanes}`,
    doc: `${lanes === 1 ? base : `${base}${lanes}`}(${op === "load" ? "arr, i" : "arr, i, v"}): ${op === "store" ? "a statement; " : ""}${access(lanes, op)} of global memory, ${what}. A hint: the result is that of a plain ${op}.`,
    rule: { kind: "cacheHint", op, hint, lanes },
  }));
}

export const cacheHintEntries: readonly CacheHintEntry[] = [...entries("streaming", "load"), ...entries("streaming", "store"), ...entries("readOnly", "load")];

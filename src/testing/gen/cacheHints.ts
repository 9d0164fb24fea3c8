/**
 * Cache-hinted accesses in generated kernels (src/ir/cacheHintBuiltins.ts): `loadStreaming`,
 * `loadReadOnly` (and their 2- and 4-lane forms) of the kernel's `in_T` inputs, and
 * `storeStreaming` (and `storeStreaming2`/`4`) into the thread's own output slots. A hint
 * never changes a result, so these are plain accesses to compare: what they test is that
 * every target builds and runs them. Only arrays the kernel marks (`ArrayRef.hints`, set
 * where GenOptions.cacheHints allows: kernel.ts) take them; `loadReadOnly` only the kernel's
 * own readonly parameters (a device function's readonly parameter may be an array its kernel
 * writes: GK3022). And `@launchBounds` on the kernel, which must not change a result either.
 */
import fc from "fast-check";
import { SCALAR_INFO } from "../../ir/types.js";
import type { Dim3 } from "../../ir/limits.js";
import { builtin, isScalarTy, isVecLane, isVecTy, laneOf, lanesOf, nameRef, type Expr, type Program, type Stmt, type Ty, type ValTy } from "./ast.js";
import type { ArrayRef, ExprGen } from "./expr.js";
import { alignedIndex } from "./vectors.js";

type Weighted = fc.WeightedArbitrary<Expr>;

/** The most bytes one hinted access moves (GK3022). */
const MOST_BYTES = 16;

/** Whether one element of type t takes a one-element hint: a scalar, or a vector of 2, 4 or 8 lanes of at most 16 bytes. */
function oneElement(t: ValTy): boolean {
  if (isScalarTy(t)) return true;
  return isVecTy(t) && lanesOf(t) !== 3 && SCALAR_INFO[laneOf(t)].bits / 8 * lanesOf(t) <= MOST_BYTES;
}

/** The lane counts n (2, 4) of the `…2`/`…4` forms an array of scalar t takes. */
function laneCounts(t: ValTy): (2 | 4)[] {
  if (!isScalarTy(t)) return [];
  return ([2, 4] as const).filter((n) => isVecLane(t, n) && SCALAR_INFO[t].bits / 8 * n <= MOST_BYTES);
}

/** The hinted loads a marked input array takes. */
function loadNames(a: ArrayRef): string[] {
  return a.hints === "all" ? ["loadStreaming", "loadReadOnly"] : a.hints === "streaming" ? ["loadStreaming"] : [];
}

/** `loadStreaming(in_T, i)` / `loadReadOnly(in_T, i)`: an element of type t of a marked input. */
export function hintedLoads(g: ExprGen, t: ValTy, d: number): Weighted[] {
  if (!oneElement(t)) return [];
  return g.env.arrays
    .filter((a) => a.t === t && a.kind === "input" && a.dims.length === 1 && loadNames(a).length)
    .map((a) => ({ arbitrary: fc.tuple(fc.constantFrom(...loadNames(a)), g.index(a.dims[0]!, d)).map(([fn, i]) => builtin(t, fn, nameRef(t, a.name), i)), weight: 1 }));
}

/** `loadStreaming4(in_f32, i)` and the others: vector t from consecutive scalars of a marked input, at an aligned index. */
export function hintedVectorLoads(g: ExprGen, t: ValTy, d: number): Weighted[] {
  if (!isVecTy(t)) return [];
  const lane: Ty = laneOf(t);
  const n = lanesOf(t);
  if (n !== 2 && n !== 4) return [];
  if (!laneCounts(lane).includes(n)) return [];
  return g.env.arrays
    .filter((a) => a.t === lane && a.kind === "input" && a.dims.length === 1 && a.dims[0]! >= n && loadNames(a).length)
    .map((a) => ({ arbitrary: fc.tuple(fc.constantFrom(...loadNames(a)), alignedIndex(g, a.dims[0]!, n, d)).map(([fn, i]) => builtin(t, `${fn}${n}`, nameRef(lane, a.name), i)), weight: 1 }));
}

/**
 * `storeStreaming(out_T, o + j, v)`, `storeStreaming2(out_T, o + 2, v)`, ...: into the
 * thread's own slots (`slots` of them, `slot(j)` the index of slot j) of a marked output.
 */
export function hintedStores(g: ExprGen, a: ArrayRef, slots: number, slot: (j: number) => Expr): fc.WeightedArbitrary<Stmt>[] {
  if (a.kind !== "own" || !a.hints) return [];
  const out: fc.WeightedArbitrary<Stmt>[] = [];
  type Fn = "storeStreaming" | "storeStreaming2" | "storeStreaming4";
  const store = (fn: Fn, t: ValTy, n: number) =>
    fc.tuple(fc.integer({ min: 0, max: slots / n - 1 }), g.any(t)).map(([j, v]): Stmt => ({ k: "vstore", fn, array: a.name, t: a.t, idx: slot(j * n), value: v }));
  if (oneElement(a.t)) out.push({ arbitrary: store("storeStreaming", a.t, 1), weight: 1 });
  for (const n of laneCounts(a.t).filter((k) => k <= slots)) out.push({ arbitrary: store(`storeStreaming${n}` as Fn, `${a.t as Ty}x${n}`, n), weight: 1 });
  return out;
}

/**
 * Now and then `@launchBounds(n)` or `@launchBounds(n, minBlocks)`: n the block's threads,
 * the next power of two or 1024 (every launch fits), minBlocks 1 or 2 (ptxas may then cap the
 * registers and spill, which must not change a result).
 */
export function launchBounds(block: Dim3): fc.Arbitrary<Program["launchBounds"]> {
  const threads = block[0] * block[1] * block[2];
  const most = [threads, 2 ** Math.ceil(Math.log2(threads)), 1024].filter((n) => n >= threads && n <= 1024);
  const bounds = fc.tuple(fc.constantFrom(...most), fc.constantFrom(0, 0, 1, 2)).map(([n, m]): Program["launchBounds"] => (m ? [n, m] : [n]));
  return fc.option(bounds, { nil: undefined, freq: 2 });
}

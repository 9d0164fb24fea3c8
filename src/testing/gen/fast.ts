/**
 * The fast builtins (fastExp, fastSin, fastDiv, ...) in generated programs: each use stores
 * `fast_f32[o + j] = fastX(clamp(a, lo, hi), ...)`, its operands clamped into one region of
 * the builtin table (src/ir/fastMath.ts) where CUDA's documented bound holds, and compared
 * within that region's tolerance. A program uses one region of one builtin, so that the
 * `fast_f32` array has one tolerance. One more region is exact: fastDiv by a divisor whose
 * magnitude is between 2^126 and 2^128, which CUDA documents as a zero (NaN for an infinite
 * dividend).
 *
 * A NaN operand clamps to `lo` (clamp is min(max(x, lo), hi), and max ignores a NaN).
 */
import { builtin, lit, type Expr } from "./ast.js";
import { FAST_MATH } from "./expr.js";

export interface FastUse {
  readonly fn: string;
  /** Per operand: the clamp bounds, f32 values inside the region's range. */
  readonly bounds: readonly (readonly [number, number])[];
  /** Within this of the simulator; absent: bit for bit. */
  readonly tolerance?: { readonly ulp?: number; readonly abs?: number };
}

/** The f32 value nearest to x on the side of `toward` (so a rounded bound stays inside its range). */
function insideF32(x: number, toward: number): number {
  const f = Math.fround(x);
  if (f === x || (f - x) * (toward - x) >= 0) return f;
  const a = new Float32Array([f]);
  const bits = new Int32Array(a.buffer);
  // One step toward `toward` from f (f and x have the same sign: x is far from 0 or exactly representable).
  bits[0]! += (toward > f) === (f > 0) ? 1 : -1;
  return a[0]!;
}

const inside = (lo: number, hi: number): [number, number] => [insideF32(lo, hi), insideF32(hi, lo)];

export const FAST_USES: readonly FastUse[] = [
  ...FAST_MATH.flatMap((e) => e.fast!.regions.map((r): FastUse => ({ fn: e.name, bounds: r.operands.map(([lo, hi]) => inside(lo, hi)), tolerance: r.tolerance }))),
  { fn: "fastDiv", bounds: [inside(-1e30, 1e30), inside(1e38, 3e38)] },
  { fn: "fastDiv", bounds: [inside(-1e30, 1e30), inside(-3e38, -1e38)] },
];

/** `fn(clamp(a, lo, hi), ...)` for the operands `args`. */
export function fastCall(use: FastUse, args: readonly Expr[]): Expr {
  return builtin("f32", use.fn, ...args.map((a, i) => builtin("f32", "clamp", a, lit("f32", use.bounds[i]![0]), lit("f32", use.bounds[i]![1]))));
}

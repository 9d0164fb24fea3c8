/**
 * `bitcast<T>(v)` in generated kernels: a value of T from an expression of another type of as
 * many bits (numeric scalars, and the program's vector types), for scalars and vectors alike.
 *
 * What a bitcast shows must be the same on the GPU and in the simulator, and a NaN's payload
 * is not (which NaN arithmetic makes is the hardware's choice, and the simulator quiets a
 * signaling f32 or f64 NaN: language.md, "Bit reinterpretation"). So an operand with float
 * lanes is never a NaN: `isnan(x) ? 0.0 : x` (`select(isnan(v), 0.0, v)` for a vector). A
 * result with float lanes may be any pattern, NaNs included: every use of a float treats all
 * NaNs alike, except another bitcast, whose operand is guarded in turn.
 */
import fc from "fast-check";
import { FULL } from "./universe.js";
import { SCALAR_INFO } from "../../ir/types.js";
import { builtin, isFloatTy, isScalarTy, isVecTy, laneOf, lanesOf, lit, NUM_TYPES, small, vec, type Expr, type NumTy, type Ty, type ValTy } from "./ast.js";
import type { ExprGen } from "./expr.js";

type Weighted = fc.WeightedArbitrary<Expr>;

/** The bits of a numeric scalar or vector type; undefined for bool lanes and structs. */
export function bitsOf(t: ValTy): number | undefined {
  const lane = isVecTy(t) ? laneOf(t) : isScalarTy(t) ? t : undefined;
  if (lane === undefined || lane === "bool") return undefined;
  return SCALAR_INFO[lane].bits * (isVecTy(t) ? lanesOf(t) : 1);
}

/** `x` with a NaN replaced by 0 (lane by lane for a vector), where its lanes are floats; `x` otherwise. */
export function notNaN(x: Expr): Expr {
  const t = x.t as ValTy;
  const lane = (isVecTy(t) ? laneOf(t) : t) as Ty;
  if (!isFloatTy(lane)) return x;
  const zero = lit(lane, small(lane as NumTy, 0));
  if (!isVecTy(t)) return { k: "select", t, c: builtin("bool", "isnan", x), a: zero, b: x };
  return builtin(t, "select", builtin(vec("bool", lanesOf(t)), "isnan", x), zero, x);
}

/** Bitcasts to t from expressions of depth d - 1 of the other types of its size (none for bool, structs, or d = 0). */
export function bitcasts(g: ExprGen, t: ValTy, d: number): Weighted[] {
  const bits = bitsOf(t);
  // Not for a target (WGSL): a float made of arbitrary bits may be a subnormal or a NaN, which it need not keep.
  if (bits === undefined || d === 0 || g.u !== FULL) return [];
  const sources = [...NUM_TYPES, ...g.env.vecTypes].filter((u) => u !== t && bitsOf(u) === bits);
  if (!sources.length) return [];
  // A pair of halves most often comes from a u32 of their bits (a 16-byte load of half data, unpacked).
  const packed = isVecTy(t) && lanesOf(t) === 2 && SCALAR_INFO[laneOf(t)].bits === 16;
  const arb = fc.oneof(...sources.map((u) => ({ arbitrary: g.expr(u, d - 1), weight: packed && u === "u32" ? 3 : 1 }))).map((x): Expr => ({ k: "bitcast", t, e: notNaN(x) }));
  return [{ arbitrary: arb, weight: packed ? 3 : 1 }];
}

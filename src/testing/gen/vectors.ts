/**
 * Vector expressions for the kernel generator: ExprGen asks here for an expression of a
 * vector type, and for the scalars that vectors give (lanes, `dot`, `length`, `any`, ...).
 *
 * - Leaves: variables and array elements of the type, `load2`/`load4` of an array of its lane
 *   type at an aligned index (`abs(e % 2) * 4`, or the thread's own slots `o`, `o + 2`), and
 *   constructors of scalar atoms (`f32x4(x)`, `i32x2(a, 3)`).
 * - Lane by lane: every operator, now and then with a scalar of the lane type on either side
 *   (`v * 2.0`); comparisons giving bool vectors; `?:` and `select`; conversions; the exact
 *   math builtins; `normalize` and `cross`. Constructors from parts (`f32x4(v.xy, s, 1.0)`)
 *   and swizzles (`v.zyx`, `w.xxyy`, `c.bgr`).
 * - The guards of scalar expressions, lane by lane: integer divisors `| 1` or nonzero
 *   constants, and no NaN where the sign of a NaN would show (copysign's second operand).
 *
 * The geometric builtins (dot, length, distance, normalize, cross) are fixed sequences of
 * correctly rounded operations (src/ir/vectorBuiltins.ts), so they are exact and appear anywhere.
 */
import fc from "fast-check";
import {
  bin, builtin, isFloatTy, isIntTy, isSignedTy, isVecLane, laneOf, lanesOf, laneTypesOf, LANE_INT_TYPES, lit, nameRef, small, vec, widthOf,
  type BinOp, type Expr, type IntTy, type Lanes, type NumTy, type Ty, type ValTy, type VecTy,
} from "./ast.js";
import { EXACT_USES, mathOperands, NAN_SIGN_OPERAND, type ArrayRef, type ExprGen, type MathUse } from "./expr.js";
import { fieldReads } from "./structs.js";
import { FULL } from "./universe.js";
import { literalValue } from "./values.js";
import { bitcasts } from "./bitcasts.js";
import { hintedVectorLoads } from "./cacheHints.js";

type Weighted = fc.WeightedArbitrary<Expr>;
const w = (arbitrary: fc.Arbitrary<Expr>, weight: number): Weighted => ({ arbitrary, weight });
type Sub = (u: ValTy) => fc.Arbitrary<Expr>;

/** Sizes of the parts a constructor of n lanes is made of (1: a scalar). */
const SPLITS: Readonly<Record<Lanes, readonly (readonly number[])[]>> = {
  2: [[1, 1], [2]],
  3: [[1, 2], [2, 1], [1, 1, 1], [3]],
  4: [[2, 2], [1, 3], [3, 1], [1, 1, 2], [2, 1, 1], [1, 2, 1], [4]],
  8: [[4, 4], [2, 2, 4], [4, 1, 1, 2], [8]],
};

/** `e.xzy`: lanes ks of e, in the xyzw family or (with `rgba`) the rgba one; a lane past the fourth `e.s5`, the halves of 8 lanes `e.lo`, `e.hi`. */
export function lanesOfExpr(e: Expr, t: ValTy, ks: readonly number[], rgba = false): Expr {
  const name = ks.length === 1 && ks[0]! >= 4 ? `s${ks[0]}` : ks.map((k) => (rgba ? "rgba" : "xyzw")[k]).join("");
  return { k: "path", t, e, path: [{ k: "field", name }] };
}

/** `e.lo` or `e.hi` of an 8-lane vector e: a 4-lane vector t. */
function halfOf(e: Expr, t: VecTy, hi: boolean): Expr {
  return { k: "path", t, e, path: [{ k: "field", name: hi ? "hi" : "lo" }] };
}

/** Mostly the xyzw letters, sometimes rgba. */
const rgbaLetters = fc.integer({ min: 0, max: 5 }).map((x) => x === 0);

/** `o + j`: this thread's output slot j. */
const ownIndex = (j: number): Expr => bin("i32", "+", nameRef("i32", "o"), lit("i32", j));

/** A vector of scalar atoms (one for every lane, or one per lane), or a vector variable. */
export function vectorAtom(g: ExprGen, t: VecTy): fc.Arbitrary<Expr> {
  const lane = laneOf(t);
  const splat = g.atom(lane).map((e): Expr => ({ k: "vec", t, parts: [e] }));
  const each = fc.tuple(...Array.from({ length: lanesOf(t) }, () => g.atom(lane))).map((parts): Expr => ({ k: "vec", t, parts }));
  const alts: Weighted[] = [w(splat, 1), w(each, 2)];
  const vars = g.env.vars.filter((v) => v.t === t);
  if (vars.length) alts.push(w(fc.constantFrom(...vars).map((v) => nameRef(t, v.name)), 4));
  return fc.oneof(...alts);
}

/** An index that is a multiple of n with room for n elements in 0..size-1: `abs(e % (size / n)) * n`. */
export function alignedIndex(g: ExprGen, size: number, n: number, d: number): fc.Arbitrary<Expr> {
  return g.index(Math.floor(size / n), d).map((i) => bin(i.t as Ty, "*", i, lit(i.t as Ty, small(i.t as NumTy, n))));
}

/** Whether load2/load4/load8/store2/store4/store8 may access `a` (gk refuses views and constant memory: GK2046; a dynamic shared array starts at a multiple of 16 bytes). */
export function vectorAccessible(a: ArrayRef): boolean {
  return a.kind !== "view" && a.kind !== "constant";
}

/** `load2`/`load4`/`load8` of arrays of t's lane type: inputs, one-dimensional local and shared arrays, the thread's own slots (4 of them: not load8). */
function vectorLoads(g: ExprGen, t: VecTy, d: number): Weighted[] {
  const n = lanesOf(t);
  if (n === 3) return [];
  const lane = laneOf(t);
  const fn = `load${n}`;
  const out: Weighted[] = [];
  // Not of views or constant memory, whose alignment gk cannot promise (GK2046).
  for (const a of g.env.arrays.filter((x) => x.t === lane && vectorAccessible(x))) {
    const array = nameRef(lane, a.name);
    if (a.kind === "own") {
      if (n <= g.env.slots) out.push(w(fc.integer({ min: 0, max: g.env.slots / n - 1 }).map((j) => builtin(t, fn, array, ownIndex(j * n))), 1));
    } else if (a.dims.length === 1 && a.dims[0]! >= n) {
      out.push(w(alignedIndex(g, a.dims[0]!, n, d).map((i) => builtin(t, fn, array, i)), a.kind === "input" ? 2 : 3));
    }
  }
  out.push(...hintedVectorLoads(g, t, d));
  return out;
}

/** An expression of vector type t and depth d. */
export function vectorExpr(g: ExprGen, t: VecTy, d: number): fc.Arbitrary<Expr> {
  const leaves = fc.oneof(w(vectorAtom(g, t), 3), ...g.loads(t, 0), ...vectorLoads(g, t, 0));
  if (d === 0) return leaves;
  const lane = laneOf(t);
  const n = lanesOf(t);
  const sub: Sub = (u) => g.expr(u, d - 1);
  const alts: Weighted[] = [w(leaves, 3), ...g.loads(t, d - 1), ...vectorLoads(g, t, d - 1)];
  // Parts of a lane count the lane type has vectors of (f16 has no 3-lane vectors).
  const splits = SPLITS[n].filter((split) => split.every((k) => k === 1 || lanesHere(g, lane, k as Lanes)));
  const parts = splits.map((split) => fc.tuple(...split.map((k) => (k === 1 ? sub(lane) : sub(vec(lane, k as Lanes))))).map((ps): Expr => ({ k: "vec", t, parts: ps })));
  alts.push(w(fc.oneof(...parts), 2));
  // Swizzles of 2 to 4 lanes, of the first four lanes; an 8-lane vector's halves.
  const swizzle = n === 8 ? [] : ([2, 3, 4, 8] as const).filter((m) => lanesHere(g, lane, m)).map((m) =>
    fc.tuple(sub(vec(lane, m)), fc.array(fc.integer({ min: 0, max: Math.min(m, 4) - 1 }), { minLength: n, maxLength: n }), rgbaLetters).map(([e, ks, rgba]) => lanesOfExpr(e, t, ks, rgba)),
  );
  // Halves of 8-lane vectors, which only a target with half-precision vectors has (gk's 8 lanes are f16, bf16 and their comparisons' bool).
  if (n === 4 && lanesHere(g, lane, 8)) swizzle.push(fc.tuple(sub(vec(lane, 8)), fc.boolean()).map(([e, hi]) => halfOf(e, t, hi)));
  if (swizzle.length) alts.push(w(fc.oneof(...swizzle), 3));
  const others = lanesIn(g, n).filter((u) => u !== lane);
  if (others.length) alts.push(w(fc.oneof(...others.map((u) => sub(vec(u, n)))).map((e): Expr => ({ k: "cast", t, e })), 2));
  alts.push(w(fc.tuple(sub("bool"), sub(t), sub(t)).map(([c, a, b]): Expr => ({ k: "select", t, c, a, b })), 1));
  const selectArgs = fc.tuple(sub(vec("bool", n)), sub(t), fc.oneof({ arbitrary: sub(t), weight: 3 }, { arbitrary: sub(lane), weight: 1 }));
  alts.push(w(selectArgs.map(([c, a, b]) => builtin(t, "select", c, a, b)), 1));
  alts.push(...(lane === "bool" ? boolOps(g, t, n, sub) : numericOps(g, t, lane as NumTy, sub)));
  const uses = EXACT_USES.filter((m) => m.result === lane && isVecLane(m.operand, n) && g.u.math(m.entry) && g.u.all.includes(m.operand));
  if (uses.length) alts.push(w(fc.oneof(...uses.map((m) => mathCall(m, n, sub))), 6));
  if (isFloatTy(lane)) {
    if (g.u.inexact) alts.push(w(sub(t).map((v) => builtin(t, "normalize", v)), 1));
    if (n === 3) alts.push(w(fc.tuple(sub(t), sub(t)).map(([a, b]) => builtin(t, "cross", a, b)), 1));
  }
  alts.push(...g.calls(t, sub), ...fieldReads(g, t, d), ...bitcasts(g, t, d));
  return fc.oneof(...alts);
}

/** Pairs of operands of a lane-wise operator on t: two vectors, or a vector and a scalar of the lane type (either side). */
function operands(t: VecTy, sub: Sub): fc.Arbitrary<[Expr, Expr]> {
  const v = sub(t);
  const s = sub(laneOf(t));
  return fc.oneof({ arbitrary: fc.tuple(v, v), weight: 4 }, { arbitrary: fc.tuple(v, s), weight: 1 }, { arbitrary: fc.tuple(s, v), weight: 1 });
}

/** Comparisons of vectors of any type (bool vectors), and logic on bool vectors. */
/** The lane types of n-lane vectors that the generator's target has. */
function lanesIn(g: ExprGen, n: Lanes): readonly Ty[] {
  return g.u === FULL ? laneTypesOf(n) : laneTypesOf(n).filter((t) => g.u.all.includes(t));
}

/** Whether vectors of n lanes of `lane` exist for the generator's target: 8 lanes (f16, bf16 and their comparisons' bool) only where it has half vectors. */
function lanesHere(g: ExprGen, lane: Ty, n: Lanes): boolean {
  return isVecLane(lane, n) && (g.u === FULL || n !== 8 || g.u.halfLanes.length > 0);
}

/** The integer lane types the generator's target has. */
function laneInts(g: ExprGen): readonly IntTy[] {
  return g.u === FULL ? LANE_INT_TYPES : LANE_INT_TYPES.filter((t) => g.u.int.includes(t));
}

function boolOps(g: ExprGen, t: VecTy, n: Lanes, sub: Sub): Weighted[] {
  const eq = fc.oneof(...lanesIn(g, n).map((u) => fc.tuple(fc.constantFrom<BinOp>("==", "!="), operands(vec(u, n), sub))));
  const ordered = lanesIn(g, n).filter((u) => u !== "bool");
  const order = ordered.length ? [fc.oneof(...ordered.map((u) => fc.tuple(fc.constantFrom<BinOp>("<", "<=", ">", ">="), operands(vec(u, n), sub))))] : [];
  const compare = fc.oneof(eq, ...order).map(([op, [l, r]]) => bin(t, op, l, r));
  const logic = fc.tuple(fc.constantFrom<BinOp>("&", "|", "^"), operands(t, sub)).map(([op, [l, r]]) => bin(t, op, l, r));
  const not = sub(t).map((e): Expr => ({ k: "unary", t, op: "!", e }));
  return [w(compare, 4), w(logic, 2), w(not, 1)];
}

function numericOps(g: ExprGen, t: VecTy, lane: NumTy, sub: Sub): Weighted[] {
  const pair = operands(t, sub);
  const arith = fc.tuple(fc.constantFrom<BinOp>("+", "-", "*"), pair).map(([op, [l, r]]) => bin(t, op, l, r));
  const neg = sub(t).map((e): Expr => ({ k: "unary", t, op: "-", e }));
  const alts: Weighted[] = [w(arith, 4), w(neg, 1), w(division(g, t, lane, sub), 2)];
  if (isIntTy(lane)) {
    const bits = fc.tuple(fc.constantFrom<BinOp>("&", "|", "^"), pair).map(([op, [l, r]]) => bin(t, op, l, r));
    const not = sub(t).map((e): Expr => ({ k: "unary", t, op: "~", e }));
    const n = lanesOf(t);
    const count = fc.oneof(
      w(fc.integer({ min: 0, max: widthOf(lane) - 1 }).map((c) => lit(lane, small(lane, c))), 1),
      w(fc.oneof(...laneInts(g).map((u) => sub(u))), 1),
      w(fc.oneof(...laneInts(g).map((u) => sub(vec(u, n)))), 1),
    );
    const shift = fc.tuple(fc.constantFrom<BinOp>("<<", ">>", ">>>"), sub(t), count).map(([op, l, r]) => bin(t, op, l, r));
    alts.push(w(bits, 2), w(not, 1), w(shift, 2));
  }
  return alts;
}

/** `/` and `%` lane by lane: floats as they are; integer divisors `| 1` (a vector or a scalar), a nonzero constant, or -1. */
function division(g: ExprGen, t: VecTy, lane: NumTy, sub: Sub): fc.Arbitrary<Expr> {
  const op = fc.constantFrom<BinOp>("/", "%");
  if (isFloatTy(lane) && g.u.floatDivision) return fc.tuple(op, operands(t, sub)).map(([o, [a, b]]) => bin(t, o, a, b));
  if (isFloatTy(lane)) {
    // `%` alone, lane by lane never by zero: select(b != 0, a % b, 0) (see ExprGen.division).
    const zero: Expr = { k: "vec", t, parts: [lit(lane, 0)] };
    return fc.tuple(sub(t), sub(t)).map(([a, b]) => builtin(t, "select", bin(vec("bool", lanesOf(t)), "!=", b, zero), bin(t, "%", a, b), zero));
  }
  const one = lit(lane, small(lane, 1));
  const orOne = fc.tuple(op, operands(t, sub)).map(([o, [a, b]]) => bin(t, o, a, bin(b.t as ValTy, "|", b, one)));
  const constant = fc.tuple(op, sub(t), literalValue(lane, g.u.subnormals).filter((v) => v !== 0 && v !== 0n)).map(([o, a, v]) => bin(t, o, a, lit(lane, v)));
  const minusOne = isSignedTy(lane) ? [fc.tuple(op, sub(t)).map(([o, a]) => bin(t, o, a, lit(lane, small(lane, -1))))] : [];
  return fc.oneof(orOne, constant, ...minusOne);
}

/** A math builtin lane by lane on vectors of n lanes; copysign's sign operand is never a NaN (`select(isnan(y), 1, y)`). */
function mathCall(m: MathUse, n: Lanes, sub: Sub): fc.Arbitrary<Expr> {
  const operand = vec(m.operand, n);
  const t = vec(m.result, n);
  const k = NAN_SIGN_OPERAND.get(m.entry.name);
  return fc.tuple(...Array.from({ length: m.entry.rule.arity }, () => sub(operand))).map((given) => {
    const args = mathOperands(m.entry.name, given);
    if (k === undefined) return builtin(t, m.entry.name, ...args);
    const a = args[k]!;
    const safe = builtin(operand, "select", builtin(vec("bool", n), "isnan", a), lit(m.operand, small(m.operand as NumTy, 1)), a);
    return builtin(t, m.entry.name, ...args.map((x, i) => (i === k ? safe : x)));
  });
}

/** Scalars of type t from vectors of the program's lane counts: a lane, `dot`/`length`/`distance` (floats), `any`/`all` (bool). */
export function scalarsFromVectors(g: ExprGen, t: Ty, d: number): Weighted[] {
  const counts = [...new Set(g.env.vecTypes.map(lanesOf))].filter((n) => isVecLane(t, n));
  if (!counts.length || d === 0) return [];
  const sub: Sub = (u) => g.expr(u, d - 1);
  const lane = fc.oneof(...counts.map((n) => fc.tuple(sub(vec(t, n)), fc.integer({ min: 0, max: n - 1 }), rgbaLetters).map(([e, k, rgba]) => lanesOfExpr(e, t, [k], rgba))));
  const out: Weighted[] = [w(lane, 3)];
  // WGSL's dot may fuse its products and sums (spec/wgsl.md): on such a target, no geometry at all.
  if (isFloatTy(t) && g.u.inexact) {
    const geometry = counts.map((n) => {
      const v = sub(vec(t, n));
      const dot = fc.tuple(v, v).map(([a, b]) => builtin(t, "dot", a, b));
      return fc.oneof(dot, v.map((a) => builtin(t, "length", a)), fc.tuple(v, v).map(([a, b]) => builtin(t, "distance", a, b)));
    });
    out.push(w(fc.oneof(...geometry), 2));
  }
  if (t === "bool") {
    const reduce = counts.map((n) => fc.tuple(fc.constantFrom("any", "all"), sub(vec("bool", n))).map(([fn, b]) => builtin("bool", fn, b)));
    out.push(w(fc.oneof(...reduce), 1));
  }
  return out;
}

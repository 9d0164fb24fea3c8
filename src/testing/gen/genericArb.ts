/** The arbitraries of generic device functions (generic.ts says what they are). */
import fc from "fast-check";
import { FLOAT_TYPES, INT_TYPES } from "./ast.js";
import { FULL, type Universe } from "./universe.js";
import { CONSTRAINTS, type Constraint, type GenericFn, type GExpr } from "./generic.js";

const w = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => ({ arbitrary, weight });

/** An expression over these leaves (and casts of these i32 names) of depth at most d; `c` decides the operators. */
export function gexpr(c: Constraint, leaves: readonly string[], casts: readonly string[], d: number, u: Universe = FULL): fc.Arbitrary<GExpr> {
  const leaf = fc.oneof(
    w(fc.constantFrom(...leaves).map((text): GExpr => ({ g: "leaf", text })), 4),
    w(fc.constantFrom(...casts).map((from): GExpr => ({ g: "cast", from })), 1),
  );
  if (d === 0) return leaf;
  const sub = gexpr(c, leaves, casts, d - 1, u);
  const lit = fc.integer({ min: 0, max: 9 }).map((v): GExpr => ({ g: "lit", v }));
  const operand = fc.oneof(w(sub, 4), w(lit, 1));
  const floats = c.types.every((t) => FLOAT_TYPES.includes(t as (typeof FLOAT_TYPES)[number]));
  const ints = c.types.every((t) => INT_TYPES.includes(t as (typeof INT_TYPES)[number]));
  const alts = [
    w(leaf, 3),
    w(fc.tuple(fc.constantFrom("+", "-", "*"), sub, operand).map(([op, l, r]): GExpr => ({ g: "bin", op, l, r })), 4),
    w(sub.map((e): GExpr => ({ g: "neg", e })), 1),
    w(fc.tuple(fc.constantFrom<"min" | "max">("min", "max"), sub, operand).map(([fn, a, b]): GExpr => ({ g: "minmax", fn, a, b })), 1),
    w(
      fc.tuple(fc.constantFrom("<", "<=", ">", ">=", "==", "!="), sub, operand, sub, operand).map(([cmp, l, r, a, b]): GExpr => ({ g: "select", cmp, l, r, a, b })),
      1,
    ),
  ];
  if (floats && u.floatDivision) alts.push(w(fc.tuple(fc.constantFrom("/", "%"), sub, operand).map(([op, l, r]): GExpr => ({ g: "bin", op, l, r })), 1));
  if (ints) {
    alts.push(w(fc.tuple(fc.constantFrom("&", "|", "^"), sub, operand).map(([op, l, r]): GExpr => ({ g: "bin", op, l, r })), 1));
    alts.push(w(fc.tuple(fc.constantFrom<"/" | "%">("/", "%"), sub, sub).map(([op, l, r]): GExpr => ({ g: "div", op, l, r })), 1));
    alts.push(w(fc.tuple(fc.constantFrom<"<<" | ">>" | ">>>">("<<", ">>", ">>>"), sub, fc.integer({ min: 0, max: 7 })).map(([op, e, count]): GExpr => ({ g: "shift", op, e, count })), 1));
  }
  return fc.oneof(...alts);
}

/** A generic device function; under a target, of a constraint that admits one of its types at least. */
export function arbGenericFn(u: Universe = FULL): fc.Arbitrary<GenericFn> {
  const constraints = u === FULL ? CONSTRAINTS : CONSTRAINTS.filter((c) => c.types.some((t) => u.all.includes(t)));
  return fc.tuple(fc.constantFrom(...constraints), fc.boolean()).chain(([constraint, sized]) => {
    const e = (leaves: readonly string[], casts: readonly string[]) => fc.integer({ min: 1, max: 3 }).chain((d) => gexpr(constraint, leaves, casts, d, u));
    return fc.record({
      constraint: fc.constant(constraint),
      sized: fc.constant(sized),
      init: e(["a", "b"], ["k"]),
      fill: sized ? e(["a", "b", "w"], ["i", "k"]) : fc.constant(null),
      fold: sized ? e(["w", "buf[i]", "a"], ["i"]) : fc.constant(null),
      result: e(["a", "b", "w"], ["k"]),
    });
  });
}


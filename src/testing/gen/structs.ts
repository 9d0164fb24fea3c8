/**
 * Struct values for the kernel generator, and the places inside values that expressions
 * read and statements assign:
 *
 * - a struct expression is a variable or array element of the struct (`s`, `in_S0[i]`,
 *   `out_S0[o + 1]`), a field of a struct (`p.inner`), `c ? a : b`, a call of a device function
 *   returning it, or a struct value `{ f0: e, taps: [a, b] }` where the struct type is known
 *   from the context (never as the base of a field read);
 * - a field read (`in_S0[i].taps[j].y` reads through `.taps[j]` here and `.y` in vectors.ts)
 *   reads any field, element of an array field (its index guarded into range) or field of a
 *   nested struct, of any type;
 * - places: the fields, array field elements and vector lanes inside a variable or array
 *   element, as statements assign them (`s.pos.x = 1.0;`, `out_S0[o + 2].taps[1] += x;`).
 */
import fc from "fast-check";
import { isStructTy, isVecTy, laneOf, lanesOf, type Expr, type PathStep, type StructDef, type StructTy, type ValTy } from "./ast.js";
import { Lazy, type ExprGen } from "./expr.js";

type Weighted = fc.WeightedArbitrary<Expr>;
const w = (arbitrary: fc.Arbitrary<Expr>, weight: number): Weighted => ({ arbitrary, weight });

/** A step of a path fixed in advance: a field, lane or swizzle by name, or an element whose index is drawn later (guarded into 0..n-1). */
type StaticStep = { readonly k: "field"; readonly name: string } | { readonly k: "elem"; readonly n: number };

/** A place inside a value: how to get there, and its type. */
export interface InnerPlace {
  readonly steps: readonly StaticStep[];
  readonly t: ValTy;
}

export function structDef(structs: readonly StructDef[], t: StructTy): StructDef {
  const def = structs.find((s) => s.name === t);
  if (!def) throw new Error(`internal error: no struct ${t} in the generated program`);
  return def;
}

/**
 * Every place inside a value of type t, t itself excluded: fields, elements of array fields
 * (one index per dimension), fields of nested structs, and, with `lanes`, single lanes of
 * vectors (of t itself too).
 */
export function innerPlaces(t: ValTy, structs: readonly StructDef[], lanes: boolean): readonly InnerPlace[] {
  let memo = placesMemo.get(structs);
  if (!memo) placesMemo.set(structs, (memo = new Map()));
  const key = `${t}:${lanes}`;
  let places = memo.get(key);
  if (!places) memo.set(key, (places = findPlaces(t, structs, lanes)));
  return places;
}

const placesMemo = new WeakMap<readonly StructDef[], Map<string, readonly InnerPlace[]>>();

function findPlaces(t: ValTy, structs: readonly StructDef[], lanes: boolean): InnerPlace[] {
  const out: InnerPlace[] = [];
  const visit = (u: ValTy, steps: readonly StaticStep[]): void => {
    if (isVecTy(u)) {
      if (lanes) for (let k = 0; k < lanesOf(u); k++) out.push({ steps: [...steps, { k: "field", name: k < 4 ? "xyzw"[k]! : `s${k}` }], t: laneOf(u) });
      return;
    }
    if (!isStructTy(u)) return;
    for (const f of structDef(structs, u).fields) {
      const at: StaticStep[] = [...steps, { k: "field", name: f.name }, ...f.dims.map((n): StaticStep => ({ k: "elem", n }))];
      out.push({ steps: at, t: f.t });
      visit(f.t, at);
    }
  };
  visit(t, []);
  return out;
}

/** A path to a place, its indices of depth at most d. */
export function pathTo(g: ExprGen, p: InnerPlace, d: number): fc.Arbitrary<PathStep[]> {
  return fc.tuple(...p.steps.map((s): fc.Arbitrary<PathStep> => (s.k === "field" ? fc.constant(s) : g.index(s.n, d).map((idx) => ({ k: "elem", idx }))))) as fc.Arbitrary<PathStep[]>;
}

const baseMemo = new WeakMap<ExprGen, Map<string, Weighted[]>>();

/**
 * Struct expressions of type t and depth d that are not struct values `{ ... }` (which need
 * their type from the context): what a field read starts from. Empty where there are none.
 */
export function structBase(g: ExprGen, t: StructTy, d: number): Weighted[] {
  let memo = baseMemo.get(g);
  if (!memo) baseMemo.set(g, (memo = new Map()));
  const key = `${t}:${d}`;
  const known = memo.get(key);
  if (known) return known;
  const out: Weighted[] = [];
  const vars = g.env.vars.filter((v) => v.t === t);
  if (vars.length) out.push(w(fc.constantFrom(...vars).map((v): Expr => ({ k: "name", t, name: v.name })), 4));
  out.push(...g.loads(t, Math.max(0, d - 1)));
  if (d > 0) {
    const branches = structBase(g, t, d - 1);
    if (branches.length) {
      const b = fc.oneof(...branches);
      out.push(w(fc.tuple(g.expr("bool", d - 1), b, b).map(([c, x, y]): Expr => ({ k: "select", t, c, a: x, b: y })), 1));
    }
    out.push(...g.calls(t, (u) => g.expr(u, d - 1)), ...fieldReads(g, t, d));
  }
  memo.set(key, out);
  return out;
}

/** A struct value `{ f: e, ... }` of type t, its fields of depth below d. */
function structValue(g: ExprGen, t: StructTy, d: number): fc.Arbitrary<Expr> {
  const fields = structDef(g.env.structs, t).fields.map((f) => {
    const count = f.dims.reduce((a, b) => a * b, 1);
    return f.dims.length ? fc.array(g.expr(f.t, 0), { minLength: count, maxLength: count }) : g.expr(f.t, Math.max(0, d - 1));
  });
  return fc.tuple(...fields).map((fs): Expr => ({ k: "struct", t, fields: fs }));
}

/** An expression of struct type t and depth d, where the context gives its type. */
export function structExpr(g: ExprGen, t: StructTy, d: number): fc.Arbitrary<Expr> {
  return fc.oneof(...structBase(g, t, d), w(structValue(g, t, d), 1));
}

/** Reads of places of type t inside structs of the program (`s.f`, `in_S0[i].taps[j]`, `p.inner.v`). */
export function fieldReads(g: ExprGen, t: ValTy, d: number): Weighted[] {
  if (d === 0) return [];
  const out: Weighted[] = [];
  for (const s of g.env.structs) {
    const places = innerPlaces(s.name, g.env.structs, false).filter((p) => p.t === t);
    if (!places.length) continue;
    const base = structBase(g, s.name, d - 1);
    if (!base.length) continue;
    const read = new Lazy(() => fc.tuple(fc.oneof(...base), fc.oneof(...places.map((p) => pathTo(g, p, 0)))).map(([e, steps]): Expr => ({ k: "path", t, e, path: steps })));
    out.push(w(read, 2));
  }
  return out;
}

/**
 * Well-typed, well-defined expressions over a scope, as fast-check arbitraries.
 *
 * Everything an expression does is defined identically on the GPU and in the simulator:
 * - array indices are guarded into range (`e % n`, `abs(e % n)`, `u32(f) % n`);
 * - integer division and remainder never divide by zero (`a / (b | 1)`,
 *   `b != 0 ? a / b : 0`, or a constant divisor), while `MIN / -1` stays possible;
 * - only math builtins that the GPU computes exactly appear inside expressions; the others
 *   (exp, sin, ...) are used only as the whole value stored to an `approx_*` output
 *   (see stmt.ts), so an ulp of difference never flows into further arithmetic;
 * - expressions have no side effects (atomics are statements), so a guard may repeat one.
 *
 * Arbitraries are built lazily and memoized per (type, depth): a depth-d expression is a
 * leaf or an operator over depth-(d-1) expressions, and the first alternatives are the
 * simplest, so fast-check shrinks toward leaves and literals.
 */
import fc from "fast-check";
import { builtins, operandTypes, type MathEntry } from "../../ir/builtins.js";
import { evalCast } from "../../ir/evalOp.js";
import { T } from "../../ir/types.js";
import {
  bin, builtin, cast, index, isFloatTy, isIntTy, isScalarTy, isSignedTy, isVecTy, lit, nameRef, small, widthOf,
  type ArrayKind, type BinOp, type CallArg, type ConstDef, type Expr, type IntTy, type LitForm, type NumTy, type ParamType, type SpecialName, type StructDef, type Ty, type ValTy, type Value, type VecTy,
} from "./ast.js";
import { SIZES } from "./generic.js";
import { fieldReads, structExpr } from "./structs.js";
import { scalarsFromVectors, vectorAtom, vectorExpr } from "./vectors.js";
import { FULL, type Universe } from "./universe.js";
import { literalValue } from "./values.js";
import { bitcasts } from "./bitcasts.js";
import { hintedLoads } from "./cacheHints.js";
import { INT_RANGES } from "../../ir/values.js";

export interface ValueVar {
  readonly name: string;
  readonly t: ValTy;
  /** Statements may assign it (loop counters and `const`s are read-only). */
  readonly mutable: boolean;
}

/**
 * A readable array: an input, a constant array, a module constant table, a local array,
 * readable shared memory, this thread's own output slots, or a device function's view
 * parameter (`writable` unless readonly).
 */
export interface ArrayRef {
  readonly name: string;
  readonly t: ValTy;
  /** Sizes per dimension; empty for a scalar `shared` variable. */
  readonly dims: readonly number[];
  readonly kind: ArrayKind;
  readonly writable?: boolean;
  /** A dynamic shared array (`shared sh: T[];`), its length the block's threads. */
  readonly dynamic?: boolean;
  /** The cache hints the kernel uses on it (cacheHints.ts): "all" on its own readonly inputs, "streaming" on its outputs. */
  readonly hints?: "all" | "streaming";
}

export interface FnSig {
  readonly index: number;
  readonly params: readonly ParamType[];
  readonly ret: ValTy | "void";
  /** An instance of generic function `index` at type `ret` (src/testing/gen/generic.ts): its size parameter, if it has one. */
  readonly generic?: { readonly sized: boolean };
}

/** What expressions may refer to. */
export interface Env {
  readonly vars: readonly ValueVar[];
  readonly arrays: readonly ArrayRef[];
  /** Device functions with a value that may be called. */
  readonly fns: readonly FnSig[];
  readonly constants: readonly ConstDef[];
  /** Output slots per thread, for reading own slots (`out_T[o + j]`). */
  readonly slots: number;
  /** Length of every `in_T` input array. */
  readonly inputLength: number;
  /** The program's structs. */
  readonly structs: readonly StructDef[];
  /** The program's vector types: scalar expressions read lanes of vectors of these lane counts. */
  readonly vecTypes: readonly VecTy[];
  /** What the program draws from (its target's, universe.ts); absent: everything. */
  readonly u?: Universe;
}

export const MATH: readonly MathEntry[] = builtins.filter((b): b is MathEntry => b.rule.kind === "math");
/** Math builtins that the GPU computes exactly (0 ulp): usable anywhere in an expression. */
export const EXACT_MATH = MATH.filter((b) => b.ulp.f32 === 0 && b.ulp.f64 === 0);

/** One way to call a math builtin: its operand type and the type of its result. */
export interface MathUse {
  readonly entry: MathEntry;
  readonly operand: Ty;
  readonly result: Ty;
}

/** Every (builtin, operand type) the table allows, with the result type its rule gives. */
export function mathUses(entries: readonly MathEntry[]): MathUse[] {
  return entries.flatMap((b) => operandTypes(b.rule).map((u) => ({ entry: b, operand: u, result: b.rule.result === "operand" ? u : (b.rule.result as Ty) })));
}

export const EXACT_USES = mathUses(EXACT_MATH);

/**
 * Builtins that read the sign bit of a NaN operand (the second one). The sign of a NaN made
 * by arithmetic is the hardware's choice (set on x86, where the simulator runs; clear on the
 * GPU), so such an operand is replaced by a number when it is a NaN.
 */
export const NAN_SIGN_OPERAND: ReadonlyMap<string, number> = new Map([["copysign", 1]]);

/**
 * The operands of a math builtin as generated, except that min/max/clamp take no `~x` operand:
 * nvcc 13 loops forever on integer `max(~x, max(a + 1, b + 2))` (its optimizer, before PTX;
 * seed 1 kernel 5400 found it), so that shape is left out. `~x` becomes `x` (a map, so the
 * random stream and every other kernel stay the same).
 */
export function mathOperands(name: string, args: readonly Expr[]): readonly Expr[] {
  if (name !== "min" && name !== "max" && name !== "clamp") return args;
  return args.map((a) => (a.k === "unary" && a.op === "~" ? a.e : a));
}

function mathCall(m: MathUse, t: Ty, given: readonly Expr[]): Expr {
  const args = mathOperands(m.entry.name, given);
  const k = NAN_SIGN_OPERAND.get(m.entry.name);
  if (k === undefined) return builtin(t, m.entry.name, ...args);
  const a = args[k]!;
  const safe: Expr = { k: "select", t: m.operand, c: builtin("bool", "isnan", a), b: a, a: lit(m.operand, 1) };
  return builtin(t, m.entry.name, ...args.map((x, i) => (i === k ? safe : x)));
}
/** Math builtins with a stated ulp error: used only at the root of an `approx_*` store. */
export const APPROX_MATH = MATH.filter((b) => !b.fast && (b.ulp.f32 > 0 || b.ulp.f64 > 0));
/** The fast builtins (fastExp, ...): used only at the root of a `fast_f32` store, their operands clamped into a region where a bound holds. */
export const FAST_MATH = MATH.filter((b) => b.fast !== undefined);

const SPECIALS: readonly { name: SpecialName; axis: "x" | "y" | "z" }[] = (["threadIdx", "blockIdx", "blockDim", "gridDim", "globalId"] as const).flatMap((name) =>
  (["x", "y", "z"] as const).map((axis) => ({ name, axis })),
);

export type Weighted = fc.WeightedArbitrary<Expr>;
export const w = (arbitrary: fc.Arbitrary<Expr>, weight: number): Weighted => ({ arbitrary, weight });

/** The own output slot `out_T[o + j]`. */
export function ownSlot(t: ValTy, j: number): Expr {
  return index(t, `out_${t}`, bin("i32", "+", nameRef("i32", "o"), lit("i32", j)));
}

/** `e` (an integer of type u) guarded into 0..n-1 (a small integer type that cannot hold n is converted to i32 first). */
export function guardIndex(e: Expr, n: number): Expr {
  if (BigInt(n) > INT_RANGE[e.t as IntTy][1]) e = cast("i32", e);
  const u = e.t as IntTy;
  const rem = bin(u, "%", e, lit(u, small(u, n)));
  return isSignedTy(u) ? builtin(u, "abs", rem) : rem;
}

type Spelling = LitForm | "parts" | undefined;

/** How a literal of type t is spelled: mostly plainly. */
function spelling(t: Ty): fc.Arbitrary<Spelling> {
  const forms: Spelling[] = isIntTy(t) ? ["hex", "bin", "oct", "sep", "parts"] : isFloatTy(t) ? ["exp", "dot"] : [];
  return forms.length ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom(...forms), weight: 1 }) : fc.constant(undefined);
}

/** The literal `v` spelled as `s`; "parts" splits it into an exact untyped sum, difference or xor. */
function spell(t: Ty, v: Value, s: Spelling): Expr {
  if (s !== "parts") return s ? { k: "lit", t, v, form: s } : lit(t, v);
  const n = BigInt(v as number | bigint);
  const a = (n * 7n) / 3n + 1000003n;
  const op = (["+", "-", "^"] as const)[Number((n < 0n ? -n : n) % 3n)]!;
  const b = op === "+" ? n - a : op === "-" ? a - n : a ^ n;
  return { k: "lit", t, v, parts: { op, a, b } };
}

/** The value of a constant used as type t, or undefined when it does not fit. */
function constantAs(c: ConstDef, t: Ty): Value | undefined {
  if (c.t !== undefined) return c.t === t ? c.v : undefined;
  if (typeof c.v === "bigint") {
    if (isFloatTy(t)) {
      const v = evalCast(T.i64, T[t], BigInt.asIntN(64, c.v)) as number;
      return Number.isFinite(v) && BigInt.asIntN(64, c.v) === c.v ? v : undefined;
    }
    if (!isIntTy(t) || c.v < INT_RANGE[t][0] || c.v > INT_RANGE[t][1]) return undefined;
    return t === "i64" || t === "u64" ? c.v : Number(c.v);
  }
  if (typeof c.v === "number" && isFloatTy(t)) {
    const v = evalCast(T.f64, T[t], c.v) as number;
    return Number.isFinite(v) ? v : undefined;
  }
  return undefined;
}

const INT_RANGE = INT_RANGES;

/** An arbitrary built when first used. */
export class Lazy<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly make: () => fc.Arbitrary<T>) {
    super();
  }

  private get inner(): fc.Arbitrary<T> {
    return (this.built ??= this.make());
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.inner.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.inner.shrink(value, context);
  }
}

export class ExprGen {
  private readonly memo = new Map<string, fc.Arbitrary<Expr>>();

  /** What this generator draws from. */
  readonly u: Universe;

  constructor(readonly env: Env) {
    this.u = env.u ?? FULL;
  }

  /** The arbitrary for `key`, built on first use (most of them never are: a kernel draws a few paths). */
  private cached(key: string, make: () => fc.Arbitrary<Expr>): fc.Arbitrary<Expr> {
    let a = this.memo.get(key);
    if (!a) this.memo.set(key, (a = new Lazy(make)));
    return a;
  }

  /** An expression of type t, of any depth up to 4 (mostly 1 or 2). */
  any(t: ValTy): fc.Arbitrary<Expr> {
    return this.cached(`any:${t}`, () => fc.oneof(w(this.expr(t, 0), 4), w(this.expr(t, 1), 6), w(this.expr(t, 2), 6), w(this.expr(t, 3), 2), w(this.expr(t, 4), 1)));
  }

  /** A literal of type t, or a module constant that fits it. */
  literal(t: Ty): fc.Arbitrary<Expr> {
    return this.cached(`lit:${t}`, () => {
      const consts = this.env.constants.flatMap((c) => {
        const v = constantAs(c, t);
        return v === undefined ? [] : [{ k: "lit", t, v, constant: c.name } as const];
      });
      const plain = fc.tuple(literalValue(t, this.u.subnormals), spelling(t)).map(([v, s]) => spell(t, v, s));
      return consts.length ? fc.oneof(w(plain, 4), w(fc.constantFrom(...consts), 1)) : plain;
    });
  }

  /** Literals, variables and thread indices: no array reads (indices are built from these); for vectors, also constructors of such scalars. */
  atom(t: ValTy): fc.Arbitrary<Expr> {
    return this.cached(`atom:${t}`, () => {
      if (!isScalarTy(t)) return isVecTy(t) ? vectorAtom(this, t) : this.expr(t, 0);
      const alts: Weighted[] = [w(this.literal(t), 3)];
      const vars = this.env.vars.filter((v) => v.t === t);
      if (vars.length) alts.push(w(fc.constantFrom(...vars).map((v) => nameRef(t, v.name)), 4));
      if (t === "i32") alts.push(w(fc.constantFrom(...SPECIALS).map((s): Expr => ({ k: "special", t: "i32", ...s })), 2));
      return fc.oneof(...alts);
    });
  }

  /** An integer of any integer type, at most depth d. */
  anyInt(d: number): fc.Arbitrary<Expr> {
    return this.cached(`int:${d}`, () => fc.oneof(...this.u.int.map((u) => (d === 0 ? this.atom(u) : this.expr(u, d)))));
  }

  /** An index in 0..n-1 of some integer type, built from an expression of depth at most d. */
  index(n: number, d: number): fc.Arbitrary<Expr> {
    return this.cached(`index:${n}:${d}`, () => {
      const fromInt = this.anyInt(d).map((e) => guardIndex(e, n));
      if (d === 0) return fromInt;
      const others = (["f32", "f64", "f16", "bf16", "bool"] as const).filter((u) => this.u === FULL || this.u.all.includes(u));
      const fromOther = fc.oneof(...others.map((u) => this.expr(u, d - 1))).map((e) => guardIndex(cast("u32", e), n));
      return fc.oneof(w(fromInt, 4), w(fromOther, 1));
    });
  }

  /** Reads of arrays of element type t, with indices of depth at most d. */
  loads(t: ValTy, d: number): Weighted[] {
    const out: Weighted[] = [];
    for (const a of this.env.arrays.filter((x) => x.t === t)) {
      if (a.kind === "own") {
        out.push(w(fc.integer({ min: 0, max: this.env.slots - 1 }).map((j) => ownSlot(t, j)), 1));
      } else if (a.dims.length === 0) {
        out.push(w(fc.constant(nameRef(t, a.name)), 2));
      } else {
        const idx = a.dims.map((n) => this.index(n, d));
        out.push(w(fc.tuple(...idx).map((ix) => index(t, a.name, ...ix)), a.kind === "input" ? 3 : 2));
      }
    }
    out.push(...hintedLoads(this, t, d));
    return out;
  }

  /** An expression of type t and depth exactly d (d = 0: a leaf). */
  expr(t: ValTy, d: number): fc.Arbitrary<Expr> {
    return this.cached(`expr:${t}:${d}`, () => {
      if (isVecTy(t)) return vectorExpr(this, t, d);
      if (!isScalarTy(t)) return structExpr(this, t, d);
      const leaves = fc.oneof(w(this.atom(t), 3), ...this.loads(t, 0));
      if (d === 0) return leaves;
      const alts: Weighted[] = [w(leaves, 3), ...this.loads(t, d - 1)];
      const sub = (u: ValTy) => this.expr(u, d - 1);
      if (t === "bool") alts.push(...this.boolOps(sub));
      else alts.push(...this.numericOps(t, sub));
      alts.push(w(fc.tuple(sub("bool"), sub(t), sub(t)).map(([c, a, b]): Expr => ({ k: "select", t, c, a, b })), 1));
      const uses = EXACT_USES.filter((m) => m.result === t && this.u.math(m.entry) && this.u.all.includes(m.operand));
      if (uses.length) {
        const call = (m: MathUse) => fc.tuple(...Array.from({ length: m.entry.rule.arity }, () => sub(m.operand))).map((args) => mathCall(m, t, args));
        alts.push(w(fc.oneof(...uses.map(call)), 2));
      }
      const others = this.u.all.filter((u) => u !== t);
      alts.push(w(fc.oneof(...others.map(sub)).map((e) => cast(t, e)), 2));
      alts.push(...this.calls(t, sub), ...scalarsFromVectors(this, t, d), ...fieldReads(this, t, d), ...bitcasts(this, t, d));
      return fc.oneof(...alts);
    });
  }

  private boolOps(sub: (u: ValTy) => fc.Arbitrary<Expr>): Weighted[] {
    const pair = (u: Ty) => fc.tuple(sub(u), sub(u));
    const eq = fc.oneof(...this.u.all.map((u) => fc.tuple(fc.constantFrom<BinOp>("==", "!=", "===", "!=="), pair(u))));
    const order = fc.oneof(...this.u.num.map((u) => fc.tuple(fc.constantFrom<BinOp>("<", "<=", ">", ">="), pair(u))));
    const compare = fc.oneof(eq, order).map(([op, [l, r]]) => bin("bool", op, l, r));
    const logic = fc.tuple(fc.constantFrom<BinOp>("&&", "||", "&", "|", "^"), pair("bool")).map(([op, [l, r]]) => bin("bool", op, l, r));
    const not = sub("bool").map((e): Expr => ({ k: "unary", t: "bool", op: "!", e }));
    return [w(compare, 4), w(logic, 2), w(not, 1)];
  }

  private numericOps(t: NumTy, sub: (u: ValTy) => fc.Arbitrary<Expr>): Weighted[] {
    const s = sub(t);
    const arith = fc.tuple(fc.constantFrom<BinOp>("+", "-", "*"), s, s).map(([op, l, r]) => bin(t, op, l, r));
    const neg = fc.tuple(fc.constantFrom("-", "-", "+"), s).map(([op, e]): Expr => ({ k: "unary", t, op: op as "-" | "+", e }));
    const alts: Weighted[] = [w(arith, 4), w(neg, 1), w(this.division(t, s), 2)];
    if (isIntTy(t)) {
      const bits = fc.tuple(fc.constantFrom<BinOp>("&", "|", "^"), s, s).map(([op, l, r]) => bin(t, op, l, r));
      const not = s.map((e): Expr => ({ k: "unary", t, op: "~", e }));
      const count = fc.oneof(w(fc.integer({ min: 0, max: widthOf(t) - 1 }).map((c) => lit(t, small(t, c))), 1), w(fc.oneof(...this.u.int.map(sub)), 2));
      const shift = fc.tuple(fc.constantFrom<BinOp>("<<", ">>", ">>>"), s, count).map(([op, l, r]) => bin(t, op, l, r));
      alts.push(w(bits, 2), w(not, 1), w(shift, 2));
    }
    return alts;
  }

  /** `/` and `%`: floats as they are (where the target's `/` is inexact: `%` by a nonzero divisor); integers with a divisor that cannot be 0. */
  division(t: NumTy, s: fc.Arbitrary<Expr>): fc.Arbitrary<Expr> {
    const op = fc.constantFrom<BinOp>("/", "%");
    if (isFloatTy(t) && this.u.floatDivision) return fc.tuple(op, s, s).map(([o, a, b]) => bin(t, o, a, b));
    if (isFloatTy(t)) {
      // `%` alone, never by zero (its NaN meets implementations that assume there is none, universe.ts).
      const zero = lit(t, 0);
      return fc.tuple(s, s).map(([a, b]): Expr => ({ k: "select", t, c: bin("bool", "!=", b, zero), a: bin(t, "%", a, b), b: zero }));
    }
    const one = lit(t, small(t, 1));
    const zero = lit(t, small(t, 0));
    const orOne = fc.tuple(op, s, s).map(([o, a, b]) => bin(t, o, a, bin(t, "|", b, one)));
    const checked = fc.tuple(op, s, s).map(([o, a, b]): Expr => ({ k: "select", t, c: bin("bool", "!=", b, zero), a: bin(t, o, a, b), b: zero }));
    const constant = fc.tuple(op, s, literalValue(t, this.u.subnormals).filter((v) => v !== 0 && v !== 0n)).map(([o, a, v]) => bin(t, o, a, lit(t, v)));
    const minusOne = isSignedTy(t) ? [fc.tuple(op, s).map(([o, a]) => bin(t, o, a, lit(t, small(t, -1))))] : [];
    return fc.oneof(orOne, checked, constant, ...minusOne);
  }

  /** Calls of device functions that return t. */
  calls(t: ValTy, sub: (u: ValTy) => fc.Arbitrary<Expr>): Weighted[] {
    return this.env.fns.filter((f) => f.ret === t).flatMap((f) => {
      const call = this.call(f, sub);
      return call ? [w(call, 1)] : [];
    });
  }

  /**
   * A call of `f` (undefined when the scope has nothing to pass to one of its array, view or
   * reference parameters). A generic function's instance is named explicitly or inferred
   * (then its first argument is printed typed), with a size when it has one.
   */
  call(f: FnSig, sub: (u: ValTy) => fc.Arbitrary<Expr> = (u) => this.any(u)): fc.Arbitrary<Expr> | undefined {
    const args: fc.Arbitrary<CallArg>[] = [];
    for (const p of f.params) {
      let a: fc.Arbitrary<CallArg> | undefined;
      if (p.kind === "scalar") a = sub(p.t);
      else if (p.kind === "global") {
        const input = this.inputOf(p.t);
        a = input && fc.constant({ k: "arrayRef" as const, name: input.name });
      } else if (p.kind === "view") a = this.viewArg(p.t, p.length, !p.readonly, p.atomic ?? false);
      else a = this.refArg(p.t);
      if (!a) return undefined;
      args.push(a);
    }
    if (!f.generic) return fc.tuple(...args).map((a): Expr => ({ k: "call", t: f.ret, fn: f.index, args: a }));
    const call = fc.record({ explicit: fc.boolean(), size: f.generic.sized ? fc.constantFrom(...SIZES) : fc.constant(undefined) });
    return fc.tuple(call, ...args).map(([g, ...a]): Expr => ({ k: "call", t: f.ret, fn: f.index, args: a, generic: g.size === undefined ? { explicit: g.explicit } : { explicit: true, size: g.size } }));
  }

  /**
   * A view of `length` elements of type t for a view parameter: of any array in scope (a
   * writable one for a writable view: this thread's own slots, a local array, a writable
   * view), whole, a row of a 2-D array, or a run from a guarded offset with stride 1 to 3
   * that stays inside it. Undefined when no array fits.
   */
  viewArg(t: Ty, length: number, writable: boolean, atomic = false): fc.Arbitrary<CallArg> | undefined {
    const out: fc.WeightedArbitrary<CallArg>[] = [];
    // Rows of 2-D arrays (shared tiles among them) weigh more: few programs have one of the view's type.
    const add = (arbitrary: fc.Arbitrary<CallArg>, weight = 1) => out.push({ arbitrary, weight });
    const fits = (n: number) => [1, 2, 3].filter((s) => (length - 1) * s + 1 <= n);
    for (const a of this.env.arrays) {
      if (a.t !== t || a.dims.length === 0 && a.kind !== "own") continue;
      // A view the function updates atomically: of global memory that only this thread touches.
      if (atomic && a.kind !== "own") continue;
      if (writable && !(a.kind === "own" || a.kind === "local" || (a.kind === "view" && a.writable))) continue;
      if (a.kind === "own") {
        const n = this.env.slots;
        for (const s of fits(n)) {
          add(fc.integer({ min: 0, max: n - (length - 1) * s - 1 }).map((j): CallArg => ({
            k: "view", array: a.name, row: null, offset: bin("i32", "+", nameRef("i32", "o"), lit("i32", j)), length, stride: s, whole: false, source: "own",
          })));
        }
        continue;
      }
      const flat = a.dims.reduce((x, y) => x * y, 1);
      if (a.dims.length === 1 && flat === length) add(fc.constant({ k: "view", array: a.name, row: null, offset: lit("i32", 0), length, stride: 1, whole: true, source: a.kind }));
      for (const s of fits(flat)) {
        add(this.index(flat - (length - 1) * s, 1).map((i): CallArg => ({ k: "view", array: a.name, row: null, offset: cast("i32", i), length, stride: s, whole: false, source: a.kind })));
      }
      if (a.dims.length === 2) {
        const [rows, m] = a.dims as [number, number];
        if (m === length) add(this.index(rows, 1).map((r): CallArg => ({ k: "view", array: a.name, row: r, offset: lit("i32", 0), length, stride: 1, whole: true, source: a.kind })), 3);
        for (const s of fits(m)) {
          add(fc.tuple(this.index(rows, 1), this.index(m - (length - 1) * s, 1)).map(([r, i]): CallArg => ({
            k: "view", array: a.name, row: r, offset: cast("i32", i), length, stride: s, whole: false, source: a.kind,
          })), 3);
        }
      }
    }
    return out.length ? fc.oneof(...out) : undefined;
  }

  /** A variable or element of type t for a reference parameter: a mutable variable, a local array's element, an own slot, a writable view's element. */
  refArg(t: Ty): fc.Arbitrary<CallArg> | undefined {
    const out: fc.Arbitrary<CallArg>[] = [];
    const vars = this.env.vars.filter((v) => v.mutable && v.t === t);
    if (vars.length) out.push(fc.constantFrom(...vars).map((v): CallArg => ({ k: "ref", target: { name: v.name, t, idx: [] }, source: "var" })));
    for (const a of this.env.arrays) {
      if (a.t !== t) continue;
      if (a.kind === "own") {
        out.push(fc.integer({ min: 0, max: this.env.slots - 1 }).map((j): CallArg => ({ k: "ref", target: { name: a.name, t, idx: [bin("i32", "+", nameRef("i32", "o"), lit("i32", j))] }, source: "own" })));
      } else if (a.kind === "local" || (a.kind === "view" && a.writable)) {
        out.push(fc.tuple(...a.dims.map((n) => this.index(n, 1))).map((idx): CallArg => ({ k: "ref", target: { name: a.name, t, idx }, source: a.kind })));
      }
    }
    return out.length ? fc.oneof(...out) : undefined;
  }

  /** An input array of element type t in scope (to pass to a device function's readonly parameter). */
  private inputOf(t: ValTy): ArrayRef | undefined {
    return this.env.arrays.find((a) => a.kind === "input" && a.t === t);
  }
}

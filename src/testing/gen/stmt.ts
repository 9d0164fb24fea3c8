/**
 * Statements over a scope, as fast-check arbitraries: assignments (plain, compound, `++`),
 * stores to local arrays and to this thread's own output slots, atomics, calls, and
 * control flow (if/else, five kinds of loop, blocks, break, continue, early return).
 *
 * What keeps them well-defined:
 * - every loop terminates: its counter is never assigned by the body and its bound is a
 *   small constant, or an expression guarded below 5; `while` and `do` loops count first
 *   thing in the body, so `continue` cannot skip the count;
 * - a thread writes only its own output slots `out_T[o + j]` and its locals;
 * - atomics on memory that threads share (`acc_*` globals, `sacc*` shared arrays) use one
 *   operation family per array whose result does not depend on the order threads apply it
 *   (integer add/sub, min, max, and, or, xor; float min/max; f32 and f64 add/sub of small
 *   integers, which stay exact), and their old values are discarded; atomics whose old
 *   value is used target the thread's own output slot;
 * - `break`, `continue` and `return` only end an `if` branch, so nothing is unreachable;
 * - no barriers here: kernel.ts places them in uniform control flow.
 */
import fc from "fast-check";
import { builtins, type AtomicEntry } from "../../ir/builtins.js";
import {
  assign, bin, builtin, cast, isFloatTy, isIntTy, isScalarTy, isVecLane, laneType, lit, nameRef, scalarTarget, small, vec,
  type AssignOp, type BinOp, type Expr, type FloatTy, type LValue, type NumTy, type Stmt, type Ty, type Unroll, type ValTy,
} from "./ast.js";
import { APPROX_MATH, ExprGen, guardIndex, Lazy, mathUses, ownSlot, type ArrayRef, type Env, type ValueVar } from "./expr.js";
import { innerPlaces, pathTo } from "./structs.js";
import { alignedIndex, vectorAccessible } from "./vectors.js";
import { hintedStores } from "./cacheHints.js";
import { fastCall, type FastUse } from "./fast.js";

/** An array that threads update with one order-independent atomic family. */
export interface Accumulator {
  readonly name: string;
  readonly t: Ty;
  readonly op: "add" | "min" | "max" | "and" | "or" | "xor";
  /** Empty for a scalar `shared` variable. */
  readonly dims: readonly number[];
}

/** What kernel statements may do besides assigning locals. */
export interface KernelParts {
  /** Element types of the `out_T` arrays (own slots). */
  readonly outTypes: readonly ValTy[];
  /** `approx_T` outputs for inexact math builtins. */
  readonly approx: readonly FloatTy[];
  /** The fast builtin, and its region, that `fast_f32` stores hold (none: no `fast_f32`). */
  readonly fast: FastUse | null;
  /** Accumulators that atomics may update here (global ones, and shared ones between their barriers). */
  readonly accumulators: readonly Accumulator[];
  /** Void device functions `(o: global<T>, s: i32, x: T)` that store to one slot. */
  readonly writers: readonly { readonly index: number; readonly t: ValTy }[];
  /** Atomics on float elements (own slots and accumulators). */
  readonly floatAtomics: boolean;
}

export interface StmtCtx {
  /** Nesting levels left for if, loops and blocks. */
  readonly depth: number;
  /** break and continue are allowed. */
  readonly loop: boolean;
  /** What `return` may return: nothing is allowed ("none"), `return;` ("void"), or a value of a type. */
  readonly ret: "none" | "void" | ValTy;
  /** Loop counters and block locals around: new ones are named after these counts. */
  readonly loops: number;
  readonly blocks: number;
}

type Weighted = fc.WeightedArbitrary<Stmt>;
const ATOMICS = builtins.filter((b): b is AtomicEntry => b.rule.kind === "atomic");
const w = (arbitrary: fc.Arbitrary<Stmt>, weight: number): Weighted => ({ arbitrary, weight });

/** A scope: the names in reach, and the arbitraries over them (memoized). */
export class Scope {
  readonly gen: ExprGen;
  private readonly children = new Map<string, Scope>();
  private readonly memo = new Map<string, fc.Arbitrary<Stmt[]>>();

  constructor(
    readonly env: Env,
    readonly kernel: KernelParts | undefined,
  ) {
    this.gen = new ExprGen(env);
  }

  /** This scope with one more variable, or with other arrays readable. */
  with(v: ValueVar | undefined, arrays: readonly ArrayRef[] = this.env.arrays, kernel = this.kernel): Scope {
    const key = `${v ? `${v.name}:${v.t}:${v.mutable}` : ""}|${arrays.map((a) => a.name).join(",")}|${kernel?.accumulators.map((a) => a.name).join(",")}`;
    let s = this.children.get(key);
    if (!s) {
      const vars = v ? [...this.env.vars.filter((x) => x.name !== v.name), v] : this.env.vars;
      this.children.set(key, (s = new Scope({ ...this.env, vars, arrays }, kernel)));
    }
    return s;
  }

  /** A list of min..max statements. */
  stmts(ctx: StmtCtx, min: number, max: number): fc.Arbitrary<Stmt[]> {
    const key = `${ctx.depth}:${ctx.loop}:${ctx.ret}:${ctx.loops}:${ctx.blocks}:${min}:${max}`;
    let a = this.memo.get(key);
    if (!a) this.memo.set(key, (a = new Lazy(() => fc.array(this.stmt(ctx), { minLength: min, maxLength: max }))));
    return a;
  }

  stmt(ctx: StmtCtx): fc.Arbitrary<Stmt> {
    const simple = fc.oneof(...this.simple());
    if (ctx.depth === 0) return simple;
    const inner = { ...ctx, depth: ctx.depth - 1 };
    return fc.oneof(w(simple, 6), w(this.ifStmt(inner), 2), w(this.loop(inner), 2), w(this.block(inner), 1));
  }

  // ---------------------------------------------------------------- simple statements

  private simple(): Weighted[] {
    const g = this.gen;
    const out: Weighted[] = [];
    for (const v of this.env.vars.filter((x) => x.mutable)) {
      const target = fc.constant(scalarTarget(v.name, v.t));
      out.push(w(this.assignTo(target, v.t), 3), ...this.inside(target, v.t, 2));
    }
    for (const a of this.env.arrays.filter((x) => x.kind === "local")) {
      const target = fc.tuple(...a.dims.map((n) => g.index(n, 1))).map((idx): LValue => ({ name: a.name, t: a.t, idx }));
      out.push(w(this.assignTo(target, a.t), 2), ...this.inside(target, a.t, 1), ...this.vectorStores(a));
    }
    // Generic functions' instances are pure: called for their value only.
    for (const f of this.env.fns.filter((x) => !x.generic)) {
      const call = g.call(f);
      // Functions that take views or references are called more often: what they pass is what they test.
      const weight = f.params.some((p) => p.kind === "view" || p.kind === "ref") ? 12 : 1;
      if (call) out.push(w(call.map((e): Stmt => ({ k: "do", e })), weight));
    }
    const k = this.kernel;
    if (!k) return out;
    const atomicTypes = g.u.num.filter((t) => k.floatAtomics || !isFloatTy(t));
    for (const t of k.outTypes) {
      const slot = fc.integer({ min: 0, max: this.env.slots - 1 }).map((j) => slotTarget(t, j));
      out.push(w(this.assignTo(slot, t), 3), ...this.inside(slot, t, 2));
      if (isScalarTy(t)) out.push(...this.vectorStores({ name: `out_${t}`, t, dims: [], kind: "own" }));
      const own = this.env.arrays.find((a) => a.name === `out_${t}`);
      if (own) out.push(...hintedStores(g, own, this.env.slots, slotIndex));
      if (t !== "bool" && (atomicTypes as readonly ValTy[]).includes(t)) out.push(w(this.ownAtomic(t as NumTy), 1));
    }
    out.push(...this.effects(atomicTypes));
    // Weighted up: two dozen inexact builtins on four float types share these stores.
    for (const t of k.approx) out.push(w(this.approxStore(t), 10));
    if (k.fast) out.push(w(this.fastStore(k.fast), 3));
    for (const acc of k.accumulators) if (k.floatAtomics || !isFloatTy(acc.t)) out.push(w(this.accumulate(acc), 1));
    for (const f of k.writers) {
      const call = fc.tuple(fc.integer({ min: 0, max: this.env.slots - 1 }), g.any(f.t)).map(([j, x]): Stmt => ({
        k: "do",
        e: { k: "call", t: "void", fn: f.index, args: [{ k: "arrayRef", name: `out_${f.t}` }, slotIndex(j), x] },
      }));
      out.push(w(call, 1));
    }
    return out;
  }

  /**
   * Assignments to the places inside the targets (of a vector or struct type): fields,
   * elements of array fields and lanes (`v.y = e;`, `s.taps[i] += e;`, `out_S0[o + 1].pos.x = e;`).
   */
  private inside(target: fc.Arbitrary<LValue>, t: ValTy, weight: number): Weighted[] {
    if (isScalarTy(t)) return [];
    const places = innerPlaces(t, this.env.structs, true);
    // Built when drawn: a struct may have dozens of places.
    const alts = places.map(
      (p) => new Lazy(() => this.assignTo(fc.tuple(target, pathTo(this.gen, p, 1)).map(([l, path]): LValue => ({ ...l, t: p.t, path: [...(l.path ?? []), ...path] })), p.t)),
    );
    return alts.length ? [w(fc.oneof(...alts), weight)] : [];
  }

  /** `store2`/`store4`/`store8` of a vector into an array of scalars: the thread's own slots (`o`, `o + 2`), or a one-dimensional local array at an aligned index. */
  private vectorStores(a: ArrayRef): Weighted[] {
    if (!isScalarTy(a.t) || !isVecLane(a.t, 2) || !this.env.vecTypes.length || !vectorAccessible(a)) return [];
    const t = a.t;
    const out: Weighted[] = [];
    for (const n of ([2, 4, 8] as const).filter((k) => isVecLane(t, k))) {
      const idx =
        a.kind === "own" ? (n <= this.env.slots ? fc.integer({ min: 0, max: this.env.slots / n - 1 }).map((j) => slotIndex(j * n)) : undefined)
        : a.dims.length === 1 && a.dims[0]! >= n ? alignedIndex(this.gen, a.dims[0]!, n, 1)
        : undefined;
      if (!idx) continue;
      // store8 has only local arrays of 8 halves to write: it weighs more where it can be.
      out.push(w(fc.tuple(idx, this.gen.any(vec(t, n))).map(([i, v]): Stmt => ({ k: "vstore", fn: `store${n}`, array: a.name, t, idx: i, value: v })), n === 8 ? 4 : 1));
    }
    return out;
  }

  /** `target = e`, a compound assignment (a vector's with a vector or a scalar of its lane type), or `++`/`--`. */
  private assignTo(target: fc.Arbitrary<LValue>, t: ValTy): fc.Arbitrary<Stmt> {
    const g = this.gen;
    const plain = fc.tuple(target, g.any(t)).map(([l, e]) => assign(l, "=", e));
    const alts: Weighted[] = [w(plain, 4)];
    const lane = laneType(t);
    const ops = lane ? compoundOps(lane, g.u.floatDivision) : [];
    if (lane && ops.length) {
      const value = lane === t ? g.any(t) : fc.oneof({ arbitrary: g.any(t), weight: 3 }, { arbitrary: g.any(lane), weight: 1 });
      const compound = fc.tuple(target, fc.constantFrom(...ops), value, g.anyInt(1)).map(([l, op, e, count]) => {
        if (op === "<<=" || op === ">>=" || op === ">>>=") return assign(l, op, count);
        if (isIntTy(lane) && (op === "/=" || op === "%=")) return assign(l, op, bin(e.t as ValTy, "|", e, lit(lane, small(lane, 1))));
        return assign(l, op, e);
      });
      alts.push(w(compound, 3));
    }
    if (lane && lane !== "bool") {
      const step = fc.tuple(target, fc.constantFrom<"++" | "--">("++", "--"), fc.boolean()).map(([l, op, prefix]): Stmt => ({ k: "step", target: l, op, prefix }));
      alts.push(w(step, 1));
    }
    return fc.oneof(...alts);
  }

  /** `approx_T[o + j] = f(...)` for a math builtin that the GPU computes within a stated ulp. */
  private approxStore(t: FloatTy): fc.Arbitrary<Stmt> {
    const g = this.gen;
    const uses = mathUses(APPROX_MATH).filter((m) => m.operand === t && m.result === t);
    const call = fc.oneof(...uses.map((m) => fc.tuple(...Array.from({ length: m.entry.rule.arity }, () => g.any(t))).map((args) => builtin(t, m.entry.name, ...args))));
    return fc.tuple(fc.integer({ min: 0, max: this.env.slots - 1 }), call).map(([j, e]) =>
      assign({ name: `approx_${t}`, t, idx: [slotIndex(j)] }, "=", e),
    );
  }

  /** `fast_f32[o + j] = fastX(clamp(a, lo, hi), ...)`: see fast.ts. */
  private fastStore(use: FastUse): fc.Arbitrary<Stmt> {
    const args = fc.tuple(...use.bounds.map(() => this.gen.any("f32")));
    return fc.tuple(fc.integer({ min: 0, max: this.env.slots - 1 }), args).map(([j, a]) => assign({ name: "fast_f32", t: "f32", idx: [slotIndex(j)] }, "=", fastCall(use, a)));
  }

  /** An atomic on one of the thread's own output slots, as a value (its old value): any operation of the table. */
  private ownAtomicValue(t: NumTy): fc.Arbitrary<Expr> {
    const g = this.gen;
    const ops = ATOMICS.filter((b) => b.rule.types.includes(t)).map((b) => b.name);
    // A float CAS compares bits, and NaN payloads differ between GPU and simulator: compare with
    // the slot's own value or a (never NaN) literal, never with a computed value.
    const compare = (j: number) => (isFloatTy(t) ? fc.oneof(fc.constant(ownSlot(t, j)), g.literal(t)) : g.any(t));
    return fc.tuple(fc.constantFrom(...ops), fc.integer({ min: 0, max: this.env.slots - 1 })).chain(([fn, j]) =>
      fc.tuple(fn === "atomicCAS" ? fc.tuple(compare(j), g.any(t)) : fc.tuple(g.any(t))).map(([args]): Expr => ({
        k: "atomic", t, fn, array: `out_${t}`, idx: [slotIndex(j)], args,
      })),
    );
  }

  /** Where a value of type t may go: an own output slot (where `out_T` exists: a target may lack it) or a mutable variable; undefined: nowhere. */
  private into(t: Ty): fc.Arbitrary<LValue> | undefined {
    const vars = this.env.vars.filter((v) => v.mutable && v.t === t);
    const own = !this.kernel || this.kernel.outTypes.includes(t);
    const alts = [
      ...(own ? [fc.integer({ min: 0, max: this.env.slots - 1 }).map((j) => slotTarget(t, j))] : []),
      ...(vars.length ? [fc.constantFrom(...vars).map((v) => scalarTarget(v.name, t))] : []),
    ];
    return alts.length ? fc.oneof(...alts) : undefined;
  }

  /** An own-slot atomic as a statement, or its old value stored (two of them: left to right). */
  private ownAtomic(t: NumTy): fc.Arbitrary<Stmt> {
    const atomic = this.ownAtomicValue(t);
    // t is one of the kernel's outTypes (the caller's guard), so `into` has its slots.
    const into = this.into(t)!;
    return fc.oneof(
      atomic.map((e): Stmt => ({ k: "do", e })),
      fc.tuple(into, atomic).map(([l, e]) => assign(l, "=", e)),
      fc.tuple(into, atomic, atomic).map(([l, a, b]) => assign(l, "=", bin(t, "+", a, b))),
    );
  }

  /**
   * Side effects where the spec says whether they happen: an own-slot atomic in one branch
   * of `?:`, as the right operand of `&&`/`||`, or in the index of a compound assignment
   * (evaluated once).
   */
  private effects(types: readonly NumTy[]): Weighted[] {
    const g = this.gen;
    const out: Weighted[] = [];
    const intoBool = this.into("bool");
    for (const t of types) {
      const into = this.into(t);
      if (!into) continue;
      const select = fc.tuple(into, g.any("bool"), this.ownAtomicValue(t), g.any(t), fc.boolean()).map(([l, c, eff, e, first]) =>
        assign(l, "=", { k: "select", t, c, a: first ? eff : e, b: first ? e : eff }),
      );
      out.push(w(select, 1));
      if (!intoBool) continue;
      const shortCircuit = fc.tuple(intoBool, g.any("bool"), fc.constantFrom<BinOp>("&&", "||"), this.ownAtomicValue(t), g.any(t)).map(([l, c, op, eff, e]) =>
        assign(l, "=", bin("bool", op, c, bin("bool", "<", eff, e))),
      );
      out.push(w(shortCircuit, 1));
    }
    const ints = types.filter(isIntTy);
    for (const a of this.env.arrays.filter((x) => x.kind === "local" && isScalarTy(x.t) && x.t !== "bool")) {
      if (!ints.length) break;
      const first = fc.oneof(...ints.map((t) => this.ownAtomicValue(t))).map((e) => guardIndex(e, a.dims[0]!));
      const target = fc.tuple(first, ...a.dims.slice(1).map((n) => g.index(n, 0))).map((idx): LValue => ({ name: a.name, t: a.t, idx }));
      const update = fc.oneof(
        fc.tuple(target, g.any(a.t)).map(([l, e]) => assign(l, isFloatTy(a.t as Ty) ? "*=" : "+=", e)),
        fc.tuple(target, fc.boolean()).map(([l, prefix]): Stmt => ({ k: "step", target: l, op: "++", prefix })),
      );
      out.push(w(update, 1));
    }
    return out;
  }

  /** A contended atomic on an accumulator; the old value is discarded. */
  private accumulate(acc: Accumulator): fc.Arbitrary<Stmt> {
    const g = this.gen;
    const t = acc.t;
    const fns = acc.op === "add" ? ["atomicAdd", "atomicSub"] : [`atomic${acc.op[0]!.toUpperCase()}${acc.op.slice(1)}`];
    const value = isFloatTy(t) && acc.op === "add" ? g.expr("i32", 1).map((e) => cast(t, bin("i32", "%", e, lit("i32", 16)))) : g.any(t);
    const idx = acc.dims.length === 0 ? fc.constant([lit("i32", 0)]) : fc.tuple(...acc.dims.map((n) => g.index(n, 1)));
    return fc.tuple(fc.constantFrom(...fns), idx, value).map(([fn, ix, v]): Stmt => ({ k: "do", e: { k: "atomic", t, fn, array: acc.name, idx: ix, args: [v] } }));
  }

  // ---------------------------------------------------------------- control flow

  private ifStmt(ctx: StmtCtx): fc.Arbitrary<Stmt> {
    const jumps = this.jumps(ctx);
    const then = jumps.length
      ? fc.tuple(this.stmts(ctx, 0, 3), fc.option(fc.oneof(...jumps), { freq: 3 })).map(([ss, j]) => (j ? [...ss, j] : ss))
      : this.stmts(ctx, 1, 3);
    return fc.tuple(this.gen.any("bool"), then, fc.option(this.stmts(ctx, 1, 3), { freq: 2 })).map(([c, t, e]): Stmt => ({ k: "if", c, then: t, else: e }));
  }

  private jumps(ctx: StmtCtx): fc.Arbitrary<Stmt>[] {
    const out: fc.Arbitrary<Stmt>[] = [];
    if (ctx.loop) out.push(fc.constantFrom<Stmt>({ k: "jump", word: "break" }, { k: "jump", word: "continue" }));
    if (ctx.ret === "void") out.push(fc.constant<Stmt>({ k: "return", e: null }));
    else if (ctx.ret !== "none") out.push(this.gen.any(ctx.ret).map((e): Stmt => ({ k: "return", e })));
    return out;
  }

  /** One of five loop forms, with a counter `c<n>` the body may read but not assign. */
  private loop(ctx: StmtCtx): fc.Arbitrary<Stmt> {
    const c = `c${ctx.loops}`;
    const counter = nameRef("i32", c);
    const body = this.with({ name: c, t: "i32", mutable: false }).stmts({ ...ctx, loop: true, loops: ctx.loops + 1 }, 1, 3);
    const declare = (init: number): Stmt => ({ k: "let", decl: "let", name: c, t: "i32", init: lit("i32", init) });
    const inc: Stmt = { k: "step", target: scalarTarget(c, "i32"), op: "++", prefix: false };
    const lo = fc.integer({ min: -2, max: 3 });
    const trips = fc.integer({ min: 0, max: 5 });
    const cond = this.gen.any("bool");

    // Loops with constant bounds are sometimes unrolled (`@unroll`, `@unroll(N)`): nothing may change.
    const unroll = fc.option(fc.constantFrom<Unroll>("full", 1, 2, 4), { freq: 4 }).map((u) => (u === null ? {} : { unroll: u }));
    const up = fc.tuple(lo, trips, fc.constantFrom(1, 1, 2), body, unroll).map(([a, n, by, b, u]): Stmt => ({
      k: "for", init: declare(a), cond: bin("bool", "<", counter, lit("i32", a + n)),
      step: by === 1 ? inc : assign(scalarTarget(c, "i32"), "+=", lit("i32", by)), body: b, ...u,
    }));
    const down = fc.tuple(lo, trips, body, unroll).map(([a, n, b, u]): Stmt => ({
      k: "for", init: declare(a + n), cond: bin("bool", ">", counter, lit("i32", a)),
      step: { k: "step", target: scalarTarget(c, "i32"), op: "--", prefix: true }, body: b, ...u,
    }));
    const dataBound = fc.tuple(this.gen.index(5, 1), body).map(([bound, b]): Stmt => ({
      k: "for", init: declare(0), cond: bin("bool", "<", counter, cast("i32", bound)), step: inc, body: b,
    }));
    const limit = (n: number) => bin("bool", "<", counter, lit("i32", n));
    const whileLoop = fc.tuple(trips, cond, body).map(([n, w2, b]): Stmt => ({
      k: "block", body: [declare(0), { k: "while", c: bin("bool", "&&", limit(n), w2), body: [inc, ...b] }],
    }));
    const doLoop = fc.tuple(trips, cond, body).map(([n, w2, b]): Stmt => ({
      k: "block", body: [declare(0), { k: "doWhile", body: [inc, ...b], c: bin("bool", "&&", limit(n), w2) }],
    }));
    const forever = fc.tuple(trips, body).map(([n, b]): Stmt => ({
      k: "for", init: declare(0), cond: null, step: inc,
      body: [{ k: "if", c: bin("bool", ">=", counter, lit("i32", n)), then: [{ k: "jump", word: "break" }], else: null }, ...b],
    }));
    return fc.oneof(up, down, dataBound, whileLoop, doLoop, forever);
  }

  /**
   * `{ let b<n>: T = e; ... }`: a nested scope with a local of its own, which may shadow a
   * mutable variable of the scope around (with another type, maybe). Read-only names (the
   * thread's `tid`, `gid`, `o`, loop counters) are never shadowed: the generator's own
   * indexing relies on them.
   */
  private block(ctx: StmtCtx): fc.Arbitrary<Stmt> {
    const shadowable = this.env.vars.filter((v) => v.mutable).map((v) => v.name);
    const names = fc.oneof({ arbitrary: fc.constant(`b${ctx.blocks}`), weight: 3 }, ...(shadowable.length ? [{ arbitrary: fc.constantFrom(...shadowable), weight: 1 }] : []));
    const types = this.gen.u.all;
    return fc.tuple(names, fc.constantFrom(...types)).chain(([name, t]) => {
      const inner = this.with({ name, t, mutable: true }).stmts({ ...ctx, blocks: ctx.blocks + 1 }, 1, 3);
      return fc.tuple(this.gen.any(t), inner).map(([init, body]): Stmt => ({ k: "block", body: [{ k: "let", decl: "let", name, t, init }, ...body] }));
    });
  }
}

/** `o + j`: the index of this thread's output slot j. */
export function slotIndex(j: number): Expr {
  return bin("i32", "+", nameRef("i32", "o"), lit("i32", j));
}

export function slotTarget(t: ValTy, j: number): LValue {
  return { name: `out_${t}`, t, idx: [slotIndex(j)] };
}

/** The compound assignments of a t; float `/=` and `%=` only where the target divides floats exactly (universe.ts). */
function compoundOps(t: Ty, floatDivision: boolean): AssignOp[] {
  if (t === "bool") return ["&=", "|=", "^="];
  if (isFloatTy(t)) return floatDivision ? ["+=", "-=", "*=", "/=", "%="] : ["+=", "-=", "*="];
  return ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="];
}


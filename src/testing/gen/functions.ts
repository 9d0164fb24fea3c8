/**
 * The device functions of a generated program: their shapes (drawn with the program's shape,
 * kernel.ts) and their bodies. Four kinds:
 *
 * - value:  `f(p0: T, ..., [a: readonly global<U>], [v: readonly view<V>]): R`, reading its
 *   input array and view at guarded indices, returning a value (usable in expressions);
 * - writer: `f(dst: global<T>, s: i32, x: T)`, storing one value to `dst[s]` (the kernel
 *   passes its own output array and one of its slots);
 * - view writer: `f(v: view<T>, x: T)`, storing to elements of its view (the kernel passes a
 *   view of its own output slots or of a local array);
 * - view atomic: `f(v: view<T>, x: T)` (T an integer), updating elements of its view with
 *   atomics (the kernel passes a view of its own output slots: atomics need global or shared memory);
 * - reference: `f(x: inout T, y: out U, p: V)`, updating `x` and setting `y` (the caller
 *   passes mutable variables, local array elements, own output slots or view elements).
 *
 * Value and writer functions take and return any of the program's value types (scalars, and
 * its vectors and structs); views and references are of scalars (gk refuses others: GK2044,
 * GK2045). Each function may call the value, view writer and reference functions before it,
 * and read the module's constant arrays. Functions with side effects (all but value functions) are
 * called only as statements, so expressions stay free of side effects (expr.ts).
 */
import fc from "fast-check";
import { builtins, type AtomicEntry } from "../../ir/builtins.js";
import { ALL_TYPES, assign, INT_TYPES, isScalarTy, type IntTy, type ConstDef, type FnDef, type Param, type ParamType, type Stmt, type StructDef, type Ty, type ValTy, type VecTy } from "./ast.js";
import type { ArrayRef, Env, FnSig, ValueVar } from "./expr.js";
import { Scope, type StmtCtx } from "./stmt.js";
import { FULL, type Universe } from "./universe.js";

const ATOMIC_FNS = builtins.filter((b): b is AtomicEntry => b.rule.kind === "atomic");

export type FnShape =
  | { readonly kind: "value"; readonly params: readonly ParamType[]; readonly names: readonly string[]; readonly ret: ValTy }
  | { readonly kind: "writer"; readonly t: ValTy }
  | { readonly kind: "viewWriter"; readonly t: Ty; readonly length: number }
  /** `f(v: view<T>, x: T)` updating elements of its view atomically (an integer T; its calls pass views of own output slots). */
  | { readonly kind: "viewAtomic"; readonly t: IntTy; readonly length: number }
  | { readonly kind: "ref"; readonly t: Ty; readonly out: Ty; readonly extra: Ty };

/**
 * A device function's shape; `names`: its value parameters' names; `values`: the value types
 * of value parameters, inputs, results and writers; views of 1 to 4 elements, or of
 * `inputLength` (a whole input array), of `viewTypes`.
 */
export function fnShape(
  names: fc.Arbitrary<string[]>,
  inputLength: number,
  values: fc.Arbitrary<ValTy> = fc.constantFrom(...ALL_TYPES),
  viewTypes: fc.Arbitrary<Ty> = fc.constantFrom(...ALL_TYPES),
  u: Universe = FULL,
): fc.Arbitrary<FnShape> {
  const types = fc.constantFrom(...u.all);
  const memory = u === FULL ? values : values.filter((t) => !isScalarTy(t) || u.inMemory(t));
  const view = fc.tuple(viewTypes, fc.constantFrom(1, 2, 3, 4, inputLength)).map(([t, length]): ParamType => ({ kind: "view", t, readonly: true, length }));
  const valueFn = fc
    .tuple(
      fc.array(values, { minLength: 1, maxLength: 3 }),
      // An input array of the function's own: of a type global memory holds.
      fc.option(memory, { freq: 3 }),
      u.views ? fc.option(view, { freq: 3 }) : fc.constant(null),
      values,
      names,
    )
    .map(([ps, input, v, ret, pnames]): FnShape => ({
      kind: "value",
      params: [
        ...ps.map((t): ParamType => ({ kind: "scalar", t })),
        ...(input ? [{ kind: "global", t: input, readonly: true } as const] : []),
        ...(v ? [v] : []),
      ],
      names: pnames,
      ret,
    }));
  // A writer stores to the kernel's `out_T`: of a type global memory holds.
  const writerFn = memory.map((t): FnShape => ({ kind: "writer", t }));
  const viewWriterFn = fc.tuple(types, fc.constantFrom(1, 2, 3, 4)).map(([t, length]): FnShape => ({ kind: "viewWriter", t, length }));
  const refFn = fc.tuple(types, types, types).map(([t, out, extra]): FnShape => ({ kind: "ref", t, out, extra }));
  const viewAtomicFn = fc.tuple(fc.constantFrom(...INT_TYPES), fc.constantFrom(1, 2, 3, 4)).map(([t, length]): FnShape => ({ kind: "viewAtomic", t, length }));
  if (u === FULL) return fc.oneof({ arbitrary: valueFn, weight: 3 }, { arbitrary: writerFn, weight: 1 }, { arbitrary: viewWriterFn, weight: 1 }, { arbitrary: refFn, weight: 1 }, { arbitrary: viewAtomicFn, weight: 1 });
  return fc.oneof(
    { arbitrary: valueFn, weight: 3 },
    { arbitrary: writerFn, weight: 1 },
    ...(u.views ? [{ arbitrary: viewWriterFn, weight: 1 }, { arbitrary: viewAtomicFn, weight: 1 }] : []),
    ...(u.references ? [{ arbitrary: refFn, weight: 1 }] : []),
  );
}

/** The parameters of a function of this shape, with their names. */
export function fnParams(f: FnShape): Param[] {
  switch (f.kind) {
    case "value":
      return f.params.map((p, j) => ({ name: p.kind === "scalar" ? f.names[j]! : p.kind === "global" ? "a" : "v", type: p }));
    case "writer":
      return [
        { name: "dst", type: { kind: "global", t: f.t, readonly: false } },
        { name: "s", type: { kind: "scalar", t: "i32" } },
        { name: "x", type: { kind: "scalar", t: f.t } },
      ];
    case "viewWriter":
      return [
        { name: "v", type: { kind: "view", t: f.t, readonly: false, length: f.length } },
        { name: "x", type: { kind: "scalar", t: f.t } },
      ];
    case "viewAtomic":
      return [
        { name: "v", type: { kind: "view", t: f.t, readonly: false, length: f.length, atomic: true } },
        { name: "x", type: { kind: "scalar", t: f.t } },
      ];
    case "ref":
      return [
        { name: "x", type: { kind: "ref", t: f.t, mode: "inout" } },
        { name: "y", type: { kind: "ref", t: f.out, mode: "out" } },
        { name: "p", type: { kind: "scalar", t: f.extra } },
      ];
  }
}

/** The functions a scope may call: all but the writers (whose output array only the kernel has), as signatures. */
export function callable(shapes: readonly FnShape[]): FnSig[] {
  return shapes.flatMap((f, index): FnSig[] => {
    if (f.kind === "writer") return [];
    return [{ index, params: fnParams(f).map((p) => p.type), ret: f.kind === "value" ? f.ret : "void" }];
  });
}

/** The program's vector and struct types, which function bodies may use. */
export interface CompoundTypes {
  readonly structs: readonly StructDef[];
  readonly vecTypes: readonly VecTy[];
  /** What the program draws from (its target's). */
  readonly u?: Universe;
}

/**
 * The body of function `i`: statements over its parameters and the module's arrays (constant
 * arrays, constant tables), calling the functions before it and the generic functions'
 * instances (`generic`), then what its kind stores or returns.
 */
export function fnBody(
  f: FnShape,
  i: number,
  shapes: readonly FnShape[],
  constants: readonly ConstDef[],
  moduleArrays: readonly ArrayRef[],
  slots: number,
  inputLength: number,
  generic: readonly FnSig[] = [],
  compound: CompoundTypes = { structs: [], vecTypes: [] },
): fc.Arbitrary<FnDef> {
  const params = fnParams(f);
  const env = (vars: ValueVar[], arrays: ArrayRef[]): Env => ({
    vars, arrays: [...arrays, ...moduleArrays], fns: [...callable(shapes.slice(0, i)), ...generic], constants, slots, inputLength, structs: compound.structs, vecTypes: compound.vecTypes,
    ...(compound.u && compound.u !== FULL && { u: compound.u }),
  });
  const valueTypes: ValTy[] = [...(compound.u ?? FULL).all, ...compound.vecTypes, ...compound.structs.map((d) => d.name)];
  const ctx = (ret: StmtCtx["ret"], depth: number): StmtCtx => ({ depth, loop: false, ret, loops: 0, blocks: 0 });
  const scalars = params.flatMap((p): ValueVar[] => (p.type.kind === "scalar" || (p.type.kind === "ref" && p.type.mode === "inout") ? [{ name: p.name, t: p.type.t, mutable: true }] : []));
  const arrays = params.flatMap((p): ArrayRef[] => {
    if (p.type.kind === "global" && p.type.readonly) return [{ name: p.name, t: p.type.t, dims: [inputLength], kind: "input" }];
    if (p.type.kind === "view") return [{ name: p.name, t: p.type.t, dims: [p.type.length], kind: "view", writable: !p.type.readonly }];
    return [];
  });
  switch (f.kind) {
    case "writer": {
      const scope = new Scope(env(scalars.filter((v) => v.name === "x").concat([{ name: "s", t: "i32", mutable: false }]), []), undefined);
      return fc.tuple(scope.stmts(ctx("void", 0), 0, 2), fc.option(scope.gen.any("bool")), scope.gen.any(f.t)).map(([ss, c, e]): FnDef => ({
        params,
        ret: "void",
        body: [...ss, ...(c ? [{ k: "if", c, then: [{ k: "return", e: null }], else: null } as Stmt] : []), assign({ name: "dst", t: f.t, idx: [{ k: "name", t: "i32", name: "s" }] }, "=", e)],
      }));
    }
    case "viewWriter": {
      const scope = new Scope(env(scalars, arrays), undefined);
      const store = fc.tuple(scope.gen.index(f.length, 1), scope.gen.any(f.t)).map(([ix, e]) => assign({ name: "v", t: f.t, idx: [ix] }, "=", e));
      return fc.tuple(scope.stmts(ctx("void", 1), 0, 2), fc.array(store, { minLength: 1, maxLength: 2 })).map(([ss, stores]): FnDef => ({ params, ret: "void", body: [...ss, ...stores] }));
    }
    case "viewAtomic": {
      // One or two atomics on the view's elements, their old values discarded or stored back (the elements are this thread's own).
      const scope = new Scope(env(scalars, arrays), undefined);
      const fns = ATOMIC_FNS.filter((b) => b.rule.types.includes(f.t) && b.rule.op !== "cas");
      const update = fc.tuple(fc.constantFrom(...fns), scope.gen.index(f.length, 1), scope.gen.any(f.t)).map(([b, ix, e]): Stmt => ({ k: "do", e: { k: "atomic", t: f.t, fn: b.name, array: "v", idx: [ix], args: [e] } }));
      return fc.tuple(scope.stmts(ctx("void", 1), 0, 2), fc.array(update, { minLength: 1, maxLength: 2 })).map(([ss, updates]): FnDef => ({ params, ret: "void", body: [...ss, ...updates] }));
    }
    case "ref": {
      // `y` is only written (reading an out parameter is an error): it is not among the variables expressions read.
      const scope = new Scope(env(scalars, arrays), undefined);
      const set = scope.gen.any(f.out).map((e) => assign({ name: "y", t: f.out, idx: [] }, "=", e));
      return fc.tuple(scope.stmts(ctx("void", 1), 0, 3), fc.option(fc.tuple(scope.gen.any("bool"), set), { freq: 3 }), set).map(([ss, early, last]): FnDef => ({
        params,
        ret: "void",
        body: [...ss, ...(early ? [{ k: "if", c: early[0], then: [early[1], { k: "return", e: null }], else: null } as Stmt] : []), last],
      }));
    }
    case "value": {
      const scope = new Scope(env(scalars, arrays), undefined);
      const withLocal = fc.option(fc.constantFrom(...valueTypes)).chain((t) => {
        if (!t) return fc.tuple(fc.constant<Stmt[]>([]), fc.constant(scope));
        const inner = scope.with({ name: "w0", t, mutable: true });
        return fc.tuple(scope.gen.any(t).map((init): Stmt[] => [{ k: "let", decl: "let", name: "w0", t, init }]), fc.constant(inner));
      });
      return withLocal.chain(([decl, sc]) =>
        fc.tuple(sc.stmts(ctx(f.ret, 1), 0, 3), sc.gen.any(f.ret)).map(([ss, r]): FnDef => ({ params, ret: f.ret, body: [...decl, ...ss, { k: "return", e: r }] })),
      );
    }
  }
}

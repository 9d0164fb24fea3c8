/**
 * Reading and writing parts of things: `a[i]`, `t[i][j]`, `p.pos.x`, `pts[i].vel`,
 * `s.taps[k]`, `v.xy`. An access is a root (a variable, an array, or any other value) and the
 * indices and members applied to it, left to right:
 *
 * - indices of an array are gathered until the array's dimensions are all given (one index
 *   per dimension, GK3008), then the access is at an element;
 * - `.name` selects a struct's field, `.x`..`.w` (or `.r`..`.a`) a vector's lane, and two to
 *   four letters a swizzle (`v.zyx`, a new vector: readable, never assignable);
 * - an array field of a struct is indexed the same way, with one index per dimension.
 *
 * A read becomes a load (of just the bytes the path leads to), a member of a variable's
 * value, or a member of a computed value; a write, a store or an assignment with a path.
 */
import type * as ast from "../parser/ast.js";
import type { Span } from "../diagnostics/source.js";
import { lookupBuiltin } from "../ir/builtins.js";
import type { ArrayVar, Expr, PathStep, ValueVar } from "../ir/nodes.js";
import { isVectorLane, laneName, laneOfLetter, T, typeToString, vectorType, type ArrayType, type Lanes, type MemoryType, type ValueType, type VectorType } from "../ir/types.js";
import { constExpr, textOf, tyName, type FnCtx, type ValueExpr } from "./context.js";
import { checkExpr, checkValue, untypedOf } from "./expr.js";
import { arrayBase, checkIndices, readonlyWrite } from "./memory.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { isInt } from "../ir/types.js";

/** Where an assignment writes: a variable (or a part of it), or an array element (or a part of it). */
export type Place =
  | { readonly kind: "var"; readonly var: ValueVar; readonly path: readonly PathStep[]; readonly type: ValueType; readonly span: Span }
  | { readonly kind: "elem"; readonly array: ArrayVar; readonly indices: readonly ValueExpr[]; readonly path: readonly PathStep[]; readonly type: ValueType; readonly span: Span };

type Root =
  | { readonly kind: "var"; readonly var: ValueVar }
  | { readonly kind: "mem"; readonly array: ArrayVar; readonly readonly: boolean; readonly indices: readonly ValueExpr[] }
  | { readonly kind: "value"; readonly expr: ValueExpr };

interface Ref {
  readonly root: Root;
  readonly path: readonly PathStep[];
  readonly type: ValueType | ArrayType;
  /** Set when the value went through a swizzle: it is a new value, not a place. */
  readonly swizzle?: Span;
}

type Op = { readonly kind: "index"; readonly index: ast.Expr; readonly span: Span } | { readonly kind: "member"; readonly name: ast.Ident; readonly span: Span };

/** `e` as its innermost operand and the indices and members applied to it, in order. */
function unwind(e: ast.Expr): { base: ast.Expr; ops: Op[] } {
  const ops: Op[] = [];
  let base = e;
  for (;;) {
    if (base.kind === "Index") {
      ops.unshift({ kind: "index", index: base.index, span: base.span });
      base = base.object;
    } else if (base.kind === "Member") {
      ops.unshift({ kind: "member", name: base.property, span: base.span });
      base = base.object;
    } else if (base.kind === "Paren" && ops.length > 0) {
      base = base.expr;
    } else {
      return { base, ops };
    }
  }
}

/** Whether the access has only indices on a name: the plain array element, checked as arrays always were. */
function isPlainIndexing(e: ast.Expr): boolean {
  const { ops } = unwind(e);
  return ops.length > 0 && ops.every((o) => o.kind === "index");
}

// ---------------------------------------------------------------- reads

/** A read of `a[i]`, `p.x`, `pts[i].pos`, `v.xy`, ... */
export function checkAccess(ctx: FnCtx, e: ast.IndexExpr | ast.MemberExpr): ValueExpr | undefined {
  if (isPlainIndexing(e)) {
    const base = arrayBase(ctx, e);
    if (!base) return undefined;
    const indices = checkIndices(ctx, base.array, base.indices, e);
    if (!indices) return undefined;
    return { kind: "load", type: base.array.type.elem, array: base.array, indices, path: [], vector: null, span: e.span };
  }
  const ref = resolve(ctx, e);
  return ref && read(ctx, ref, e);
}

/** The value a reference denotes. */
function read(ctx: FnCtx, ref: Ref, e: ast.Expr): ValueExpr | undefined {
  if (ref.type.kind === "array") {
    ctx.log.error("GK3013", e.span, `'${textOf(ctx, e.span)}' is an array (${tyName(ref.type)}); arrays are not values: index it`);
    return undefined;
  }
  const type = ref.type;
  const root = ref.root;
  switch (root.kind) {
    case "var": {
      const v: ValueExpr = { kind: "var", type: root.var.type, var: root.var, span: e.span };
      return ref.path.length ? { kind: "member", type, operand: v, path: ref.path, span: e.span } : v;
    }
    case "mem":
      return { kind: "load", type, array: root.array, indices: root.indices, path: ref.path, vector: null, span: e.span };
    case "value":
      return ref.path.length ? { kind: "member", type, operand: root.expr, path: ref.path, span: e.span } : root.expr;
  }
}

/** The root of an access: a variable, an array (not yet indexed) or any other value; undefined after reporting. */
function rootOf(ctx: FnCtx, base: ast.Expr): { root: Root; type: ValueType | MemoryType } | undefined {
  if (base.kind === "Name") {
    const local = ctx.scopes.lookup(base.name);
    if (local?.kind === "value") return { root: { kind: "var", var: local.var }, type: local.var.type };
    if (local?.kind === "array") {
      if (local.scalar) return { root: { kind: "mem", array: local.var, readonly: false, indices: [constExpr(T.i32, 0, base.span)] }, type: local.var.type.elem };
      return { root: { kind: "mem", array: local.var, readonly: local.readonly, indices: [] }, type: local.var.type };
    }
    if (!local && ctx.module.lookup(base.name)?.kind === "constArray") {
      const a = arrayBase(ctx, base);
      return a && { root: { kind: "mem", array: a.array, readonly: true, indices: [] }, type: a.array.type };
    }
  }
  const v = checkValue(ctx, base);
  return v && { root: { kind: "value", expr: v }, type: v.type };
}

/** Resolves an access expression to a reference; undefined after reporting what is wrong. */
function resolve(ctx: FnCtx, e: ast.Expr): Ref | undefined {
  const { base, ops } = unwind(e);
  const r = rootOf(ctx, base);
  if (!r) return undefined;
  let root = r.root;
  let type: ValueType | MemoryType | ArrayType = r.type;
  const path: PathStep[] = [];
  let pending: ast.Expr[] = [];
  let pendingSpan: Span = base.span;
  let swizzle: Span | undefined;
  const textTo = (s: Span) => textOf(ctx, { ...s, start: e.span.start });

  /** Applies the gathered indices to an array (of memory, or a field): they must give every dimension. */
  const settle = (): boolean => {
    if (type.kind !== "global" && type.kind !== "array") return true;
    if (root.kind === "mem" && path.length === 0 && root.indices.length === 0) {
      const indices = checkIndices(ctx, root.array, pending, { ...base, span: pendingSpan });
      if (!indices) return false;
      root = { ...root, indices };
      type = type.elem;
      pending = [];
      return true;
    }
    const t = type as ArrayType;
    // An array field not indexed at all is the whole array: not a value, which the reader or writer reports.
    if (pending.length === 0) return true;
    if (pending.length !== t.dims.length) {
      ctx.log.error("GK3008", pendingSpan, `'${textTo(pendingSpan)}' has ${t.dims.length} dimension${t.dims.length === 1 ? "" : "s"} (${tyName(t)}) but is indexed with ${pending.length}`);
      return false;
    }
    const indices = checkFieldIndices(ctx, t, pending);
    if (!indices) return false;
    path.push({ kind: "elem", indices });
    type = t.elem;
    pending = [];
    return true;
  };

  for (const op of ops) {
    if (op.kind === "index") {
      if (type.kind === "global" || type.kind === "array") {
        pending.push(op.index);
        pendingSpan = op.span;
        continue;
      }
      const hint = type.kind === "vector" ? `: a vector's lanes are ${Array.from({ length: type.lanes }, (_, k) => `.${laneName(k)}`).join(" ")}` : "";
      ctx.log.error("GK3008", op.span, `'${textTo(spanBefore(op, base))}' is ${tyName(type)}, not an array, and cannot be indexed${hint}`);
      return undefined;
    }
    if (!settle()) return undefined;
    const t = type as ValueType | ArrayType;
    const name = op.name.name;
    switch (t.kind) {
      case "struct": {
        const k = t.fields.findIndex((f) => f.name === name);
        if (k < 0) {
          ctx.log.error("GK2005", op.name.span, `${t.name} has no field '${name}'${didYouMean(name, t.fields.map((f) => f.name))} (its fields: ${t.fields.map((f) => f.name).join(", ")})`);
          return undefined;
        }
        path.push({ kind: "field", field: k });
        type = t.fields[k]!.type;
        break;
      }
      case "vector": {
        const lanes = lanesOf(name, t);
        if (typeof lanes === "string") {
          ctx.log.error("GK2005", op.name.span, `'.${name}' ${lanes}`);
          return undefined;
        }
        if (lanes.length === 1) {
          path.push({ kind: "lane", lane: lanes[0]! });
          type = t.elem;
          break;
        }
        // A swizzle makes a new vector from the value read so far.
        const whole = read(ctx, { root, path: [...path], type: t }, { ...base, span: { ...op.span, end: op.name.span.start - 1 } });
        if (!whole) return undefined;
        const sw: ValueExpr = { kind: "swizzle", type: vectorType(t.elem, lanes.length as Lanes), operand: whole, lanes, span: op.span };
        root = { kind: "value", expr: sw };
        path.length = 0;
        type = sw.type;
        swizzle = op.span;
        break;
      }
      case "array":
        ctx.log.error("GK2005", op.name.span, `'${textTo(spanBefore(op, base))}' is an array (${tyName(t)}); index it before '.${name}'`);
        return undefined;
      case "scalar":
        ctx.log.error("GK2005", op.name.span, `'${textTo(spanBefore(op, base))}' is ${t.name}, which has no members: members are the fields of structs, the lanes of vectors, and .x .y .z of threadIdx, blockIdx, blockDim, gridDim and globalId`);
        return undefined;
    }
  }
  if (!settle()) return undefined;
  const out = type as ValueType | ArrayType;
  return { root, path, type: out, ...(swizzle && { swizzle }) };
}

/** The span of what an op applies to: from the base to just before the op. */
function spanBefore(op: Op, base: ast.Expr): Span {
  const end = op.kind === "member" ? op.name.span.start - 1 : op.index.span.start - 1;
  return { file: base.span.file, start: base.span.start, end: Math.max(base.span.end, end) };
}

/**
 * The lanes a member name selects (`x`, `xy`, `rgba`; of an 8-lane vector also `s0` to `s7`,
 * one lane each, and `lo`, `hi`, its 4-lane halves), or why it selects none.
 */
function lanesOf(name: string, t: VectorType): number[] | string {
  const count = t.lanes;
  if (count === 8) {
    if (name === "lo" || name === "hi") return [0, 1, 2, 3].map((k) => (name === "hi" ? k + 4 : k));
    const s = /^s([0-7])$/.exec(name);
    if (s) return [Number(s[1])];
  }
  const eight = count === 8 ? " (an 8-lane vector's lanes are also .s0 to .s7, and .lo .hi its halves)" : "";
  if (name.length < 1 || name.length > 4) return `is not a lane or swizzle: a vector has lanes ${lanesList(count)}, and a swizzle takes 2 to 4 of them (v.xy, v.zyx)${eight}`;
  const xyzw = [...name].every((c) => "xyzw".includes(c));
  const rgba = [...name].every((c) => "rgba".includes(c));
  if (!xyzw && !rgba) return `is not a lane or swizzle of a vector: its lanes are ${lanesList(count)} (or .r .g .b .a), one family in one swizzle${eight}`;
  const lanes = [...name].map((c) => laneOfLetter(c)!);
  const bad = lanes.find((k) => k >= count);
  if (bad !== undefined) return `is not a lane of a ${count}-lane vector: its lanes are ${lanesList(count)}`;
  if (lanes.length > 1 && !isVectorLane(t.elem, lanes.length)) return `would be a vector of ${lanes.length} ${t.elem.name} lanes, which gk has not: ${t.elem.name} vectors have 2, 4 or 8 lanes`;
  return lanes;
}

function lanesList(count: number): string {
  return count === 8 ? ".x .y .z .w (lanes 0 to 3), .s0 to .s7" : Array.from({ length: count }, (_, k) => `.${laneName(k)}`).join(" ");
}

/** The indices of an array field: integers, in bounds where constant. */
function checkFieldIndices(ctx: FnCtx, t: ArrayType, indices: readonly ast.Expr[]): Expr[] | undefined {
  const out: Expr[] = [];
  for (const [k, ix] of indices.entries()) {
    const v = checkValue(ctx, ix, T.i32);
    if (!v) return undefined;
    if (v.type.kind !== "scalar" || !isInt(v.type)) {
      ctx.log.error("GK3009", ix.span, `an index must be an integer, but '${textOf(ctx, ix.span)}' is ${typeToString(v.type)}: write i32(${textOf(ctx, ix.span)})`);
      return undefined;
    }
    const u = untypedOf(ctx, ix);
    if (u?.kind === "int" && (u.value < 0n || u.value >= BigInt(t.dims[k]!))) {
      ctx.log.error("GK3008", ix.span, `index ${u.value} is out of bounds for an array field of size ${t.dims[k]} (${tyName(t)})`);
      return undefined;
    }
    out.push(v);
  }
  return out;
}

// ---------------------------------------------------------------- writes

/** Where `target = ...` writes; undefined after reporting why it cannot be written. */
export function checkPlace(ctx: FnCtx, target: ast.Expr): Place | undefined {
  let t = target;
  while (t.kind === "Paren") t = t.expr;
  if (t.kind === "Name") return namePlace(ctx, t);
  if (t.kind === "Member" && t.object.kind === "Name" && !ctx.scopes.lookup(t.object.name) && lookupBuiltin(t.object.name)?.rule.kind === "index") {
    ctx.log.error("GK1012", t.span, `cannot assign here: '${textOf(ctx, t.span)}' is read-only`);
    return undefined;
  }
  if (t.kind === "Index" && isPlainIndexing(t)) {
    const base = arrayBase(ctx, t);
    if (!base || !writable(ctx, base.array, base.readonly, t)) return undefined;
    const indices = checkIndices(ctx, base.array, base.indices, t);
    if (!indices) return undefined;
    return { kind: "elem", array: base.array, indices, path: [], type: base.array.type.elem, span: t.span };
  }
  if (t.kind !== "Index" && t.kind !== "Member") {
    ctx.log.error("GK1012", t.span, `cannot assign here: '${textOf(ctx, t.span)}' is not a variable or an array element`);
    return undefined;
  }
  const ref = resolve(ctx, t);
  if (!ref) return undefined;
  if (ref.swizzle) {
    ctx.log.error("GK1012", t.span, `cannot assign to the swizzle '${textOf(ctx, t.span)}': assign its lanes one by one (v.x = ...; v.y = ...;), or the whole vector`);
    return undefined;
  }
  if (ref.type.kind === "array") {
    ctx.log.error("GK3013", t.span, `cannot assign to the whole array '${textOf(ctx, t.span)}': assign its elements, e.g. ${textOf(ctx, t.span)}[i] = ...`);
    return undefined;
  }
  const root = ref.root;
  switch (root.kind) {
    case "var":
      if (!root.var.mutable) {
        ctx.log.error("GK2006", t.span, `cannot assign to '${textOf(ctx, t.span)}': '${root.var.name}' is a const; declare it with 'let' to change it`, [{ message: "declared here", span: root.var.span }]);
        return undefined;
      }
      return { kind: "var", var: root.var, path: ref.path, type: ref.type, span: t.span };
    case "mem":
      if (!writable(ctx, root.array, root.readonly, t)) return undefined;
      return { kind: "elem", array: root.array, indices: root.indices, path: ref.path, type: ref.type, span: t.span };
    case "value":
      ctx.log.error("GK1012", t.span, `cannot assign here: '${textOf(ctx, t.span)}' is part of a computed value, not of a variable or an array element`);
      return undefined;
  }
}

function writable(ctx: FnCtx, array: ArrayVar, readonly: boolean, t: ast.Expr): boolean {
  if (readonly) ctx.log.error("GK2007", t.span, readonlyWrite(array));
  return !readonly;
}

function namePlace(ctx: FnCtx, t: ast.NameExpr): Place | undefined {
  const local = ctx.scopes.lookup(t.name);
  if (local?.kind === "value") {
    if (!local.var.mutable) {
      ctx.log.error("GK2006", t.span, `cannot assign to '${t.name}': it is a const; declare it with 'let' to change it`, [{ message: "declared here", span: local.var.span }]);
      return undefined;
    }
    return { kind: "var", var: local.var, path: [], type: local.var.type, span: t.span };
  }
  if (local?.kind === "array") {
    if (local.scalar) return { kind: "elem", array: local.var, indices: [constExpr(T.i32, 0, t.span)], path: [], type: local.var.type.elem, span: t.span };
    ctx.log.error("GK3013", t.span, `cannot assign to the whole array '${t.name}': assign its elements, e.g. ${t.name}[i] = ...`);
    return undefined;
  }
  if (local?.kind === "untypedConst") {
    ctx.log.error("GK2006", t.span, `cannot assign to '${t.name}': it is a const; declare it with 'let' to change it`);
    return undefined;
  }
  if (local?.kind === "constParam" || local?.kind === "typeParam" || local?.kind === "fnParam") {
    ctx.log.error("GK2006", t.span, `cannot assign to '${t.name}': it is a ${local.kind === "constParam" ? "constant" : local.kind === "typeParam" ? "type" : "function"} parameter`);
    return undefined;
  }
  if (local?.kind === "poisoned") return undefined;
  const m = ctx.module.lookup(t.name);
  if (m && m.kind !== "poisoned") {
    const what = m.kind === "function" || m.kind === "kernel" || m.kind === "generic" ? "function" : m.kind === "struct" ? "struct type" : "constant";
    ctx.log.error("GK2006", t.span, `cannot assign to '${t.name}': it is a module-level ${what}`);
    return undefined;
  }
  if (m) return undefined;
  const b = lookupBuiltin(t.name);
  if (b?.rule.kind === "constant" || b?.rule.kind === "index") {
    ctx.log.error("GK1012", t.span, `cannot assign here: '${t.name}' is read-only; declare a variable of your own (e.g. let my${t.name[0]!.toUpperCase()}${t.name.slice(1)} = ${t.name};)`);
    return undefined;
  }
  checkExpr(ctx, t); // reports the unknown name
  return undefined;
}

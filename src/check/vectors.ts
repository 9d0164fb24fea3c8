/**
 * Calls that make or take vectors: constructors (`f32x4(...)`), the vector builtins (`dot`,
 * `length`, `select`, ...) and the vector accesses of arrays of scalars (`load4`, `store4`).
 *
 * A constructor `T(...)` of a vector type T with n lanes of type S takes
 * - one S (or an untyped constant): every lane that value;
 * - scalars of S and vectors of S whose lanes add up to n, in order: `f32x4(v.xy, z, 1.0)`;
 * - one vector of n lanes of another type: converted lane by lane, as `S(x)` converts.
 */
import type * as ast from "../parser/ast.js";
import type { VectorEntry } from "../ir/builtins.js";
import type { Expr, Stmt } from "../ir/nodes.js";
import { isBool, isFloat, isVectorLane, LANE_SCALARS, memoryDims, typeToString, vectorType, type ValueType, type VectorType } from "../ir/types.js";
import { textOf, type FnCtx, type ValueExpr } from "./context.js";
import { checkAs, checkValue, constantTypeFor, materialize, untypedOf } from "./expr.js";
import { splat } from "./operators.js";
import { arrayBase, checkIndices, readonlyWrite } from "./memory.js";
import { LANE_LIST } from "./typeExpr.js";
import { T } from "../ir/types.js";

function arity(ctx: FnCtx, e: ast.CallExpr, want: string): undefined {
  ctx.log.error("GK3004", e.span, `${e.callee.name}() takes ${want}, but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
  return undefined;
}

// ---------------------------------------------------------------- constructors

export function checkVectorConstructor(ctx: FnCtx, e: ast.CallExpr, t: VectorType): Expr | undefined {
  const name = typeToString(t);
  const s = t.elem.name;
  const usage = `one ${s} for every lane, or ${s} values and ${s} vectors whose lanes add up to ${t.lanes}, or one vector of ${t.lanes} lanes to convert`;
  if (e.args.length === 0 || e.args.length > t.lanes) return arity(ctx, e, usage);
  const args: ValueExpr[] = [];
  for (const a of e.args) {
    const u = untypedOf(ctx, a);
    if (ctx.poisoned.has(a)) return undefined;
    const v = u ? materialize(ctx, u, t.elem, a.span) : checkValue(ctx, a, t.elem);
    if (!v) return undefined;
    args.push(v);
  }
  if (args.length === 1) {
    const v = args[0]!;
    if (v.type === t) return v;
    if (v.type === t.elem) return splat(t, v);
    if (v.type.kind === "vector" && v.type.lanes === t.lanes) return { kind: "cast", type: t, operand: v, span: e.span };
  }
  let lanes = 0;
  for (const [i, v] of args.entries()) {
    if (v.type === t.elem) lanes += 1;
    else if (v.type.kind === "vector" && v.type.elem === t.elem) lanes += v.type.lanes;
    else {
      const text = textOf(ctx, e.args[i]!.span);
      const fix = v.type.kind === "scalar" ? `: write ${s}(${text})` : v.type.kind === "vector" ? `: write ${typeToString(vectorType(t.elem, v.type.lanes))}(${text})` : "";
      ctx.log.error("GK3005", e.args[i]!.span, `${name}() is built from ${s} values and ${s} vectors, but '${text}' is ${typeToString(v.type)}${fix}`);
      return undefined;
    }
  }
  if (lanes !== t.lanes) {
    ctx.log.error("GK3004", e.span, `${name}() needs ${t.lanes} lanes, but its arguments give ${lanes}: ${usage}`);
    return undefined;
  }
  return { kind: "construct", type: t, args, span: e.span };
}

// ---------------------------------------------------------------- vector builtins

export function checkVectorBuiltin(ctx: FnCtx, e: ast.CallExpr, b: VectorEntry, expected?: ValueType): Expr | undefined {
  const rule = b.rule;
  const usage = `${b.name}(${rule.params.join(", ")})`;
  if (e.args.length !== rule.params.length) return arity(ctx, e, `${rule.params.length} argument${rule.params.length === 1 ? "" : "s"} (${usage})`);
  if (rule.operands === "select") return checkSelect(ctx, e, expected);
  const args: ValueExpr[] = [];
  for (const a of e.args) {
    const v = checkValue(ctx, a);
    if (!v) return undefined;
    args.push(v);
  }
  const first = args[0]!.type;
  const want =
    rule.operands === "bool" ? "a bool vector (boolx2, boolx3 or boolx4)"
    : rule.operands === "float3" ? "3-lane float vectors (f32x3 or f64x3), both of one type"
    : `float vectors (f32x2 ... f64x4)${args.length > 1 ? ", all of one type" : ""}`;
  const fits = (t: ValueType) =>
    t.kind === "vector" &&
    (rule.operands === "bool" ? isBool(t.elem) : isFloat(t.elem) && (rule.operands !== "float3" || t.lanes === 3));
  const bad = args.findIndex((a) => !fits(a.type) || a.type !== first);
  if (bad >= 0) {
    const text = textOf(ctx, e.args[bad]!.span);
    ctx.log.error("GK3005", e.args[bad]!.span, `${usage} takes ${want}, but '${text}' is ${typeToString(args[bad]!.type)}`);
    return undefined;
  }
  const v = first as VectorType;
  const result: ValueType = rule.result === "lane" ? v.elem : rule.result === "bool" ? T.bool : v;
  return { kind: "builtin", type: result, name: b.name, args, span: e.span };
}

/** `select(c, a, b)`: a and b of one type (a scalar of a vector's lane type is splatted), c bool or a bool vector of their lanes. */
function checkSelect(ctx: FnCtx, e: ast.CallExpr, expected?: ValueType): Expr | undefined {
  const [ce, ae, be] = e.args as [ast.Expr, ast.Expr, ast.Expr];
  const au = untypedOf(ctx, ae);
  const bu = untypedOf(ctx, be);
  if (ctx.poisoned.has(ae) || ctx.poisoned.has(be)) return undefined;
  let a: ValueExpr | undefined;
  let b: ValueExpr | undefined;
  if (au && bu) {
    const t = constantTypeFor(expected) ?? (au.kind === "float" || bu.kind === "float" ? T.f32 : T.i32);
    a = materialize(ctx, au, t, ae.span);
    b = materialize(ctx, bu, t, be.span);
  } else if (au) {
    b = checkValue(ctx, be, expected);
    a = b && materialize(ctx, au, constantTypeFor(b.type), ae.span);
  } else {
    a = checkValue(ctx, ae, expected);
    b = a && (bu ? materialize(ctx, bu, constantTypeFor(a.type), be.span) : checkValue(ctx, be, a.type));
  }
  const c = checkValue(ctx, ce, T.bool);
  if (!a || !b || !c) return undefined;
  if (a.type.kind === "vector" && b.type === a.type.elem) b = splat(a.type, b);
  if (b.type.kind === "vector" && a.type === b.type.elem) a = splat(b.type, a);
  if (a.type !== b.type) {
    ctx.log.error("GK3001", e.span, `mixed types in select(): '${textOf(ctx, ae.span)}' is ${typeToString(a.type)} and '${textOf(ctx, be.span)}' is ${typeToString(b.type)}`);
    return undefined;
  }
  const t = a.type;
  const lanesOk = c.type === T.bool || (c.type.kind === "vector" && isBool(c.type.elem) && t.kind === "vector" && c.type.lanes === t.lanes);
  if (!lanesOk) {
    const want = t.kind === "vector" ? `bool or ${typeToString(vectorType(T.bool, t.lanes))}` : "bool";
    ctx.log.error("GK3005", ce.span, `the condition of select() must be ${want}, but '${textOf(ctx, ce.span)}' is ${typeToString(c.type)}`);
    return undefined;
  }
  return { kind: "builtin", type: t, name: "select", args: [c, a, b], span: e.span };
}

// ---------------------------------------------------------------- vector accesses of arrays of scalars

/** The array and indices of `load4(a, i)` / `store4(a, i, v)` (the array may be partly indexed: `load4(tile[r], c)`). */
function vectorTarget(ctx: FnCtx, e: ast.CallExpr, lanes: 2 | 4 | 8, write: boolean) {
  const target = arrayBase(ctx, e.args[0]!);
  if (!target) return undefined;
  const { array } = target;
  if (write && target.readonly) {
    ctx.log.error("GK2007", e.args[0]!.span, `${e.callee.name}() writes to '${array.name}': ${readonlyWrite(array)}`);
    return undefined;
  }
  // A dynamic shared array starts at a multiple of 16 bytes (limits.ts, dynamicSharedLayout): it is aligned for them.
  const unaligned = array.type.kind === "view" ? "a view (its elements may be strided)" : array.type.kind === "array" && array.type.space === "constant" ? "constant memory" : undefined;
  if (unaligned) {
    ctx.log.error("GK2046", e.args[0]!.span, `${e.callee.name}() moves ${lanes} elements in one aligned access, which gk cannot promise for '${array.name}', ${unaligned}: index its elements one by one (${array.name}[i], ${array.name}[i + 1], ...)`);
    return undefined;
  }
  const elem = array.type.elem;
  if (elem.kind !== "scalar") {
    ctx.log.error("GK3005", e.args[0]!.span, `${e.callee.name}() reads and writes arrays of scalars, but '${array.name}' holds ${typeToString(elem)}: index it (${array.name}[i])`);
    return undefined;
  }
  const indices = checkIndices(ctx, array, [...target.indices, e.args[1]!], e);
  if (!indices) return undefined;
  // A constant start whose last lane is past the end is known wrong now.
  const last = e.args[1]!;
  const u = untypedOf(ctx, last);
  const dims = memoryDims(array.type);
  const size = dims[dims.length - 1];
  if (u?.kind === "int" && size !== undefined && u.value + BigInt(lanes) > BigInt(size)) {
    ctx.log.error("GK3008", last.span, `${e.callee.name}() at index ${u.value} reaches element ${u.value + BigInt(lanes) - 1n}, past the end of '${array.name}', whose last dimension has size ${size}`);
    return undefined;
  }
  if (!isVectorLane(elem, lanes)) {
    const eight = lanes === 8 && LANE_SCALARS.includes(elem.name) ? `; ${e.callee.name}() moves 8 f16 or bf16 lanes (16 bytes), so for ${elem.name} use ${e.callee.name.slice(0, -1)}4` : "";
    ctx.log.error("GK3005", e.args[0]!.span, `${e.callee.name}() moves lanes of ${LANE_LIST}, f16 and bf16 (2, 4 or 8 at a time), but '${array.name}' holds ${elem.name}${eight}`);
    return undefined;
  }
  return { array, indices, elem };
}

export function checkVectorLoad(ctx: FnCtx, e: ast.CallExpr, lanes: 2 | 4 | 8): Expr | undefined {
  if (e.args.length !== 2) return arity(ctx, e, `2 arguments (${e.callee.name}(arr, i))`);
  const t = vectorTarget(ctx, e, lanes, false);
  if (!t) return undefined;
  return { kind: "load", type: vectorType(t.elem, lanes), array: t.array, indices: t.indices, path: [], vector: lanes, span: e.span };
}

/** `store2(arr, i, v)` / `store4(arr, i, v)` as a statement. */
export function checkVectorStore(ctx: FnCtx, e: ast.CallExpr, lanes: 2 | 4 | 8): Stmt | undefined {
  if (e.args.length !== 3) return arity(ctx, e, `3 arguments (${e.callee.name}(arr, i, v))`);
  const t = vectorTarget(ctx, e, lanes, true);
  if (!t) return undefined;
  const value = checkAs(ctx, e.args[2]!, vectorType(t.elem, lanes), `the value of ${e.callee.name}() on '${t.array.name}'`);
  if (!value) return undefined;
  return { kind: "store", array: t.array, indices: t.indices, path: [], vector: lanes, value, span: e.span };
}

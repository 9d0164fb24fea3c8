/**
 * The arguments of a device function call, one per parameter: a value for a scalar; a global
 * array by name for a `global<T>`; the caller's shared array for a `shared T[N]`; a variable
 * or an array element for an `inout`/`out` reference; a view (`view(a, offset, length,
 * stride)`, or an array by name for all of it) for a `view<T>`.
 */
import type * as ast from "../parser/ast.js";
import type { ArrayVar, CallArg, Expr } from "../ir/nodes.js";
import { isInt, isReadonlyMemory, memoryDims, T, typeToString, type ArrayType, type GlobalType, type ScalarType, type ValueType, type ViewType } from "../ir/types.js";
import { constExpr, knownDim, textOf, tyName, type FnCtx, type ValueExpr } from "./context.js";
import { checkAs, checkValue, materialize, untypedOf } from "./expr.js";
import { arrayBase, checkIndexChain, checkIndices } from "./memory.js";
import type { ParamSig } from "./symbols.js";

function unparen(e: ast.Expr): ast.Expr {
  while (e.kind === "Paren") e = e.expr;
  return e;
}

/** The argument `a` for parameter `p` of `fn`; `pre`: a value argument already checked (while inferring generic arguments). */
export function checkCallArg(ctx: FnCtx, p: ParamSig, a: ast.Expr, fn: string, pre?: ValueExpr): CallArg | undefined {
  const t = p.type;
  if (t.kind === "scalar" || t.kind === "vector" || t.kind === "struct") {
    if (p.ref && t.kind === "scalar") return refArg(ctx, p, t, a, fn);
    const what = `parameter '${p.name}' of ${fn}()`;
    return pre ? sameType(ctx, pre, a, t, what) : checkAs(ctx, a, t, what);
  }
  if (t.kind === "view") return viewArg(ctx, p, t, a, fn);
  return arrayArg(ctx, p, t, a, fn);
}

/** An argument already checked, which must have the parameter's type exactly (as checkAs says it). */
function sameType(ctx: FnCtx, v: ValueExpr, a: ast.Expr, t: ValueType, what: string): ValueExpr | undefined {
  if (v.type === t) return v;
  const text = textOf(ctx, a.span);
  const fix = t.kind === "struct" ? `pass a ${t.name}` : `write ${typeToString(t)}(${text})`;
  ctx.log.error("GK3001", a.span, `${what} is ${typeToString(t)}, but '${text}' is ${typeToString(v.type)}; gk never converts implicitly: ${fix}`);
  return undefined;
}

// ---------------------------------------------------------------- references

/** A variable or array element for an `inout`/`out` parameter: the callee reads and writes it in place. */
function refArg(ctx: FnCtx, p: ParamSig, t: ScalarType, a: ast.Expr, fn: string): CallArg | undefined {
  const what = `parameter '${p.name}' of ${fn}() is ${p.ref} ${t.name}`;
  const inner = unparen(a);
  const typed = (got: ValueType, text: string): boolean => {
    if (got === t) return true;
    ctx.log.error("GK3005", a.span, `${what}, but '${text}' is ${typeToString(got)}: a reference is to a variable or element of exactly its type`);
    return false;
  };
  if (inner.kind === "Name") {
    const local = ctx.scopes.lookup(inner.name);
    if (local?.kind === "poisoned") return undefined;
    if (local?.kind === "value") {
      const v = local.var;
      if (!v.mutable) {
        ctx.log.error("GK2006", a.span, `${what}, which ${fn}() may write, but '${inner.name}' is a const: declare it with 'let'`, [{ message: "declared here", span: v.span }]);
        return undefined;
      }
      if (v.ref === "out" && p.ref === "inout") {
        ctx.log.error("GK3019", a.span, `${what}, which ${fn}() reads, but '${inner.name}' is an out parameter, which cannot be read: declare it 'inout'`);
        return undefined;
      }
      return typed(v.type, inner.name) ? { kind: "varRef", var: v, span: a.span } : undefined;
    }
    if (local?.kind === "array" && local.scalar) {
      if (!typed(local.var.type.elem, inner.name)) return undefined;
      return { kind: "elemRef", array: local.var, indices: [constExpr(T.i32, 0, inner.span)], span: a.span };
    }
  }
  if (inner.kind === "Index") {
    const el = checkIndexChain(ctx, inner, "write");
    if (!el || !typed(el.array.type.elem, textOf(ctx, inner.span))) return undefined;
    return { kind: "elemRef", array: el.array, indices: el.indices, span: a.span };
  }
  ctx.log.error("GK3005", a.span, `${what}: pass a variable or an array element (x, a[i]), which ${fn}() ${p.ref === "out" ? "writes" : "reads and writes"}; '${textOf(ctx, a.span)}' is neither`);
  return undefined;
}

// ---------------------------------------------------------------- views

/** An i32 operand of view(): an untyped constant or an i32 expression. */
function viewOperand(ctx: FnCtx, e: ast.Expr, what: string): ValueExpr | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) return materialize(ctx, u, T.i32, e.span);
  const v = checkValue(ctx, e, T.i32);
  if (!v) return undefined;
  if (v.type !== T.i32) {
    const fix = v.type.kind === "scalar" && isInt(v.type) ? `: write i32(${textOf(ctx, e.span)})` : "";
    ctx.log.error("GK3005", e.span, `the ${what} of a view is an i32, but '${textOf(ctx, e.span)}' is ${typeToString(v.type)}${fix}`);
    return undefined;
  }
  return v;
}

const i32 = (op: "add" | "mul", left: Expr, right: Expr): Expr => ({ kind: "binary", type: T.i32, op, left, right, span: left.span });

/**
 * `view(a, offset[, length[, stride]])`, or `a` by name (all of it), for a `view<T>` parameter.
 * `a` may be a view itself, or a multi-dimensional array with some leading indices
 * (`view(tile[r], 0, 8)`: a row), whose flat element offset is added to `offset`.
 */
function viewArg(ctx: FnCtx, p: ParamSig, t: ViewType, a: ast.Expr, fn: string): CallArg | undefined {
  const inner = unparen(a);
  const explicit = inner.kind === "Call" && inner.callee.name === "view" && !ctx.scopes.lookup("view") && !ctx.module.lookup("view");
  if (explicit && (inner.args.length < 2 || inner.args.length > 4)) {
    ctx.log.error("GK3004", inner.span, `view() takes 2 to 4 arguments: view(array, offset), view(array, offset, length) or view(array, offset, length, stride), but ${inner.args.length} were given`);
    return undefined;
  }
  const target = explicit ? unparen(inner.args[0]!) : inner;
  if (target.kind !== "Name" && target.kind !== "Index") {
    ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() is ${tyName(t)}: pass view(array, offset, length) or an array by name`);
    return undefined;
  }
  const base = arrayBase(ctx, target);
  if (!base) return undefined;
  const array = base.array;
  if (array.type.elem !== t.elem) {
    ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() is ${tyName(t)}, but '${array.name}' holds ${typeToString(array.type.elem)}`);
    return undefined;
  }
  if ((base.readonly || isReadonlyMemory(array.type)) && !t.readonly) {
    ctx.log.error("GK2007", a.span, `'${array.name}' is ${tyName(array.type)}, but parameter '${p.name}' of ${fn}() may write it: declare the parameter 'readonly view<${typeToString(t.elem)}>'`);
    return undefined;
  }
  const rowOffset = leadingOffset(ctx, array, base.indices, target);
  if (rowOffset === null) return undefined;
  const ops = explicit ? inner.args.slice(1) : [];
  const names = ["offset", "length", "stride"];
  const checked: (ValueExpr | undefined)[] = ops.map((x, k) => viewOperand(ctx, x, names[k]!));
  if (checked.some((x) => !x)) return undefined;
  const [offset, length, stride] = checked as ValueExpr[];
  const start: Expr = offset ?? constExpr(T.i32, 0, target.span);
  return {
    kind: "viewArg",
    array,
    offset: rowOffset ? i32("add", rowOffset, start) : start,
    length: length ?? (rowOffset ? constExpr(T.i32, rowLength(array, base.indices.length), target.span) : null),
    stride: stride ?? null,
    span: a.span,
  };
}

/** Elements of a row of `array` below its first `fixed` indices. */
function rowLength(array: ArrayVar, fixed: number): number {
  const dims = memoryDims(array.type);
  return dims.slice(fixed).reduce<number>((n, d) => n * (d ?? 1), 1);
}

/**
 * The flat element offset of `array[i][j]...` (some leading indices of a multi-dimensional
 * array), checked like any indices; undefined when none are given, null on an error.
 */
function leadingOffset(ctx: FnCtx, array: ArrayVar, indices: readonly ast.Expr[], whole: ast.Expr): Expr | undefined | null {
  if (indices.length === 0) return undefined;
  const dims = memoryDims(array.type);
  if (indices.length >= dims.length) {
    ctx.log.error("GK3008", whole.span, `a view is of an array, or of a row of a multi-dimensional one, but '${textOf(ctx, whole.span)}' is an element of '${array.name}' (${tyName(array.type)})`);
    return null;
  }
  // checkIndices wants one index per dimension: check the given ones against the leading dimensions.
  const fake: ArrayVar = { ...array, type: { ...(array.type as ArrayType), dims: dims.slice(0, indices.length) as number[] } };
  const ix = checkIndices(ctx, fake, indices, whole);
  if (!ix) return null;
  let off: Expr | undefined;
  ix.forEach((x, k) => {
    const i = x.type === T.i32 ? x : ({ kind: "cast", type: T.i32, operand: x, span: x.span } as Expr);
    const scaled = i32("mul", i, constExpr(T.i32, rowLength(array, k + 1), x.span));
    off = off ? i32("add", off, scaled) : scaled;
  });
  return off;
}

// ---------------------------------------------------------------- whole arrays

/** A global array for a `global<T>` parameter, or the caller's shared array for a `shared T[N]` one. */
function arrayArg(ctx: FnCtx, p: ParamSig, pt: GlobalType | ArrayType, a: ast.Expr, fn: string): CallArg | undefined {
  const inner = unparen(a);
  const base = inner.kind === "Name" ? arrayBase(ctx, inner) : undefined;
  if (!base) {
    const what = pt.kind === "array" ? `pass a shared array of the kernel by name (a row of one, such as '${textOf(ctx, a.span)}', goes to a view<${typeToString(pt.elem)}> parameter)` : "pass a global array by name";
    if (inner.kind !== "Name") ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() is ${tyName(pt)}: ${what}`);
    return undefined;
  }
  const at = base.array.type;
  if (pt.kind === "array") {
    // A shared array parameter: the caller's shared array of the same element type and sizes.
    // A size not known yet (in a generic definition) matches any: the instance checks it.
    const same = at.kind === "array" && at.space === "shared" && at.elem === pt.elem && at.dims.length === pt.dims.length && at.dims.every((n, k) => n === pt.dims[k] || !knownDim(n) || !knownDim(pt.dims[k]!));
    if (!same) {
      ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() is ${tyName(pt)}, but '${base.array.name}' is ${tyName(at)}; pass a shared array of that element type and those sizes, or declare the parameter view<${typeToString(pt.elem)}>`);
      return undefined;
    }
    return { kind: "arrayArg", array: base.array, span: a.span };
  }
  if (at.kind !== "global") {
    const hint = at.kind === "array" && at.space === "shared" ? `; to pass shared memory, declare the parameter 'shared ${typeToString(at.elem)}${at.dims.map((n) => `[${n}]`).join("")}' or 'view<${typeToString(at.elem)}>'` : `; to pass any array, declare the parameter 'view<${typeToString(at.elem)}>'`;
    ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() is ${tyName(pt)}, but '${base.array.name}' is ${tyName(at)}; only global arrays can be passed${hint}`);
    return undefined;
  }
  if (at.elem !== pt.elem) {
    ctx.log.error("GK3005", a.span, `parameter '${p.name}' of ${fn}() holds ${typeToString(pt.elem)}, but '${base.array.name}' holds ${typeToString(at.elem)}`);
    return undefined;
  }
  if (at.readonly && !pt.readonly) {
    ctx.log.error("GK2007", a.span, `'${base.array.name}' is readonly, but parameter '${p.name}' of ${fn}() may write it: declare the parameter 'readonly global<${typeToString(pt.elem)}>'`);
    return undefined;
  }
  return { kind: "arrayArg", array: base.array, span: a.span };
}

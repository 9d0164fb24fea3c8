/** Types as written (`f32`, `f32x4`, `Node`, `global<T>`, `f32[16][16]`) resolved to gk types, with constant array sizes. */
import type * as ast from "../parser/ast.js";
import { FOREIGN_TYPES } from "../diagnostics/foreignTypes.js";
import type { ArrayType, Type, ValueType } from "../ir/types.js";
import { HALF_LANE_SCALARS, isScalarName, LANE_SCALARS, scalarType, T, typeToString, vectorSpelling, vectorTypeNamed, type ScalarType } from "../ir/types.js";
import type { Span } from "../diagnostics/source.js";
import { foldExpr } from "../ir/passes/fold.js";
import { textOf, UNKNOWN_DIM, type FnCtx } from "./context.js";
import type { Expr } from "../ir/nodes.js";
import { mapExpr, someExpr } from "../ir/walk.js";
import { invariant } from "../util.js";
import { checkValue, untypedOf } from "./expr.js";
import { isInt } from "../ir/types.js";
import { ARRAY_DIM_MAX } from "../ir/limits.js";

/**
 * Where a type is written: a parameter, a local, shared memory, a return type, a
 * module-level constant, constant memory, a struct's field, or the element type of `global<T>`.
 */
export type Where = "param" | "local" | "shared" | "return" | "const" | "constant" | "field" | "elem";

const TYPE_LIST = "bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, vectors such as f32x4, structs, global<T> and arrays T[N]";

/** The lane types vectors have, in words. */
export const LANE_LIST = `${LANE_SCALARS.slice(0, -1).join(", ")} or ${LANE_SCALARS[LANE_SCALARS.length - 1]}`;

/** A substitute of 4 bytes or more for a 1- or 2-byte scalar type (`i32` for `u8`, `f32` for `f16`). */
export function widerLane(t: ScalarType): string {
  return t.name === "f16" || t.name === "bf16" ? "f32" : t.name.startsWith("u") ? "u32" : "i32";
}

/** GK2041 for `u8x4`, `f16x3` and the like: a vector of a lane type (or, for f16 and bf16, a lane count) vectors cannot have. */
export function refuseVectorSpelling(ctx: FnCtx, name: string, span: Span): void {
  const s = vectorSpelling(name);
  invariant(s, `${name} is not spelled like a vector type`);
  const wider = widerLane(s.elem);
  const half = HALF_LANE_SCALARS.includes(s.elem.name);
  if (half) {
    ctx.log.error("GK2041", span, `'${name}' is not a vector type: ${s.elem.name} vectors have 2, 4 or 8 lanes (${s.elem.name}x2, ${s.elem.name}x4, ${s.elem.name}x8)`);
    return;
  }
  if (s.lanes === 8 && LANE_SCALARS.includes(s.elem.name)) {
    ctx.log.error("GK2041", span, `'${name}' is not a vector type: only f16 and bf16 vectors have 8 lanes (f16x8, bf16x8; and boolx8, what comparing them gives); use two ${s.elem.name}x4 values`);
    return;
  }
  const why = `vectors have lanes of ${LANE_LIST} (and f16, bf16 in f16x2, f16x4, f16x8, ...), not ${s.elem.name}`;
  ctx.log.error("GK2041", span, `'${name}' is not a vector type: ${why}; use ${wider}x${Math.min(s.lanes, 4)} and convert lanes with ${s.elem.name}(v.x)`);
}

/** The value type a name spells: a scalar, a vector (`f32x4`) or a struct of the module; undefined (reported) otherwise. */
export function namedValueType(ctx: FnCtx, name: ast.Ident): ValueType | undefined {
  if (isScalarName(name.name)) return scalarType(name.name);
  const v = vectorTypeNamed(name.name);
  if (v) return v;
  if (vectorSpelling(name.name)) {
    refuseVectorSpelling(ctx, name.name, name.span);
    return undefined;
  }
  // A generic definition's type parameter, bound to one of its types while the definition is checked.
  const local = ctx.scopes.lookup(name.name);
  if (local?.kind === "typeParam") return local.type;
  if (local?.kind === "constParam" || local?.kind === "fnParam") {
    ctx.log.error("GK2003", name.span, `'${name.name}' is a ${local.kind === "constParam" ? "constant" : "function"} parameter, not a type`);
    return undefined;
  }
  const m = ctx.module.lookup(name.name);
  if (m?.kind === "struct") return m.type;
  if (m?.kind === "poisoned") return undefined;
  if (m) {
    const what = m.kind === "function" ? "a device_fn" : m.kind === "kernel" ? "a device_kernel" : "a constant";
    ctx.log.error("GK2003", name.span, `'${name.name}' is ${what}, not a type`);
    return undefined;
  }
  const hint = Object.hasOwn(FOREIGN_TYPES, name.name) ? FOREIGN_TYPES[name.name] : undefined;
  ctx.log.error("GK2003", name.span, `unknown type '${name.name}'${hint ? `; did you mean ${hint}?` : `: the types are ${TYPE_LIST}`}`);
  return undefined;
}

/** A value type (a scalar, a vector, a struct), or `void` where a return type is expected. */
export function resolveValue(ctx: FnCtx, te: ast.TypeExpr, where: Where): ValueType | "void" | undefined {
  if (te.kind !== "NamedType") {
    const written = textOf(ctx, te.span);
    const message =
      where === "return"
        ? "a device_fn returns a value (a scalar, a vector or a struct) or void; to return several values, return a struct"
        : where === "const" && te.kind === "ArrayType"
          ? `a module-level constant is a scalar, not '${written}': declare the table inside the kernel or function that reads it, as a local array with an initializer (let w: ${written} = [...];), or pass it as a readonly global array`
          : `expected a value type (a scalar, a vector or a struct) here, not '${written}'`;
    ctx.log.error("GK4007", te.span, message);
    return undefined;
  }
  if (te.name.name === "void") {
    if (where === "return") return "void";
    ctx.log.error("GK2003", te.span, "'void' is only a return type");
    return undefined;
  }
  const t = namedValueType(ctx, te.name);
  if (t && where === "const" && t.kind !== "scalar") {
    ctx.log.error("GK4007", te.span, `a module-level constant is a scalar, not ${typeToString(t)}: declare it in the function that uses it (const v = ${typeToString(t)}(...);)`);
    return undefined;
  }
  return t;
}

/** The scalar element type of a view or a dynamic shared array; `code` and `why` refuse a vector or struct there. */
function scalarElem(ctx: FnCtx, te: ast.TypeExpr, code: "GK2042" | "GK2044", why: string): ScalarType | undefined {
  const t = resolveValue(ctx, te, "local");
  if (!t || t === "void") return undefined;
  if (t.kind === "scalar") return t;
  ctx.log.error(code, te.span, `'${typeToString(t)}' elements are not allowed here: ${why}`);
  return undefined;
}

/** Any type as written; array sizes must be positive integer constants. */
export function resolveType(ctx: FnCtx, te: ast.TypeExpr, where: Where): Type | undefined {
  switch (te.kind) {
    case "NamedType": {
      const s = resolveValue(ctx, te, where);
      return s === "void" ? T.void : s;
    }
    case "GlobalType": {
      if (where !== "param") {
        ctx.log.error("GK4007", te.span, "global<T> is the type of a kernel or device_fn parameter; inside a function declare a local array (let a: f32[8];) or shared memory");
        return undefined;
      }
      const elem = resolveValue(ctx, te.elem, "elem");
      if (!elem || elem === "void") return undefined;
      return { kind: "global", elem, readonly: te.readonly };
    }
    case "ViewType": {
      if (where !== "param") {
        ctx.log.error("GK4007", te.span, "view<T> is the type of a device_fn parameter, which a call gives as view(array, offset, length) or a whole array");
        return undefined;
      }
      const elem = scalarElem(ctx, te.elem, "GK2044", "a view's elements are scalars (view<f32>); pass a global array of vectors or structs as global<T>, or a shared one as shared T[N]");
      if (!elem) return undefined;
      return { kind: "view", elem, readonly: te.readonly };
    }
    case "RefType":
      // Parameter modes are read by refParam (fileScope.ts); anywhere else they are a mistake.
      ctx.log.error("GK4007", te.span, `'${te.mode}' marks a device_fn parameter that refers to the caller's variable or array element: \`x: ${te.mode} f32\``);
      return undefined;
    case "ArrayType": {
      if (te.unsized) {
        if (where !== "shared") {
          ctx.log.error("GK4007", te.span, "only a shared array declared in a kernel may leave out its size (`shared buf: f32[];`, its length given by each launch); give this array its size");
          return undefined;
        }
        const elem = scalarElem(ctx, te.elem, "GK2042", "a dynamic shared array holds scalars (shared buf: f32[];); give an array of vectors or structs its size (shared tile: f32x4[64];), or use a dynamic array of their scalars with load4/store4");
        if (!elem) return undefined;
        return { kind: "dynamicShared", elem };
      }
      if (te.shared && where !== "param") {
        ctx.log.error("GK4007", te.span, "'shared' in a type marks a device_fn parameter; shared memory itself is declared at a kernel's top level: `shared name: T[N];`");
        return undefined;
      }
      if (!te.shared && (where === "param" || where === "return" || where === "const" || where === "elem")) {
        const message =
          where === "param" ? "an array parameter is written global<T> (or readonly global<T>), shared T[N] for a shared array in a device_fn, or view<T> for part of any array"
          : where === "elem" ? "the elements of global<T> are values (scalars, vectors or structs); for a table of rows, index one flat array (a[row * width + col])"
          : "arrays cannot be returned or be constants: return a struct with an array field";
        ctx.log.error("GK4007", te.span, message);
        return undefined;
      }
      const elem = resolveValue(ctx, te.elem, "elem");
      if (!elem || elem === "void") return undefined;
      const dims: number[] = [];
      for (const size of te.sizes) {
        const n = constSize(ctx, size);
        if (n === undefined) return undefined;
        dims.push(n);
      }
      const t: ArrayType = { kind: "array", elem, dims, space: where === "constant" ? "constant" : where === "shared" || te.shared ? "shared" : "local" };
      return t;
    }
  }
}

/** An array size: a positive integer constant expression (UNKNOWN_DIM when it depends on a constant parameter not known yet). */
export function constSize(ctx: FnCtx, e: ast.Expr): number | undefined {
  const n = constIntegerOrUnknown(ctx, e, "an array size");
  if (n === undefined) return undefined;
  if (n === "unknown") return UNKNOWN_DIM;
  if (n < 1n || n > BigInt(ARRAY_DIM_MAX)) {
    ctx.log.error("GK3015", e.span, `an array size must be between 1 and ${ARRAY_DIM_MAX}, but '${textOf(ctx, e.span)}' is ${n}`);
    return undefined;
  }
  return Number(n);
}

/** The value of an integer constant expression (untyped or typed), or a diagnostic saying why it is not one. */
export function constInteger(ctx: FnCtx, e: ast.Expr, what: string): bigint | undefined {
  const n = constIntegerOrUnknown(ctx, e, what);
  invariant(n !== "unknown", `${what} depends on a constant parameter outside a generic definition`);
  return n;
}

/** `v` with each `const` local whose value is a constant expression replaced by its initializer (FnCtx.constInits). */
export function withConstInits(ctx: FnCtx, v: Expr): Expr {
  if (!ctx.constInits.size) return v;
  return mapExpr(v, (x) => (x.kind === "var" ? (ctx.constInits.get(x.var.id) ?? x) : x));
}

/** Whether `init`, the initializer of a `const` local, is a constant expression: it folds to a constant, or is one of constant parameters not known yet. */
export function isConstantInit(ctx: FnCtx, init: Expr): boolean {
  return foldExpr(init, ctx.module.flushToZero).kind === "const" || unknownConstant(ctx, init);
}

/**
 * Whether `v` is a constant expression of the constant parameters whose values are not
 * known yet, while a generic definition is checked (a constant in every instance).
 */
export function unknownConstant(ctx: FnCtx, v: Expr): boolean {
  const symbolic = ctx.generic?.symbolic;
  if (!symbolic?.size) return false;
  const pure = (x: Expr) => x.kind === "const" || x.kind === "unary" || x.kind === "binary" || x.kind === "logical" || x.kind === "cast" || x.kind === "select" || (x.kind === "var" && symbolic.has(x.var.id));
  return !someExpr(v, (x) => !pure(x)) && someExpr(v, (x) => x.kind === "var");
}

/** As constInteger, or "unknown" for a constant of constant parameters not known yet (see unknownConstant): each instance checks it with their values. */
export function constIntegerOrUnknown(ctx: FnCtx, e: ast.Expr, what: string): bigint | "unknown" | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) {
    if (u.kind !== "int") {
      ctx.log.error("GK3014", e.span, `${what} must be an integer, but '${textOf(ctx, e.span)}' is a float constant`);
      return undefined;
    }
    return u.value;
  }
  const read = checkValue(ctx, e);
  if (!read) return undefined;
  const v = withConstInits(ctx, read);
  const f = foldExpr(v, ctx.module.flushToZero);
  if (f.kind !== "const" && unknownConstant(ctx, v) && v.type.kind === "scalar" && isInt(v.type)) return "unknown";
  if (f.kind !== "const") {
    ctx.log.error("GK3014", e.span, `${what} must be a constant, but '${textOf(ctx, e.span)}' is computed at run time; use a module-level const`);
    return undefined;
  }
  if (!isInt(f.type)) {
    ctx.log.error("GK3014", e.span, `${what} must be an integer, but '${textOf(ctx, e.span)}' is ${f.type.name}`);
    return undefined;
  }
  return BigInt(f.value as number | bigint);
}

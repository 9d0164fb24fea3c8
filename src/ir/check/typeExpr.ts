/** Types as written (`f32`, `global<T>`, `f32[16][16]`) resolved to gk types, with constant array sizes. */
import type * as ast from "../../parser/ast.js";
import { FOREIGN_TYPES } from "../../diagnostics/foreignTypes.js";
import type { ScalarType, Type } from "../types.js";
import { isScalarName, scalarType, T } from "../types.js";
import { foldExpr } from "../passes/fold.js";
import { textOf, UNKNOWN_DIM, type FnCtx } from "./context.js";
import type { Expr } from "../nodes.js";
import { someExpr } from "../walk.js";
import { invariant } from "../../util.js";
import { checkValue, untypedOf } from "./expr.js";
import { isInt } from "../types.js";
import { ARRAY_DIM_MAX } from "../limits.js";


export type Where = "param" | "local" | "shared" | "return" | "const" | "constant";

/** A named type: a scalar, or `void` where a return type is expected. */
export function resolveScalar(ctx: FnCtx, te: ast.TypeExpr, where: Where): ScalarType | "void" | undefined {
  if (te.kind !== "NamedType") {
    const written = textOf(ctx, te.span);
    const message =
      where === "return"
        ? "a device_fn returns a scalar (bool, i32, u32, i64, u64, f32, f64) or void"
        : where === "const" && te.kind === "ArrayType"
          ? `a module-level constant is a scalar, not '${written}': declare the table inside the kernel or function that reads it, as a local array with an initializer (let w: ${written} = [...];), or pass it as a readonly global array`
          : `expected a scalar type here, not '${written}'`;
    ctx.log.error("GK4007", te.span, message);
    return undefined;
  }
  const name = te.name.name;
  if (isScalarName(name)) return scalarType(name);
  const local = ctx.scopes.lookup(name);
  if (local?.kind === "typeParam") return local.type;
  if (local?.kind === "constParam") {
    ctx.log.error("GK2003", te.span, `'${name}' is a constant parameter, not a type`);
    return undefined;
  }
  if (name === "void") {
    if (where === "return") return "void";
    ctx.log.error("GK2003", te.span, "'void' is only a return type");
    return undefined;
  }
  const hint = Object.hasOwn(FOREIGN_TYPES, name) ? FOREIGN_TYPES[name] : undefined;
  ctx.log.error("GK2003", te.span, `unknown type '${name}'${hint ? `; did you mean ${hint}?` : ": the types are bool, i32, u32, i64, u64, f32, f64, global<T> and arrays T[N]"}`);
  return undefined;
}

/** Any type as written; array sizes must be positive integer constants. */
export function resolveType(ctx: FnCtx, te: ast.TypeExpr, where: Where): Type | undefined {
  switch (te.kind) {
    case "NamedType": {
      const s = resolveScalar(ctx, te, where);
      return s === "void" ? T.void : s;
    }
    case "GlobalType": {
      if (where !== "param") {
        ctx.log.error("GK4007", te.span, "global<T> is the type of a kernel or device_fn parameter; inside a function declare a local array (let a: f32[8];) or shared memory");
        return undefined;
      }
      const elem = resolveScalar(ctx, te.elem, "local");
      if (!elem || elem === "void") return undefined;
      return { kind: "global", elem, readonly: te.readonly };
    }
    case "ViewType": {
      if (where !== "param") {
        ctx.log.error("GK4007", te.span, "view<T> is the type of a device_fn parameter, which a call gives as view(array, offset, length) or a whole array");
        return undefined;
      }
      const elem = resolveScalar(ctx, te.elem, "local");
      if (!elem || elem === "void") return undefined;
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
        const elem = resolveScalar(ctx, te.elem, "local");
        if (!elem || elem === "void") return undefined;
        return { kind: "dynamicShared", elem };
      }
      if (te.shared && where !== "param") {
        ctx.log.error("GK4007", te.span, "'shared' in a type marks a device_fn parameter; shared memory itself is declared at a kernel's top level: `shared name: T[N];`");
        return undefined;
      }
      if (!te.shared && (where === "param" || where === "return" || where === "const")) {
        ctx.log.error("GK4007", te.span, where === "param" ? "an array parameter is written global<T> (or readonly global<T>), shared T[N] for a shared array in a device_fn, or view<T> for part of any array" : "arrays cannot be returned or be constants");
        return undefined;
      }
      const elem = resolveScalar(ctx, te.elem, "local");
      if (!elem || elem === "void") return undefined;
      const dims: number[] = [];
      for (const size of te.sizes) {
        const n = constSize(ctx, size);
        if (n === undefined) return undefined;
        dims.push(n);
      }
      return { kind: "array", elem, dims, space: where === "constant" ? "constant" : where === "shared" || te.shared ? "shared" : "local" };
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

/** As constInteger, or "unknown" for a constant of constant parameters not known yet (see unknownConstant). */
function constIntegerOrUnknown(ctx: FnCtx, e: ast.Expr, what: string): bigint | "unknown" | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) {
    if (u.kind !== "int") {
      ctx.log.error("GK3014", e.span, `${what} must be an integer, but '${textOf(ctx, e.span)}' is a float constant`);
      return undefined;
    }
    return u.value;
  }
  const v = checkValue(ctx, e);
  if (!v) return undefined;
  const f = foldExpr(v, ctx.module.flushToZero);
  if (f.kind !== "const" && unknownConstant(ctx, v) && isInt(v.type)) return "unknown";
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

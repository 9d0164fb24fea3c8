/**
 * Checking expressions: from AST expressions to typed IR expressions. Here are untyped
 * constants, the entry points (with the one dispatch over expression kinds), names and
 * members, and struct values; operators are checked in `operators.ts`.
 */
import type * as ast from "../parser/ast.js";
import type { Span } from "../diagnostics/source.js";
import type { ArrayVar, ConstExpr, Expr, SpecialName } from "../ir/nodes.js";
import { foldExpr } from "../ir/passes/fold.js";
import { lookupBuiltin } from "../ir/builtins.js";
import { isBool, isFloat, isInt, laneScalar, scalarType, T, typeToString, type ArrayType, type ScalarType, type StructType, type ValueType } from "../ir/types.js";
import { BF16_MAX, F16_MAX } from "../ir/halves.js";
import { checkCall } from "./call.js";
import { checkAccess } from "./access.js";
import { checkBinary, checkConditional, checkUnary } from "./operators.js";
import { constExpr, hasValue, textOf, tyName, type FnCtx, type ScalarExpr, type ValueExpr } from "./context.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import {
  convertUntyped, defaultType, literalValue, untypedBinary, untypedToString, untypedUnary,
  type Untyped,
} from "./untyped.js";
import { isReservedName, reservedNameHint, SPECIALS } from "../ir/names.js";

import { INT_RANGES } from "../ir/values.js";

// ---------------------------------------------------------------- untyped constants

/** The exact value of an untyped constant expression, or null when `e` is not one. Errors are reported once. */
export function untypedOf(ctx: FnCtx, e: ast.Expr): Untyped | null {
  if (ctx.untyped.has(e)) return ctx.untyped.get(e)!;
  const v = computeUntyped(ctx, e);
  ctx.untyped.set(e, v);
  return v;
}

function computeUntyped(ctx: FnCtx, e: ast.Expr): Untyped | null {
  switch (e.kind) {
    case "Number": {
      const v = literalValue(e);
      if (typeof v === "string") return poison(ctx, e, "GK1003", v);
      return v;
    }
    case "Paren":
      return propagate(ctx, e, e.expr);
    case "Name": {
      const local = ctx.scopes.lookup(e.name);
      if (local) return local.kind === "untypedConst" ? local.value : null;
      const m = ctx.module.lookup(e.name);
      if (m) return m.kind === "untypedConst" ? m.value : null;
      const b = lookupBuiltin(e.name);
      return b?.rule.kind === "constant" && b.rule.type === "float" ? { kind: "float", value: b.rule.value as number } : null;
    }
    case "Unary": {
      const a = propagate(ctx, e, e.operand);
      if (!a) return null;
      const r = untypedUnary(e.op, a);
      if (!r) return null;
      if ("error" in r) return poison(ctx, e, r.code, r.error);
      return r;
    }
    case "Binary": {
      const a = untypedOf(ctx, e.left);
      const b = untypedOf(ctx, e.right);
      if (!a || !b) {
        if (ctx.poisoned.has(e.left) || ctx.poisoned.has(e.right)) ctx.poisoned.add(e);
        return null;
      }
      const r = untypedBinary(e.op, a, b);
      if (!r) return null;
      if ("error" in r) return poison(ctx, e, r.code, r.error, e.opSpan);
      return r;
    }
    default:
      return null;
  }
}

function propagate(ctx: FnCtx, outer: ast.Expr, inner: ast.Expr): Untyped | null {
  const v = untypedOf(ctx, inner);
  if (ctx.poisoned.has(inner)) ctx.poisoned.add(outer);
  return v;
}

function poison(ctx: FnCtx, e: ast.Expr, code: "GK1003" | "GK3016" | "GK3003" | "GK3006", message: string, at?: Span): null {
  ctx.log.error(code, at ?? e.span, message);
  ctx.poisoned.add(e);
  return null;
}

/** Gives an untyped constant the type `t` (or its default), reporting values that do not fit. */
export function materialize(ctx: FnCtx, u: Untyped, t: ScalarType | undefined, span: Span): ScalarExpr | undefined {
  const type = t ?? defaultType(u);
  const r = convertUntyped(u, type);
  if (r.ok) return constExpr(type, r.value, span);
  const lit = untypedToString(u);
  switch (r.why) {
    case "range":
      ctx.log.error("GK3006", span, `the constant ${lit} does not fit in ${type.name}${rangeHint(type)}`);
      break;
    case "float-to-int":
      ctx.log.error("GK3007", span, `the float constant ${lit} is used where ${type.name} is expected; gk never converts floats to integers implicitly: write ${type.name}(${lit})`);
      break;
    case "to-bool":
      ctx.log.error("GK3001", span, `the number ${lit} is used where bool is expected: write a comparison such as 'x != 0', or true/false`);
      break;
  }
  return undefined;
}

function rangeHint(t: ScalarType): string {
  switch (t.name) {
    case "i32": return ` (${INT_RANGES.i32[0]} to ${INT_RANGES.i32[1]}); use i64, or u32 for values up to ${INT_RANGES.u32[1]}`;
    case "u32": return ` (0 to ${INT_RANGES.u32[1]}); use i64 or u64 for larger values, or a signed type for negative ones`;
    case "i64": return " (-2^63 to 2^63-1)";
    case "u64": return " (0 to 2^64-1)";
    case "i8":
    case "u8":
    case "i16":
    case "u16": return ` (${INT_RANGES[t.name][0]} to ${INT_RANGES[t.name][1]})`;
    case "f16": return ` (its largest finite value is ${F16_MAX})`;
    case "bf16": return ` (its largest finite value is about ${BF16_MAX.toPrecision(4)})`;
    default: return "";
  }
}

// ---------------------------------------------------------------- entry points

/** The scalar an untyped constant becomes where `expected` is wanted: the type, or a vector's lane type. */
export function constantTypeFor(expected: ValueType | undefined): ScalarType | undefined {
  return expected ? laneScalar(expected) : undefined;
}

/** Checks an expression that must produce a value; `expected` types untyped constants (a vector's lanes type them) and struct literals. */
export function checkValue(ctx: FnCtx, e: ast.Expr, expected?: ValueType): ValueExpr | undefined {
  const r = checkExpr(ctx, e, expected);
  if (!r) return undefined;
  if (!hasValue(r)) {
    ctx.log.error("GK3018", e.span, `'${textOf(ctx, e.span)}' has no value: the function returns void`);
    ctx.poisoned.add(e);
    return undefined;
  }
  return r;
}

/**
 * A checked expression folded to its constant value, or GK3014 at `e`: "WHAT must be a
 * constant expression, but '...' is computed at run time" and then `advice`.
 */
export function foldedConstant(ctx: FnCtx, v: Expr, e: ast.Expr, what: string, advice = ""): ConstExpr | undefined {
  const f = foldExpr(v, ctx.module.flushToZero);
  if (f.kind === "const") return f;
  ctx.log.error("GK3014", e.span, `${what} must be a constant expression, but '${textOf(ctx, e.span)}' is computed at run time${advice}`);
  return undefined;
}

/** Checks `e` and requires exactly type `t` (no implicit conversion exists in gk). */
export function checkAs(ctx: FnCtx, e: ast.Expr, t: ValueType, what: string, code: "GK3001" | "GK3011" = "GK3001"): ValueExpr | undefined {
  const r = checkValue(ctx, e, t);
  if (!r) return undefined;
  if (r.type !== t) {
    const text = textOf(ctx, e.span);
    const fix =
      t.kind === "vector" && r.type === t.elem ? `write ${typeToString(t)}(${text}) for that value in every lane`
      : t.kind === "struct" || r.type.kind === "struct" ? "a value of one struct type is never another"
      : `write ${typeToString(t)}(${text})`;
    ctx.log.error(code, e.span, `${what} is ${typeToString(t)}, but '${text}' is ${typeToString(r.type)}; gk never converts implicitly: ${fix}`);
    return undefined;
  }
  return r;
}

/** Checks a condition, which must be bool. */
export function checkCondition(ctx: FnCtx, e: ast.Expr, what: string): ScalarExpr | undefined {
  const r = checkValue(ctx, e, T.bool);
  if (!r) return undefined;
  if (r.type.kind !== "scalar" || !isBool(r.type)) {
    const text = textOf(ctx, e.span);
    const lane = laneScalar(r.type);
    const hint =
      r.type.kind === "vector" && lane && isBool(lane) ? `: it holds one bool per lane; write any(${text}) or all(${text}), or select(...) to choose lane by lane`
      : lane && r.type.kind === "scalar" && (isInt(lane) || isFloat(lane)) ? `: write '${text} != 0'`
      : "";
    ctx.log.error("GK3002", e.span, `${what} must be bool, but '${text}' is ${typeToString(r.type)}${hint}`);
    return undefined;
  }
  return r as ScalarExpr;
}

/** Any expression; a call of a void function gives an expression of type void. */
export function checkExpr(ctx: FnCtx, e: ast.Expr, expected?: ValueType): Expr | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) return materialize(ctx, u, constantTypeFor(expected), e.span);
  switch (e.kind) {
    case "Number":
      return undefined; // handled as an untyped constant above
    case "Bool":
      return constExpr(T.bool, e.value, e.span);
    case "Paren":
      return checkExpr(ctx, e.expr, expected);
    case "Name":
      return checkName(ctx, e);
    case "Member":
      return isSpecialMember(ctx, e) ? checkSpecial(ctx, e) : checkAccess(ctx, e);
    case "Index":
      return checkAccess(ctx, e);
    case "Unary":
      return checkUnary(ctx, e, expected);
    case "Binary":
      return checkBinary(ctx, e, expected);
    case "Conditional":
      return checkConditional(ctx, e, expected);
    case "Call":
      return checkCall(ctx, e, expected);
    case "ObjectLit":
      return checkStructValue(ctx, e, expected);
    case "ArrayLit":
      ctx.log.error("GK3013", e.span, "an array literal can only initialize a local array ('let a: f32[3] = [1, 2, 3];'), an array field of a struct value, or be a launch argument");
      return undefined;
  }
}

// ---------------------------------------------------------------- names and members

function checkName(ctx: FnCtx, e: ast.NameExpr): Expr | undefined {
  const local = ctx.scopes.lookup(e.name);
  if (local) {
    switch (local.kind) {
      case "value":
        if (local.var.ref === "out") {
          ctx.log.error("GK3019", e.span, outRead(e.name));
          return undefined;
        }
        return { kind: "var", type: local.var.type, var: local.var, span: e.span };
      case "array":
        if (local.scalar) return scalarSharedLoad(local.var, e.span);
        ctx.log.error("GK3013", e.span, `'${e.name}' is an array (${tyName(local.var.type)}); arrays are not values: index it, e.g. ${e.name}[i]`);
        return undefined;
      case "constParam":
        return local.value !== undefined ? constExpr(local.var.type as ScalarType, local.value, e.span) : { kind: "var", type: local.var.type, var: local.var, span: e.span };
      case "typeParam":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a type parameter (here ${local.type.name}), not a value; to convert a value write ${e.name}(x)`);
        return undefined;
      case "fnParam":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a function parameter, not a value: call it, ${e.name}(${local.sig.params.map((p) => p.name).join(", ")}), or pass it on as a generic argument`);
        return undefined;
      case "untypedConst":
      case "poisoned":
        return undefined;
    }
  }
  const m = ctx.module.lookup(e.name);
  if (m) {
    switch (m.kind) {
      case "typedConst":
        return constExpr(m.type, m.value, e.span);
      case "function":
      case "kernel":
      case "generic":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a ${m.kind === "kernel" || (m.kind === "generic" && m.of === "kernel") ? "device_kernel" : "device_fn"}, not a value`);
        return undefined;
      case "struct":
        ctx.log.error("GK2008", e.span, `'${e.name}' is a struct type, not a value: write a value of it as { ${m.type.fields.map((f) => `${f.name}: ...`).join(", ")} } where a ${e.name} is expected`);
        return undefined;
      case "constArray":
        ctx.log.error("GK3013", e.span, `'${e.name}' is a constant array (${tyName(m.type)}); arrays are not values: index it, e.g. ${e.name}[i]`);
        return undefined;
      case "untypedConst":
      case "poisoned":
        return undefined;
    }
  }
  // `warpSize`, `Infinity`, `NaN` and `laneId`, unless a declaration shadows them.
  const b = lookupBuiltin(e.name);
  if (b?.rule.kind === "constant") return constExpr(b.rule.type === "float" ? T.f32 : scalarType(b.rule.type), b.rule.value, e.span);
  if (b?.rule.kind === "index" && !b.rule.axes) return { kind: "special", type: T.i32, name: b.rule.special, axis: 0, span: e.span };
  if (isReservedName(e.name)) {
    ctx.log.error("GK2008", e.span, reservedNameHint(e.name));
    return undefined;
  }
  ctx.log.error("GK2001", e.span, `unknown name '${e.name}'${didYouMean(e.name, [...ctx.scopes.names(), ...ctx.module.names()])}`);
  return undefined;
}

/** GK3019's message: an `out` parameter is only written. */
export function outRead(name: string): string {
  return `'${name}' is an out parameter: the function writes it and cannot read it; declare it 'inout' to read the caller's value`;
}

/** A read of a scalar `shared` variable: element 0 of its one-element array. */
export function scalarSharedLoad(array: ArrayVar, span: Span): ValueExpr {
  return { kind: "load", type: array.type.elem, array, indices: [constExpr(T.i32, 0, span)], path: [], vector: null, span };
}

const AXES: Record<string, 0 | 1 | 2> = { x: 0, y: 1, z: 2 };

/** `threadIdx.x` and the like (unless a local shadows the name). */
function isSpecialMember(ctx: FnCtx, e: ast.MemberExpr): boolean {
  return e.object.kind === "Name" && SPECIALS.has(e.object.name) && !ctx.scopes.lookup(e.object.name);
}

function checkSpecial(ctx: FnCtx, e: ast.MemberExpr): Expr | undefined {
  const obj = e.object as ast.NameExpr;
  const axis = AXES[e.property.name];
  if (axis === undefined) {
    ctx.log.error("GK2005", e.property.span, `'${obj.name}' has members .x, .y and .z, not '.${e.property.name}'`);
    return undefined;
  }
  if (ctx.kind === "const") {
    ctx.log.error("GK3014", e.span, `'${obj.name}.${e.property.name}' is not a constant`);
    return undefined;
  }
  return { kind: "special", type: T.i32, name: obj.name as SpecialName, axis, span: e.span };
}

// ---------------------------------------------------------------- struct values

/** `{ a: 1, b: x }` where a struct of type `expected` is wanted: every field once, in any order; a construct in field order. */
function checkStructValue(ctx: FnCtx, e: ast.ObjectLit, expected: ValueType | undefined): Expr | undefined {
  if (expected?.kind !== "struct") {
    const where = expected ? `where ${typeToString(expected)} is expected` : "here: nothing gives it a struct type";
    ctx.log.error("GK3040", e.span, `a struct value { ... } ${where}; write it where a struct is expected (let p: Point = { x: 1, y: 2 };, an argument, a return value, an element)`);
    for (const f of e.fields) checkExpr(ctx, f.value);
    return undefined;
  }
  return structValue(ctx, e, expected);
}

export function structValue(ctx: FnCtx, e: ast.ObjectLit, t: StructType): Expr | undefined {
  const given = new Map<string, ast.ObjectField>();
  let ok = true;
  for (const f of e.fields) {
    const prev = given.get(f.name.name);
    if (prev) {
      ctx.log.error("GK2002", f.name.span, `field '${f.name.name}' is given twice`, [{ message: "first given here", span: prev.name.span }]);
      ok = false;
      continue;
    }
    given.set(f.name.name, f);
    if (!t.fields.some((g) => g.name === f.name.name)) {
      ctx.log.error("GK2005", f.name.span, `${t.name} has no field '${f.name.name}'${didYouMean(f.name.name, t.fields.map((g) => g.name))} (its fields: ${t.fields.map((g) => g.name).join(", ")})`);
      ok = false;
    }
  }
  const missing = t.fields.filter((f) => !given.has(f.name));
  if (missing.length) {
    ctx.log.error("GK3040", e.span, `this ${t.name} value lacks ${missing.map((f) => `'${f.name}'`).join(", ")}: a struct value gives every field (${t.fields.map((f) => f.name).join(", ")})`);
    ok = false;
  }
  const args: Expr[] = [];
  for (const f of t.fields) {
    const g = given.get(f.name);
    if (!g) continue;
    if (f.type.kind === "array") {
      const elems = arrayFieldValues(ctx, g.value, f.type, `field '${f.name}' of ${t.name}`);
      if (!elems) ok = false;
      else args.push(...elems);
      continue;
    }
    const v = checkAs(ctx, g.value, f.type, `field '${f.name}' of ${t.name}`);
    if (!v) ok = false;
    else args.push(v);
  }
  return ok ? { kind: "construct", type: t, args, span: e.span } : undefined;
}

/** The elements of an array field's value: an array literal, nested or flat, of values of its element type. */
function arrayFieldValues(ctx: FnCtx, e: ast.Expr, t: ArrayType, what: string): Expr[] | undefined {
  if (e.kind !== "ArrayLit") {
    ctx.log.error("GK3013", e.span, `${what} is an array (${tyName(t)}): give its elements as an array literal [...]`);
    return undefined;
  }
  const flat = flattenLiteral(e);
  const count = t.dims.reduce((a, d) => a * d, 1);
  if (flat.length !== count) {
    ctx.log.error("GK3004", e.span, `${what} has ${count} elements but the literal has ${flat.length}`);
    return undefined;
  }
  const out: Expr[] = [];
  for (const x of flat) {
    const v = checkAs(ctx, x, t.elem, `an element of ${what}`);
    if (!v) return undefined;
    out.push(v);
  }
  return out;
}

/** `[[1, 2], [3, 4]]` or `[1, 2, 3, 4]`: elements in row-major order. */
export function flattenLiteral(lit: ast.ArrayLit): ast.Expr[] {
  return lit.elements.flatMap((e) => (e.kind === "ArrayLit" ? flattenLiteral(e) : [e]));
}

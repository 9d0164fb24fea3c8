/**
 * Generic parameters as declared, `<T: f32 | f64, N: i32>`: a type parameter lists the
 * types it admits (scalar types, or the classes `float`, `int` and `numeric`, the builtin
 * table's classes); a parameter with a single scalar type is a constant parameter, of an
 * integer type or bool; `OP: device_fn(a: T, b: T): T` is a function parameter (device
 * functions only), whose signature is resolved with the other parameters' bindings.
 */
import type * as ast from "../parser/ast.js";
import { admittedScalars, type ScalarClass } from "../ir/builtins.js";
import { isBool, isInt, isScalarName, scalarType, type ScalarType } from "../ir/types.js";
import type { FnCtx } from "./context.js";
import { isReservedName } from "../ir/names.js";
import { textOf } from "./context.js";
import type { GenericParamSig } from "./symbols.js";

/** The classes a constraint may name, each standing for the scalar types it holds. */
const CLASSES: ReadonlySet<string> = new Set<ScalarClass>(["float", "int", "numeric"]);

/** A generic definition's body is checked once per combination of the types its parameters admit: at most this many. */
export const MAX_TYPE_COMBINATIONS = 1024;

export function genericParams(ctx: FnCtx, ps: readonly ast.GenericParam[], of: "kernel" | "function"): GenericParamSig[] | undefined {
  const out: GenericParamSig[] = [];
  let ok = true;
  for (const p of ps) {
    const name = p.name.name;
    if (isReservedName(name)) {
      ctx.log.error("GK2009", p.name.span, `'${name}' is a reserved name in gk and cannot be declared`);
      ok = false;
      continue;
    }
    const prev = out.find((q) => q.name === name);
    if (prev) {
      ctx.log.error("GK2002", p.name.span, `generic parameter '${name}' is declared twice`, [{ message: "first declared here", span: prev.span }]);
      ok = false;
      continue;
    }
    const sig = param(ctx, p, of);
    if (sig) out.push(sig);
    else ok = false;
  }
  const combinations = out.reduce((n, q) => n * (q.kind === "type" ? q.allowed.length : 1), 1);
  if (ok && combinations > MAX_TYPE_COMBINATIONS) {
    const factors = out.flatMap((q) => (q.kind === "type" ? [`${q.allowed.length} for ${q.name}`] : [])).join(" × ");
    ctx.log.error("GK2020", ps[0]!.span, `these generic parameters admit ${combinations} combinations of types (${factors}); gk checks a generic body for each, at most ${MAX_TYPE_COMBINATIONS}: narrow the constraints`);
    ok = false;
  }
  return ok ? out : undefined;
}

function param(ctx: FnCtx, p: ast.GenericParam, of: "kernel" | "function"): GenericParamSig | undefined {
  const name = p.name.name;
  if (p.fn) {
    if (of === "kernel") {
      ctx.log.error("GK2020", p.span, `'${name}' is a function parameter, which only a device_fn takes: a kernel's generic parameters are types and constants (launches and the API give them); pass the function to a device_fn the kernel calls`);
      return undefined;
    }
    return { kind: "fn", name, decl: p.fn, text: textOf(ctx, p.fn.span), span: p.span };
  }
  const members = p.constraint;
  if (members.length === 1 && isScalarName(members[0]!.name)) {
    const type = scalarType(members[0]!.name as ScalarType["name"]);
    if (!isInt(type) && !isBool(type)) {
      ctx.log.error("GK2020", p.span, `'${name}: ${type.name}' declares a constant parameter, which is an integer or bool; for a type parameter, list the types it admits, as in '${name}: f32 | f64' or '${name}: float'`);
      return undefined;
    }
    return { kind: "const", name, type, span: p.span };
  }
  const allowed: ScalarType[] = [];
  for (const m of members) {
    const types = isScalarName(m.name) ? [scalarType(m.name)] : CLASSES.has(m.name) ? admittedScalars({ scalars: m.name as ScalarClass, vectors: false }) : undefined;
    if (!types) {
      ctx.log.error("GK2003", m.span, `unknown type '${m.name}' in the constraint of '${name}': a constraint lists scalar types (${name}: f32 | f64) or the classes float, int and numeric`);
      return undefined;
    }
    for (const t of types) if (!allowed.includes(t)) allowed.push(t);
  }
  return { kind: "type", name, allowed, span: p.span };
}

/** `T: f32 | f64` or `N: i32`, as messages show a parameter. */
export function paramText(p: GenericParamSig): string {
  if (p.kind === "fn") return `${p.name}: ${p.text}`;
  return p.kind === "type" ? `${p.name}: ${p.allowed.map((t) => t.name).join(" | ")}` : `${p.name}: ${p.type.name}`;
}

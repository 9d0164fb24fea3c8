/**
 * Generic arguments: given explicitly (`sum<f64, 512>(...)`, `launch sum<f64, 512>(...)`)
 * or inferred from a call's value arguments (`sq(x)` with `x: f32` is `sq<f32>(x)`), and
 * generic calls checked against the instance's signature.
 *
 * Inference reads the arguments left to right: an argument of a parameter declared `T`
 * fixes T to its type (an untyped constant fixes nothing, and takes T's type once fixed),
 * an array passed to `global<T>` or `shared T[N]` fixes T to its element type and N to its
 * size. Every parameter must be fixed, each to one type or value.
 */
import type * as ast from "../parser/ast.js";
import { foldExpr } from "../ir/passes/fold.js";
import type { Expr } from "../ir/nodes.js";
import { isScalarName, sameType, scalarType, typeToString, type ScalarType, type ValueType } from "../ir/types.js";
import { checkUserCall } from "./call.js";
import { knownDim, textOf, tyName, type Binding, type FnCtx, type ValueExpr } from "./context.js";
import { checkValue, materialize, untypedOf } from "./expr.js";
import { paramText } from "./genericParams.js";
import { arrayRef } from "./memory.js";
import type { GenericParamSig, GenericSymbol, ParamSig, Signature } from "./symbols.js";
import { unknownConstant } from "./typeExpr.js";

type TypeParamSig = Extract<GenericParamSig, { kind: "type" }>;
type ConstParamSig = Extract<GenericParamSig, { kind: "const" }>;
type FnParamSig = Extract<GenericParamSig, { kind: "fn" }>;

/** `sum<T: f32 | f64, N: i32>`, as messages show a definition. */
export function genericHead(sym: GenericSymbol): string {
  return `${sym.name}<${sym.params.map(paramText).join(", ")}>`;
}

/** An argument that fits the parameter, for examples in messages: its first type, or 256 (true for bool). */
export function exampleArg(p: GenericParamSig): string {
  return p.kind === "type" ? p.allowed[0]!.name : p.kind === "fn" ? "myOp" : p.type.name === "bool" ? "true" : "256";
}

/** The bindings of explicit generic arguments, matched to the parameters in order. */
export function explicitBindings(ctx: FnCtx, sym: GenericSymbol, given: ast.GenericArgs): Map<string, Binding> | undefined {
  const n = sym.params.length;
  if (given.args.length !== n) {
    const k = given.args.length;
    ctx.log.error("GK3030", given.span, `'${sym.name}' takes ${n} generic argument${n === 1 ? "" : "s"} (${genericHead(sym)}), but ${k} ${k === 1 ? "was" : "were"} given`);
    return undefined;
  }
  const bindings = new Map<string, Binding>();
  const genericFns = new Map<string, GenericSymbol>();
  let ok = true;
  sym.params.forEach((p, i) => {
    const a = given.args[i]!;
    const b = p.kind === "type" ? typeArg(ctx, sym, p, a) : p.kind === "fn" ? fnArg(ctx, sym, p, a) : constArg(ctx, sym, p, a);
    if (b && "generic" in b) genericFns.set(p.name, b.generic);
    else if (b) bindings.set(p.name, b);
    else ok = false;
  });
  if (!ok || !ctx.instances) return undefined;
  // A function's signature must be the one its parameter declares, with the other arguments in
  // place; a generic device function is the instance whose signature that is.
  for (const [i, p] of sym.params.entries()) {
    if (p.kind !== "fn") continue;
    const a = given.args[i]!;
    const declared = ctx.instances.declaredFnSignature(sym, new Map([...bindings].filter(([, b]) => b.kind !== "fn" || b.sig)), p);
    const generic = genericFns.get(p.name);
    if (generic) {
      const b = declared && fnInstance(ctx, sym, generic, declared, p, a);
      if (!b) return undefined;
      bindings.set(p.name, b);
      continue;
    }
    const b = bindings.get(p.name)!;
    if (b.kind !== "fn" || !b.sig || !declared || sameSignature(declared, b.sig)) continue;
    ctx.log.error("GK3031", a.span, `${p.name} of '${sym.name}' is a ${signatureText(declared)}, but '${textOf(ctx, a.span)}' is a ${signatureText(b.sig)}`, [{ message: `declared here: ${paramText(p)}`, span: p.span }]);
    return undefined;
  }
  return bindings;
}

/**
 * The instance of generic device function `g` whose signature is `declared`: each of g's
 * generic parameters is a type parameter of which a value parameter or the result is
 * declared, fixed by the type `declared` has there (`maximum<T: numeric>(a: T, b: T): T`
 * for `device_fn(a: f32, b: f32): f32` is `maximum<f32>`). Reported and undefined where
 * that does not make one.
 */
function fnInstance(ctx: FnCtx, of: GenericSymbol, g: GenericSymbol, declared: Signature, p: FnParamSig, a: ast.Expr): Binding | undefined {
  const decl = g.decl as ast.FunctionDecl;
  const fixed = new Map<string, Binding>();
  const fix = (te: ast.TypeExpr | undefined, t: Signature["returnType"] | ParamSig["type"] | undefined): void => {
    if (te?.kind !== "NamedType" || !t || t.kind !== "scalar" || fixed.has(te.name.name)) return;
    const q = g.params.find((x) => x.name === te.name.name);
    if (q?.kind === "type" && q.allowed.includes(t)) fixed.set(q.name, { kind: "type", type: t });
  };
  if (decl.params.length === declared.params.length) decl.params.forEach((dp, k) => fix(dp.type, declared.params[k]!.type));
  fix(decl.returnType, declared.returnType);
  if (g.params.some((q) => !fixed.has(q.name))) {
    const open = g.params.filter((q) => !fixed.has(q.name)).map((q) => q.name).join(" and ");
    ctx.log.error("GK3031", a.span, `${p.name} of '${of.name}' is a ${signatureText(declared)}, and the generic device_fn ${genericHead(g)} has no instance of that signature: it gives ${open} no type '${g.name}' admits`, [{ message: `declared here: ${paramText(p)}`, span: p.span }]);
    return undefined;
  }
  const r = ctx.instances!.signature(ctx, g, fixed, a.span);
  if (!r) {
    ctx.silentFailures++;
    return undefined;
  }
  if (!sameSignature(declared, r.sig)) {
    ctx.log.error("GK3031", a.span, `${p.name} of '${of.name}' is a ${signatureText(declared)}, but ${spellingOf(g, fixed)} is a ${signatureText(r.sig)}`, [{ message: `declared here: ${paramText(p)}`, span: p.span }]);
    return undefined;
  }
  // In a definition's check the callee is the definition's name; the binding is then not known.
  const known = ctx.generic?.mode !== "definition";
  return { kind: "fn", name: spellingOf(g, fixed), ...(known && { irName: r.callee }), sig: r.sig };
}

/** `maximum<f32>`: a generic function with every parameter a type, as messages show it. */
function spellingOf(g: GenericSymbol, fixed: ReadonlyMap<string, Binding>): string {
  return `${g.name}<${g.params.map((q) => bindingText(fixed.get(q.name)!)).join(", ")}>`;
}

/** `device_fn(a: f32, b: f32): f32`, as messages show a function's signature. */
function signatureText(sig: Signature): string {
  return `device_fn(${sig.params.map((q) => `${q.name}: ${q.ref ? `${q.ref} ` : ""}${tyName(q.type)}`).join(", ")}): ${tyName(sig.returnType)}`;
}

/** The same parameter types (and reference modes) and the same result: names may differ. */
function sameSignature(a: Signature, b: Signature): boolean {
  return a.params.length === b.params.length && a.params.every((p, i) => p.ref === b.params[i]!.ref && sameType(p.type, b.params[i]!.type)) && sameType(a.returnType, b.returnType);
}

/**
 * A function parameter's argument: a plain device function by name, a function parameter in
 * scope (passed on), or a generic device function (its instance is chosen by the signature
 * the parameter declares, once the other arguments are known: `generic`).
 */
function fnArg(ctx: FnCtx, sym: GenericSymbol, p: FnParamSig, a: ast.Expr): Binding | { readonly generic: GenericSymbol } | undefined {
  let x = a;
  while (x.kind === "Paren") x = x.expr;
  const what = `${p.name} of '${sym.name}' is a function parameter (${paramText(p)})`;
  if (x.kind !== "Name") {
    ctx.log.error("GK3031", a.span, `${what}: give a device_fn by its name, not '${textOf(ctx, a.span)}'`);
    return undefined;
  }
  const local = ctx.scopes.lookup(x.name);
  if (local?.kind === "fnParam") return { kind: "fn", name: local.callee ?? local.name, ...(local.callee !== undefined && { irName: local.callee }), sig: local.sig };
  if (local?.kind === "poisoned") return undefined;
  const m = local ? undefined : ctx.module.lookup(x.name);
  if (m?.kind === "function") return { kind: "fn", name: m.name, irName: m.irName, sig: m.sig };
  if (m?.kind === "generic" && m.of === "function") return { generic: m };
  if (m?.kind === "poisoned") return undefined;
  ctx.log.error("GK3031", a.span, `${what}: '${x.name}' is not a device_fn`);
  return undefined;
}

/** The type a name means: a scalar type, or a type parameter in scope. */
function namedType(ctx: FnCtx, e: ast.Expr): ScalarType | undefined {
  let x = e;
  while (x.kind === "Paren") x = x.expr;
  if (x.kind !== "Name") return undefined;
  if (isScalarName(x.name)) return scalarType(x.name);
  const local = ctx.scopes.lookup(x.name);
  return local?.kind === "typeParam" ? local.type : undefined;
}

function typeArg(ctx: FnCtx, sym: GenericSymbol, p: TypeParamSig, a: ast.Expr): Binding | undefined {
  const t = namedType(ctx, a);
  if (!t) {
    ctx.log.error("GK3031", a.span, `${p.name} of '${sym.name}' is a type parameter (${paramText(p)}): give a type, not '${textOf(ctx, a.span)}'`);
    return undefined;
  }
  if (!p.allowed.includes(t)) {
    ctx.log.error("GK3031", a.span, `${p.name} of '${sym.name}' is one of ${p.allowed.map((x) => x.name).join(", ")}, not ${t.name}`);
    return undefined;
  }
  return { kind: "type", type: t };
}

function constArg(ctx: FnCtx, sym: GenericSymbol, p: ConstParamSig, a: ast.Expr): Binding | undefined {
  const what = `${p.name} of '${sym.name}'`;
  const u = untypedOf(ctx, a);
  if (ctx.poisoned.has(a)) return undefined;
  if (u) {
    const c = materialize(ctx, u, p.type, a.span);
    return c?.kind === "const" ? { kind: "const", type: p.type, value: c.value } : undefined;
  }
  const t = namedType(ctx, a);
  if (t) {
    ctx.log.error("GK3031", a.span, `${what} is a constant parameter (${paramText(p)}): give a constant, not the type ${t.name}`);
    return undefined;
  }
  const v = checkValue(ctx, a, p.type);
  if (!v) return undefined;
  if (v.type !== p.type) {
    const text = textOf(ctx, a.span);
    ctx.log.error("GK3031", a.span, `${what} is ${p.type.name}, but '${text}' is ${typeToString(v.type)}; gk never converts implicitly: write ${p.type.name}(${text})`);
    return undefined;
  }
  const f = foldExpr(v);
  if (f.kind === "const") return { kind: "const", type: p.type, value: f.value };
  if (unknownConstant(ctx, v)) return { kind: "unknown", type: p.type };
  ctx.log.error("GK3014", a.span, `${what} must be a constant expression, but '${textOf(ctx, a.span)}' is computed at run time`);
  return undefined;
}

/** A call of a generic device function: its instance (explicit or inferred), then the call checked against the instance's signature. */
export function checkGenericCall(ctx: FnCtx, e: ast.CallExpr, sym: GenericSymbol): Expr | undefined {
  const name = e.callee.name;
  if (ctx.kind === "const" || !ctx.instances) {
    ctx.log.error("GK3014", e.span, `a call of '${name}' is not a constant`);
    return undefined;
  }
  const declared = sym.decl.params;
  if (e.args.length !== declared.length) {
    const list = declared.map((p) => `${p.name.name}: ${textOf({ ...ctx, module: sym.scope }, p.type.span)}`).join(", ");
    ctx.log.error("GK3004", e.span, `${name}() takes ${declared.length} argument${declared.length === 1 ? "" : "s"} (${name}(${list})), but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
    return undefined;
  }
  const pre = new Map<number, ValueExpr>();
  const bindings = e.typeArgs ? explicitBindings(ctx, sym, e.typeArgs) : inferBindings(ctx, sym, e, pre);
  if (!bindings) return undefined;
  const r = ctx.instances.signature(ctx, sym, bindings, e.callee.span);
  if (!r) {
    ctx.silentFailures++;
    return undefined;
  }
  return checkUserCall(ctx, e, r.callee, r.sig.params, r.sig.returnType, pre);
}

/** A type parameter stands for scalar types only: an argument of a vector or struct type cannot give it (reported; false). */
function notScalar(ctx: FnCtx, sym: GenericSymbol, p: GenericParamSig, a: ast.Expr, t: ValueType): false {
  ctx.log.error("GK3031", a.span, `'${textOf(ctx, a.span)}' is of type ${typeToString(t)}, but ${p.name} of '${sym.name}' stands for a scalar type${p.kind === "type" ? ` (${p.allowed.map((x) => x.name).join(" | ")})` : ""}`);
  return false;
}

/** Bindings inferred from the call's arguments (see the file comment); `pre` receives the arguments checked on the way. */
function inferBindings(ctx: FnCtx, sym: GenericSymbol, e: ast.CallExpr, pre: Map<number, ValueExpr>): Map<string, Binding> | undefined {
  const byName = new Map(sym.params.map((p) => [p.name, p]));
  const bindings = new Map<string, Binding>();
  const from = new Map<string, ast.Expr>();
  let ok = true;
  const bind = (p: GenericParamSig, b: Binding, at: ast.Expr): void => {
    const prev = bindings.get(p.name);
    if (!prev) {
      bindings.set(p.name, b);
      from.set(p.name, at);
      return;
    }
    if (bindingText(prev) === bindingText(b)) return;
    const first = textOf(ctx, from.get(p.name)!.span);
    ctx.log.error(
      "GK3032",
      at.span,
      `${p.name} of '${sym.name}' would be ${bindingText(prev)} (from '${first}') and ${bindingText(b)} (from '${textOf(ctx, at.span)}'): convert one of them, or give the generic arguments: ${sym.name}<...>(...)`,
    );
    ok = false;
  };
  const paramOf = (te: ast.TypeExpr): GenericParamSig | undefined => (te.kind === "NamedType" ? byName.get(te.name.name) : undefined);

  sym.decl.params.forEach((param, i) => {
    const a = e.args[i]!;
    const te = param.type;
    if (te.kind === "NamedType") {
      const p = paramOf(te);
      if (p?.kind !== "type") return;
      if (untypedOf(ctx, a)) return; // takes T's type once it is fixed
      if (ctx.poisoned.has(a)) return void (ok = false);
      const known = bindings.get(p.name);
      const v = checkValue(ctx, a, known?.kind === "type" ? known.type : undefined);
      if (!v) return void (ok = false);
      if (v.type.kind !== "scalar") return void (ok = notScalar(ctx, sym, p, a, v.type));
      pre.set(i, v);
      bind(p, { kind: "type", type: v.type }, a);
      return;
    }
    const elem = paramOf(te.kind === "GlobalType" ? te.elem : te.kind === "ArrayType" ? te.elem : te);
    const sizes = te.kind === "ArrayType" ? te.sizes.map((s) => (s.kind === "Name" ? byName.get(s.name) : undefined)) : [];
    if (elem?.kind !== "type" && !sizes.some((s) => s?.kind === "const")) return;
    let inner = a;
    while (inner.kind === "Paren") inner = inner.expr;
    const ref = inner.kind === "Name" ? arrayRef(ctx, inner, false) : undefined;
    if (!ref) {
      if (inner.kind !== "Name") ctx.log.error("GK3005", a.span, `parameter '${param.name.name}' of ${sym.name}() is an array: pass an array by name`);
      return void (ok = false);
    }
    const at = ref.array.type;
    if (elem?.kind === "type") {
      if (at.elem.kind !== "scalar") return void (ok = notScalar(ctx, sym, elem, a, at.elem));
      bind(elem, { kind: "type", type: at.elem }, a);
    }
    sizes.forEach((s, k) => {
      if (s?.kind !== "const" || at.kind !== "array" || k >= at.dims.length) return;
      const d = at.dims[k]!;
      if (!knownDim(d)) return bind(s, { kind: "unknown", type: s.type }, a);
      const c = materialize(ctx, { kind: "int", value: BigInt(d) }, s.type, a.span);
      if (c?.kind === "const") bind(s, { kind: "const", type: s.type, value: c.value }, a);
      else ok = false;
    });
  });
  if (!ok) return undefined;
  const missing = sym.params.filter((p) => !bindings.has(p.name));
  if (missing.length) {
    const names = missing.map((p) => p.name).join(" and ");
    const why = missing.some((p) => p.kind === "fn") ? "a function parameter is never inferred" : "an untyped constant fixes no type";
    ctx.log.error("GK3032", e.callee.span, `cannot infer ${names} of '${sym.name}' from its arguments (${why}): give the generic arguments, as in ${sym.name}<${sym.params.map(exampleArg).join(", ")}>(...) for ${genericHead(sym)}`);
    return undefined;
  }
  for (const p of sym.params) {
    const b = bindings.get(p.name)!;
    if (p.kind === "type" && b.kind === "type" && !p.allowed.includes(b.type)) {
      const at = from.get(p.name)!;
      ctx.log.error("GK3031", at.span, `'${sym.name}' takes ${paramText(p)}, but '${textOf(ctx, at.span)}' is ${b.type.name}`);
      return undefined;
    }
  }
  return bindings;
}

function bindingText(b: Binding): string {
  return b.kind === "type" ? b.type.name : b.kind === "const" ? String(b.value) : b.kind === "fn" ? b.name : "unknown";
}

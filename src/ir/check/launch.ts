/** Host-side `launch` statements: arguments matched to the kernel's parameters, data helpers, grid and block. */
import type * as ast from "../../parser/ast.js";
import { foldExpr } from "../passes/fold.js";
import type { ArrayData, Expr, Launch, LaunchArg } from "../nodes.js";
import { evalCast } from "../evalOp.js";
import { isBool, isFloat, isInt, laneScalar, typeToString, type ScalarType, type ScalarValue, type ValueType } from "../types.js";
import { leafValues, zeroValue, type Value } from "../composite.js";
import { textOf, type FnCtx } from "./context.js";
import { checkValue, materialize, untypedOf } from "./expr.js";
import { DATA_HELPERS } from "./names.js";
import { exampleArg, explicitBindings } from "./genericArgs.js";
import { paramText } from "./genericParams.js";
import { didYouMean, type ModuleSymbol, type ParamSig } from "./symbols.js";
import { constInteger } from "./typeExpr.js";
import { checkShape, LAUNCH_LIMITS } from "../limits.js";

const MAX_ELEMENTS = 0x7fffffffn;

export function checkLaunch(ctx: FnCtx, l: ast.LaunchDecl, kernel: ModuleSymbol | undefined): Launch | undefined {
  const target = launched(ctx, l, kernel);
  if (!target) return undefined;
  const { params, name: kernelName } = target;
  const given = new Map<string, ast.LaunchArg>();
  let ok = true;
  for (const a of l.args) {
    const prev = given.get(a.name.name);
    if (prev) {
      ctx.log.error("GK5004", a.name.span, `'${a.name.name}' is given twice`, [{ message: "first given here", span: prev.name.span }]);
      ok = false;
      continue;
    }
    given.set(a.name.name, a);
    if (!params.some((p) => p.name === a.name.name)) {
      const list = params.map((p) => p.name).join(", ");
      ctx.log.error("GK5003", a.name.span, `'${l.kernel.name}' has no parameter '${a.name.name}'${didYouMean(a.name.name, params.map((p) => p.name))} (its parameters: ${list})`);
      ok = false;
    }
  }
  const missing = params.filter((p) => !given.has(p.name));
  if (missing.length) {
    const names = missing.map((p) => `'${p.name}'`).join(", ");
    ctx.log.error("GK5002", l.kernel.span, `launch of '${l.kernel.name}' is missing ${missing.length === 1 ? "the argument" : "arguments"} ${names}: write ${missing.map((p) => `${p.name} = ...`).join(", ")}`);
    ok = false;
  }
  const args: LaunchArg[] = [];
  for (const p of params) {
    const a = given.get(p.name);
    if (!a) continue;
    const arg = checkArg(ctx, p, a);
    if (arg) args.push(arg);
    else ok = false;
  }
  const grid = dims(ctx, l.grid, "grid", l.span);
  const block = dims(ctx, l.block, "block", l.span);
  if (!ok || !grid || !block) return undefined;
  return { kernel: kernelName, grid, block, args, span: l.span };
}

/** The kernel a launch runs: a plain kernel, or the instance of a generic one that its generic arguments name. */
function launched(ctx: FnCtx, l: ast.LaunchDecl, kernel: ModuleSymbol | undefined): { params: readonly ParamSig[]; name: string } | undefined {
  if (kernel?.kind === "kernel") {
    if (l.typeArgs) {
      ctx.log.error("GK3030", l.typeArgs.span, `'${l.kernel.name}' is not generic: launch it without <...>`);
      return undefined;
    }
    return { params: kernel.sig.params, name: kernel.irName };
  }
  if (kernel?.kind === "generic" && kernel.of === "kernel") {
    if (!l.typeArgs) {
      ctx.log.error("GK3030", l.kernel.span, `'${l.kernel.name}' is generic (${l.kernel.name}<${kernel.params.map(paramText).join(", ")}>): launch one of its instances, as in 'launch ${l.kernel.name}<${kernel.params.map(exampleArg).join(", ")}>(...)'`);
      return undefined;
    }
    const bindings = explicitBindings(ctx, kernel, l.typeArgs);
    const made = bindings && ctx.instances?.signature(ctx, kernel, bindings, l.typeArgs.span);
    return made && { params: made.sig.params, name: made.callee };
  }
  if (kernel?.kind === "poisoned") return undefined;
  const what = kernel?.kind === "function" || (kernel?.kind === "generic" && kernel.of === "function")
    ? `'${l.kernel.name}' is a device_fn; only a device_kernel can be launched`
    : `unknown kernel '${l.kernel.name}'${didYouMean(l.kernel.name, ctx.module.names())}`;
  ctx.log.error("GK5001", l.kernel.span, what);
  return undefined;
}

function checkArg(ctx: FnCtx, p: ParamSig, a: ast.LaunchArg): LaunchArg | undefined {
  const v = a.value;
  if (p.type.kind !== "global" && p.type.kind !== "array") {
    if (v.kind === "ArrayLit" || (v.kind === "Call" && DATA_HELPERS.has(v.callee.name))) {
      ctx.log.error("GK5005", v.span, `'${p.name}' is ${p.type.kind === "scalar" ? "a scalar" : `a ${p.type.kind}`} (${typeToString(p.type)}); pass a single value`);
      return undefined;
    }
    const value = launchValue(ctx, v, p.type, `'${p.name}'`);
    return value === undefined ? undefined : { kind: "value", param: p.name, type: p.type, value, span: a.span };
  }
  const elem = p.type.elem;
  const data = arrayData(ctx, v, elem, p.name);
  return data && { kind: "array", param: p.name, elem, data, span: a.span };
}

/** A constant of any value type for a launch: a scalar constant, a vector constructor of constants, a struct value of constants. */
function launchValue(ctx: FnCtx, e: ast.Expr, t: ValueType, what: string): Value | undefined {
  if (t.kind === "scalar") return constantOf(ctx, e, t, what);
  const v = checkValue(ctx, e, t);
  if (!v) return undefined;
  if (v.type !== t) {
    ctx.log.error("GK5008", e.span, `${what} is ${typeToString(t)}, but '${textOf(ctx, e.span)}' is ${typeToString(v.type)}`);
    return undefined;
  }
  const value = constantValue(foldExpr(v));
  if (value === undefined) {
    ctx.log.error("GK3014", e.span, `${what} must be a constant`);
    return undefined;
  }
  return value;
}

/** The value of a folded expression built only of constants (constructors, zero, conversions of them), or undefined. */
export function constantValue(e: Expr): Value | undefined {
  switch (e.kind) {
    case "const":
      return e.value;
    case "zero":
      return zeroValue(e.type);
    case "construct": {
      const args = e.args.map(constantValue);
      if (args.some((a) => a === undefined)) return undefined;
      const t = e.type;
      if (t.kind === "vector") {
        if (args.length === 1 && e.args[0]!.type.kind === "scalar") return Array.from({ length: t.lanes }, () => args[0]!);
        return e.args.flatMap((a, i) => (a.type.kind === "vector" ? (args[i] as readonly Value[]) : [args[i]!]));
      }
      // A struct: one argument per field, an array field's elements one each.
      const out: Value[] = [];
      let k = 0;
      for (const f of t.fields) {
        if (f.type.kind === "array") {
          const n = f.type.dims.reduce((a, d) => a * d, 1);
          out.push(args.slice(k, k + n) as Value[]);
          k += n;
        } else out.push(args[k++]!);
      }
      return out;
    }
    case "cast": {
      const from = e.operand.type;
      const x = constantValue(e.operand);
      if (x === undefined || from.kind !== "vector" || e.type.kind !== "vector") return undefined;
      const to = e.type.elem;
      return leafValues(from, x).map((l) => evalCast(from.elem, to, l));
    }
    default:
      return undefined;
  }
}

/** A constant of type `t` for a launch value, or undefined after reporting why not. */
function constantOf(ctx: FnCtx, e: ast.Expr, t: ScalarType, what: string): ScalarValue | undefined {
  const u = untypedOf(ctx, e);
  if (ctx.poisoned.has(e)) return undefined;
  if (u) {
    const c = materialize(ctx, u, t, e.span);
    return c?.kind === "const" ? c.value : undefined;
  }
  const v = checkValue(ctx, e, t);
  if (!v) return undefined;
  const f = foldExpr(v);
  if (f.kind !== "const") {
    ctx.log.error("GK3014", e.span, `${what} must be a constant`);
    return undefined;
  }
  if (f.type !== t) {
    ctx.log.error("GK5008", e.span, `${what} is ${t.name}, but '${textOf(ctx, e.span)}' is ${f.type.name}: write ${t.name}(${textOf(ctx, e.span)})`);
    return undefined;
  }
  return f.value;
}

function arrayData(ctx: FnCtx, v: ast.Expr, elem: ValueType, param: string): ArrayData | undefined {
  const et = typeToString(elem);
  if (v.kind === "ArrayLit") {
    const values: Value[] = [];
    for (const el of v.elements) {
      if (el.kind === "ArrayLit") {
        const hint = elem.kind === "vector" ? `; write each element as ${et}(...)` : "";
        ctx.log.error("GK5005", el.span, `'${param}' is a flat global<${et}> array; nested array literals are not allowed here${hint}`);
        return undefined;
      }
      const x = launchValue(ctx, el, elem, `an element of '${param}'`);
      if (x === undefined) return undefined;
      values.push(x);
    }
    return { kind: "values", values };
  }
  if (v.kind !== "Call") {
    ctx.log.error("GK5005", v.span, `'${param}' is an array (global<${et}>): pass an array literal [..] or zeros(n), fill(n, v), iota(n), rand(n, seed)`);
    return undefined;
  }
  const name = v.callee.name;
  const args = v.args;
  const usage: Record<string, string> = {
    zeros: "zeros(n)", fill: "fill(n, value)", iota: "iota(n)", rand: "rand(n, seed) or rand(n, seed, lo, hi)",
  };
  if (!DATA_HELPERS.has(name)) {
    ctx.log.error("GK5007", v.callee.span, `unknown data helper '${name}'${didYouMean(name, DATA_HELPERS)}; the helpers are zeros(n), fill(n, value), iota(n), rand(n, seed[, lo, hi])`);
    return undefined;
  }
  const counts: Record<string, number[]> = { zeros: [1], fill: [2], iota: [1], rand: [2, 4] };
  if (!counts[name]!.includes(args.length)) {
    ctx.log.error("GK5007", v.span, `${name}() takes ${counts[name]!.join(" or ")} argument${counts[name]![0] === 1 ? "" : "s"}: ${usage[name]}`);
    return undefined;
  }
  const n = constInteger(ctx, args[0]!, `the length given to ${name}()`);
  if (n === undefined) return undefined;
  if (n < 0n || n > MAX_ELEMENTS) {
    ctx.log.error("GK5007", args[0]!.span, `the length given to ${name}() must be between 0 and ${MAX_ELEMENTS}, but it is ${n}`);
    return undefined;
  }
  const length = Number(n);
  const lane = laneScalar(elem);
  if ((name === "iota" || name === "rand") && !lane) {
    ctx.log.error("GK5007", v.span, `${name}() makes numbers, and '${param}' holds ${et}: pass a list of ${et} values, zeros(n) or fill(n, { ... })`);
    return undefined;
  }
  switch (name) {
    case "zeros":
      return { kind: "zeros", length };
    case "iota":
      if (isBool(lane!)) {
        ctx.log.error("GK5007", v.span, `iota() counts 0, 1, 2, ...; '${param}' holds ${et}`);
        return undefined;
      }
      return { kind: "iota", length };
    case "fill": {
      const value = launchValue(ctx, args[1]!, elem, `the value given to fill() for '${param}'`);
      return value === undefined ? undefined : { kind: "fill", length, value };
    }
    case "rand":
      return randData(ctx, v, lane!, param, length);
  }
  return undefined;
}

function randData(ctx: FnCtx, v: ast.CallExpr, elem: ScalarType, param: string, length: number): ArrayData | undefined {
  const seed = constInteger(ctx, v.args[1]!, "the seed given to rand()");
  if (seed === undefined) return undefined;
  if (seed < 0n || seed > 0xffffffffn) {
    ctx.log.error("GK5007", v.args[1]!.span, `the seed given to rand() must be between 0 and 4294967295`);
    return undefined;
  }
  let lo = 0;
  let hi = 1;
  if (v.args.length === 4) {
    const bounds: number[] = [];
    for (const b of [v.args[2]!, v.args[3]!]) {
      const u = untypedOf(ctx, b);
      if (ctx.poisoned.has(b)) return undefined;
      if (!u || (isInt(elem) && u.kind !== "int")) {
        ctx.log.error("GK5007", b.span, `the bounds of rand() must be ${isInt(elem) ? "integer" : "number"} constants`);
        return undefined;
      }
      bounds.push(Number(u.value));
    }
    [lo, hi] = bounds as [number, number];
    if (!(lo < hi)) {
      ctx.log.error("GK5007", v.span, `rand(n, seed, lo, hi) needs lo < hi, but lo is ${lo} and hi is ${hi}`);
      return undefined;
    }
  } else if (isInt(elem)) {
    ctx.log.error("GK5007", v.span, `rand(n, seed) makes floats in [0, 1); '${param}' holds ${elem.name}: give a range, rand(n, seed, lo, hi)`);
    return undefined;
  }
  if (!isFloat(elem) && !isInt(elem) && v.args.length === 4) {
    ctx.log.error("GK5007", v.span, `rand() for bool takes no range: rand(n, seed)`);
    return undefined;
  }
  return { kind: "rand", length, seed: Number(seed), lo, hi };
}

function dims(ctx: FnCtx, es: readonly ast.Expr[], what: "grid" | "block", at: ast.LaunchDecl["span"]): [number, number, number] | undefined {
  if (es.length < 1 || es.length > 3) {
    ctx.log.error("GK5006", es[0]?.span ?? at, `${what}() takes 1 to 3 sizes (x, y, z), but ${es.length} were given`);
    return undefined;
  }
  // Size by size, so that the first wrong one is the one reported.
  const sizes: bigint[] = [];
  for (const e of es) {
    const n = constInteger(ctx, e, `a ${what} size`);
    if (n === undefined) return undefined;
    sizes.push(n);
    const c = checkShape(what, sizes);
    if (!c.ok && c.why === "size") {
      ctx.log.error("GK5006", e.span, `${what} size ${"xyz"[c.axis]} must be between 1 and ${c.max}, but it is ${String(c.got)}`);
      return undefined;
    }
  }
  const c = checkShape(what, sizes);
  if (c.ok) return c.dims;
  if (c.why === "threads") ctx.log.error("GK5006", es[0]!.span, `a block has at most ${LAUNCH_LIMITS.blockThreads} threads, but block(${c.dims.join(", ")}) has ${c.threads}`);
  return undefined;
}

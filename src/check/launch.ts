/** Host-side `launch` statements: arguments matched to the kernel's parameters, data helpers, grid and block. */
import type * as ast from "../parser/ast.js";
import { foldExpr } from "../ir/passes/fold.js";
import type { ArrayData, ArrayVar, Expr, Function, Launch, LaunchArg, LaunchConstant } from "../ir/nodes.js";
import { evalCast } from "../ir/evalOp.js";
import { dynamicSharedArrays, dynamicSharedBytes, staticSharedBytes } from "../ir/kernelMemory.js";
import { invariant } from "../util.js";
import { asScalar, isBool, isFloat, isInt, laneScalar, sizeOf, storedLanes, typeToString, type ScalarType, type ScalarValue, type ValueType } from "../ir/types.js";
import { leafValues, zeroValue, type Value } from "../ir/composite.js";
import { textOf, tyName, type FnCtx } from "./context.js";
import { checkValue, materialize, untypedOf } from "./expr.js";
import { DATA_HELPERS } from "../ir/names.js";
import { exampleArg, explicitBindings } from "./genericArgs.js";
import { paramText } from "./genericParams.js";
import { type ModuleSymbol, type ParamSig } from "./symbols.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { constInteger } from "./typeExpr.js";
import { checkShape, launchBoundsProblem, sharedOverLimit } from "../ir/limits.js";

const MAX_ELEMENTS = 0x7fffffffn;

/**
 * `fn`: the checked kernel (absent when it failed to check), whose dynamic shared arrays the
 * `shared(...)` clause sizes; `reads`: the constant arrays it reads, which the launch gives by
 * name among its arguments.
 */
export function checkLaunch(ctx: FnCtx, l: ast.LaunchDecl, target: LaunchTarget, fn?: Function, reads: readonly ArrayVar[] = []): Launch | undefined {
  const { params, name: kernelName } = target;
  const names = [...params.map((p) => p.name), ...reads.map((a) => a.name)];
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
    if (!names.includes(a.name.name)) {
      const list = params.map((p) => p.name).join(", ");
      const constants = reads.length ? `; the constant arrays it reads: ${reads.map((r) => r.name).join(", ")}` : "";
      const m = ctx.module.lookup(a.name.name);
      const unread = m?.kind === "constantArray" ? `'${l.kernel.name}' does not read the constant array '${a.name.name}'` : `'${l.kernel.name}' has no parameter '${a.name.name}'${didYouMean(a.name.name, names)}`;
      ctx.log.error("GK5003", a.name.span, `${unread} (its parameters: ${list}${constants})`);
      ok = false;
    }
  }
  const missing = names.filter((n) => !given.has(n));
  if (missing.length) {
    const list = missing.map((n) => `'${n}'`).join(", ");
    ctx.log.error("GK5002", l.kernel.span, `launch of '${l.kernel.name}' is missing ${missing.length === 1 ? "the argument" : "arguments"} ${list}: write ${missing.map((n) => `${n} = ...`).join(", ")}`);
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
  const constants: LaunchConstant[] = [];
  for (const c of reads) {
    const a = given.get(c.name);
    if (!a) continue;
    const data = constantData(ctx, c, a);
    // Constant memory holds scalars (GK2043).
    if (data) constants.push({ name: c.name, elem: asScalar(c.type.elem), data, span: a.span });
    else ok = false;
  }
  const grid = dims(ctx, l.grid, "grid", l.span);
  const block = dims(ctx, l.block, "block", l.span);
  const sharedLengths = fn ? sharedClause(ctx, l, fn) : [];
  const bounds = fn && block ? launchBoundsProblem(fn, block) : undefined;
  if (bounds) ctx.log.error("GK5006", l.block[0]?.span ?? l.span, `launch of '${l.kernel.name}': ${bounds}`, [{ message: "declared here", span: fn!.span }]);
  if (!ok || !grid || !block || !sharedLengths || bounds) return undefined;
  return { kernel: kernelName, grid, block, args, constants, sharedLengths, span: l.span };
}

/** The contents of a constant array: as many elements as it has, in any form an array argument takes. */
function constantData(ctx: FnCtx, c: ArrayVar, a: ast.LaunchArg): ArrayData | undefined {
  const t = c.type;
  const data = arrayData(ctx, a.value, t.elem, c.name);
  if (!data || t.kind !== "array") return data;
  const count = t.dims.reduce((x, y) => x * y, 1);
  const length = data.kind === "values" ? data.values.length : data.length;
  if (length !== count) {
    ctx.log.error("GK5005", a.value.span, `'${c.name}' is ${tyName(t)}: give its ${count} element${count === 1 ? "" : "s"} (row-major), not ${length}`);
    return undefined;
  }
  return data;
}

/** `shared(buf = 256, ...)`: a length (elements) for each dynamic shared array, in declaration order; the total within the target's limit. */
function sharedClause(ctx: FnCtx, l: ast.LaunchDecl, fn: Function): number[] | undefined {
  const limits = ctx.module.target.limits;
  const dynamic = dynamicSharedArrays(fn);
  const given = new Map<string, ast.LaunchArg>();
  let ok = true;
  for (const a of l.shared) {
    const prev = given.get(a.name.name);
    if (prev) {
      ctx.log.error("GK5004", a.name.span, `the length of '${a.name.name}' is given twice`, [{ message: "first given here", span: prev.name.span }]);
      ok = false;
      continue;
    }
    given.set(a.name.name, a);
    if (!dynamic.some((d) => d.name === a.name.name)) {
      const list = dynamic.length ? `its dynamic shared arrays: ${dynamic.map((d) => d.name).join(", ")}` : "it has none";
      ctx.log.error("GK5003", a.name.span, `'${l.kernel.name}' has no dynamic shared array '${a.name.name}' (declared 'shared ${a.name.name}: T[];'; ${list})`);
      ok = false;
    }
  }
  const missing = dynamic.filter((d) => !given.has(d.name));
  if (missing.length) {
    ctx.log.error("GK5002", l.kernel.span, `launch of '${l.kernel.name}' is missing the length of ${missing.map((d) => `'${d.name}'`).join(", ")}, ${missing.length === 1 ? "a dynamic shared array" : "dynamic shared arrays"}: write shared(${missing.map((d) => `${d.name} = ...`).join(", ")}) after block(...)`);
    ok = false;
  }
  const lengths: number[] = [];
  for (const d of dynamic) {
    const a = given.get(d.name);
    if (!a) continue;
    const n = constInteger(ctx, a.value, `the length of '${d.name}'`);
    if (n === undefined) {
      ok = false;
      continue;
    }
    if (n < 0n || n > BigInt(limits.sharedBytes)) {
      ctx.log.error("GK5006", a.value.span, `the length of '${d.name}' must be from 0 to ${limits.sharedBytes} elements, but it is ${n}`);
      ok = false;
      continue;
    }
    lengths.push(Number(n));
  }
  if (!ok) return undefined;
  const staticBytes = staticSharedBytes(fn, limits);
  const over = sharedOverLimit(staticBytes, dynamicSharedBytes(fn, lengths).bytes, limits);
  if (over !== undefined) {
    ctx.log.error("GK5006", l.shared[0]?.span ?? l.span, `this launch gives '${l.kernel.name}' ${over} bytes of shared memory per block (${staticBytes} static); a block may use at most ${limits.sharedBytes}`);
    return undefined;
  }
  return lengths;
}

/** The kernel a launch runs: a plain kernel, or the instance of a generic one that its generic arguments name. */
/** The kernel a launch statement runs: its parameters and IR name, and whether it is an instance of a generic kernel. */
export interface LaunchTarget {
  readonly params: readonly ParamSig[];
  readonly name: string;
  readonly instance: boolean;
}

/** The kernel `l` launches (an instance is made here, its body checked later), or undefined after reporting why there is none. */
export function launchTarget(ctx: FnCtx, l: ast.LaunchDecl, kernel: ModuleSymbol | undefined): LaunchTarget | undefined {
  if (kernel?.kind === "kernel") {
    if (l.typeArgs) {
      ctx.log.error("GK3030", l.typeArgs.span, `'${l.kernel.name}' is not generic: launch it without <...>`);
      return undefined;
    }
    return { params: kernel.sig.params, name: kernel.irName, instance: false };
  }
  if (kernel?.kind === "generic" && kernel.of === "kernel") {
    if (!l.typeArgs) {
      ctx.log.error("GK3030", l.kernel.span, `'${l.kernel.name}' is generic (${l.kernel.name}<${kernel.params.map(paramText).join(", ")}>): launch one of its instances, as in 'launch ${l.kernel.name}<${kernel.params.map(exampleArg).join(", ")}>(...)'`);
      return undefined;
    }
    const bindings = explicitBindings(ctx, kernel, l.typeArgs);
    const made = bindings && ctx.instances?.signature(ctx, kernel, bindings, l.typeArgs.span);
    return made && { params: made.sig.params, name: made.callee, instance: true };
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
  if (p.type.kind !== "global" && p.type.kind !== "array" && p.type.kind !== "view") {
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
  const value = constantValue(foldExpr(v, ctx.module.flushToZero));
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
  const f = foldExpr(v, ctx.module.flushToZero);
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
  if (v.kind === "Name") {
    // A module-level constant table (`const TAPS: f32[5] = [...]`), by name.
    const m = ctx.module.lookup(v.name);
    if (m?.kind === "poisoned") return undefined;
    if (m?.kind === "constArray") {
      if (m.type.elem !== elem) {
        ctx.log.error("GK5008", v.span, `'${param}' holds ${et}, but the constant table '${v.name}' holds ${typeToString(m.type.elem)}`);
        return undefined;
      }
      return { kind: "values", values: m.values.map((x) => (x.kind === "const" ? x.value : invariant(false, "a folded table") as never)) };
    }
  }
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
    ctx.log.error("GK5005", v.span, `'${param}' is an array of ${et}: pass an array literal [..], a module's constant table by name, or zeros(n), fill(n, v), iota(n), rand(n, seed)`);
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
  // The host array made holds n elements' stored lanes (a 3-lane vector stores 4) or bytes (structs); it too is bounded.
  const unit = elem.kind === "vector" ? storedLanes(elem) : elem.kind === "struct" ? sizeOf(elem) : 1;
  if (n * BigInt(unit) > MAX_ELEMENTS) {
    const held = elem.kind === "vector" ? `${typeToString(elem.elem)} lanes` : "bytes";
    ctx.log.error("GK5007", args[0]!.span, `${name}(${n}) of ${et} would hold ${n * BigInt(unit)} ${held}; an array a launch statement makes holds at most ${MAX_ELEMENTS}, so at most ${MAX_ELEMENTS / BigInt(unit)} ${et}`);
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

function dims(ctx: FnCtx, es: readonly ast.Expr[], what: "grid" | "block", at: ast.LaunchDecl["span"]) {
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
    const c = checkShape(what, sizes, ctx.module.target.limits);
    if (!c.ok && c.why === "size") {
      ctx.log.error("GK5006", e.span, `${what} size ${"xyz"[c.axis]} must be between 1 and ${c.max}, but it is ${String(c.got)}`);
      return undefined;
    }
  }
  const c = checkShape(what, sizes, ctx.module.target.limits);
  if (c.ok) return c.dims;
  if (c.why === "threads") ctx.log.error("GK5006", es[0]!.span, `a block has at most ${ctx.module.target.limits.blockThreads} threads, but block(${c.dims.join(", ")}) has ${c.threads}`);
  return undefined;
}

/**
 * Calls: casts (`f32(x)`), vector constructors (`f32x4(...)`, vectors.ts), math builtins (lane
 * by lane on vectors), vector builtins and vector loads (vectors.ts), atomics, warp
 * operations, and device functions.
 */
import type * as ast from "../parser/ast.js";
import { atomicEntries, atomicTypeName } from "../ir/atomicBuiltins.js";
import { admittedScalars, atomicBuiltin, lookupBuiltin, type AtomicEntry, type CacheHintEntry, type MathEntry, type MemoryEntry, type VectorEntry, type WarpEntry } from "../ir/builtins.js";
import { checkOrderedLoad } from "./memoryOps.js";
import { checkHintedLoad } from "./cacheHints.js";
import { evalCast } from "../ir/evalOp.js";
import type { CallArg, Expr } from "../ir/nodes.js";
import { isFloat, isInt, isLaneScalar, isScalarName, isVectorLane, laneScalar, memorySpace, SCALAR_NAMES, scalarType, T, typeToString, vectorType, vectorSpelling, vectorTypeNamed, type ScalarType, type ValueType, type VectorType, type VoidType } from "../ir/types.js";
import { MATCH_TYPES, SHUFFLE_TYPES } from "../ir/warpBuiltins.js";
import type { ParamSig } from "./symbols.js";
import { constExpr, textOf, tyName, type FnCtx, type ScalarExpr, type ValueExpr } from "./context.js";
import { checkGenericCall } from "./genericArgs.js";
import { refuseVectorSpelling } from "./typeExpr.js";
import { checkAs, checkCondition, checkExpr, checkValue, constantTypeFor, materialize, untypedOf } from "./expr.js";
import { splat } from "./operators.js";
import { checkVectorBuiltin, checkVectorConstructor, checkVectorLoad } from "./vectors.js";
import { arrayBase, checkIndices } from "./memory.js";
import { checkCallArg } from "./callArgs.js";
import { checkLdmatrix, checkMma } from "./mma.js";
import { builtinFunctionNames, DATA_HELPERS, SPECIALS } from "../ir/names.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { castSource, type Untyped } from "./untyped.js";
import { checkBitcast } from "./bitcast.js";

export function checkCall(ctx: FnCtx, e: ast.CallExpr, expected?: ValueType): Expr | undefined {
  const name = e.callee.name;
  const local = ctx.scopes.lookup(name);
  const m = local ? undefined : ctx.module.lookup(name);
  if (name === "bitcast") return checkBitcast(ctx, e);
  if (e.typeArgs && m?.kind !== "generic") return notGeneric(ctx, e, e.typeArgs, local?.kind === "value" || local?.kind === "constParam");
  if (local?.kind === "typeParam") return checkCast(ctx, e, local.type);
  // A function parameter: its declared signature; the call reaches the bound function (the check of a definition names none: its IR is never run).
  if (local?.kind === "fnParam") return checkUserCall(ctx, e, local.callee ?? local.name, local.sig.params, local.sig.returnType);
  if (local) {
    const what = local.kind === "array" ? "a local array" : local.kind === "constParam" ? "a constant parameter" : "a local variable";
    if (local.kind !== "poisoned") ctx.log.error("GK2004", e.callee.span, `'${name}' is ${what}, not a function`);
    // A poisoned name's error may be outside this body (a function parameter whose signature does not resolve): no more about this body.
    else ctx.silentFailures++;
    return undefined;
  }
  if (m) {
    switch (m.kind) {
      case "function":
        return checkUserCall(ctx, e, m.irName, m.sig.params, m.sig.returnType);
      case "generic":
        if (m.of === "function") return checkGenericCall(ctx, e, m);
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a device_kernel: kernels are launched, not called; move the shared code into a device_fn`);
        return undefined;
      case "kernel":
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a device_kernel: kernels are launched, not called; move the shared code into a device_fn`);
        return undefined;
      case "struct":
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a struct type, not a function: write a value of it as { ${m.type.fields.map((f) => `${f.name}: ...`).join(", ")} }`);
        return undefined;
      case "poisoned":
        return undefined;
      default:
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a constant, not a function`);
        return undefined;
    }
  }
  if (isScalarName(name)) return checkCast(ctx, e, scalarType(name));
  const vt = vectorTypeNamed(name);
  if (vt) return checkVectorConstructor(ctx, e, vt);
  if (vectorSpelling(name)) {
    refuseVectorSpelling(ctx, name, e.callee.span);
    for (const a of e.args) checkExpr(ctx, a); // still report what is wrong inside the arguments
    return undefined;
  }
  const b = lookupBuiltin(name);
  if (b) {
    switch (b.rule.kind) {
      case "math":
        return checkMath(ctx, e, b as MathEntry, expected);
      case "vector":
        return checkVectorBuiltin(ctx, e, b as VectorEntry, expected);
      case "vectorMemory":
        if (b.rule.op === "load") return checkVectorLoad(ctx, e, b.rule.lanes);
        ctx.log.error("GK3018", e.span, `${name}() has no value; call it as a statement: '${name}(arr, i, v);'`);
        return undefined;
      case "atomic":
        return checkAtomic(ctx, e, atomicBuiltin(b.rule.op));
      case "sync":
        ctx.log.error("GK3018", e.span, `${name}() has no value; call it as a statement: '${name}();'`);
        return undefined;
      case "asyncCopy":
        ctx.log.error("GK3018", e.span, `${name}() has no value; call it as a statement: '${textOf(ctx, e.span)};'`);
        return undefined;
      case "memory":
        return checkOrderedLoad(ctx, e, b as MemoryEntry);
      case "cacheHint":
        if (b.rule.op === "load") return checkHintedLoad(ctx, e, b as CacheHintEntry);
        ctx.log.error("GK3018", e.span, `${name}() has no value; call it as a statement: '${name}(arr, i, v);'`);
        return undefined;
      case "warp":
        return checkWarp(ctx, e, b as WarpEntry, expected);
      case "index":
        if (b.rule.axes) break;
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a value, not a function: write ${name}`);
        return undefined;
      case "constant":
        ctx.log.error("GK2004", e.callee.span, `'${name}' is a constant (${String(b.rule.value)}), not a function: write ${name}`);
        return undefined;
    }
  }
  if (SPECIALS.has(name)) {
    ctx.log.error("GK2004", e.callee.span, `'${name}' is not a function: use ${name}.x, ${name}.y or ${name}.z`);
    return undefined;
  }
  if (name === "view") {
    ctx.log.error("GK3013", e.span, "view(array, offset, length) makes a view for a device_fn's view<T> parameter; it can only be such an argument, not a value");
    return undefined;
  }
  if (DATA_HELPERS.has(name)) {
    ctx.log.error("GK2004", e.span, `${name}() makes launch data; it can only be an argument of a 'launch' statement`);
    return undefined;
  }
  if (name === "void") {
    ctx.log.error("GK3010", e.span, "cannot convert to void");
    return undefined;
  }
  const spelled = ctx.module.target.spelling(name);
  if (spelled) {
    const rule = lookupBuiltin(spelled.gk)?.rule;
    const params = rule?.kind === "warp" ? rule.params.join(", ") : rule?.kind === "sync" ? "" : "...";
    ctx.log.error("GK2004", e.callee.span, `unknown function '${name}': in gk, write ${spelled.gk}(${params})${spelled.note ? `; ${spelled.note}` : ""}`);
    return undefined;
  }
  const candidates = [...ctx.module.names(), ...builtinFunctionNames(), ...SCALAR_NAMES];
  ctx.log.error("GK2004", e.callee.span, `unknown function '${name}'${didYouMean(name, candidates)}`);
  return undefined;
}

/** `a, b or c`. */
function orList(names: readonly string[]): string {
  return names.length <= 2 ? names.join(" or ") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** `f<...>(x)` where `f` is not a generic function; `a < b > (c)` parses so too, and with a value `a` is likely a comparison. */
function notGeneric(ctx: FnCtx, e: ast.CallExpr, typeArgs: ast.GenericArgs, isValue: boolean): undefined {
  const name = e.callee.name;
  const hint = isValue ? `; if you meant comparisons, write them in parentheses: (${name} < ...) and (... > ...)` : "";
  ctx.log.error("GK3030", typeArgs.span, `'${name}' is not a generic function: call it without <...>${hint}`);
  return undefined;
}

function arityError(ctx: FnCtx, e: ast.CallExpr, want: string): undefined {
  ctx.log.error("GK3004", e.span, `${e.callee.name}() takes ${want}, but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
  return undefined;
}

// ---------------------------------------------------------------- casts

export function arityOf(ctx: FnCtx, e: ast.CallExpr, want: string): undefined {
  return arityError(ctx, e, want);
}

function checkCast(ctx: FnCtx, e: ast.CallExpr, to: ScalarType): Expr | undefined {
  if (e.args.length !== 1) return arityError(ctx, e, "1 argument");
  const arg = e.args[0]!;
  const u = untypedOf(ctx, arg);
  if (ctx.poisoned.has(arg)) return undefined;
  if (u) return castConstant(ctx, u, to, e);
  const v = checkValue(ctx, arg);
  if (!v) return undefined;
  if (v.type === to) return v;
  if (v.type.kind !== "scalar") {
    const text = textOf(ctx, arg.span);
    const hint = v.type.kind === "vector" && isVectorLane(to, v.type.lanes) ? `; to convert lane by lane write ${typeToString(vectorType(to, v.type.lanes))}(${text})` : "";
    ctx.log.error("GK3010", e.span, `${to.name}() converts scalars, but '${text}' is ${typeToString(v.type)}${hint}`);
    return undefined;
  }
  return { kind: "cast", type: to, operand: v, span: e.span };
}

export function castConstant(ctx: FnCtx, u: Untyped, to: ScalarType, e: ast.CallExpr): ScalarExpr | undefined {
  const src = castSource(u);
  if (!src) {
    ctx.log.error("GK3006", e.args[0]!.span, `the constant ${u.value} does not fit in any 64-bit integer type`);
    return undefined;
  }
  return constExpr(to, evalCast(src.type, to, src.value), e.span);
}

// ---------------------------------------------------------------- math

/**
 * A math builtin: every operand of one type (untyped constants take it). On vectors it works
 * lane by lane: operands of one vector type, or scalars of its lane type, which are splatted.
 */
function checkMath(ctx: FnCtx, e: ast.CallExpr, b: MathEntry, expected?: ValueType): Expr | undefined {
  const rule = b.rule;
  const sig = Array.from({ length: rule.arity }, (_, i) => "xyz"[i]).join(", ");
  if (e.args.length !== rule.arity) return arityError(ctx, e, `${rule.arity} argument${rule.arity === 1 ? "" : "s"} (${b.name}(${sig}))`);
  const allowed = admittedScalars(rule.operands);
  // Typed arguments fix the operand type; untyped constants then take it.
  const untyped = e.args.map((a) => untypedOf(ctx, a));
  if (e.args.some((a) => ctx.poisoned.has(a))) return undefined;
  const typed = new Map<number, ValueExpr>();
  for (let i = 0; i < e.args.length; i++) {
    if (untyped[i]) continue;
    const v = checkValue(ctx, e.args[i]!, expected);
    if (!v) return undefined;
    typed.set(i, v);
  }
  const vector = [...typed.values()].find((v) => v.type.kind === "vector")?.type as VectorType | undefined;
  const firstTyped = [...typed.values()][0];
  let t: ScalarType;
  const want = constantTypeFor(expected);
  if (vector) t = vector.elem;
  else if (firstTyped) {
    const lane = laneScalar(firstTyped.type);
    if (!lane) {
      ctx.log.error("GK3005", e.args[[...typed.keys()][0]!]!.span, `${b.name}() takes ${allowed.map((x) => x.name).join(" or ")}, or vectors of them, but '${textOf(ctx, e.args[[...typed.keys()][0]!]!.span)}' is ${typeToString(firstTyped.type)}`);
      return undefined;
    }
    t = lane;
  } else if (rule.result === "operand" && want && allowed.includes(want)) t = want;
  else t = rule.operands.scalars === "int" ? T.i32 : rule.operands.scalars === "float" || untyped.some((u) => u?.kind === "float") ? T.f32 : T.i32;
  if (!allowed.includes(t)) {
    const arg = e.args[[...typed.keys()][0] ?? 0]!;
    const text = textOf(ctx, arg.span);
    const fix = vector ? "" : rule.operands.scalars === "int" ? `: write ${b.name}(i32(${text}))` : isFloat(t) ? "" : `: write ${b.name}(f32(${text}))`;
    const takes = vector ? `vectors of ${orList(allowed.filter(isLaneScalar).map((x) => x.name))}` : orList(allowed.map((x) => x.name));
    ctx.log.error("GK3005", arg.span, `${b.name}() takes ${takes}, but '${text}' is ${vector ? typeToString(vector) : t.name}${fix}`);
    return undefined;
  }
  const opType: ValueType = vector ?? t;
  const args: ValueExpr[] = [];
  for (let i = 0; i < e.args.length; i++) {
    const u = untyped[i];
    let v: ValueExpr | undefined = u ? materialize(ctx, u, t, e.args[i]!.span) : typed.get(i)!;
    if (!v) return undefined;
    if (vector && v.type === t) v = splat(vector, v);
    if (v.type !== opType) {
      ctx.log.error("GK3001", e.args[i]!.span, `mixed types in ${b.name}(): '${textOf(ctx, e.args[0]!.span)}' is ${typeToString(opType)} but '${textOf(ctx, e.args[i]!.span)}' is ${typeToString(v.type)}; write ${typeToString(opType)}(${textOf(ctx, e.args[i]!.span)})`);
      return undefined;
    }
    args.push(v);
  }
  const resultLane = rule.result === "bool" ? T.bool : rule.result === "i32" ? T.i32 : t;
  const result: ValueType = vector ? vectorType(resultLane, vector.lanes) : resultLane;
  return { kind: "builtin", type: result, name: b.name, args, span: e.span };
}

// ---------------------------------------------------------------- atomics

function checkAtomic(ctx: FnCtx, e: ast.CallExpr, b: AtomicEntry): Expr | undefined {
  const values = b.rule.op === "cas" ? 2 : 1;
  const shape = b.rule.op === "cas" ? `${b.name}(array, index, compare, value)` : `${b.name}(array, index, value)`;
  if (e.args.length !== 2 + values) return arityError(ctx, e, `${2 + values} arguments: ${shape}`);
  const target = arrayBase(ctx, e.args[0]!);
  if (!target) return undefined;
  const { array } = target;
  const space = memorySpace(array.type);
  if (space === "local") {
    ctx.log.error("GK3017", e.args[0]!.span, `${b.name}() works on global and shared memory, but '${array.name}' is a local array, private to its thread: update it directly`);
    return undefined;
  }
  // A view's memory is its caller's: every call that makes it is checked to be of global or
  // shared memory (atomicViews.ts). f32 add and sub differ between the two (global memory's
  // flushes subnormals), which only the array itself says.
  if (space === "any" && (b.rule.op === "add" || b.rule.op === "sub") && elem0(array) === "f32") {
    ctx.log.error("GK3017", e.args[0]!.span, `${b.name}() of f32 flushes subnormals in global memory and keeps them in shared memory, but '${array.name}' is a view, which may be of either: pass the global or shared array itself (a shared T[N] parameter)`);
    return undefined;
  }
  if (target.readonly) {
    ctx.log.error("GK2007", e.args[0]!.span, `${b.name}() writes to '${array.name}', which is readonly (${tyName(array.type)})`);
    return undefined;
  }
  const elem = array.type.elem;
  const accepted = elem.kind === "scalar" ? b.rule.types.includes(elem.name) : elem.kind === "vector" && (b.rule.vectors ?? []).some((v) => v === atomicTypeName(elem));
  if (!accepted || (elem.kind !== "scalar" && elem.kind !== "vector")) {
    const types = [...b.rule.types, ...(b.rule.vectors ?? [])].join(", ");
    ctx.log.error("GK3017", e.args[0]!.span, `${b.name}() works on ${types} elements, but '${array.name}' holds ${typeToString(elem)}${elem.kind === "scalar" ? "" : `; ${atomicVectorHint()}`}`);
    return undefined;
  }
  const indices = checkIndices(ctx, array, [...target.indices, e.args[1]!], e);
  if (!indices) return undefined;
  const args: ValueExpr[] = [];
  for (let i = 2; i < e.args.length; i++) {
    const v = checkAs(ctx, e.args[i]!, elem, `the ${i === 2 && values === 2 ? "compare value" : "value"} of ${b.name}() on '${array.name}'`);
    if (!v) return undefined;
    args.push(v);
  }
  return { kind: "atomic", type: elem, op: b.rule.op, array, indices, args, span: e.span };
}

/** What a refused atomic on a vector or struct element is told: the vectors atomics do take. */
function atomicVectorHint(): string {
  const takers = atomicEntries.filter((a) => a.rule.vectors?.length).map((a) => `${a.name}() on ${a.rule.vectors!.join(" and ")}`);
  return `atomics update scalar elements, and vectors only in ${takers.join(", ")} (the GPU's own instructions)`;
}

/** The element type's name of an array of scalars, else undefined. */
function elem0(array: { readonly type: { readonly elem: ValueType } }): string | undefined {
  return array.type.elem.kind === "scalar" ? array.type.elem.name : undefined;
}

// ---------------------------------------------------------------- warp operations

/**
 * Shuffles take a value of a numeric type (an untyped constant takes the expected type, or
 * its default) and a lane operand of any integer type, converted to i32 (only its low five
 * bits count); votes take a bool; syncWarp takes nothing and has no value.
 */
function checkWarp(ctx: FnCtx, e: ast.CallExpr, b: WarpEntry, expected?: ValueType): Expr | undefined {
  const { params, shape } = b.rule;
  if (e.args.length !== params.length) {
    const n = params.length;
    return arityError(ctx, e, n === 0 ? "no arguments" : `${n} argument${n === 1 ? "" : "s"} (${b.name}(${params.join(", ")}))`);
  }
  const warp = (type: ScalarType | VoidType, args: readonly Expr[]): Expr => ({ kind: "warp", type, op: b.name, args, span: e.span });
  switch (shape) {
    case "sync":
      return warp(T.void, []);
    case "vote": {
      const pred = checkCondition(ctx, e.args[0]!, `the argument of ${b.name}()`);
      return pred && warp(b.rule.result === "u32" ? T.u32 : T.bool, [pred]);
    }
    case "match": {
      const value = matchValue(ctx, e.args[0]!, b);
      return value && warp(b.rule.result === "u32" ? T.u32 : T.bool, [value]);
    }
    case "mma":
      return checkMma(ctx, e, b);
    case "ldmatrix":
      return checkLdmatrix(ctx, e, b);
    case "shuffle": {
      const value = shuffleValue(ctx, e, b, expected);
      const lane = shuffleLane(ctx, e.args[1]!, b);
      return value && lane && warp(value.type, [value, lane]);
    }
  }
}

function shuffleValue(ctx: FnCtx, e: ast.CallExpr, b: WarpEntry, expected?: ValueType): ScalarExpr | undefined {
  const arg = e.args[0]!;
  const allowed = SHUFFLE_TYPES.map((n) => scalarType(n));
  const u = untypedOf(ctx, arg);
  if (ctx.poisoned.has(arg)) return undefined;
  const want = expected?.kind === "scalar" && allowed.includes(expected) ? expected : undefined;
  if (u) return materialize(ctx, u, want, arg.span);
  const v = checkValue(ctx, arg, want);
  if (!v) return undefined;
  if (v.type.kind !== "scalar" || !allowed.includes(v.type)) {
    const text = textOf(ctx, arg.span);
    const fix = v.type.kind === "scalar" ? `write ${b.name}(i32(${text}), ...), or use ballot(${text})` : "shuffle its lanes (or fields) one by one";
    ctx.log.error("GK3005", arg.span, `${b.name}() moves integers and floats, but '${text}' is ${typeToString(v.type)}: ${fix}`);
    return undefined;
  }
  return v as ScalarExpr;
}

/** The value `matchAny` and `matchAll` compare: an integer (an untyped constant is i32). */
function matchValue(ctx: FnCtx, arg: ast.Expr, b: WarpEntry): ValueExpr | undefined {
  const u = untypedOf(ctx, arg);
  if (ctx.poisoned.has(arg)) return undefined;
  if (u) return materialize(ctx, u, T.i32, arg.span);
  const v = checkValue(ctx, arg);
  if (!v) return undefined;
  if (v.type.kind !== "scalar" || !MATCH_TYPES.includes(v.type.name)) {
    const text = textOf(ctx, arg.span);
    const fix = v.type.kind === "scalar" && isFloat(v.type) ? `: convert it, as in ${b.name}(i32(${text}))` : v.type.kind !== "scalar" ? ": compare its lanes or fields one by one" : "";
    ctx.log.error("GK3005", arg.span, `${b.name}() compares ${MATCH_TYPES.join(", ")} values, but '${text}' is ${typeToString(v.type)}${fix}`);
    return undefined;
  }
  return v;
}

/** A shuffle's lane operand: any integer, as i32. */
function shuffleLane(ctx: FnCtx, arg: ast.Expr, b: WarpEntry): ValueExpr | undefined {
  const what = `the ${b.rule.params[1]} of ${b.name}()`;
  const u = untypedOf(ctx, arg);
  if (ctx.poisoned.has(arg)) return undefined;
  if (u) return materialize(ctx, u, T.i32, arg.span);
  const v = checkValue(ctx, arg, T.i32);
  if (!v) return undefined;
  if (v.type.kind !== "scalar" || !isInt(v.type)) {
    ctx.log.error("GK3005", arg.span, `${what} must be an integer, but '${textOf(ctx, arg.span)}' is ${typeToString(v.type)}: write i32(${textOf(ctx, arg.span)})`);
    return undefined;
  }
  return v.type === T.i32 ? v : { kind: "cast", type: T.i32, operand: v, span: v.span };
}

// ---------------------------------------------------------------- device functions

/**
 * A call of a device function (or of a generic function's instance) with this signature;
 * `pre` holds arguments already checked (while inferring generic arguments), by position.
 */
export function checkUserCall(
  ctx: FnCtx,
  e: ast.CallExpr,
  irName: string,
  params: readonly ParamSig[],
  returnType: ValueType | VoidType,
  pre: ReadonlyMap<number, ValueExpr> = new Map(),
): Expr | undefined {
  const name = e.callee.name;
  if (ctx.kind === "const") {
    ctx.log.error("GK3014", e.span, `a call of '${name}' is not a constant`);
    return undefined;
  }
  if (e.args.length !== params.length) {
    const list = params.map((p) => `${p.name}: ${tyName(p.type)}`).join(", ");
    return arityError(ctx, e, `${params.length} argument${params.length === 1 ? "" : "s"} (${name}(${list}))`);
  }
  const args: CallArg[] = [];
  let ok = true;
  params.forEach((p, i) => {
    const a = checkCallArg(ctx, p, e.args[i]!, name, pre.get(i));
    if (a) args.push(a);
    else ok = false;
  });
  if (!ok) return undefined;
  ctx.calls.push({ callee: irName, span: e.callee.span });
  return { kind: "call", type: returnType, callee: irName, args, span: e.span };
}

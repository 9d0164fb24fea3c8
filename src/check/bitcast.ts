/**
 * `bitcast<T>(v)` (spec: language.md, "Bit reinterpretation"): the bits of `v` as a value of
 * T, both numeric scalars or vectors of as many value bits (src/ir/bitcast.ts). An untyped
 * constant operand takes the unsigned integer type of T's width, or its signed one where only
 * that fits, or (a float constant) the float type of that width: `bitcast<f32>(0x7fc00001)`,
 * `bitcast<u32>(1.0)`.
 */
import type * as ast from "../parser/ast.js";
import { isBitcastType, valueBits, type BitcastType } from "../ir/bitcast.js";
import type { Expr } from "../ir/nodes.js";
import { allVectorTypes, isScalarName, SCALAR_NAMES, scalarType, T, typeToString, vectorTypeNamed, type ScalarType, type ValueType } from "../ir/types.js";
import { textOf, type FnCtx } from "./context.js";
import { checkValue, materialize, untypedOf } from "./expr.js";
import { convertUntyped, type Untyped } from "./untyped.js";

const EXAMPLE = "bitcast<u32>(x)";

export function checkBitcast(ctx: FnCtx, e: ast.CallExpr): Expr | undefined {
  const given = e.typeArgs;
  if (!given || given.args.length !== 1) {
    ctx.log.error("GK3030", given?.span ?? e.callee.span, `bitcast takes one type, the result's: write ${EXAMPLE}`);
    for (const a of e.args) checkValue(ctx, a);
    return undefined;
  }
  const to = resultType(ctx, given.args[0]!);
  if (e.args.length !== 1) {
    ctx.log.error("GK3004", e.span, `bitcast<T>(v) takes 1 argument, but ${e.args.length} were given`);
    return undefined;
  }
  const arg = e.args[0]!;
  const u = untypedOf(ctx, arg);
  if (ctx.poisoned.has(arg) || !to) return undefined;
  const v = u ? constantOperand(ctx, u, to, arg) : checkValue(ctx, arg);
  if (!v) return undefined;
  const from = v.type as ValueType;
  if (!isBitcastType(from)) {
    ctx.log.error("GK3010", arg.span, `bitcast reinterprets numbers and vectors of numbers, but '${textOf(ctx, arg.span)}' is ${typeToString(from)}`);
    return undefined;
  }
  if (valueBits(from) !== valueBits(to)) {
    const same = sameSizeTypes(from);
    ctx.log.error(
      "GK3020",
      e.span,
      `bitcast needs types of one size, but '${textOf(ctx, arg.span)}' is ${typeToString(from)} (${valueBits(from)} bits) and ${typeToString(to)} is ${valueBits(to)} bits${same ? `; ${typeToString(from)} can become ${same}` : ""}`,
    );
    return undefined;
  }
  if (from === to) return v;
  return { kind: "bitcast", type: to, operand: v, span: e.span };
}

/** The result type named by the generic argument: a numeric scalar or vector type, or a type parameter standing for one. */
function resultType(ctx: FnCtx, a: ast.Expr): BitcastType | undefined {
  let x = a;
  while (x.kind === "Paren") x = x.expr;
  let t: ValueType | undefined;
  if (x.kind === "Name") {
    if (isScalarName(x.name)) t = scalarType(x.name);
    else t = vectorTypeNamed(x.name);
    const local = ctx.scopes.lookup(x.name);
    const m = local ? undefined : ctx.module.lookup(x.name);
    if (local?.kind === "typeParam") t = local.type;
    else if (m?.kind === "struct") t = m.type;
  }
  if (!t) {
    ctx.log.error("GK3031", a.span, `bitcast's type argument is the result's type, a number or vector type such as u32 or f16x2, not '${textOf(ctx, a.span)}'`);
    return undefined;
  }
  if (!isBitcastType(t)) {
    ctx.log.error("GK3010", a.span, `bitcast gives numbers and vectors of numbers, not ${typeToString(t)}`);
    return undefined;
  }
  return t;
}

/** An untyped constant operand, typed by the result's width (see the file's comment). */
function constantOperand(ctx: FnCtx, u: Untyped, to: BitcastType, arg: ast.Expr): Expr | undefined {
  const bits = valueBits(to);
  const ints: Record<number, readonly ScalarType[]> = { 8: [T.u8, T.i8], 16: [T.u16, T.i16], 32: [T.u32, T.i32], 64: [T.u64, T.i64] };
  const floats: Record<number, ScalarType> = { 16: T.f16, 32: T.f32, 64: T.f64 };
  const candidates = u.kind === "float" ? [floats[bits]] : ints[bits];
  const type = candidates?.find((t) => t && convertUntyped(u, t).ok) ?? candidates?.[0];
  if (!type) {
    ctx.log.error("GK3005", arg.span, `give the constant '${textOf(ctx, arg.span)}' a type of ${bits} bits to reinterpret it, as in bitcast<${typeToString(to)}>(u${Math.min(bits, 64)}(...))`);
    return undefined;
  }
  return materialize(ctx, u, type, arg.span);
}

/** The types a value of `from` can become (the others of its size), for the message: `u32, i32 or f16x2`. */
function sameSizeTypes(from: BitcastType): string | undefined {
  const all: BitcastType[] = [...SCALAR_NAMES.map(scalarType), ...allVectorTypes()];
  const names = all.filter((t) => t !== from && isBitcastType(t) && valueBits(t) === valueBits(from)).map(typeToString);
  return names.length === 0 ? undefined : names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

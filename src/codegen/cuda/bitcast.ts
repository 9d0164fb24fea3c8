/**
 * `bitcast<T>(v)` in CUDA (src/ir/bitcast.ts has its meaning): between a float and an integer
 * of its width, CUDA's intrinsics (`__float_as_uint`, `__ushort_as_half`, ...; an integer of
 * the other signedness through a C cast, which keeps the bits); between integers of one
 * width, a C cast; f16 ↔ bf16 through their u16 bits; anything else (vectors) the prelude's
 * `gk_bitcast<To>(v)`, a memcpy of the bytes. Each is a register move or nothing once nvcc
 * has compiled it.
 */
import type { BitcastExpr } from "../../ir/nodes.js";
import { isFloat, isHalf, isInt, T, type IntName, type ScalarType } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { CUDA } from "./settings.js";
import type { TypeNames } from "./types.js";

type FloatKey = keyof typeof CUDA.bitcast;

/** The intrinsics between the float `f` and the integer `i` of its width, with C casts where the intrinsic's integer has the other signedness. */
function floatInt(f: ScalarType, i: ScalarType): { readonly toInt: (x: string) => string; readonly toFloat: (x: string) => string } {
  const row = CUDA.bitcast[f.name as FloatKey];
  invariant(row, `no bitcast intrinsics for ${f.name}`);
  const direct = row[i.name as IntName];
  if (direct) return { toInt: (x) => `${direct[0]}(${x})`, toFloat: (x) => `${direct[1]}(${x})` };
  const [other, pair] = Object.entries(row)[0]! as [IntName, readonly [string, string]];
  return { toInt: (x) => `(${CUDA.types[i.name]})${pair[0]}(${x})`, toFloat: (x) => `${pair[1]}((${CUDA.types[other]})${x})` };
}

/** Whether the bitcast goes through the prelude's `gk_bitcast` (a vector on either side). */
export function bitcastNeedsHelper(e: BitcastExpr): boolean {
  return e.type.kind !== "scalar" || e.operand.type.kind !== "scalar";
}

/** The CUDA text of `e`, its operand's text being `x` (a primary expression or parenthesized). */
export function bitcastText(e: BitcastExpr, x: string, types: TypeNames): string {
  const from = e.operand.type;
  const to = e.type;
  if (from.kind !== "scalar" || to.kind !== "scalar") return `${CUDA.internalPrefix}bitcast<${types.name(to)}>(${x})`;
  if (isInt(from) && isInt(to)) return `(${CUDA.types[to.name]})(${x})`;
  if (isFloat(from) && isInt(to)) return floatInt(from, to).toInt(x);
  if (isInt(from) && isFloat(to)) return floatInt(to, from).toFloat(x);
  // f16 ↔ bf16: through the u16 bits.
  invariant(isHalf(from) && isHalf(to), `bitcast of ${from.name} to ${to.name}`);
  return floatInt(to, T.u16).toFloat(floatInt(from, T.u16).toInt(x));
}

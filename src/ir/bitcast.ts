/**
 * `bitcast<T>(v)`: the bits of a value read as another type of as many value bits (spec:
 * language.md, "Bit reinterpretation"). The types are the numeric scalars and the vectors of
 * them; a type's value bits are its lanes times its lane width (a 3-lane vector's padding is
 * no part of its value), so `f32 ↔ u32`, `f16x2 ↔ u32`, `u32x4 ↔ f64x2` are bitcasts and
 * `f32x3 ↔ u32x4` is not. Lane 0 holds the lowest bits, as on the GPU (little endian).
 *
 * The simulator's definition is one JavaScript expression per pair of types (`bitcastJs`):
 * the operand's lanes written into a scratch buffer through the views of their types, the
 * result's lanes read back through the views of its own. Constant folding runs the same
 * expression (`evalBitcast`). f16 and bf16 lanes go through their bits (src/ir/halves.ts
 * keeps a NaN's payload in the number it makes), so every bit pattern survives them.
 */
import { invariant } from "../util.js";
import type { Value } from "./composite.js";
import { compileJs } from "./evalOp.js";
import { SCALAR_INFO, typeToString, type ScalarName, type ScalarType, type ValueType, type VectorType } from "./types.js";

/** A type bitcast takes or gives: a scalar or a vector of numbers (not bool). */
export type BitcastType = ScalarType | VectorType;

/** Whether `t` can be a bitcast's operand or result. */
export function isBitcastType(t: ValueType): t is BitcastType {
  const lane = t.kind === "scalar" ? t : t.kind === "vector" ? t.elem : undefined;
  return lane !== undefined && lane.name !== "bool";
}

/** The bits of a value of `t`: lanes × lane width. */
export function valueBits(t: BitcastType): number {
  const lane = t.kind === "scalar" ? t : t.elem;
  return SCALAR_INFO[lane.name].bits * (t.kind === "scalar" ? 1 : t.lanes);
}

/** The view of the scratch buffer (`$.bits`, src/ir/jsrt.ts) that holds a lane of each scalar type. */
const VIEW: Readonly<Record<Exclude<ScalarName, "bool">, string>> = {
  i8: "i8", u8: "u8", i16: "i16", u16: "u16", i32: "i32", u32: "u32", i64: "i64", u64: "u64",
  f16: "u16", bf16: "u16", f32: "f32", f64: "f64",
};

/** JavaScript that writes lane `k` of type `t`, the value `x`, into the scratch buffer. */
function writeLane(t: ScalarType, k: number, x: string): string {
  const name = t.name as keyof typeof VIEW;
  const bits = name === "f16" ? `$.f16Bits(${x})` : name === "bf16" ? `$.bf16Bits(${x})` : x;
  return `$.bits.${VIEW[name]}[${k}] = ${bits}`;
}

/** JavaScript that reads lane `k` of type `t` from the scratch buffer. */
function readLane(t: ScalarType, k: number): string {
  const name = t.name as keyof typeof VIEW;
  const at = `$.bits.${VIEW[name]}[${k}]`;
  return name === "f16" ? `$.fromF16Bits(${at})` : name === "bf16" ? `$.fromBf16Bits(${at})` : at;
}

function lanesOf(t: BitcastType): { readonly elem: ScalarType; readonly n: number } {
  return t.kind === "scalar" ? { elem: t, n: 1 } : { elem: t.elem, n: t.lanes };
}

/**
 * The simulator's `bitcast<to>(x)` of an operand of type `from`, `x` a JavaScript name (read
 * once per lane: the caller evaluates the operand into it). A comma expression, so it is a
 * single expression wherever it is pasted.
 */
export function bitcastJs(from: BitcastType, to: BitcastType, x: string): string {
  invariant(valueBits(from) === valueBits(to), `bitcast of ${typeToString(from)} to ${typeToString(to)}: sizes differ`);
  const src = lanesOf(from);
  const dst = lanesOf(to);
  const writes = src.n === 1 ? [writeLane(src.elem, 0, x)] : Array.from({ length: src.n }, (_, k) => writeLane(src.elem, k, `${x}[${k}]`));
  const reads = dst.n === 1 ? readLane(dst.elem, 0) : `[${Array.from({ length: dst.n }, (_, k) => readLane(dst.elem, k)).join(", ")}]`;
  return `(${[...writes, reads].join(", ")})`;
}

/** `bitcast<to>(v)` of a constant `v` of type `from`, as the simulator computes it. */
export function evalBitcast(from: BitcastType, to: BitcastType, v: Value): Value {
  const fn = compileJs(`bc:${typeToString(from)}:${typeToString(to)}`, 1, bitcastJs(from, to, "a")) as unknown as (x: Value) => Value;
  return fn(v);
}

/**
 * Values on the host side of a launch, one place for each fact about them: which TypedArray
 * holds each element type, and which element type a TypedArray holds.
 */
import type { ScalarName, ScalarValue } from "./types.js";

export type TypedArrayFor<N extends ScalarName> = N extends "bool"
  ? Uint8Array
  : N extends "i32"
    ? Int32Array
    : N extends "u32"
      ? Uint32Array
      : N extends "i64"
        ? BigInt64Array
        : N extends "u64"
          ? BigUint64Array
          : N extends "f32"
            ? Float32Array
            : Float64Array;

export type AnyTypedArray =
  | Uint8Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

export const TYPED_ARRAY = {
  bool: Uint8Array,
  i32: Int32Array,
  u32: Uint32Array,
  i64: BigInt64Array,
  u64: BigUint64Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

export function newTypedArray(elem: ScalarName, n: number): AnyTypedArray {
  return new TYPED_ARRAY[elem](n);
}

/** The element type a TypedArray holds, or undefined for other arrays. */
export function elemOfTypedArray(a: unknown): ScalarName | undefined {
  if (a instanceof Float32Array) return "f32";
  if (a instanceof Float64Array) return "f64";
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof BigInt64Array) return "i64";
  if (a instanceof BigUint64Array) return "u64";
  if (a instanceof Uint8Array) return "bool";
  return undefined;
}

/** A kernel argument on the host: a scalar value, or a TypedArray of an array parameter's elements. */
export type ArgValue = ScalarValue | AnyTypedArray;

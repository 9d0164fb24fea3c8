/**
 * Values, one place for each fact about them: the range of each integer type, what host
 * value a scalar parameter accepts and how it is converted (the API, the simulator and the
 * gk/testing harness all coerce through `coerceScalar`, each wording its own messages),
 * which TypedArray holds each element type, and which element type a TypedArray holds.
 */
import type { IntName, ScalarName, ScalarType, ScalarValue } from "./types.js";

/** The smallest and largest value of each integer type. */
export const INT_RANGES: Readonly<Record<IntName, readonly [bigint, bigint]>> = {
  i32: [-(1n << 31n), (1n << 31n) - 1n],
  u32: [0n, (1n << 32n) - 1n],
  i64: [-(1n << 63n), (1n << 63n) - 1n],
  u64: [0n, (1n << 64n) - 1n],
};

/**
 * A host value as a value of scalar type `t`: a boolean for bool; a number for floats (f32
 * rounded); an integer (a safe-integer number, or a bigint) in range for integers, as a
 * number for 32-bit types and a bigint for 64-bit ones. `type`: not a value of this kind at
 * all; `range`: an integer outside the type's range (`integer` says which).
 */
export type Coerced =
  | { readonly ok: true; readonly value: ScalarValue }
  | { readonly ok: false; readonly why: "type" }
  | { readonly ok: false; readonly why: "range"; readonly integer: bigint };

export function coerceScalar(t: ScalarType, x: unknown): Coerced {
  switch (t.name) {
    case "bool":
      return typeof x === "boolean" ? { ok: true, value: x } : { ok: false, why: "type" };
    case "f32":
      return typeof x === "number" ? { ok: true, value: Math.fround(x) } : { ok: false, why: "type" };
    case "f64":
      return typeof x === "number" ? { ok: true, value: x } : { ok: false, why: "type" };
    case "i32":
    case "u32":
    case "i64":
    case "u64": {
      const b = typeof x === "bigint" ? x : typeof x === "number" && Number.isSafeInteger(x) ? BigInt(x) : undefined;
      if (b === undefined) return { ok: false, why: "type" };
      const [lo, hi] = INT_RANGES[t.name];
      if (b < lo || b > hi) return { ok: false, why: "range", integer: b };
      return { ok: true, value: t.name === "i64" || t.name === "u64" ? b : Number(b) };
    }
  }
}

/** A scalar as a TypedArray element stores it (bool as 0 or 1). */
export function storedValue(v: ScalarValue): number | bigint {
  return typeof v === "boolean" ? (v ? 1 : 0) : v;
}

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

/** The name of the TypedArray that holds elements of type `elem` (`Float32Array`). */
export function typedArrayName(elem: ScalarName): string {
  return TYPED_ARRAY[elem].name;
}

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

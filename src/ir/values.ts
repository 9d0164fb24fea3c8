/**
 * Values, one place for each fact about them: the range of each integer type, what host
 * value a scalar parameter accepts and how it is converted (the API, the simulator and the
 * gk/testing harness all coerce through `coerceScalar`, each wording its own messages),
 * which TypedArray holds each element type and how an element is stored in it, which element
 * type a TypedArray holds, and what an array parameter of vectors or structs takes
 * (`checkArrayArg`).
 *
 * Several element types share a TypedArray: bool and u8 are `Uint8Array`s (bool elements
 * are 0 or 1), u16, f16 and bf16 are `Uint16Array`s (f16 and bf16 elements are the values'
 * bits). A parameter's declared element type says how its array is read; a TypedArray alone
 * is taken as bool (`Uint8Array`) or u16 (`Uint16Array`) where nothing else says.
 */
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits, roundBf16, roundF16 } from "./halves.js";
import type { IntName, ScalarName, ScalarType, ScalarValue, ValueType } from "./types.js";
import { sizeOf, storedLanes, typeToString } from "./types.js";
import type { Value } from "./composite.js";

/** The smallest and largest value of each integer type. */
export const INT_RANGES: Readonly<Record<IntName, readonly [bigint, bigint]>> = {
  i8: [-(1n << 7n), (1n << 7n) - 1n],
  u8: [0n, (1n << 8n) - 1n],
  i16: [-(1n << 15n), (1n << 15n) - 1n],
  u16: [0n, (1n << 16n) - 1n],
  i32: [-(1n << 31n), (1n << 31n) - 1n],
  u32: [0n, (1n << 32n) - 1n],
  i64: [-(1n << 63n), (1n << 63n) - 1n],
  u64: [0n, (1n << 64n) - 1n],
};

/** INT_RANGES as numbers, for the types of at most 32 bits (coerceScalar's number path). */
const NUMBER_RANGES: Readonly<Record<"i8" | "u8" | "i16" | "u16" | "i32" | "u32", readonly [number, number]>> = {
  i8: [-(2 ** 7), 2 ** 7 - 1],
  u8: [0, 2 ** 8 - 1],
  i16: [-(2 ** 15), 2 ** 15 - 1],
  u16: [0, 2 ** 16 - 1],
  i32: [-(2 ** 31), 2 ** 31 - 1],
  u32: [0, 2 ** 32 - 1],
};

/** The index of the first hole of a plain array (`[1, , 3]`: 1), which forEach and map skip, or undefined. */
export function holeIn(values: readonly unknown[]): number | undefined {
  for (let i = 0; i < values.length; i++) if (!Object.hasOwn(values, i)) return i;
  return undefined;
}

/**
 * A host value as a value of scalar type `t`: a boolean for bool; a number for floats (f32,
 * f16 and bf16 rounded to nearest even); an integer (a safe-integer number, or a bigint) in range for integers, as a
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
    case "f16":
      return typeof x === "number" ? { ok: true, value: roundF16(x) } : { ok: false, why: "type" };
    case "bf16":
      return typeof x === "number" ? { ok: true, value: roundBf16(x) } : { ok: false, why: "type" };
    case "i8":
    case "u8":
    case "i16":
    case "u16":
    case "i32":
    case "u32":
      if (typeof x === "number" && Number.isSafeInteger(x)) {
        // The common case, without a bigint: the same answers as coerceInteger's.
        const [lo, hi] = NUMBER_RANGES[t.name];
        if (x < lo || x > hi) return { ok: false, why: "range", integer: BigInt(x) };
        return { ok: true, value: x === 0 ? 0 : x };
      }
      return coerceInteger(t.name, x);
    case "i64":
    case "u64":
      return coerceInteger(t.name, x);
  }
}

function coerceInteger(name: IntName, x: unknown): Coerced {
  const b = typeof x === "bigint" ? x : typeof x === "number" && Number.isSafeInteger(x) ? BigInt(x) : undefined;
  if (b === undefined) return { ok: false, why: "type" };
  const [lo, hi] = INT_RANGES[name];
  if (b < lo || b > hi) return { ok: false, why: "range", integer: b };
  return { ok: true, value: name === "i64" || name === "u64" ? b : Number(b) };
}

/** A scalar value of type `t` as a TypedArray element stores it: bool as 0 or 1, f16 and bf16 as their bits. */
export function storedValue(t: ScalarName, v: ScalarValue): number | bigint {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (t === "f16") return f16Bits(v as number);
  if (t === "bf16") return bf16Bits(v as number);
  return v;
}

/** A TypedArray element as the scalar value of type `t` it stores (the inverse of `storedValue`). */
export function loadedValue(t: ScalarName, stored: number | bigint): ScalarValue {
  if (t === "bool") return stored !== 0;
  if (t === "f16") return fromF16Bits(stored as number);
  if (t === "bf16") return fromBf16Bits(stored as number);
  return stored;
}

/**
 * The TypedArray that holds elements of type N, on any buffer: `Float32Array` as a host
 * value may be typed (`Float32Array<ArrayBufferLike>`), which the `Float32Array<ArrayBuffer>`
 * that `new Float32Array(n)` makes is one of.
 */
export type TypedArrayFor<N extends ScalarName> = N extends ScalarName ? OnAnyBuffer<InstanceType<(typeof TYPED_ARRAY)[N]>> : never;
/** The member of AnyTypedArray that a TypedArray on one kind of buffer (`I`) is one of. */
type OnAnyBuffer<I, A = AnyTypedArray> = A extends unknown ? (I extends A ? A : never) : never;

export type AnyTypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

export const TYPED_ARRAY = {
  bool: Uint8Array,
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  i64: BigInt64Array,
  u64: BigUint64Array,
  f32: Float32Array,
  f64: Float64Array,
  f16: Uint16Array,
  bf16: Uint16Array,
} as const satisfies Record<ScalarName, unknown>;

/** What a TypedArray of `elem` holds where that is not plain numbers, for messages: ` of f16 bits`. */
export function elemNote(elem: ScalarName): string {
  return elem === "f16" || elem === "bf16" ? ` of ${elem} bits` : "";
}

/** The name of the TypedArray that holds elements of type `elem` (`Float32Array`). */
export function typedArrayName(elem: ScalarName): string {
  return TYPED_ARRAY[elem].name;
}

export function newTypedArray(elem: ScalarName, n: number): AnyTypedArray {
  return new TYPED_ARRAY[elem](n);
}

/** Whether `a` is the TypedArray that holds elements of type `elem` (a Uint8Array holds bool or u8 elements alike). */
export function holdsElem(a: unknown, elem: ScalarName): a is AnyTypedArray {
  return a instanceof TYPED_ARRAY[elem];
}

/**
 * elemOfTypedArray's answer as a type: the element type a TypedArray type `A` holds where
 * nothing else says (`Float32Array` "f32", `Uint8Array` "bool", `Uint16Array` "u16"), so that
 * `gpu.array(new Float32Array(n))` is a `GpuArray<"f32">`. TypedArrays differ to TypeScript by
 * their `[Symbol.toStringTag]`, so no one is taken for another.
 */
export type ElemOfTypedArray<A> = A extends Float32Array ? "f32"
  : A extends Float64Array ? "f64"
  : A extends Int32Array ? "i32"
  : A extends Uint32Array ? "u32"
  : A extends Int16Array ? "i16"
  : A extends Uint16Array ? "u16"
  : A extends Int8Array ? "i8"
  : A extends Uint8Array ? "bool"
  : A extends BigInt64Array ? "i64"
  : A extends BigUint64Array ? "u64"
  : never;

/**
 * The element type a TypedArray holds where nothing else says, or undefined for other
 * arrays: a Uint8Array is bool and a Uint16Array u16 (say u8, f16 or bf16 where meant).
 */
export function elemOfTypedArray(a: unknown): ScalarName | undefined {
  if (a instanceof Int8Array) return "i8";
  if (a instanceof Int16Array) return "i16";
  if (a instanceof Uint16Array) return "u16";
  if (a instanceof Float32Array) return "f32";
  if (a instanceof Float64Array) return "f64";
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof BigInt64Array) return "i64";
  if (a instanceof BigUint64Array) return "u64";
  if (a instanceof Uint8Array) return "bool";
  return undefined;
}

/**
 * A kernel argument on the host: a value (a scalar; a vector or struct as src/ir/composite.ts
 * holds it), or the TypedArray of an array parameter (`checkArrayArg`).
 */
export type ArgValue = Value | AnyTypedArray;

// ---------------------------------------------------------------- arrays of vectors and structs

/**
 * An array argument as a kernel takes it: for elements of a scalar type, the TypedArray of that
 * type (Uint8Array for bool); for vectors, the TypedArray of the lane type holding n × (stored
 * lanes) numbers, each vector's lanes in turn (a 3-lane vector takes 4, the fourth padding);
 * for structs, the bytes of n structs laid out as the struct's type says, as a Uint8Array
 * viewing the caller's memory (given as an ArrayBuffer, a DataView or any TypedArray).
 * `length` counts elements; `want` says what was expected.
 */
export type ArrayArgCheck = { readonly ok: true; readonly value: AnyTypedArray; readonly length: number } | { readonly ok: false; readonly want: string };

export function checkArrayArg(elem: ValueType, x: unknown): ArrayArgCheck {
  switch (elem.kind) {
    case "scalar": {
      const want = `a ${typedArrayName(elem.name)}${elemNote(elem.name)}`;
      return holdsElem(x, elem.name) ? { ok: true, value: x, length: x.length } : { ok: false, want };
    }
    case "vector": {
      const per = storedLanes(elem);
      const lane = elem.elem.name;
      const padding = elem.lanes === 3 ? ", the fourth of each padding" : "";
      const want = `a ${typedArrayName(lane)} of ${per}·n elements (n ${typeToString(elem)} vectors, ${per} ${lane} each${padding})`;
      if (!holdsElem(x, lane) || x.length % per !== 0) return { ok: false, want };
      return { ok: true, value: x as AnyTypedArray, length: (x as AnyTypedArray).length / per };
    }
    case "struct": {
      const size = sizeOf(elem);
      const want = `an ArrayBuffer, DataView or TypedArray of n × ${size} bytes (n ${elem.name} structs, laid out as spec/language.md says; packStructs makes one from objects)`;
      const bytes = x instanceof ArrayBuffer ? new Uint8Array(x) : ArrayBuffer.isView(x) ? new Uint8Array(x.buffer, x.byteOffset, x.byteLength) : undefined;
      if (!bytes || bytes.byteLength % size !== 0) return { ok: false, want };
      return { ok: true, value: bytes, length: bytes.byteLength / size };
    }
  }
}

/** What `checkArrayArg` accepts for an array of `elem`, in words (`a Float32Array`). */
export function arrayArgWant(elem: ValueType): string {
  const c = checkArrayArg(elem, undefined);
  return c.ok ? "" : c.want;
}

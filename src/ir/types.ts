/** gk's types. Scalars are interned singletons, so `a === b` compares scalar types. */

export type ScalarName = "bool" | "i32" | "u32" | "i64" | "u64" | "f32" | "f64";
export type IntName = "i32" | "u32" | "i64" | "u64";
export type FloatName = "f32" | "f64";

export interface ScalarType {
  readonly kind: "scalar";
  readonly name: ScalarName;
}

export interface VoidType {
  readonly kind: "void";
}

/** A kernel or device-function parameter pointing at device memory. */
export interface GlobalType {
  readonly kind: "global";
  readonly elem: ScalarType;
  readonly readonly: boolean;
}

/** A `shared` or local array with constant sizes, outermost first. */
export interface ArrayType {
  readonly kind: "array";
  readonly elem: ScalarType;
  readonly dims: readonly number[];
  readonly space: "shared" | "local";
}

export type Type = ScalarType | VoidType | GlobalType | ArrayType;
/** Types of values an array can be: global memory, shared memory or a local array. */
export type MemoryType = GlobalType | ArrayType;

function scalar(name: ScalarName): ScalarType {
  return Object.freeze({ kind: "scalar", name });
}

export const T = Object.freeze({
  bool: scalar("bool"),
  i32: scalar("i32"),
  u32: scalar("u32"),
  i64: scalar("i64"),
  u64: scalar("u64"),
  f32: scalar("f32"),
  f64: scalar("f64"),
  void: Object.freeze({ kind: "void" }) as VoidType,
});

export const SCALAR_NAMES: readonly ScalarName[] = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"];

export function scalarType(name: ScalarName): ScalarType {
  return T[name];
}

export function isScalarName(s: string): s is ScalarName {
  return (SCALAR_NAMES as readonly string[]).includes(s);
}

export function isInt(t: ScalarType): boolean {
  return t.name === "i32" || t.name === "u32" || t.name === "i64" || t.name === "u64";
}

export function isSigned(t: ScalarType): boolean {
  return t.name === "i32" || t.name === "i64";
}

export function isFloat(t: ScalarType): boolean {
  return t.name === "f32" || t.name === "f64";
}

export function isBool(t: ScalarType): boolean {
  return t.name === "bool";
}

export function is64(t: ScalarType): boolean {
  return t.name === "i64" || t.name === "u64" || t.name === "f64";
}

/** 64-bit integers are carried as bigint everywhere (constants, simulator, launcher client). */
export function isBigIntType(t: ScalarType): boolean {
  return t.name === "i64" || t.name === "u64";
}

export function bitWidth(t: ScalarType): number {
  switch (t.name) {
    case "bool":
      return 8;
    case "i32":
    case "u32":
    case "f32":
      return 32;
    case "i64":
    case "u64":
    case "f64":
      return 64;
  }
}

export function byteSize(t: ScalarType): number {
  return bitWidth(t) / 8;
}

/** The unsigned type of the same width (for wrapping arithmetic and `>>>`). */
export function unsignedOf(t: ScalarType): ScalarType {
  return t.name === "i32" ? T.u32 : t.name === "i64" ? T.u64 : t;
}

export function typeToString(t: Type): string {
  switch (t.kind) {
    case "scalar":
      return t.name;
    case "void":
      return "void";
    case "global":
      return `${t.readonly ? "readonly " : ""}global<${t.elem.name}>`;
    case "array":
      return `${t.space === "shared" ? "shared " : ""}${t.elem.name}${t.dims.map((d) => `[${d}]`).join("")}`;
  }
}

export function sameType(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "scalar":
      return a === b;
    case "void":
      return true;
    case "global":
      return b.kind === "global" && a.elem === b.elem && a.readonly === b.readonly;
    case "array":
      return (
        b.kind === "array" && a.elem === b.elem && a.space === b.space &&
        a.dims.length === b.dims.length && a.dims.every((d, i) => d === b.dims[i])
      );
  }
}

/** A value of a scalar type: boolean for bool, bigint for 64-bit integers, number otherwise. */
export type ScalarValue = number | bigint | boolean;

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

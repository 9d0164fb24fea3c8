/**
 * gk's types, as a small algebra:
 *
 *   value types   scalar | vector | struct      what a variable, an operand or an array element holds
 *   type params   T (in a generic definition)   stand for a value type until an instance is made
 *   memory types  global<V> | V[d0][d1]...      where values live: device memory, shared, local or constant arrays,
 *                 | shared V[] | view<V>        dynamic shared arrays, views of any of them
 *   void          what a function returns when it returns nothing
 *
 * Every function over types (this file, the builtin constraints, the backends' type tables)
 * is written over the algebra, not over scalar names. Scalars and vectors are interned
 * singletons, so `a === b` compares them; a struct type is made once per declaration, so
 * `===` compares those too within one checked program; `sameType` compares any two types.
 *
 * Layout (spec/language.md, "Memory layout"): a scalar takes its width; a vector of n lanes
 * takes n lanes' bytes and is aligned to that, except that 3 lanes take the room of 4 (so a
 * 3-lane vector is 16 bytes for f32, and its fourth lane is padding); a struct is laid out
 * as C lays it out, each field at the next multiple of its alignment, the size rounded up to
 * the largest alignment.
 */
import { invariant } from "../util.js";

export type ScalarName = "bool" | SmallIntName | "i32" | "u32" | "i64" | "u64" | HalfName | "f32" | "f64";
/** 8- and 16-bit integers: stored in their width, every operation's result wrapped to it. */
export type SmallIntName = "i8" | "u8" | "i16" | "u16";
export type IntName = SmallIntName | "i32" | "u32" | "i64" | "u64";
/** 16-bit floats: IEEE binary16 (f16) and bfloat16 (bf16, f32's exponent with 8 significant bits). */
export type HalfName = "f16" | "bf16";
export type FloatName = HalfName | "f32" | "f64";

export interface ScalarType {
  readonly kind: "scalar";
  readonly name: ScalarName;
}

export type Lanes = 2 | 3 | 4 | 8;

/** `f32x4`: 2 to 4 lanes of one scalar type; f16 and bf16 vectors have 2, 4 or 8. */
export interface VectorType {
  readonly kind: "vector";
  readonly elem: ScalarType;
  readonly lanes: Lanes;
}

export interface StructField {
  readonly name: string;
  readonly type: ValueType | ArrayType;
  /** Byte offset from the start of the struct (C layout, natural alignment). */
  readonly offset: number;
}

/** A named struct with C layout: fields in order, each at a multiple of its alignment. */
export interface StructType {
  readonly kind: "struct";
  readonly name: string;
  readonly fields: readonly StructField[];
  readonly size: number;
  readonly align: number;
}

/** What a value can be. */
export type ValueType = ScalarType | VectorType | StructType;

/** A type parameter of a generic definition (`T: f32 | i32`): one of `allowed` in each instance. */
export interface TypeParam {
  readonly kind: "typeParam";
  readonly name: string;
  readonly allowed: readonly ValueType[];
}

export interface VoidType {
  readonly kind: "void";
}

/** A kernel or device-function parameter pointing at device memory: elements of any value type. */
export interface GlobalType {
  readonly kind: "global";
  readonly elem: ValueType;
  readonly readonly: boolean;
}

/**
 * An array with constant sizes, outermost first: a `shared` array, a local array, a
 * module-level `constant` array, or a field of a struct (space "local": it is part of a
 * value, which each thread holds).
 */
export interface ArrayType {
  readonly kind: "array";
  readonly elem: ValueType;
  readonly dims: readonly number[];
  readonly space: "shared" | "local" | "constant";
}

/** `shared buf: f32[];`: a one-dimensional shared array whose length each launch gives. */
export interface DynamicSharedType {
  readonly kind: "dynamicShared";
  readonly elem: ScalarType;
}

/**
 * `view<T>` (a device_fn parameter): `length` elements of an array in any memory, from an
 * offset, `stride` elements apart; all three known at run time.
 */
export interface ViewType {
  readonly kind: "view";
  readonly elem: ScalarType;
  readonly readonly: boolean;
}

/** Where an array lives: global memory, shared memory, a local array, constant memory, or a view of one of them. */
export type MemoryType = GlobalType | ArrayType | DynamicSharedType | ViewType;

/** The sizes of an array's dimensions, outermost first; `undefined` where only the run time knows it. */
export function memoryDims(t: MemoryType): readonly (number | undefined)[] {
  return t.kind === "array" ? t.dims : [undefined];
}

/** The memory an array's elements are in; a view's is its array's, known only at run time ("any"). */
export function memorySpace(t: MemoryType): "global" | "shared" | "local" | "constant" | "any" {
  switch (t.kind) {
    case "global":
      return "global";
    case "array":
      return t.space;
    case "dynamicShared":
      return "shared";
    case "view":
      return "any";
  }
}

/** Whether code may not write the array's elements (readonly globals and views, and constant memory). */
export function isReadonlyMemory(t: MemoryType): boolean {
  return t.kind === "global" || t.kind === "view" ? t.readonly : t.kind === "array" && t.space === "constant";
}

export type Type = ValueType | TypeParam | VoidType | MemoryType;

// ---------------------------------------------------------------- scalars

/** What a scalar type is: its width in bits, its class, and (integers) whether it is signed. */
export interface ScalarInfo {
  readonly bits: 8 | 16 | 32 | 64;
  readonly class: "bool" | "int" | "float";
  readonly signed: boolean;
}

/** The facts of every scalar type, in one table (the order is the order types are listed in). */
export const SCALAR_INFO: Readonly<Record<ScalarName, ScalarInfo>> = {
  bool: { bits: 8, class: "bool", signed: false },
  i8: { bits: 8, class: "int", signed: true },
  u8: { bits: 8, class: "int", signed: false },
  i16: { bits: 16, class: "int", signed: true },
  u16: { bits: 16, class: "int", signed: false },
  i32: { bits: 32, class: "int", signed: true },
  u32: { bits: 32, class: "int", signed: false },
  i64: { bits: 64, class: "int", signed: true },
  u64: { bits: 64, class: "int", signed: false },
  f16: { bits: 16, class: "float", signed: true },
  bf16: { bits: 16, class: "float", signed: true },
  f32: { bits: 32, class: "float", signed: true },
  f64: { bits: 64, class: "float", signed: true },
};

function scalar(name: ScalarName): ScalarType {
  return Object.freeze({ kind: "scalar", name });
}

export const T = Object.freeze({
  bool: scalar("bool"),
  i8: scalar("i8"),
  u8: scalar("u8"),
  i16: scalar("i16"),
  u16: scalar("u16"),
  i32: scalar("i32"),
  u32: scalar("u32"),
  i64: scalar("i64"),
  u64: scalar("u64"),
  f16: scalar("f16"),
  bf16: scalar("bf16"),
  f32: scalar("f32"),
  f64: scalar("f64"),
  void: Object.freeze({ kind: "void" }) as VoidType,
});

export const SCALAR_NAMES: readonly ScalarName[] = Object.keys(SCALAR_INFO) as ScalarName[];
export const INT_NAMES: readonly IntName[] = SCALAR_NAMES.filter((n): n is IntName => SCALAR_INFO[n].class === "int");
export const FLOAT_NAMES: readonly FloatName[] = SCALAR_NAMES.filter((n): n is FloatName => SCALAR_INFO[n].class === "float");

export function scalarType(name: ScalarName): ScalarType {
  return T[name];
}

export function isScalarName(s: string): s is ScalarName {
  return Object.hasOwn(SCALAR_INFO, s);
}

export function isInt(t: ScalarType): boolean {
  return SCALAR_INFO[t.name].class === "int";
}

/** A signed integer type (floats are not counted: this is about integer arithmetic). */
export function isSigned(t: ScalarType): boolean {
  return SCALAR_INFO[t.name].class === "int" && SCALAR_INFO[t.name].signed;
}

export function isFloat(t: ScalarType): boolean {
  return SCALAR_INFO[t.name].class === "float";
}

/** f16 or bf16: a float held as 16 bits in memory and as an exactly representable number in the simulator. */
export function isHalf(t: ScalarType): t is ScalarType & { readonly name: HalfName } {
  return t.name === "f16" || t.name === "bf16";
}

/** i8, u8, i16 or u16. */
export function isSmallInt(t: ScalarType): t is ScalarType & { readonly name: SmallIntName } {
  return SCALAR_INFO[t.name].class === "int" && SCALAR_INFO[t.name].bits < 32;
}

export function isBool(t: ScalarType): boolean {
  return t.name === "bool";
}

export function is64(t: ScalarType): boolean {
  return SCALAR_INFO[t.name].bits === 64;
}

/** 64-bit integers are carried as bigint everywhere (constants, simulator, launcher client). */
export function isBigIntType(t: ScalarType): boolean {
  return t.name === "i64" || t.name === "u64";
}

export function bitWidth(t: ScalarType): number {
  return SCALAR_INFO[t.name].bits;
}

/** The unsigned type of the same width (for wrapping arithmetic and `>>>`). */
export function unsignedOf(t: ScalarType): ScalarType {
  switch (t.name) {
    case "i8": return T.u8;
    case "i16": return T.u16;
    case "i32": return T.u32;
    case "i64": return T.u64;
    default: return t;
  }
}

/** A value of a scalar type: boolean for bool, bigint for 64-bit integers, number otherwise. */
export type ScalarValue = number | bigint | boolean;

// ---------------------------------------------------------------- vectors

const vectors = new Map<string, VectorType>();

/** The interned vector type of `lanes` lanes of `elem`. */
export function vectorType(elem: ScalarType, lanes: Lanes): VectorType {
  invariant(isVectorLane(elem, lanes), `a vector of ${lanes} ${elem.name} lanes reached the type algebra (the checker refuses them, GK2041)`);
  const key = `${elem.name}x${lanes}`;
  let v = vectors.get(key);
  if (!v) {
    v = Object.freeze({ kind: "vector", elem, lanes });
    vectors.set(key, v);
  }
  return v;
}

/** The scalar of a scalar, or of each lane of a vector; undefined for a struct. */
export function laneScalar(t: ValueType): ScalarType | undefined {
  return t.kind === "scalar" ? t : t.kind === "vector" ? t.elem : undefined;
}

/** The scalar type of a value that must be a scalar (a compiler bug otherwise). */
export function asScalar(t: ValueType | VoidType): ScalarType {
  invariant(t.kind === "scalar", `a ${t.kind} value where a scalar is expected`);
  return t;
}

/** The lane counts of vectors of the lane scalars (LANE_SCALARS). */
export const LANE_COUNTS: readonly Lanes[] = [2, 3, 4];
/** The lane counts of f16 and bf16 vectors: 4, 8 and 16 bytes, the widths of single accesses. */
export const HALF_LANE_COUNTS: readonly Lanes[] = [2, 4, 8];
const LANE_NAMES = ["x", "y", "z", "w"] as const;

/** The name of lane `k`: `x y z w`, and `s4` to `s7` past them (an 8-lane vector's). */
export function laneName(k: number): string {
  return LANE_NAMES[k] ?? `s${k}`;
}

/** The lane a letter names (`x y z w`, or `r g b a`), or undefined. */
export function laneOfLetter(ch: string): number | undefined {
  const i = "xyzw".indexOf(ch);
  if (i >= 0) return i;
  const j = "rgba".indexOf(ch);
  return j >= 0 ? j : undefined;
}

/**
 * The scalar types a vector's lanes (of any count) and a struct's scalar fields may have. The
 * 1- and 2-byte types (i8 u8 i16 u16 f16 bf16) are not among them: the checker refuses `u8x4`,
 * `f16x3` and struct fields of those types (GK2041). f16 and bf16 are the lanes of vectors of
 * 2, 4 and 8 lanes (HALF_LANE_SCALARS).
 */
export const LANE_SCALARS: readonly ScalarName[] = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"];

/** The lane types of `f16x2 f16x4 f16x8` and `bf16x2 bf16x4 bf16x8` (4, 8 and 16 bytes, each aligned to its size; `f16x2` is CUDA's `__half2`). */
export const HALF_LANE_SCALARS: readonly ScalarName[] = ["f16", "bf16"];

/** Whether vectors of any lane count may have lanes, and structs scalar fields, of scalar type `t`. */
export function isLaneScalar(t: ScalarType): boolean {
  return LANE_SCALARS.includes(t.name);
}

/**
 * Whether a vector of `lanes` lanes may have lanes of `t`: a lane scalar with 2 to 4, f16/bf16
 * with 2, 4 or 8, and bool with 8 too (what comparing two 8-lane vectors gives).
 */
export function isVectorLane(t: ScalarType, lanes: number): boolean {
  if (HALF_LANE_SCALARS.includes(t.name)) return HALF_LANE_COUNTS.includes(lanes as Lanes);
  return isLaneScalar(t) && (LANE_COUNTS.includes(lanes as Lanes) || (lanes === 8 && t.name === "bool"));
}

/** A name spelled like a vector type (`f32x4`, also `f16x3`, which is not one): its lane type and count; or undefined. */
export function vectorSpelling(name: string): { readonly elem: ScalarType; readonly lanes: Lanes } | undefined {
  const m = /^([a-z0-9]+)x([2348])$/.exec(name);
  if (!m || !isScalarName(m[1]!)) return undefined;
  return { elem: scalarType(m[1]!), lanes: Number(m[2]) as Lanes };
}

/** The vector type a name like `f32x4` spells, or undefined (also for a lane type vectors cannot have: see vectorSpelling). */
export function vectorTypeNamed(name: string): VectorType | undefined {
  const s = vectorSpelling(name);
  return s && isVectorLane(s.elem, s.lanes) ? vectorType(s.elem, s.lanes) : undefined;
}

/** Every vector type, in a fixed order (lane types as listed, then 2, 3, 4 lanes; then f16x2, bf16x2, then the wider half vectors, then boolx8). */
export function allVectorTypes(): VectorType[] {
  const half = (lanes: readonly Lanes[]) => lanes.flatMap((l) => HALF_LANE_SCALARS.map((n) => vectorType(T[n], l)));
  return [...LANE_SCALARS.flatMap((n) => LANE_COUNTS.map((l) => vectorType(T[n], l))), ...half([2]), ...half([4, 8]), vectorType(T.bool, 8)];
}

/** The lanes a vector takes in memory: 4 for 3 lanes (the fourth is padding). */
export function storedLanes(t: VectorType): number {
  return t.lanes === 3 ? 4 : t.lanes;
}

/** The same shape with lanes of another scalar: `f32x4` with i32 is `i32x4`; a scalar gives the scalar. */
export function withLane(t: ScalarType | VectorType, lane: ScalarType): ScalarType | VectorType {
  return t.kind === "vector" ? vectorType(lane, t.lanes) : lane;
}

// ---------------------------------------------------------------- structs

/** A struct with C layout: each field at the next multiple of its alignment, the size a multiple of the largest. */
export function structType(name: string, fields: readonly { readonly name: string; readonly type: ValueType | ArrayType }[]): StructType {
  let offset = 0;
  let align = 1;
  const laid = fields.map((f) => {
    const a = alignOf(f.type);
    offset = roundUp(offset, a);
    const field: StructField = { name: f.name, type: f.type, offset };
    offset += sizeOf(f.type);
    align = Math.max(align, a);
    return field;
  });
  return Object.freeze({ kind: "struct", name, fields: Object.freeze(laid), size: roundUp(offset, align), align });
}

const depths = new WeakMap<StructType, number>();

/** How many structs deep `t` nests: 1 when no field holds a struct, else one more than its deepest struct field (an array field by its element). */
export function structDepth(t: StructType): number {
  let d = depths.get(t);
  if (d === undefined) {
    d = 1;
    for (const f of t.fields) {
      const leaf = f.type.kind === "array" ? f.type.elem : f.type;
      if (leaf.kind === "struct") d = Math.max(d, 1 + structDepth(leaf));
    }
    depths.set(t, d);
  }
  return d;
}

function roundUp(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

// ---------------------------------------------------------------- layout

/**
 * Bytes a value occupies in memory, padding included (the stride of an array of it). A
 * vector of n lanes takes n lanes' bytes, except that a 3-lane vector takes 4 lanes'
 * (WGSL's layout: it keeps one rule on every backend, and a 16-byte f32x3 loads in one access).
 */
export function sizeOf(t: ValueType | ArrayType): number {
  switch (t.kind) {
    case "scalar":
      return bitWidth(t) / 8;
    case "vector":
      return sizeOf(t.elem) * storedLanes(t);
    case "struct":
      return t.size;
    case "array":
      return t.dims.reduce((a, d) => a * d, 1) * sizeOf(t.elem);
  }
}

/** The alignment of a value in memory: natural for scalars, the whole size for vectors, the largest field's for structs. */
export function alignOf(t: ValueType | ArrayType): number {
  switch (t.kind) {
    case "scalar":
    case "vector":
      return sizeOf(t);
    case "struct":
      return t.align;
    case "array":
      return alignOf(t.elem);
  }
}

/** Bytes of one scalar (or of one element of any value type). */
export function byteSize(t: ValueType): number {
  return sizeOf(t);
}

/** Elements of an array type: the product of its sizes. */
export function elementCount(t: ArrayType): number {
  return t.dims.reduce((a, d) => a * d, 1);
}

/** A scalar of a value in memory: its type and byte offset from the value's start. */
export interface Leaf {
  readonly offset: number;
  readonly type: ScalarType;
}

/**
 * The scalars a value is made of, in memory order: a vector's lanes (not the padding of 3
 * lanes), a struct's fields, an array field's elements row by row. What a value means is its
 * leaves; the other bytes are padding, which no store ever writes.
 */
export function leaves(t: ValueType | ArrayType, at = 0): Leaf[] {
  switch (t.kind) {
    case "scalar":
      return [{ offset: at, type: t }];
    case "vector":
      return Array.from({ length: t.lanes }, (_, k) => ({ offset: at + k * sizeOf(t.elem), type: t.elem }));
    case "struct":
      return t.fields.flatMap((f) => leaves(f.type, at + f.offset));
    case "array": {
      const n = elementCount(t);
      const size = sizeOf(t.elem);
      return Array.from({ length: n }, (_, i) => leaves(t.elem, at + i * size)).flat();
    }
  }
}

/** How many scalars a value is made of (`leaves(t).length`, without making them). */
export function leafCount(t: ValueType | ArrayType): number {
  switch (t.kind) {
    case "scalar":
      return 1;
    case "vector":
      return t.lanes;
    case "struct":
      return t.fields.reduce((a, f) => a + leafCount(f.type), 0);
    case "array":
      return elementCount(t) * leafCount(t.elem);
  }
}

/** Whether every byte of the type belongs to a leaf (no padding): such a value may be copied as a whole. */
export function isDense(t: ValueType | ArrayType): boolean {
  switch (t.kind) {
    case "scalar":
      return true;
    case "vector":
      return t.lanes !== 3;
    case "struct": {
      let end = 0;
      for (const f of t.fields) {
        if (f.offset !== end || !isDense(f.type)) return false;
        end = f.offset + sizeOf(f.type);
      }
      return end === t.size;
    }
    case "array":
      return isDense(t.elem);
  }
}

/** The scalar types of a value's leaves, once each, in the order of SCALAR_NAMES. */
export function leafScalars(t: ValueType | ArrayType): ScalarType[] {
  const seen = new Set(leaves(t).map((l) => l.type.name));
  return SCALAR_NAMES.filter((n) => seen.has(n)).map((n) => T[n]);
}

/** The struct types a type mentions (itself included), each after the structs it contains. */
export function structsIn(t: Type, out: StructType[] = []): StructType[] {
  switch (t.kind) {
    case "struct":
      if (out.includes(t)) return out;
      for (const f of t.fields) structsIn(f.type, out);
      if (!out.includes(t)) out.push(t);
      return out;
    case "array":
    case "global":
      return structsIn(t.elem, out);
    default:
      return out;
  }
}

// ---------------------------------------------------------------- names and equality

export function typeToString(t: Type): string {
  switch (t.kind) {
    case "scalar":
      return t.name;
    case "vector":
      return `${t.elem.name}x${t.lanes}`;
    case "struct":
    case "typeParam":
      return t.name;
    case "void":
      return "void";
    case "global":
      return `${t.readonly ? "readonly " : ""}global<${typeToString(t.elem)}>`;
    case "array":
      return `${t.space === "shared" ? "shared " : t.space === "constant" ? "constant " : ""}${typeToString(t.elem)}${t.dims.map((d) => `[${d}]`).join("")}`;
    case "dynamicShared":
      return `shared ${typeToString(t.elem)}[]`;
    case "view":
      return `${t.readonly ? "readonly " : ""}view<${typeToString(t.elem)}>`;
  }
}

export function sameType(a: Type, b: Type): boolean {
  switch (a.kind) {
    case "scalar":
    case "vector":
      return a === b;
    case "struct":
      return a === b || (b.kind === "struct" && a.name === b.name && a.fields.length === b.fields.length && a.fields.every((f, i) => f.name === b.fields[i]!.name && sameType(f.type, b.fields[i]!.type)));
    case "typeParam":
      return b.kind === "typeParam" && a.name === b.name;
    case "void":
      return b.kind === "void";
    case "global":
      return b.kind === "global" && sameType(a.elem, b.elem) && a.readonly === b.readonly;
    case "array":
      return (
        b.kind === "array" && sameType(a.elem, b.elem) && a.space === b.space &&
        a.dims.length === b.dims.length && a.dims.every((d, i) => d === b.dims[i])
      );
    case "dynamicShared":
      return b.kind === "dynamicShared" && sameType(a.elem, b.elem);
    case "view":
      return b.kind === "view" && sameType(a.elem, b.elem) && a.readonly === b.readonly;
  }
}

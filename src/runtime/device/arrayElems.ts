/**
 * What a GPU array (gpuArray.ts) can hold, and how its elements lie in memory: a scalar type
 * ("f32"), a vector type ("f32x4", every vector gk has) or a struct type (a module's
 * `mod.structs.Particle`), laid out as kernels read them (spec/language.md, "Memory layout"):
 *
 * - a scalar takes its width; its host form is the TypedArray of its type (ir/values.ts);
 * - a vector takes its lanes (a 3-lane vector the room of 4, the last lane padding); its host
 *   form is the TypedArray of its lanes, 4·n lanes for n f32x4 or f32x3, as a kernel's
 *   `global<f32x4>` takes it from the host;
 * - a struct takes `size` bytes; its host form is plain objects (packStructs), or its bytes.
 *
 * Each element type has one Layout: the TypedArray ("lane") its elements are read and written
 * as, how many lanes an element takes, and its bytes.
 */
import type { HostValue } from "../../lang/types.js";
import type { StructLayout } from "../../lang/structs.js";
import { coerceValue, writeValue } from "../../ir/composite.js";
import { scalarType, storedLanes, typeToString, vectorTypeNamed, type ScalarName, type StructType, type ValueType } from "../../ir/types.js";
import { coerceScalar, TYPED_ARRAY, type TypedArrayFor } from "../../ir/values.js";

/** A scalar element type: a key of the one table of TypedArrays (src/ir/values.ts). */
export type ElemName = ScalarName & keyof typeof TYPED_ARRAY;

/** Every vector type gk has: 2 to 4 lanes of bool, i32, u32, i64, u64, f32 or f64; 2 lanes of f16 or bf16 (ir/types.ts, allVectorTypes). */
export type VectorName = `${"bool" | "i32" | "u32" | "i64" | "u64" | "f32" | "f64"}x${2 | 3 | 4}` | "f16x2" | "bf16x2";

/** What a GPU array holds: a scalar type, a vector type, or a struct type (`mod.structs.Particle`). */
export type ArrayElem = ElemName | VectorName | StructType;

/** A vector type's lane type: "f32x4" → "f32". */
export type LaneName<V> = V extends `${infer S extends ElemName}x${2 | 3 | 4}` ? S : never;

/** The TypedArray an array of `E` is read and written as: its scalars', its vectors' lanes' (4 per f32x3), a struct's bytes (a Uint8Array). */
export type LanesOf<E> = E extends ElemName ? TypedArrayFor<E> : E extends VectorName ? TypedArrayFor<LaneName<E>> : Uint8Array;

/** One struct as its host form: typed by a layout that says it (StructLayout, from an imported module's declaration), else untyped. */
export type StructValue<E> = E extends StructLayout<infer T> ? HostValue<T> : Record<string, unknown>;

/** What `read()` of an array of `E` gives: its TypedArray of lanes, or (structs) plain objects. */
export type ElementsOf<E> = E extends StructType ? StructValue<E>[] : LanesOf<E>;

/** One element's host value, as fill() takes it: a scalar's (a bigint for i64/u64, a boolean for bool), a vector's lanes as a tuple, a struct's object. */
export type ElemValue<E> = E extends ElemName
  ? E extends "i64" | "u64"
    ? bigint | number
    : E extends "bool"
      ? boolean
      : number
  : E extends VectorName
    ? readonly (LaneName<E> extends "bool" ? boolean : LaneName<E> extends "i64" | "u64" ? bigint | number : number)[]
    : StructValue<E>;

/** How the elements of one type lie in memory. */
export interface Layout {
  /** The value type of one element. */
  readonly type: ValueType;
  /** The scalar type of the TypedArray the elements are read and written as ("u8" for a struct's bytes). */
  readonly lane: ElemName;
  /** Lanes one element takes (4 for f32x3; a struct's size, in bytes). */
  readonly per: number;
  /** Bytes one element takes. */
  readonly size: number;
  /** `f32`, `f32x4`, `Particle`: what messages call the type. */
  readonly name: string;
}

const layouts = new Map<unknown, Layout>();

/** The layout of element type `elem`, or undefined where `elem` is none (a message then lists what is). */
export function layoutOf(elem: unknown): Layout | undefined {
  const known = layouts.get(elem);
  if (known) return known;
  let l: Layout | undefined;
  if (typeof elem === "string") {
    if (Object.hasOwn(TYPED_ARRAY, elem)) {
      const lane = elem as ElemName;
      l = { type: scalarType(lane), lane, per: 1, size: TYPED_ARRAY[lane].BYTES_PER_ELEMENT, name: lane };
    } else {
      const v = vectorTypeNamed(elem);
      if (v) {
        const lane = v.elem.name as ElemName;
        const per = storedLanes(v);
        l = { type: v, lane, per, size: per * TYPED_ARRAY[lane].BYTES_PER_ELEMENT, name: elem };
      }
    }
  } else if (isStruct(elem)) {
    l = { type: elem, lane: "u8", per: elem.size, size: elem.size, name: elem.name };
  }
  if (l) layouts.set(elem, l);
  return l;
}

function isStruct(x: unknown): x is StructType {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Partial<StructType>;
  return s.kind === "struct" && typeof s.name === "string" && Array.isArray(s.fields) && Number.isSafeInteger(s.size) && s.size! > 0;
}

/** Whether arrays of `a` and `b` hold the same elements (one scalar table entry, one vector, one struct layout). */
export function sameElems(a: Layout, b: Layout): boolean {
  if (a === b) return true;
  if (a.type.kind !== b.type.kind) return false;
  if (a.type.kind === "scalar") return TYPED_ARRAY[a.lane] === TYPED_ARRAY[b.lane] && a.size === b.size && a.name === b.name;
  return typeToString(a.type) === typeToString(b.type) && a.size === b.size;
}

/** What the element types of `zeros()` are, for its error. */
export const ELEM_TYPES_TEXT = `a scalar type (${Object.keys(TYPED_ARRAY).join(", ")}), a vector type (f32x4, i32x2, ...) or a struct type (mod.structs.Name)`;

/**
 * One element's bytes, as fill() repeats them, from its host value: a scalar (f16 and bf16
 * rounded; a bigint only for i64 and u64), a vector's lanes (a 3-lane vector's padding lane
 * zero), a struct's object. Where `value` does not fit: what was wanted, where, and what came.
 */
export function elementBytes(l: Layout, value: unknown): Uint8Array | { readonly want: string; readonly at: string; readonly got: unknown } {
  const t = l.type;
  if (t.kind === "scalar") {
    const c = coerceScalar(t, value);
    if (!c.ok || (typeof value === "bigint" && typeof c.value !== "bigint")) return { want: t.name === "bool" ? "true or false" : `a value of ${t.name}`, at: "", got: value };
  }
  const c = coerceValue(t, value);
  if (!c.ok) return c;
  const bytes = new Uint8Array(l.size);
  writeValue(t, new DataView(bytes.buffer), 0, c.value);
  return bytes;
}

/**
 * Arrays in kernels written in TypeScript, typed for the kernel body (of a scalar type, or a
 * vector type for shared and local arrays: `local(f32x4, 8, 2)`): `shared(f32, 16, 16)`
 * (shared memory of the block), `dynamicShared(f32)` (shared memory whose length each launch
 * gives), `local(i32, 8)` (an array of the thread's own), `table(f32, [0.25, 0.5, 0.25])` (a
 * constant table at the top level of a file), `constant(f32, 17)` (constant memory that each
 * launch fills, at the top level) and `view(a, offset, length, stride)` (a device function's
 * view argument). gk reads these calls from the source; on the host, shared(),
 * dynamicShared(), local() and view() throw (GK8019), table() is a TypedArray of the table's
 * values, row-major, converted as a kernel converts them, and constant() describes the array
 * (its element type and sizes), whose contents each launch gives by name.
 */
import { scalarType } from "../ir/types.js";
import { newTypedArray, storedValue, TYPED_ARRAY } from "../ir/values.js";
import { GkRuntimeError } from "../runtime/errors.js";
import type { ArrayOf, Cast, ConstantArray, Table, VectorCtor, View } from "./types.js";

/** What names an array's element type: a scalar type's conversion (`f32`) or a vector type's constructor (`f32x4`). */
type ElemType<T> = Cast<T> | VectorCtor<T>;

/** The sizes of a nested array literal's type, outermost first. */
export type DimsOf<V> = V extends readonly (infer E)[] ? [number, ...DimsOf<E>] : [];

type Value = number | bigint | boolean;
type Nested = readonly (Value | Nested)[];

function onlyInKernels(name: string): GkRuntimeError {
  return new GkRuntimeError("GK8019", `${name}() declares an array in a kernel body; host code cannot call it (it runs only on the device)`);
}

/** `shared(f32, 16, 16)`: `shared t: f32[16][16];` (`shared(f32)`: `shared t: f32;`), at the top of a kernel body. */
export function shared<T, D extends number[]>(type: ElemType<T>, ...sizes: D): ArrayOf<T, D>;
export function shared(): never {
  throw onlyInKernels("shared");
}

/** `dynamicShared(f32)`: `shared buf: f32[];`, whose length each launch gives (`{ shared: { buf: 256 } }`). */
export function dynamicShared<T>(type: Cast<T>): { [index: number]: T };
export function dynamicShared(): never {
  throw onlyInKernels("dynamicShared");
}

/**
 * `view(a, offset, length, stride)`: the argument of a device function's View<T> or
 * ReadView<T> parameter (`view(a, offset, length)` has stride 1, `view(a, offset)` runs to
 * the end of a); an array passed by name is all of it.
 */
export function view<T>(array: { readonly [index: number]: T }, offset: number, length?: number, stride?: number): View<T>;
export function view(): never {
  throw onlyInKernels("view");
}

/**
 * An array of constant memory at the top level of a file: `export const TAPS = constant(f32, 17);`
 * is `export constant TAPS: f32[17];`. Kernels read it; each launch of a kernel that reads it
 * gives its contents by name. On the host it describes the array: its element type and sizes.
 */
export function constant<T, D extends [number, ...number[]]>(type: Cast<T>, ...sizes: D): ConstantArray<T, D>;
export function constant(type: Cast<unknown>, ...sizes: number[]): unknown {
  const name = (type as { name?: string }).name;
  if (typeof type !== "function" || !name || !(name in TYPED_ARRAY)) throw new GkRuntimeError("GK8005", "constant(T, sizes...): T is one of gk's scalar types, as in constant(f32, 17)");
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n <= 0)) throw new GkRuntimeError("GK8005", `constant(${name}, sizes...): the sizes are positive integers, as in constant(f32, 17)`);
  return Object.freeze({ elem: name, sizes: Object.freeze([...sizes]) });
}

/**
 * A local array: `local(f32, 8)` is `let a: f32[8];`, `local(i32, [[1, 2], [3, 4]])` is
 * `let a: i32[2][2] = [[1, 2], [3, 4]];`, `local(i32, [2, 2], [1, 2, 3, 4])` gives the sizes.
 */
export function local<T, D extends [number, ...number[]]>(type: ElemType<T>, ...sizes: D): ArrayOf<T, D>;
export function local<T, const V extends Nested>(type: ElemType<T>, values: V): ArrayOf<T, DimsOf<V>>;
export function local<T, const D extends readonly number[]>(type: ElemType<T>, sizes: D, values: Nested): ArrayOf<T, D>;
export function local(): never {
  throw onlyInKernels("local");
}

/**
 * A constant table at the top level of a file: `const TAPS = table(f32, [0.25, 0.5, 0.25]);`
 * is `const TAPS: f32[3] = [0.25, 0.5, 0.25];` (`table(f32, [2, 3], [...])` gives the sizes).
 * On the host it is a TypedArray of the values (of their bits for f16 and bf16, as a
 * `global<f16>` argument holds them).
 */
export function table<T, const V extends Nested>(type: Cast<T>, values: V): Table<T, DimsOf<V>>;
export function table<T, const D extends readonly number[]>(type: Cast<T>, sizes: D, values: Nested): Table<T, D>;
export function table(type: Cast<unknown>, ...rest: unknown[]): unknown {
  const values = (rest[rest.length - 1] ?? []) as Nested;
  const flat = (values as unknown[]).flat(Infinity as 1) as Value[];
  const name = (type as { name?: string }).name;
  if (typeof type !== "function" || !name || !(name in TYPED_ARRAY)) throw new GkRuntimeError("GK8005", "table(T, values): T is one of gk's scalar types, as in table(f32, [1, 2])");
  const elem = scalarType(name as keyof typeof TYPED_ARRAY);
  const out = newTypedArray(elem.name, flat.length) as unknown as (number | bigint)[];
  flat.forEach((v, i) => (out[i] = storedValue(elem.name, (type as (x: Value) => number | bigint | boolean)(v))));
  return out;
}

/**
 * Arrays in kernels written in TypeScript, typed for the kernel body: `shared(f32, 16, 16)`
 * (shared memory of the block), `local(i32, 8)` (an array of the thread's own) and
 * `table(f32, [0.25, 0.5, 0.25])` (a constant table at the top level of a file). gk reads
 * these calls from the source; on the host, shared() and local() throw (GK8030) and table()
 * is a TypedArray of the table's values, row-major, converted as a kernel converts them.
 */
import { scalarType } from "../ir/types.js";
import { newTypedArray, storedValue, TYPED_ARRAY } from "../ir/values.js";
import { GkRuntimeError } from "../runtime/launcher/errors.js";
import type { ArrayOf, Cast, Table } from "./types.js";

/** The sizes of a nested array literal's type, outermost first. */
export type DimsOf<V> = V extends readonly (infer E)[] ? [number, ...DimsOf<E>] : [];

type Value = number | bigint | boolean;
type Nested = readonly (Value | Nested)[];

function onlyInKernels(name: string): GkRuntimeError {
  return new GkRuntimeError("GK8030", `${name}() declares an array in a kernel body; host code cannot call it (it runs only on the device)`);
}

/** `shared(f32, 16, 16)`: `shared t: f32[16][16];` (`shared(f32)`: `shared t: f32;`), at the top of a kernel body. */
export function shared<T, D extends number[]>(type: Cast<T>, ...sizes: D): ArrayOf<T, D>;
export function shared(): never {
  throw onlyInKernels("shared");
}

/**
 * A local array: `local(f32, 8)` is `let a: f32[8];`, `local(i32, [[1, 2], [3, 4]])` is
 * `let a: i32[2][2] = [[1, 2], [3, 4]];`, `local(i32, [2, 2], [1, 2, 3, 4])` gives the sizes.
 */
export function local<T, D extends [number, ...number[]]>(type: Cast<T>, ...sizes: D): ArrayOf<T, D>;
export function local<T, const V extends Nested>(type: Cast<T>, values: V): ArrayOf<T, DimsOf<V>>;
export function local<T, const D extends readonly number[]>(type: Cast<T>, sizes: D, values: Nested): ArrayOf<T, D>;
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

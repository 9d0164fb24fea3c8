/**
 * gk's types as TypeScript sees them, for kernels written in TypeScript and for the host
 * calls that launch them (spec/typescript.md):
 *
 *   import { kernel, globalId, type i32, type f32, type Global, type ReadonlyGlobal } from "gk";
 *
 * Each gk scalar is its host type (`number`, `bigint`, `boolean`) with an optional brand
 * naming it, so literals and arithmetic flow as in TypeScript while `Global<f32>` and
 * `Global<f64>` stay different types, and a launch's host arguments can be typed from the
 * kernel's parameters: `Global<f32>` takes a `Float32Array`. The tables are type-level
 * interfaces generated from the compiler's scalar table (ScalarHost in declarations.ts, with
 * the scalar types themselves and the builtins; the TypedArrays in ir/values.ts).
 * gk's checker, not TypeScript, is the authority on what a kernel body means.
 */
import type { ScalarName } from "../ir/types.js";
import type { TypedArrayFor } from "../ir/values.js";
import type { GenericArgs, KernelArgs, KernelFn, KernelOutputs, LaunchConfig } from "../runtime/api.js";
import type { GpuArray, VectorName } from "../runtime/device/gpuArray.js";
import type { i32, ScalarHost } from "./declarations.js";

declare const scalarBrand: unique symbol;
declare const memoryBrand: unique symbol;
declare const castBrand: unique symbol;
declare const vectorBrand: unique symbol;

/** A gk scalar type: its host type, branded with its name (the brand is optional, so `let s: f32 = 0.5` type-checks). */
export type Scalar<N extends ScalarName> = ScalarHost[N] & { readonly [scalarBrand]?: N };

/**
 * What every gk vector type has: its lane type `E` and lane count `N`, as an optional brand
 * (spec/typescript.md). A vector type is its lanes' host type (`f32x4` is a `number`) with
 * this brand and optional lanes and swizzles, so that TypeScript takes gk's lane-wise
 * operators (`a + b`, `v * 2.0`, `a += load4(x, i)`) as it takes them on scalars; gk's checker
 * types them. Lanes read as possibly undefined: write `v.x!` (gk reads `e!` as `e`).
 */
export interface VectorOf<E, N extends number> {
  readonly [vectorBrand]?: readonly [E, N];
}

/** The swizzles of a vector whose lanes are named `L`: two to four of them, repeats allowed (`v.zyx`, `v.xxyy`). */
export type Swizzles<L extends string, V2, V3, V4> = { [K in `${L}${L}`]?: V2 } & { [K in `${L}${L}${L}`]?: V3 } & { [K in `${L}${L}${L}${L}`]?: V4 };

/** The lane type of a vector type `V` (its host type where `V` is a plain number, as arithmetic gives). */
export type LaneOf<V> = V extends { readonly [vectorBrand]?: readonly [infer E, number] } ? ([E] extends [undefined] ? V : E) : V;

/** A vector constructor: `f32x4(a, b, c, d)`, `f32x4(s)`, `f32x4(v.xy, z, 1.0)`, `f32x4(iv)` (gk checks that the lanes add up). */
export type VectorCtor<V> = (...parts: (number | bigint | boolean)[]) => V;

/** Any gk scalar type. */
export type AnyScalar = { [N in ScalarName]: Scalar<N> }[ScalarName];
/** Number types an operation may take (gk's checker says which exactly). */
export type Num = number | bigint;

/** The gk name of a scalar type (`"f32"` for `f32`). */
export type ScalarNameOf<T> = T extends { readonly [scalarBrand]?: infer N } ? Extract<N, ScalarName> : never;

/** A conversion `f32(x)`, which also names its type where a type is passed as a value (`shared(f32, 16)`). */
export type Cast<T> = ((x: number | bigint | boolean) => T) & { readonly [castBrand]: T };

/** `global<T>`: a kernel parameter pointing at device memory (of scalars, vectors or structs). */
export interface Global<T> {
  [index: number]: T;
  readonly [memoryBrand]: readonly ["global", T];
}

/** `readonly global<T>`: a kernel parameter pointing at device memory the kernel only reads. */
export interface ReadonlyGlobal<T> {
  readonly [index: number]: T;
  readonly [memoryBrand]: readonly ["readonly", T];
}

/** A `shared` or local array of `T` with as many dimensions as `D` has sizes (a scalar when `D` is empty). */
export type ArrayOf<T, D extends readonly unknown[]> = D extends readonly [unknown, ...infer R] ? { [index: number]: ArrayOf<T, R> } : T;

/**
 * A device_fn parameter that is a shared array of the caller's, `shared T[N]...`:
 * `s: Shared<f32, [256]>` (what `shared(f32, 256)` declares; gk checks the sizes).
 */
export type Shared<T extends AnyScalar, D extends readonly number[]> = ArrayOf<T, D>;

/**
 * An array of constant memory (`constant(f32, 17)`): read-only in kernels, like a table; on
 * the host, its element type's name and its sizes (each launch gives its contents by name).
 */
export type ConstantArray<T, D extends readonly number[]> = Table<T, D> & { readonly elem: ScalarNameOf<T>; readonly sizes: Readonly<D> };

/**
 * `view<T>`: a device_fn parameter that is a run of elements of an array in any memory (the
 * argument: an array by name, a row, or view(a, offset, length, stride)).
 */
export interface View<T> {
  [index: number]: T;
}

/** `readonly view<T>`: a view the function only reads (ReadonlyView is the host's read-only TypedArray, hence the name). */
export interface ReadView<T> {
  readonly [index: number]: T;
}

/**
 * `inout T`: a device_fn parameter that is the caller's variable or array element itself
 * (assigning it writes the caller's); to TypeScript, a T.
 */
export type InOut<T extends AnyScalar> = T;

/** `out T`: a reference the function only writes (GK3019 for a read). */
export type Out<T extends AnyScalar> = T;

/** A constant table (`table(f32, [...])`): read-only in kernels, a TypedArray of its values (row-major) on the host. */
export type Table<T, D extends readonly unknown[]> = D extends readonly [unknown, ...infer R] ? { readonly [index: number]: Table<T, R> } : T;

/** What an atomic updates: an element of a global or shared array, or a scalar `shared` variable. */
export type AtomicTarget<T> = { [index: number]: T } | T;

/** What loadAcquire, storeRelease, loadVolatile and storeVolatile read or write: an element of a global or shared array. */
export type OrderedTarget<T> = { readonly [index: number]: T };

/** The thread indices' type: `threadIdx.x`. */
export interface Dim3 {
  readonly x: i32;
  readonly y: i32;
  readonly z: i32;
}

// ---------------------------------------------------------------- the host side of a launch

/**
 * The launch configuration of a kernel whose dynamic shared arrays are named `S`: each one's
 * length, by name, is required (`{ grid, block, shared: { buf: 256 } }`); a kernel without
 * any (`S` never) takes no lengths.
 */
export type KernelLaunchConfig<S extends string = never> = Omit<LaunchConfig, "shared"> &
  ([S] extends [never] ? { readonly shared?: Readonly<Record<string, never>> } : { readonly shared: { readonly [K in S]: number } });

/** What an array parameter of elements `T` takes: the TypedArray that holds them on the host, or a GPU array of them. */
export type HostArray<T> = TypedArrayFor<ScalarNameOf<T>> | GpuArray<ScalarNameOf<T>>;

/** Methods that change a TypedArray: a view a kernel only reads need not have them. */
type Mutators = "set" | "fill" | "copyWithin" | "reverse" | "sort";

/** A read-only view of a TypedArray `A`: what a `readonly global<T>` parameter accepts (any `A` is one). */
export type ReadonlyView<A> = Omit<A, Mutators | number> & { readonly [index: number]: A extends { [index: number]: infer E } ? E : never };

/** `N` values of type `H`, as a tuple: a vector's lanes on the host. */
type Lanes<H, N> = N extends 2 ? readonly [H, H] : N extends 3 ? readonly [H, H, H] : N extends 8 ? readonly [H, H, H, H, H, H, H, H] : readonly [H, H, H, H];

/** The name of a gk vector type `V`, as GPU arrays take it: `f32x4` → "f32x4". */
type VectorNameOf<V> = V extends { readonly [vectorBrand]?: readonly [infer E, infer N extends number] } ? Extract<`${ScalarNameOf<E>}x${N}`, VectorName> : never;

/** Whether `T` is a gk vector type (its brand names a lane type). */
type IsVector<T> = T extends { readonly [vectorBrand]?: readonly [infer E, number] } ? ([E] extends [undefined] ? false : true) : false;

/**
 * The host form of a value of type `P`: a scalar's host type, a vector's lanes as a tuple
 * (`f32x3`: `readonly [number, number, number]`), a struct as a plain object of its fields'
 * host forms (as an imported .gk file's declaration types them).
 */
export type HostValue<P> = IsVector<P> extends true
  ? P extends { readonly [vectorBrand]?: readonly [infer E, infer N] } ? Lanes<HostValue<E>, N> : never
  : P extends bigint
    ? bigint
    : P extends boolean
      ? boolean
      : P extends number
        ? number
        : { readonly [K in keyof P]: HostValue<P[K]> };

/**
 * What an array parameter of elements `E` takes: of scalars, the TypedArray or a GPU array;
 * of vectors, the TypedArray of their lanes (four for a 3-lane vector) or a GPU array of them;
 * of structs, their bytes (packStructs) or a GPU array of them, which a launch updates in place. An array the kernel only reads may
 * also be a plain array (of numbers, of vectors, of objects); one it writes may not, since a TypeScript
 * kernel's launch returns nothing and the results would be lost.
 */
type HostArrayOf<E, K> = IsVector<E> extends true
  ? K extends "global"
    ? TypedArrayFor<ScalarNameOf<LaneOf<E>>> | GpuArray<ScalarNameOf<LaneOf<E>>> | GpuArray<VectorNameOf<E>>
    : ReadonlyView<TypedArrayFor<ScalarNameOf<LaneOf<E>>>> | GpuArray<ScalarNameOf<LaneOf<E>>> | GpuArray<VectorNameOf<E>> | readonly HostValue<E>[]
  : E extends number | bigint | boolean
    ? K extends "global"
      ? HostArray<E>
      : ReadonlyView<TypedArrayFor<ScalarNameOf<E>>> | GpuArray<ScalarNameOf<E>> | readonly HostValue<E>[]
    : K extends "global"
      ? ArrayBuffer | ArrayBufferView | GpuArray
      : ReadonlyView<ArrayBuffer> | ArrayBuffer | ArrayBufferView | GpuArray | readonly HostValue<E>[];

/** The host value a kernel parameter of type `P` takes: numbers, bigints, booleans, tuples, objects, TypedArrays and GPU arrays. */
export type HostArg<P> = P extends { readonly [memoryBrand]: readonly [infer K, infer E, ...unknown[]] } ? HostArrayOf<E, K> : HostValue<P>;

/** The host arguments of a kernel with parameters `P`, in order, with their names. */
export type HostArgs<P extends readonly unknown[]> = { [K in keyof P]: HostArg<P[K]> };

/** A generic kernel of an imported .gk file: it runs as an instance, `with({ T: "f32", BLOCK: 256 })`, named by its generic parameters `G`. */
export interface GenericKernelFn<G extends GenericArgs> {
  (config: LaunchConfig, args: KernelArgs): Promise<KernelOutputs>;
  with(args: G): KernelFn;
}

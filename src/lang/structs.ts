/**
 * packStructs and unpackStructs as users call them (runtime/structs.ts does the work): typed by
 * a struct layout that says its values' host form (what an imported `.gk` module's declaration
 * gives for `mod.structs.Particle`, gkc types), or by a type argument (the struct's TypeScript
 * interface, its gk types read as their host forms), untyped otherwise.
 */
import type { StructType } from "../ir/types.js";
import * as structs from "../runtime/structs.js";
import type { HostValue } from "./types.js";

declare const structHost: unique symbol;

/**
 * A struct type that says, to TypeScript only, the host form of its values, `T`: what an
 * imported `.gk` module's declaration gives for `mod.structs.Particle` (gkc types), so that
 * packStructs checks the objects and unpackStructs returns them typed.
 */
export type StructLayout<T> = StructType & { readonly [structHost]: T };
/** A struct type that says nothing of its host form (a layout that does is checked by it alone). */
type UntypedStruct = StructType & { readonly [structHost]?: undefined };

/**
 * Plain objects as the bytes of an array of structs of type `t` (a fresh ArrayBuffer). Throws
 * a TypeError naming the first value that does not fit. Typed by `t` where it says its host
 * form (StructLayout), or by a type argument: the struct's TypeScript interface
 * (`packStructs<Particle>(t, objects)`, its gk types read as their host forms) or the objects'
 * own type; untyped otherwise.
 */
export function packStructs<T>(t: StructLayout<T>, objects: readonly HostValue<T>[]): ArrayBuffer;
export function packStructs(t: UntypedStruct, objects: readonly unknown[]): ArrayBuffer;
export function packStructs<T>(t: UntypedStruct, objects: readonly HostValue<T>[]): ArrayBuffer;
export function packStructs(t: StructType, objects: readonly unknown[]): ArrayBuffer {
  return structs.packStructs(t, objects);
}

/** The structs of type `t` in `data` (an ArrayBuffer or a view of one, of n × t.size bytes) as plain objects, typed as packStructs types them. */
export function unpackStructs<T>(t: StructLayout<T>, data: ArrayBuffer | ArrayBufferView): HostValue<T>[];
export function unpackStructs(t: UntypedStruct, data: ArrayBuffer | ArrayBufferView): Record<string, unknown>[];
export function unpackStructs<T>(t: UntypedStruct, data: ArrayBuffer | ArrayBufferView): HostValue<T>[];
export function unpackStructs(t: StructType, data: ArrayBuffer | ArrayBufferView): unknown[] {
  return structs.unpackStructs(t, data);
}

/**
 * What a launch of a kernel must give besides its arguments, and how much shared memory it
 * takes: the `constant` arrays (module-level constant memory, ids below zero) it reads,
 * directly or through the device functions it calls, and its dynamic shared arrays, whose
 * lengths each launch gives and which lie in one region (limits.ts, `dynamicSharedLayout`).
 */
import { DYNAMIC_SHARED_ALIGN, dynamicSharedLayout, sharedOverLimit, type Limits } from "./limits.js";
import type { ArrayVar, Function } from "./nodes.js";
import { asScalar, byteSize, typeToString, type ScalarType } from "./types.js";
import { elemNote, holdsElem, typedArrayName, type AnyTypedArray } from "./values.js";
import { visit } from "./walk.js";

/** The kernel's dynamic shared arrays (`shared buf: f32[];`), in declaration order. */
export function dynamicSharedArrays(k: Function): ArrayVar[] {
  return k.shared.filter((a) => a.type.kind === "dynamicShared");
}

/** Bytes of the kernel's fixed-size shared arrays, together, unpadded. */
export function fixedSharedBytes(k: Function): number {
  let bytes = 0;
  for (const a of k.shared) if (a.type.kind === "array") bytes += arrayBytes(a);
  return bytes;
}

/**
 * Bytes of the kernel's fixed-size shared arrays on a target of these `limits`: with their
 * padding where they are lifted (liftedSharedLayout).
 */
export function staticSharedBytes(k: Function, limits: Pick<Limits, "staticSharedBytes">): number {
  return liftedSharedLayout(k, limits)?.bytes ?? fixedSharedBytes(k);
}

function arrayBytes(a: ArrayVar): number {
  return a.type.kind === "array" ? a.type.dims.reduce((x, y) => x * y, 1) * byteSize(a.type.elem) : 0;
}

/**
 * A kernel whose fixed-size shared arrays take more than its target's `staticSharedBytes`
 * together (CUDA: nvcc refuses larger `__shared__` arrays) has them at the start of its dynamic
 * shared memory, in declaration order, each at a multiple of 16 bytes: their offsets by array
 * id, and the bytes they take (a multiple of 16, where the dynamic arrays start). Undefined for
 * a kernel within the limit, whose fixed-size arrays are declared as such.
 */
export function liftedSharedLayout(k: Function, limits: Pick<Limits, "staticSharedBytes">): { offsets: ReadonlyMap<number, number>; bytes: number } | undefined {
  if (k.kind !== "kernel" || fixedSharedBytes(k) <= limits.staticSharedBytes) return undefined;
  const offsets = new Map<number, number>();
  let at = 0;
  for (const a of k.shared) {
    if (a.type.kind !== "array") continue;
    offsets.set(a.id, at);
    at = Math.ceil((at + arrayBytes(a)) / DYNAMIC_SHARED_ALIGN) * DYNAMIC_SHARED_ALIGN;
  }
  return { offsets, bytes: at };
}

/** The dynamic shared region for these lengths (in declaration order): each array's byte offset, and the total. */
export function dynamicSharedBytes(k: Function, lengths: readonly number[]): { offsets: number[]; bytes: number } {
  return dynamicSharedLayout(dynamicSharedArrays(k).map((a) => byteSize(a.type.elem)), lengths);
}

/** The dynamic shared memory a launch gives the kernel on a GPU of these `limits`: its lifted fixed-size arrays (liftedSharedLayout), then its dynamic arrays for these lengths. */
export function launchSharedBytes(k: Function, lengths: readonly number[], limits: Pick<Limits, "staticSharedBytes">): number {
  const dynamic = dynamicSharedBytes(k, lengths).bytes;
  const lifted = liftedSharedLayout(k, limits)?.bytes ?? 0;
  return dynamic === 0 ? lifted : lifted + dynamic;
}

/** The `constant` arrays `kernel` reads, in the order it first meets them. */
export function constantsRead(kernel: Function, functions: ReadonlyMap<string, Function>): ArrayVar[] {
  const found = new Map<number, ArrayVar>();
  const seen = new Set<string>();
  const note = (a: ArrayVar) => {
    if (a.id < 0 && !found.has(a.id)) found.set(a.id, a);
  };
  const walk = (f: Function) => {
    if (seen.has(f.name)) return;
    seen.add(f.name);
    visit(f.body, {
      expr: (e) => {
        if (e.kind === "load") note(e.array);
        if (e.kind !== "call") return;
        for (const a of e.args) if (a.kind === "viewArg" || a.kind === "arrayArg") note(a.array);
        const callee = functions.get(e.callee);
        if (callee) walk(callee);
      },
    });
  };
  walk(kernel);
  return [...found.values()];
}

/** Elements of a constant array (its sizes multiplied). */
/** The element type of constant array `a`: a scalar (the checker refuses others, GK2043). */
export function constantElem(a: ArrayVar): ScalarType {
  return asScalar(a.type.elem);
}

export function constantLength(a: ArrayVar): number {
  return a.type.kind === "array" ? a.type.dims.reduce((x, y) => x * y, 1) : 0;
}

/**
 * What is wrong with `value` as the contents of constant array `a` for one launch, or
 * undefined: it must be the TypedArray of its element type (Uint8Array for bool, of 0s and 1s)
 * with exactly its number of elements.
 */
export function constantValueProblem(a: ArrayVar, value: unknown): string | undefined {
  const t = a.type;
  const elem = constantElem(a);
  const want = `a ${typedArrayName(elem.name)}${elemNote(elem.name)} of ${constantLength(a)} elements`;
  // A Uint8Array holds bool or u8, a Uint16Array u16, f16 or bf16 bits: the constant's type says which.
  if (!holdsElem(value, elem.name)) {
    const got = ArrayBuffer.isView(value) ? `a ${value.constructor.name}` : Array.isArray(value) ? "a plain array" : typeof value;
    return `the constant array '${a.name}' (${typeToString(t)}) takes ${want}, got ${got}`;
  }
  const n = (value as AnyTypedArray).length;
  if (n !== constantLength(a)) return `the constant array '${a.name}' (${typeToString(t)}) takes ${want}, got ${n}`;
  if (elem.name === "bool" && (value as Uint8Array).some((x) => x > 1)) return `the constant array '${a.name}' holds bool: its Uint8Array must hold only 0 and 1`;
  return undefined;
}

/**
 * What is wrong with these lengths of `k`'s dynamic shared arrays (declaration order) for one
 * launch on a device whose target has these `limits`, or undefined: each an integer from 0,
 * and the block's shared memory, static and dynamic, within `limits.sharedBytes` (the rule the
 * checker applies to launch statements, src/check/launch.ts).
 */
export function sharedLengthsProblem(k: Function, lengths: readonly unknown[], limits: Limits): string | undefined {
  const arrays = dynamicSharedArrays(k);
  if (lengths.length !== arrays.length) return `it has ${arrays.length} dynamic shared array${arrays.length === 1 ? "" : "s"} (${arrays.map((a) => a.name).join(", ") || "none"}), but ${lengths.length} length${lengths.length === 1 ? " was" : "s were"} given`;
  for (let i = 0; i < arrays.length; i++) {
    const n = lengths[i];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > limits.sharedBytes) {
      return `the length of the dynamic shared array '${arrays[i]!.name}' must be an integer from 0 to ${limits.sharedBytes}, got ${String(n)}`;
    }
  }
  const staticBytes = staticSharedBytes(k, limits);
  const over = sharedOverLimit(staticBytes, dynamicSharedBytes(k, lengths as number[]).bytes, limits);
  if (over === undefined) return undefined;
  return `it would use ${over} bytes of shared memory per block (${staticBytes} in fixed-size arrays); a block may use at most ${limits.sharedBytes} (${limits.sharedBytesWhat})`;
}

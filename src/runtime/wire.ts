/**
 * A kernel's arguments as the GPU takes them (the launcher, src/runtime/launcher, and the
 * device engines, src/runtime/device: scalars and arrays of scalars only):
 *
 * - a scalar as it is; a vector or struct value as its scalars in leaf order, one kernel
 *   argument each, which is how the CUDA backend's kernel receives it (src/codegen/cuda/function.ts);
 * - an array of scalars, or of vectors of numbers, as the TypedArray of its (lane) type: the
 *   bits are the array's;
 * - an array of structs or of bool vectors as its bytes, in u32 elements (4 bytes each; the
 *   device copy is rounded up to a multiple of 4 bytes, which the kernel never reads). The
 *   bytes are viewed in place when they start and end on a multiple of 4, else copied, and
 *   `finish` copies the results back.
 */
import type { Function } from "../ir/nodes.js";
import { leafValues, type Value } from "../ir/composite.js";
import { leaves, type ValueType } from "../ir/types.js";
import type { AnyTypedArray, ArgValue } from "../ir/values.js";
import type { ArrayDataArg, KernelArg } from "./launcher/types.js";

type WireArg = Extract<KernelArg, { kind: "scalar" }> | ArrayDataArg;

/** Whether an array of `elem` travels as bytes (u32 elements) rather than as its scalars. */
function asBytes(elem: ValueType): boolean {
  return elem.kind === "struct" || (elem.kind === "vector" && elem.elem.name === "bool");
}

export interface WireArgs {
  readonly args: KernelArg[];
  /** Copies results from copied arrays back into the caller's (after a run with copyBackInPlace). */
  readonly finish: () => void;
  /** The launcher's array (an answer's output, by launcher argument index) of parameter `i` as the parameter's own TypedArray. */
  readonly output: (param: number, outputs: ReadonlyMap<number, AnyTypedArray>) => AnyTypedArray;
}

export function wireArgs(fn: Function, args: readonly ArgValue[]): WireArgs {
  const after: (() => void)[] = [];
  const at: number[] = [];
  let next = 0;
  const out = fn.params.flatMap((p, i): KernelArg[] => {
    const list = wireArg(p, args[i]!, after);
    at.push(next);
    next += list.length;
    return list;
  });
  const output = (param: number, outputs: ReadonlyMap<number, AnyTypedArray>): AnyTypedArray => {
    const p = fn.params[param]!;
    const got = outputs.get(at[param]!);
    if (!got || p.kind !== "arrayVar" || !asBytes(p.type.elem)) return got!;
    const bytes = args[param] as AnyTypedArray;
    return new Uint8Array(got.buffer, got.byteOffset, bytes.byteLength).slice();
  };
  return { args: out, finish: () => after.forEach((f) => f()), output };
}

/** One parameter's argument as launcher arguments; `after` gets what must run after the launch (copying results back into the caller's bytes). */
export function wireArg(p: Function["params"][number], v: ArgValue, after: (() => void)[]): WireArg[] {
  if (p.kind === "valueVar") {
    if (p.type.kind === "scalar") return [{ kind: "scalar", type: p.type.name, value: v as Exclude<Value, readonly Value[]> }];
    const ls = leaves(p.type);
    const xs = leafValues(p.type, v as Value);
    return ls.map((l, k) => ({ kind: "scalar", type: l.type.name, value: xs[k]! }));
  }
  const copyBack = p.type.kind === "global" && !p.type.readonly;
  const elem = p.type.elem;
  const data = v as AnyTypedArray;
  if (!asBytes(elem)) return [{ kind: "array", elem: elem.kind === "vector" ? elem.elem.name : (elem as Extract<ValueType, { kind: "scalar" }>).name, data, copyBack }];
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0) {
    return [{ kind: "array", elem: "u32", data: new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), copyBack }];
  }
  const words = new Uint32Array(Math.ceil(bytes.byteLength / 4));
  const view = new Uint8Array(words.buffer, 0, bytes.byteLength);
  view.set(bytes);
  if (copyBack) after.push(() => bytes.set(view));
  return [{ kind: "array", elem: "u32", data: words, copyBack }];
}

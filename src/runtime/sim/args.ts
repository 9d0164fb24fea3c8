/**
 * Checking what `runKernel` is given before any code runs: the launch shape (GK8010, with
 * the GPU's limits, so a launch that runs here also runs there) and the arguments, in
 * parameter order (GK8005): a number for f32/f64, an integer (a safe-integer number or a
 * bigint) in range for the integer types, a boolean for bool (src/ir/values.ts), an array of
 * lanes for a vector and of field values for a struct (src/ir/composite.ts), and for each
 * `global<T>` parameter the TypedArray `checkArrayArg` names (of T; of its lanes for vectors;
 * the bytes of an array of structs), an array the kernel writes sharing memory with no other
 * argument (aliasing.ts). Values come out in the form the generated code computes with (f32
 * rounded, 64-bit integers as bigint), arrays of structs as a StructMemory over the caller's
 * bytes (or over a copy, when the caller's bytes do not start at a multiple of 8: `finish`
 * then copies the results back).
 */
import type { ArrayVar, Function, Param } from "../../ir/nodes.js";
import { constantValueProblem, sharedLengthsProblem } from "../../ir/kernelMemory.js";
import { typeToString } from "../../ir/types.js";
import { checkShape, launchBoundsProblem, type Limits } from "../../ir/limits.js";
import { checkArrayArg } from "../../ir/values.js";
import { coerceValue } from "../../ir/composite.js";
import { structMemory } from "../../ir/jsrt.js";
import type { SourceMap } from "../../diagnostics/source.js";
import { sharedMemory } from "../aliasing.js";
import { dim3, simError } from "./errors.js";
import type { Dim3 } from "../../ir/limits.js";
import type { Value } from "../../ir/composite.js";
import type { AnyTypedArray } from "../../ir/values.js";

/**
 * A kernel argument, in parameter order: a value (a scalar; a vector or struct as an array,
 * src/ir/composite.ts), or an array argument (src/ir/values.ts, checkArrayArg), which is
 * modified in place.
 */
export type SimArg = Value | AnyTypedArray | ArrayBuffer | DataView;

/** [x], [x, y] or [x, y, z] as [x, y, z]; throws GK8010 for sizes a GPU of these `limits` would refuse (src/ir/limits.ts). */
export function launchShape(kernel: Function, what: "grid" | "block", d: readonly number[], limits: Limits, sources?: SourceMap): Dim3 {
  const fail = (why: string) => simError("GK8010", kernel.span, `invalid ${what} for kernel '${kernel.name}': ${why}`, [], sources);
  const c = checkShape(what, d, limits);
  if (c.ok) {
    const bounds = what === "block" ? launchBoundsProblem(kernel, c.dims) : undefined;
    if (bounds) throw fail(bounds);
    return c.dims;
  }
  switch (c.why) {
    case "count":
      throw fail(`give 1 to 3 sizes (x, y, z), not ${d.length}`);
    case "size":
      throw fail(`size ${"xyz"[c.axis]} must be an integer from 1 to ${c.max}, but it is ${String(c.got)}`);
    case "threads":
      throw fail(`block ${dim3(c.dims)} has ${c.threads} threads; a block has at most ${limits.blockThreads}`);
  }
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name} of length ${(x as unknown as { length?: number }).length ?? "?"}`;
  if (Array.isArray(x)) return "a plain array";
  if (typeof x === "bigint") return `${x}n`;
  if (typeof x === "number" || typeof x === "boolean") return String(x);
  return `a ${typeof x}`;
}

function paramList(k: Function): string {
  return k.params.map((p: Param) => `${p.name}: ${typeToString(p.type)}`).join(", ");
}

/** The lengths of the kernel's dynamic shared arrays, checked as a GPU of these `limits` would take them (GK8010: the same rule the API applies). */
export function sharedLengths(kernel: Function, lengths: readonly number[], limits: Limits, sources?: SourceMap): number[] {
  const problem = sharedLengthsProblem(kernel, lengths, limits);
  if (problem) throw simError("GK8010", kernel.span, `invalid shared memory for kernel '${kernel.name}': ${problem}`, [], sources);
  return [...lengths];
}

/** The contents of the constant arrays the kernel reads, in `constantsRead` order; GK8005 names the first wrong one. */
export function checkConstants(kernel: Function, arrays: readonly ArrayVar[], values: readonly unknown[], sources?: SourceMap): unknown[] {
  if (values.length !== arrays.length) {
    const names = arrays.map((a) => a.name).join(", ") || "none";
    throw simError("GK8005", kernel.span, `kernel '${kernel.name}' reads ${arrays.length} constant array${arrays.length === 1 ? "" : "s"} (${names}), but ${values.length} ${values.length === 1 ? "was" : "were"} given`, [], sources);
  }
  arrays.forEach((a, i) => {
    const problem = constantValueProblem(a, values[i]);
    if (problem) throw simError("GK8005", a.span, `kernel '${kernel.name}': ${problem}`, [], sources);
  });
  return [...values];
}

/**
 * The arguments as the generated code takes them, and what to do after the run; throws GK8005
 * naming the first wrong one, or two arrays that break the aliasing rule.
 */
export function checkArgs(kernel: Function, args: readonly SimArg[], sources?: SourceMap): { values: unknown[]; finish: () => void } {
  const ps = kernel.params;
  if (args.length !== ps.length) {
    throw simError(
      "GK8005",
      kernel.span,
      `kernel '${kernel.name}' takes ${ps.length} argument${ps.length === 1 ? "" : "s"} (${paramList(kernel)}), but ${args.length} ${args.length === 1 ? "was" : "were"} given`,
      [],
      sources,
    );
  }
  const after: (() => void)[] = [];
  const values = ps.map((p, i) => {
    const x: unknown = args[i];
    const fail = (want: string, at = "", got: unknown = x) =>
      simError("GK8005", p.span, `argument ${i + 1} of kernel '${kernel.name}' ('${p.name}: ${typeToString(p.type)}')${at ? `, at ${at},` : ""} must be ${want}, but it is ${describe(got)}`, [], sources);
    if (p.kind === "valueVar") {
      const c = coerceValue(p.type, x);
      if (!c.ok) throw fail(c.want, c.at, c.got);
      return c.value;
    }
    const elem = p.type.elem;
    const c = checkArrayArg(elem, x);
    if (!c.ok) throw fail(c.want);
    if (elem.kind !== "struct") return c.value;
    const bytes = c.value as Uint8Array;
    if (bytes.byteOffset % 8 === 0) return structMemory(c.length, elem.size, bytes.buffer as ArrayBuffer, bytes.byteOffset);
    const copy = structMemory(c.length, elem.size);
    copy.bytes.set(bytes);
    after.push(() => bytes.set(copy.bytes));
    return copy;
  });
  const shared = sharedMemory(kernel, args);
  if (shared) throw simError("GK8005", shared.written.span, `kernel '${kernel.name}': ${shared.message}`, [], sources);
  return { values, finish: () => after.forEach((f) => f()) };
}

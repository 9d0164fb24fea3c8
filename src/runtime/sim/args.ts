/**
 * Checking what `runKernel` is given before any code runs: the launch shape (GK8010, with
 * the GPU's limits, so a launch that runs here also runs there) and the arguments, in
 * parameter order (GK8005): a number for i32/u32/f32/f64 (an integer in range for the
 * integers), a bigint or a safe integer for i64/u64, a boolean for bool, and for each
 * `global<T>` parameter the TypedArray of T (Uint8Array for bool), an array the kernel
 * writes sharing memory with no other argument (aliasing.ts). Scalars come out in the
 * form the generated code computes with (f32 rounded, 64-bit integers as bigint).
 */
import type { Function, Param } from "../../ir/nodes.js";
import { asScalar, type ScalarType, type ScalarValue, typeToString } from "../../ir/types.js";
import { elemOfTypedArray, TYPED_ARRAY } from "../../ir/values.js";
import type { SourceMap } from "../../diagnostics/source.js";
import { sharedMemory } from "../aliasing.js";
import { dim3, simError, type Dim3 } from "./errors.js";
import type { SimArg } from "./kernel.js";

const GRID_MAX: Dim3 = [0x7fffffff, 65535, 65535];
const BLOCK_MAX: Dim3 = [1024, 1024, 64];
const BLOCK_THREADS_MAX = 1024;

/** [x], [x, y] or [x, y, z] as [x, y, z]; throws GK8010 for sizes a GPU would refuse. */
export function launchShape(kernel: Function, what: "grid" | "block", d: readonly number[], sources?: SourceMap): Dim3 {
  const fail = (why: string) => simError("GK8010", kernel.span, `invalid ${what} for kernel '${kernel.name}': ${why}`, [], sources);
  if (d.length < 1 || d.length > 3) throw fail(`give 1 to 3 sizes (x, y, z), not ${d.length}`);
  const out: [number, number, number] = [1, 1, 1];
  const max = what === "grid" ? GRID_MAX : BLOCK_MAX;
  d.forEach((x, i) => {
    if (!Number.isInteger(x) || x < 1 || x > max[i]!) throw fail(`size ${"xyz"[i]} must be an integer from 1 to ${max[i]}, but it is ${String(x)}`);
    out[i] = x;
  });
  if (what === "block" && out[0] * out[1] * out[2] > BLOCK_THREADS_MAX) {
    throw fail(`block ${dim3(out)} has ${out[0] * out[1] * out[2]} threads; a block has at most ${BLOCK_THREADS_MAX}`);
  }
  return out;
}

const RANGES = {
  i32: [-2147483648, 2147483647],
  u32: [0, 4294967295],
  i64: [-(1n << 63n), (1n << 63n) - 1n],
  u64: [0n, (1n << 64n) - 1n],
} as const;

function describe(x: unknown): string {
  if (x === null) return "null";
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name} of length ${(x as unknown as { length?: number }).length ?? "?"}`;
  if (Array.isArray(x)) return "a plain array";
  if (typeof x === "bigint") return `${x}n`;
  if (typeof x === "number" || typeof x === "boolean") return String(x);
  return `a ${typeof x}`;
}

/** The value a scalar parameter gets, or undefined when `x` is not one of its type. */
function scalarValue(t: ScalarType, x: unknown): ScalarValue | undefined {
  switch (t.name) {
    case "bool":
      return typeof x === "boolean" ? x : undefined;
    case "f32":
      return typeof x === "number" ? Math.fround(x) : undefined;
    case "f64":
      return typeof x === "number" ? x : undefined;
    case "i32":
    case "u32": {
      const [lo, hi] = RANGES[t.name];
      return typeof x === "number" && Number.isInteger(x) && x >= lo && x <= hi ? x + 0 : undefined;
    }
    case "i64":
    case "u64": {
      const [lo, hi] = RANGES[t.name];
      const b = typeof x === "bigint" ? x : typeof x === "number" && Number.isSafeInteger(x) ? BigInt(x) : undefined;
      return b !== undefined && b >= lo && b <= hi ? b : undefined;
    }
  }
}

function expectation(t: ScalarType): string {
  switch (t.name) {
    case "bool":
      return "a boolean";
    case "f32":
    case "f64":
      return "a number";
    case "i32":
    case "u32":
      return `an integer from ${RANGES[t.name][0]} to ${RANGES[t.name][1]}`;
    case "i64":
    case "u64":
      return `a bigint (or a safe integer) from ${RANGES[t.name][0]} to ${RANGES[t.name][1]}`;
  }
}

function paramList(k: Function): string {
  return k.params.map((p: Param) => `${p.name}: ${typeToString(p.type)}`).join(", ");
}

/** The arguments as the generated code takes them; throws GK8005 naming the first wrong one, or two arrays that break the aliasing rule. */
export function checkArgs(kernel: Function, args: readonly SimArg[], sources?: SourceMap): unknown[] {
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
  const values = ps.map((p, i) => {
    const x: unknown = args[i];
    const fail = (want: string) =>
      simError("GK8005", p.span, `argument ${i + 1} of kernel '${kernel.name}' ('${p.name}: ${typeToString(p.type)}') must be ${want}, but it is ${describe(x)}`, [], sources);
    if (p.kind === "valueVar") {
      const t = asScalar(p.type);
      const v = scalarValue(t, x);
      if (v === undefined) throw fail(expectation(t));
      return v;
    }
    const elem = p.type.elem.name;
    const want = TYPED_ARRAY[elem].name;
    if (elemOfTypedArray(x) !== elem || !(x instanceof TYPED_ARRAY[elem])) throw fail(`a ${want}`);
    return x;
  });
  const shared = sharedMemory(kernel, values);
  if (shared) throw simError("GK8005", shared.written.span, `kernel '${kernel.name}': ${shared.message}`, [], sources);
  return values;
}

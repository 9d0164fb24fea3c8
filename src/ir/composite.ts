/**
 * Values of every value type, as everything outside generated kernel code carries them:
 * launch statements, the API's and the simulator's argument checks, the GPU runner's
 * arguments, and packing arrays of structs into bytes and back.
 *
 *   scalar   a ScalarValue (boolean, number, or bigint for 64-bit integers)
 *   vector   the array of its lanes: f32x4 → [x, y, z, w]
 *   struct   the array of its fields' values in field order; an array field is the flat,
 *            row-major array of its elements
 *
 * The simulator's generated code computes with exactly this representation, so a value
 * goes in and out of it unchanged. In memory a value is its leaves (src/ir/types.ts) at their
 * offsets; padding bytes are never read or written here.
 */
import { coerceScalar, INT_RANGES } from "./values.js";
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "./halves.js";
import { elementCount, isBigIntType, leaves, type ArrayType, type ScalarType, type ScalarValue, type ValueType } from "./types.js";
import { invariant } from "../util.js";

export type Value = ScalarValue | readonly Value[];

/** The zero value of a type (false for bool, 0n for 64-bit integers). */
export function zeroValue(t: ValueType | ArrayType): Value {
  switch (t.kind) {
    case "scalar":
      return t.name === "bool" ? false : isBigIntType(t) ? 0n : 0;
    case "vector":
      return Array.from({ length: t.lanes }, () => zeroValue(t.elem));
    case "struct":
      return t.fields.map((f) => zeroValue(f.type));
    case "array":
      return Array.from({ length: elementCount(t) }, () => zeroValue(t.elem));
  }
}

/** The scalars of a value in leaf order (the order of `leaves(t)`). */
export function leafValues(t: ValueType | ArrayType, v: Value, out: ScalarValue[] = []): ScalarValue[] {
  switch (t.kind) {
    case "scalar":
      out.push(v as ScalarValue);
      return out;
    case "vector":
      for (const x of v as readonly Value[]) out.push(x as ScalarValue);
      return out;
    case "struct":
      t.fields.forEach((f, i) => leafValues(f.type, (v as readonly Value[])[i]!, out));
      return out;
    case "array":
      for (const x of v as readonly Value[]) leafValues(t.elem, x, out);
      return out;
  }
}

// ---------------------------------------------------------------- memory

/** Reads one scalar at a byte offset (little-endian; bool is a byte, nonzero is true). */
export function readScalar(t: ScalarType, view: DataView, at: number): ScalarValue {
  switch (t.name) {
    case "bool":
      return view.getUint8(at) !== 0;
    case "i8":
      return view.getInt8(at);
    case "u8":
      return view.getUint8(at);
    case "i16":
      return view.getInt16(at, true);
    case "u16":
      return view.getUint16(at, true);
    case "f16":
      return fromF16Bits(view.getUint16(at, true));
    case "bf16":
      return fromBf16Bits(view.getUint16(at, true));
    case "i32":
      return view.getInt32(at, true);
    case "u32":
      return view.getUint32(at, true);
    case "i64":
      return view.getBigInt64(at, true);
    case "u64":
      return view.getBigUint64(at, true);
    case "f32":
      return view.getFloat32(at, true);
    case "f64":
      return view.getFloat64(at, true);
  }
}

export function writeScalar(t: ScalarType, view: DataView, at: number, v: ScalarValue): void {
  switch (t.name) {
    case "bool":
      return view.setUint8(at, v ? 1 : 0);
    case "i8":
      return view.setInt8(at, Number(v));
    case "u8":
      return view.setUint8(at, Number(v));
    case "i16":
      return view.setInt16(at, Number(v), true);
    case "u16":
      return view.setUint16(at, Number(v), true);
    case "f16":
      return view.setUint16(at, f16Bits(Number(v)), true);
    case "bf16":
      return view.setUint16(at, bf16Bits(Number(v)), true);
    case "i32":
      return view.setInt32(at, Number(v), true);
    case "u32":
      return view.setUint32(at, Number(v), true);
    case "i64":
      return view.setBigInt64(at, BigInt(v as bigint), true);
    case "u64":
      return view.setBigUint64(at, BigInt(v as bigint), true);
    case "f32":
      return view.setFloat32(at, Number(v), true);
    case "f64":
      return view.setFloat64(at, Number(v), true);
  }
}

/** The value of type `t` whose bytes start at `at`. */
export function readValue(t: ValueType | ArrayType, view: DataView, at: number): Value {
  switch (t.kind) {
    case "scalar":
      return readScalar(t, view, at);
    default: {
      const ls = leaves(t);
      return fromLeaves(t, ls.map((l) => readScalar(l.type, view, at + l.offset)));
    }
  }
}

/** Writes the leaves of `v` at `at`; padding bytes keep what they held. */
export function writeValue(t: ValueType | ArrayType, view: DataView, at: number, v: Value): void {
  const ls = leaves(t);
  const xs = leafValues(t, v);
  ls.forEach((l, i) => writeScalar(l.type, view, at + l.offset, xs[i]!));
}

/** A value of type `t` from its scalars in leaf order. */
export function fromLeaves(t: ValueType | ArrayType, xs: readonly ScalarValue[]): Value {
  let k = 0;
  const build = (u: ValueType | ArrayType): Value => {
    switch (u.kind) {
      case "scalar":
        return xs[k++]!;
      case "vector":
        return Array.from({ length: u.lanes }, () => xs[k++]!);
      case "struct":
        return u.fields.map((f) => build(f.type));
      case "array":
        return Array.from({ length: elementCount(u) }, () => build(u.elem));
    }
  };
  const v = build(t);
  invariant(k === xs.length, `fromLeaves: ${xs.length} scalars for ${k} leaves`);
  return v;
}

// ---------------------------------------------------------------- host values

/** What a host value should have been, and where in it (`.pos[2]`) it was not. */
export interface ValueMismatch {
  readonly ok: false;
  /** Where in the value: "" for the value itself, `.field`, `[i]`, `.field[i]`... */
  readonly at: string;
  /** What was expected there, in words: "a number", "an integer from 0 to 4294967295", "an array of 4 numbers (f32x4)". */
  readonly want: string;
  readonly got: unknown;
}

export type CoercedValue = { readonly ok: true; readonly value: Value } | ValueMismatch;

/** What a scalar parameter of type `t` takes, in words. */
export function expectedScalar(t: ScalarType): string {
  switch (t.name) {
    case "bool":
      return "a boolean";
    case "f16":
    case "bf16":
    case "f32":
    case "f64":
      return "a number";
    case "i8":
    case "u8":
    case "i16":
    case "u16":
    case "i32":
    case "u32":
      return `an integer from ${INT_RANGES[t.name][0]} to ${INT_RANGES[t.name][1]}`;
    case "i64":
    case "u64":
      return `a bigint (or a safe integer) from ${INT_RANGES[t.name][0]} to ${INT_RANGES[t.name][1]}`;
  }
}

function isArrayLike(x: unknown): x is ArrayLike<unknown> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

/**
 * A host value as a value of type `t`: scalars through `coerceScalar` (f32 rounded, 64-bit
 * integers as bigint); a vector from an array or TypedArray of its lanes; a struct from a
 * plain object with exactly its fields, or from the array of its fields' values in order (the
 * form `Value` has, so a value passes through unchanged); an array field from an array of its
 * elements, nested by dimension or flat.
 */
export function coerceValue(t: ValueType | ArrayType, x: unknown, at = ""): CoercedValue {
  switch (t.kind) {
    case "scalar": {
      const c = coerceScalar(t, x);
      return c.ok ? c : { ok: false, at, want: expectedScalar(t), got: x };
    }
    case "vector": {
      const want = `an array of ${t.lanes} ${t.elem.name === "bool" ? "booleans" : "numbers"} (${t.elem.name}x${t.lanes})`;
      if (!isArrayLike(x) || x.length !== t.lanes) return { ok: false, at, want, got: x };
      const out: Value[] = [];
      for (let k = 0; k < t.lanes; k++) {
        const c = coerceValue(t.elem, x[k], `${at}[${k}]`);
        if (!c.ok) return c;
        out.push(c.value);
      }
      return { ok: true, value: out };
    }
    case "struct": {
      const want = `an object with the fields of ${t.name} (${t.fields.map((f) => f.name).join(", ")})`;
      if (Array.isArray(x) && x.length === t.fields.length) {
        const out: Value[] = [];
        for (const [i, f] of t.fields.entries()) {
          const c = coerceValue(f.type, x[i], `${at}.${f.name}`);
          if (!c.ok) return c;
          out.push(c.value);
        }
        return { ok: true, value: out };
      }
      if (typeof x !== "object" || x === null || isArrayLike(x)) return { ok: false, at, want, got: x };
      const o = x as Record<string, unknown>;
      const extra = Object.keys(o).find((k) => !t.fields.some((f) => f.name === k));
      if (extra !== undefined) return { ok: false, at: `${at}.${extra}`, want: `no field '${extra}': ${t.name} has ${t.fields.map((f) => f.name).join(", ")}`, got: o[extra] };
      const out: Value[] = [];
      for (const f of t.fields) {
        if (!(f.name in o)) return { ok: false, at: `${at}.${f.name}`, want: `a value (the field is missing)`, got: undefined };
        const c = coerceValue(f.type, o[f.name], `${at}.${f.name}`);
        if (!c.ok) return c;
        out.push(c.value);
      }
      return { ok: true, value: out };
    }
    case "array": {
      // Elements that are arrays themselves (vectors, structs as arrays of their fields) make
      // a flat array of them look nested: each reading is tried, nested first.
      let firstBad: ValueMismatch | undefined;
      for (const flat of readings(x, t.dims)) {
        const out: Value[] = [];
        for (let i = 0; i < flat.length; i++) {
          const c = coerceValue(t.elem, flat[i], `${at}[${i}]`);
          if (!c.ok) {
            firstBad ??= c;
            break;
          }
          out.push(c.value);
        }
        if (out.length === flat.length) return { ok: true, value: out };
      }
      return firstBad ?? { ok: false, at, want: `an array of ${elementCount(t)} elements (${t.dims.map((d) => `[${d}]`).join("")}), nested or flat`, got: x };
    }
  }
}

/** The ways to read x as the elements of an array of `dims`, flat: nested by dimension (each row read nested first), and flat. */
function readings(x: unknown, dims: readonly number[]): unknown[][] {
  if (!isArrayLike(x)) return [];
  const out: unknown[][] = [];
  if (dims.length > 1 && x.length === dims[0]) {
    const rows = Array.from(x).map((r) => readings(r, dims.slice(1))[0]);
    if (rows.every((r): r is unknown[] => r !== undefined)) out.push(rows.flat());
  }
  if (x.length === dims.reduce((a, d) => a * d, 1)) out.push(Array.from(x));
  return out;
}

/**
 * A value as a host program reads it: a scalar as it is, a vector as an array of its lanes,
 * a struct as a plain object by field name, an array field as arrays nested by dimension.
 */
export function toHost(t: ValueType | ArrayType, v: Value): unknown {
  switch (t.kind) {
    case "scalar":
      return v;
    case "vector":
      return [...(v as readonly Value[])];
    case "struct":
      return Object.fromEntries(t.fields.map((f, i) => [f.name, toHost(f.type, (v as readonly Value[])[i]!)]));
    case "array": {
      const xs = (v as readonly Value[]).map((e) => toHost(t.elem, e));
      const nest = (from: number, level: number): unknown[] => {
        const stride = t.dims.slice(level + 1).reduce((a, d) => a * d, 1);
        return Array.from({ length: t.dims[level]! }, (_, k) => (level === t.dims.length - 1 ? xs[from + k] : nest(from + k * stride, level + 1)));
      };
      return nest(0, 0);
    }
  }
}

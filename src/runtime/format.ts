/**
 * Printing values as users read them: f32, f16 and bf16 with the fewest digits that give back
 * the same value; arrays of f16 and bf16 (which hold bits) as the values the bits are; an
 * array of vectors as its vectors (`[[1, 2, 3, 4], [5, 6, 7, 8]]`), an array of structs as its
 * structs (`[{ start: 0, edges: 2 }, ...]`), read leaf by leaf (padding is not data).
 */
import { roundBf16, roundF16 } from "../ir/halves.js";
import { readValue, type Value } from "../ir/composite.js";
import { sizeOf, storedLanes, type ArrayType, type ScalarName, type ScalarValue, type ValueType } from "../ir/types.js";
import { loadedValue, type AnyTypedArray } from "../ir/values.js";

/** The shortest decimal that reads back as the same f32 (e.g. 0.1, not 0.10000000149011612). */
export function shortestF32(v: number): string {
  return shortest(v, Math.fround);
}

/** The shortest decimal that `round` reads back as v. */
function shortest(v: number, round: (x: number) => number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Object.is(v, -0)) return "-0";
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (round(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

const SHORTEST: Partial<Record<ScalarName, (v: number) => string>> = {
  f32: shortestF32,
  f16: (v) => shortest(v, roundF16),
  bf16: (v) => shortest(v, roundBf16),
};

export function formatValue(elem: ScalarName, v: ScalarValue): string {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return String(v);
  if (elem === "bool") return v ? "true" : "false";
  const short = SHORTEST[elem];
  if (short) return short(v);
  return Object.is(v, -0) ? "-0" : String(v);
}

/**
 * A value for JSON output, exactly: numbers that JSON can carry as numbers; NaN,
 * Infinity, -Infinity and -0 as strings; 64-bit integers beyond 2^53 as decimal strings.
 */
export function jsonValue(elem: ScalarName, v: ScalarValue): number | string | boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "bigint") return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
  if (elem === "bool") return v !== 0;
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  if (Object.is(v, -0)) return "-0";
  const short = SHORTEST[elem];
  return short ? Number(short(v)) : v;
}

/** The number of elements of an array argument (src/ir/values.ts checkArrayArg) and the i-th of them as a value. */
function elementReader(elem: ValueType, a: AnyTypedArray): { total: number; at: (i: number) => Value } {
  if (elem.kind === "scalar") return { total: a.length, at: (i) => loadedValue(elem.name, a[i]!) };
  if (elem.kind === "vector") {
    const per = storedLanes(elem);
    return { total: a.length / per, at: (i) => Array.from({ length: elem.lanes }, (_, k) => loadedValue(elem.elem.name, a[i * per + k]!)) };
  }
  const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
  const size = sizeOf(elem);
  return { total: a.byteLength / size, at: (i) => readValue(elem, view, i * size) };
}

/** Elements written per piece of text (formatElementsParts, jsonElementsParts): a few hundred KiB at most. */
const PIECE = 1 << 14;

/**
 * `[a, b, ...]` of the first `limit` elements (and a count of the rest) in pieces of at most
 * PIECE elements, so that an array of any length is printed without ever being one string
 * (V8's strings end at 2^29 characters).
 */
function* parts(elem: ValueType, a: AnyTypedArray, limit: number, sep: string, text: (v: Value) => string): Generator<string> {
  const { total, at } = elementReader(elem, a);
  const n = Math.min(total, limit);
  if (n === 0 && total === 0) {
    yield "[]";
    return;
  }
  for (let start = 0; start < n; start += PIECE) {
    const end = Math.min(n, start + PIECE);
    const piece: string[] = [];
    for (let i = start; i < end; i++) piece.push(text(at(i)));
    yield (start === 0 ? "[" : sep) + piece.join(sep);
  }
  yield total > n ? `${n === 0 ? "[" : sep}... ${total - n} more]` : "]";
}

/** formatElements in pieces (see parts). */
export function formatElementsParts(elem: ValueType, a: AnyTypedArray, limit = Infinity): Generator<string> {
  return parts(elem, a, limit, ", ", (v) => formatAny(elem, v));
}

/** The JSON text of every element of an array argument of any element type (jsonAny), in pieces (see parts). */
export function jsonElementsParts(elem: ValueType, a: AnyTypedArray): Generator<string> {
  return parts(elem, a, Infinity, ",", (v) => {
    const j = jsonAny(elem, v);
    return typeof j === "number" ? String(j) : JSON.stringify(j);
  });
}

/** Flat row-major items nested by `dims`: [[a, b], [c, d]] for dims [2, 2]. */
function nest<T>(dims: readonly number[], flat: readonly T[]): unknown[] {
  if (dims.length === 1) return [...flat];
  const stride = flat.length / dims[0]!;
  return Array.from({ length: dims[0]! }, (_, k) => nest(dims.slice(1), flat.slice(k * stride, (k + 1) * stride)));
}

/** A value as gkc prints it: scalars as formatValue, vectors as `[x, y]`, structs as `{ a: 1, b: [2, 3] }`, array fields nested by dimension. */
export function formatAny(t: ValueType | ArrayType, v: Value): string {
  const list = (u: unknown): string => (Array.isArray(u) ? `[${u.map(list).join(", ")}]` : (u as string));
  switch (t.kind) {
    case "scalar":
      return formatValue(t.name, v as ScalarValue);
    case "vector":
      return `[${(v as readonly Value[]).map((x) => formatValue(t.elem.name, x as ScalarValue)).join(", ")}]`;
    case "struct":
      return `{ ${t.fields.map((f, i) => `${f.name}: ${formatAny(f.type, (v as readonly Value[])[i]!)}`).join(", ")} }`;
    case "array":
      return list(nest(t.dims, (v as readonly Value[]).map((x) => formatAny(t.elem, x))));
  }
}

/** `[...]` of the elements of an array argument of any element type, at most `limit` of them. */
export function formatElements(elem: ValueType, a: AnyTypedArray, limit = Infinity): string {
  return [...formatElementsParts(elem, a, limit)].join("");
}

/** A value for JSON output (vectors as arrays, structs as objects, array fields nested by dimension), every scalar as jsonValue writes it. */
export function jsonAny(t: ValueType | ArrayType, v: Value): unknown {
  switch (t.kind) {
    case "scalar":
      return jsonValue(t.name, v as ScalarValue);
    case "vector":
      return (v as readonly Value[]).map((x) => jsonValue(t.elem.name, x as ScalarValue));
    case "struct":
      return Object.fromEntries(t.fields.map((f, i) => [f.name, jsonAny(f.type, (v as readonly Value[])[i]!)]));
    case "array":
      return nest(t.dims, (v as readonly Value[]).map((x) => jsonAny(t.elem, x)));
  }
}

/**
 * Printing values as users read them: f32, f16 and bf16 with the fewest digits that give back
 * the same value; arrays of f16 and bf16 (which hold bits) as the values the bits are.
 */
import { roundBf16, roundF16 } from "../ir/halves.js";
import type { ScalarName, ScalarValue } from "../ir/types.js";
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

/** `[1, 2, 3]`, with at most `limit` elements and a count of the rest. */
export function formatArray(elem: ScalarName, a: AnyTypedArray, limit = Infinity): string {
  const n = Math.min(a.length, limit);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(formatValue(elem, loadedValue(elem, a[i]!)));
  const more = a.length > n ? `, ... ${a.length - n} more` : "";
  return `[${parts.join(", ")}${more}]`;
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

export function jsonArray(elem: ScalarName, a: AnyTypedArray): (number | string | boolean)[] {
  const out: (number | string | boolean)[] = new Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = jsonValue(elem, loadedValue(elem, a[i]!));
  return out;
}

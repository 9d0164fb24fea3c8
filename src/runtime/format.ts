/** Printing values as users read them: f32 with the fewest digits that give back the same f32. */
import type { ScalarName, ScalarValue } from "../ir/types.js";
import type { AnyTypedArray } from "../ir/values.js";

/** The shortest decimal that reads back as the same f32 (e.g. 0.1, not 0.10000000149011612). */
export function shortestF32(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Object.is(v, -0)) return "-0";
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

export function formatValue(elem: ScalarName, v: ScalarValue): string {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return String(v);
  if (elem === "bool") return v ? "true" : "false";
  if (elem === "f32") return shortestF32(v);
  return Object.is(v, -0) ? "-0" : String(v);
}

/** `[1, 2, 3]`, with at most `limit` elements and a count of the rest. */
export function formatArray(elem: ScalarName, a: AnyTypedArray, limit = Infinity): string {
  const n = Math.min(a.length, limit);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(formatValue(elem, a[i] as ScalarValue));
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
  return elem === "f32" ? Number(shortestF32(v)) : v;
}

export function jsonArray(elem: ScalarName, a: AnyTypedArray): (number | string | boolean)[] {
  const out: (number | string | boolean)[] = new Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = jsonValue(elem, a[i] as ScalarValue);
  return out;
}

/**
 * WGSL literals that mean exactly gk's constant:
 *
 *   i32   5i, -5i; the most negative one as i32(-2147483648) (2147483648i is out of range)
 *   u32   7u
 *   f32   2.5f, 0.1f written out in full when its exact decimal has at most 12 significant
 *         digits, else a hexadecimal float (0x1.99999ap-4f), which WGSL reads exactly;
 *         ±Infinity and NaN, which no WGSL literal denotes (a constant expression that is
 *         one is an error), and -0.0, whose sign WGSL lets an implementation drop from a
 *         constant, from their bits through a helper call, which is not a constant
 *         expression: gk_f32_from_bits(0x7f800000u), gk_f32_from_bits(0x80000000u)
 *   bool  true, false
 */
import type { ScalarType, ScalarValue } from "../../ir/types.js";
import { invariant } from "../../util.js";

/** The helper that makes an f32 from its bits at run time (helpers.ts defines it). */
export const FROM_BITS = "gk_f32_from_bits";

export function literal(t: ScalarType, value: ScalarValue): string {
  switch (t.name) {
    case "bool":
      return value ? "true" : "false";
    case "i32": {
      const v = Number(value);
      return v === -2147483648 ? "i32(-2147483648)" : `${v}i`;
    }
    case "u32":
      return `${Number(value)}u`;
    case "f32":
      return f32Literal(Number(value));
    default:
      return invariant(false, `a ${t.name} literal reached the WGSL backend`) as never;
  }
}

/** The bits of an f32 value, as a u32. */
export function f32Bits(v: number): number {
  const f = new Float32Array([v]);
  return new Uint32Array(f.buffer)[0]!;
}

function f32Literal(v: number): string {
  // -0 too: WGSL lets an implementation ignore the sign of a zero constant (SwiftShader's
  // copysign(x, -0.0f) was |x|); made from its bits at run time, it keeps it.
  if (!Number.isFinite(v) || Object.is(v, -0)) return `${FROM_BITS}(0x${f32Bits(v).toString(16)}u)`;
  const sign = v < 0 ? "-" : "";
  const a = Math.abs(v);
  const dec = exactDecimal(a);
  if (dec !== undefined) return `${sign}${dec}f`;
  return `${sign}${hexFloat(a)}f`;
}

/** The exact decimal of a positive dyadic value, when it has at most 12 significant digits. */
function exactDecimal(a: number): string | undefined {
  if (Number.isInteger(a)) return a < 1e12 ? `${a}.0` : undefined;
  // a = m / 2^k with m odd: its decimal has exactly k digits after the point.
  let k = 0;
  let m = a;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  const digits = (BigInt(m) * 5n ** BigInt(k)).toString().padStart(k + 1, "0");
  const int = digits.slice(0, digits.length - k);
  const frac = digits.slice(digits.length - k);
  const significant = (int === "0" ? frac.replace(/^0+/, "") : int + frac).length;
  return significant <= 12 ? `${int}.${frac}` : undefined;
}

/** `0x1.8p3`: a positive finite value, exactly. */
function hexFloat(a: number): string {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  // The significand a / 2^e in [1, 2): 23 bits after the point at most (f32; subnormals fewer but exact too).
  let frac = a / 2 ** e - 1;
  let hex = "";
  while (frac > 0) {
    frac *= 16;
    const d = Math.floor(frac);
    hex += d.toString(16);
    frac -= d;
  }
  return `0x1${hex ? `.${hex}` : ""}p${e}`;
}

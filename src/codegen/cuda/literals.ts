/**
 * Constants as CUDA literals, exactly: every literal denotes the very value the IR holds.
 *
 * - f32: the shortest decimal that nvcc (which rounds a decimal literal once, to nearest even)
 *   reads back as the same f32, with an `f` suffix: `0.1f`, `2.5f`, `-0.0f`, `1e30f`. The
 *   check is exact (big-integer arithmetic), not a round trip through a double.
 * - f64: JavaScript's shortest round-trip decimal, which is what a correctly rounding C++
 *   compiler reads back.
 * - NaN and infinities: their bit patterns (`__int_as_float(0x7f800000)`); C++ has no literal.
 * - Integers with their type's suffix; the most negative i32/i64 as `(-2147483647 - 1)`,
 *   because `-2147483648` is the negation of a literal that does not fit in `int`. The small
 *   integer types have no literals: an `int` literal converted, `(signed char)-5`, so that the
 *   value has its own type where C++ chooses an overload or a template argument by it.
 * - f16 and bf16: from their bits, `__ushort_as_half(0x3e00)`, exact for every value.
 */
import type { ConstExpr } from "../../ir/nodes.js";
import { bf16Bits, f16Bits } from "../../ir/halves.js";
import type { ScalarType, ScalarValue } from "../../ir/types.js";
import { assertNever, invariant } from "../../util.js";
import { CUDA } from "./settings.js";

/** A literal's text, and whether it binds like a unary expression (it begins with a minus sign or a cast). */
export interface Literal {
  readonly text: string;
  readonly negative: boolean;
}

export function constLiteral(c: ConstExpr): Literal {
  return literal(c.type, c.value);
}

export function literal(t: ScalarType, v: ScalarValue): Literal {
  switch (t.name) {
    case "bool":
      return { text: v ? "true" : "false", negative: false };
    case "i32":
    case "u32":
    case "i64":
    case "u64":
      return intLiteral(t.name, BigInt(v as number | bigint));
    case "i8":
    case "u8":
    case "i16":
    case "u16":
      return { text: `(${CUDA.types[t.name]})${String(v)}`, negative: true };
    case "f32":
    case "f64":
      return floatLiteral(t.name, v as number);
    case "f16":
      return { text: `${CUDA.half.f16.fromBits}(0x${f16Bits(v as number).toString(16).padStart(4, "0")})`, negative: false };
    case "bf16":
      return { text: `${CUDA.half.bf16.fromBits}(0x${bf16Bits(v as number).toString(16).padStart(4, "0")})`, negative: false };
    default:
      return assertNever(t.name, "scalar type");
  }
}

const MOST_NEGATIVE = { i32: -(2n ** 31n), i64: -(2n ** 63n) } as const;

function intLiteral(name: "i32" | "u32" | "i64" | "u64", v: bigint): Literal {
  const suffix = CUDA.intSuffix[name];
  if ((name === "i32" || name === "i64") && v === MOST_NEGATIVE[name]) {
    return { text: `(-${-v - 1n}${suffix} - 1)`, negative: false };
  }
  return { text: `${v}${suffix}`, negative: v < 0n };
}

function floatLiteral(name: "f32" | "f64", v: number): Literal {
  const bits = CUDA.floatFromBits[name];
  if (Number.isNaN(v)) return { text: `${bits.fn}(${bits.nan})`, negative: false };
  if (v === Infinity) return { text: `${bits.fn}(${bits.inf})`, negative: false };
  if (v === -Infinity) return { text: `${bits.fn}(${bits.negInf})`, negative: false };
  const negative = v < 0 || Object.is(v, -0);
  const digits = name === "f32" ? shortestF32(Math.abs(v)) : shortestF64(Math.abs(v));
  return { text: `${negative ? "-" : ""}${formatDecimal(digits)}${CUDA.floatSuffix[name]}`, negative };
}

// ---------------------------------------------------------------- decimals

/** A non-negative decimal: `digits` × 10^`exp`, digits without leading zeros ("0" for zero). */
interface Decimal {
  readonly digits: bigint;
  readonly exp: number;
}

/** A C++ floating literal's text (without suffix): positional for moderate exponents, else `1.5e-10`. */
export function formatDecimal(d: Decimal): string {
  let digits = d.digits.toString();
  let exp = d.exp;
  while (digits.length > 1 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    exp++;
  }
  if (digits === "0") return "0.0";
  const point = digits.length + exp; // digits before the decimal point
  if (point > 17 || point < -5) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${mantissa}e${point - 1}`;
  }
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${"0".repeat(point - digits.length)}.0`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The decimal that JavaScript prints for a double: the shortest that reads back as it. */
function shortestF64(v: number): Decimal {
  return parseDecimal(String(v));
}

/** `1.25e-7`, `123.5`, `1e+21` → digits and exponent. */
function parseDecimal(s: string): Decimal {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(s);
  invariant(m, `unexpected number format ${s}`);
  const frac = m[2] ?? "";
  return { digits: BigInt(m[1]! + frac), exp: Number(m[3] ?? 0) - frac.length };
}

// ---------------------------------------------------------------- shortest f32

const f32buf = new Float32Array(1);
const u32view = new Uint32Array(f32buf.buffer);

/** An exact binary value: `m` × 2^`e`. */
interface Binary {
  readonly m: bigint;
  readonly e: number;
}

/** A positive finite f32 (or its bit pattern's neighbour) as m × 2^e. */
function f32Binary(bits: number): Binary {
  const exp = (bits >>> 23) & 0xff;
  const frac = bits & 0x7fffff;
  if (exp === 0) return { m: BigInt(frac), e: -149 };
  return { m: BigInt(frac | 0x800000), e: exp - 150 };
}

/** a - b < 0, = 0 or > 0 for a decimal and an exact binary value. */
function compare(d: Decimal, b: Binary): number {
  let left = d.digits;
  let right = b.m;
  if (d.exp >= 0) left *= 10n ** BigInt(d.exp);
  else right *= 10n ** BigInt(-d.exp);
  if (b.e >= 0) right *= 2n ** BigInt(b.e);
  else left *= 2n ** BigInt(-b.e);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** (a + b) / 2 exactly. */
function midpoint(a: Binary, b: Binary): Binary {
  const e = Math.min(a.e, b.e);
  return { m: (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e: e - 1 };
}

/**
 * The shortest decimal that rounds (once, to nearest even) to the positive f32 `v`; among
 * the shortest, the one nearest to `v`. `v` is finite and already an f32 value.
 */
function shortestF32(v: number): Decimal {
  if (v === 0) return { digits: 0n, exp: 0 };
  f32buf[0] = v;
  const bits = u32view[0]!;
  invariant(f32buf[0] === v, `${v} is not an f32 value`);
  const value = f32Binary(bits);
  // Decimals strictly between these bounds round to v; on a bound, to the even neighbour.
  const below = bits === 1 ? { m: 0n, e: 0 } : f32Binary(bits - 1);
  const above = bits === 0x7f7fffff ? { m: 1n, e: 128 } : f32Binary(bits + 1);
  const lo = midpoint(below, value);
  const hi = midpoint(value, above);
  const evenMantissa = (bits & 1) === 0;
  const roundsToV = (d: Decimal) => {
    const cl = compare(d, lo);
    const ch = compare(d, hi);
    return (cl > 0 || (cl === 0 && evenMantissa)) && (ch < 0 || (ch === 0 && evenMantissa));
  };
  for (let precision = 1; precision <= 9; precision++) {
    const nearest = parseDecimal(v.toExponential(precision - 1).replace(".", "").replace(/e\+?/, "e"));
    const d = { digits: nearest.digits, exp: nearest.exp - (precision - 1) };
    // The nearest decimal of this length, or (where v's rounding interval is lopsided, at a
    // power of two) its neighbour on the wide side.
    const candidates = [d, { digits: d.digits + 1n, exp: d.exp }, { digits: d.digits - 1n, exp: d.exp }];
    const found = candidates.find((c) => c.digits > 0n && roundsToV(c));
    if (found) return found;
  }
  return invariant(false, `no 9-digit decimal for the f32 ${v}`) as never;
}

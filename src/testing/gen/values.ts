/**
 * Values for generated programs: literals (finite, as source text can spell them) and
 * inputs (anything, with the edge cases weighted up: 0, -0, NaN, ±Infinity, subnormals,
 * the integer limits and the float values around them, where conversions saturate).
 */
import fc from "fast-check";
import { BF16_MAX, F16_MAX, roundBf16, roundF16 } from "../../ir/halves.js";
import { type AnyTypedArray, INT_RANGES, newTypedArray, storedValue } from "../../ir/values.js";
import { isFloatTy, isSignedTy, type FloatTy, type IntTy, type Ty, type Value } from "./ast.js";

const I32_MIN = Number(INT_RANGES.i32[0]);
const I32_MAX = Number(INT_RANGES.i32[1]);
const U32_MAX = Number(INT_RANGES.u32[1]);
const [I64_MIN, I64_MAX] = INT_RANGES.i64;
const U64_MAX = INT_RANGES.u64[1];

const F32_MAX = 3.4028234663852886e38;
const F32_MIN_NORMAL = 1.1754943508222875e-38;
const F32_MIN_SUBNORMAL = 1.401298464324817e-45;

const EDGE_INTS: Record<IntTy, readonly (number | bigint)[]> = {
  i8: [0, 1, -1, 2, 7, 8, 9, 127, -128, -127, 126, 100, -100],
  u8: [0, 1, 2, 7, 8, 9, 127, 128, 255, 254, 200],
  i16: [0, 1, -1, 2, 15, 16, 17, 255, 256, 32767, -32768, -32767, 1000, -1000],
  u16: [0, 1, 2, 15, 16, 17, 255, 256, 32767, 32768, 65535, 65534],
  i32: [0, 1, -1, 2, -2, 31, 32, 33, 255, I32_MIN, I32_MAX, I32_MIN + 1, 65536, -65536],
  u32: [0, 1, 2, 31, 32, 33, 255, 0x7fffffff, 0x80000000, U32_MAX, U32_MAX - 1, 65536],
  i64: [0n, 1n, -1n, 2n, 63n, 64n, 65n, I64_MIN, I64_MAX, I64_MIN + 1n, 1n << 32n, -(1n << 32n), 4294967295n, -2147483649n],
  u64: [0n, 1n, 2n, 63n, 64n, 65n, U64_MAX, U64_MAX - 1n, 1n << 63n, I64_MAX, 1n << 32n, 4294967295n],
};

/** Floats where conversions and comparisons are interesting: the integer limits, around them, and the f32 limits. */
const EDGE_FLOATS: readonly number[] = [
  0, -0, 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.1, 3,
  2147483647, 2147483648, -2147483648, -2147483649, 2147483520, -2147483904, 4294967295, 4294967296, 4294967040,
  9223372036854775807, -9223372036854775808, 9223371487098961920, 18446744073709551615, 18446742974197923840,
  16777216, 16777217, 9007199254740992, 9007199254740993,
  F32_MAX, -F32_MAX, F32_MIN_NORMAL, F32_MIN_SUBNORMAL, -F32_MIN_SUBNORMAL, 1e-40,
  1e39, -1e39, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
];

/** f16 and bf16 values where their rounding, range and subnormals show: the largest finite, the smallest normal and subnormal, ties. */
const EDGE_HALVES: Readonly<Record<"f16" | "bf16", readonly number[]>> = {
  f16: [F16_MAX, -F16_MAX, 2 ** -14, 2 ** -24, -(2 ** -24), 3 * 2 ** -24, 2048, 2049, 2050, 1 + 2 ** -10, 1 + 2 ** -11, 65504 - 16, 127.5, 255, 256, 32768],
  bf16: [BF16_MAX, -BF16_MAX, 2 ** -126, 2 ** -133, -(2 ** -133), 256, 257, 258, 1 + 2 ** -7, 1 + 2 ** -8, 65536, 2 ** 31, -(2 ** 31), 2 ** 63, 1e30],
};

const SPECIAL_FLOATS: readonly number[] = [NaN, Infinity, -Infinity, -0];

function smallInt(t: IntTy): fc.Arbitrary<number | bigint> {
  const signed = isSignedTy(t);
  const a = fc.integer({ min: signed ? -20 : 0, max: 40 });
  return t === "i64" || t === "u64" ? a.map((x) => BigInt(x)) : a;
}

function anyInt(t: IntTy): fc.Arbitrary<number | bigint> {
  switch (t) {
    case "i8":
    case "u8":
    case "i16":
    case "u16":
      return fc.integer({ min: Number(INT_RANGES[t][0]), max: Number(INT_RANGES[t][1]) });
    case "i32":
      return fc.integer({ min: I32_MIN, max: I32_MAX });
    case "u32":
      return fc.integer({ min: 0, max: U32_MAX });
    case "i64":
      return fc.bigInt({ min: I64_MIN, max: I64_MAX });
    case "u64":
      return fc.bigInt({ min: 0n, max: U64_MAX });
  }
}

function intValue(t: IntTy): fc.Arbitrary<Value> {
  return fc.oneof(
    { arbitrary: smallInt(t), weight: 5 },
    { arbitrary: fc.constantFrom(...EDGE_INTS[t]), weight: 3 },
    { arbitrary: anyInt(t), weight: 2 },
  );
}

const ROUND: Record<FloatTy, (x: number) => number> = { f16: roundF16, bf16: roundBf16, f32: Math.fround, f64: (x) => x };
const roundTo = (t: FloatTy) => ROUND[t];

/** Ordinary floats: small multiples of 1/8, and some with many digits. */
function plainFloat(t: FloatTy): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: -64, max: 64 }).map((n) => n / 8),
    fc.double({ min: -1000, max: 1000, noNaN: true }).map(roundTo(t)),
  );
}

/** A finite float of type t, as a literal can spell it. */
function finiteFloat(t: FloatTy): fc.Arbitrary<number> {
  const edges = [...EDGE_FLOATS, ...(t === "f16" || t === "bf16" ? EDGE_HALVES[t] : [])].map(roundTo(t)).filter((x) => Number.isFinite(x));
  const full =
    t === "f64" ? fc.double({ noNaN: true, noDefaultInfinity: true })
    : t === "f32" ? fc.float({ noNaN: true, noDefaultInfinity: true })
    : fc.float({ noNaN: true, noDefaultInfinity: true }).map(roundTo(t)).filter((x) => Number.isFinite(x));
  return fc.oneof({ arbitrary: plainFloat(t), weight: 6 }, { arbitrary: fc.constantFrom(...edges), weight: 3 }, { arbitrary: full, weight: 1 });
}

/**
 * A value for a literal of type t: finite (there is no literal for NaN or Infinity).
 * `subnormals` false: a subnormal float becomes a zero of its sign (a map, so the random
 * stream is the same).
 */
export function literalValue(t: Ty, subnormals = true): fc.Arbitrary<Value> {
  if (t === "bool") return fc.boolean();
  if (isFloatTy(t)) return subnormals ? finiteFloat(t) : finiteFloat(t).map(flushed);
  return intValue(t);
}

/** A value for an input of type t: anything, NaN and the infinities included (unless `specials` is false: finite only). */
export function inputValue(t: Ty, subnormals = true, specials = true): fc.Arbitrary<Value> {
  if (isFloatTy(t) && !specials) return literalValue(t, subnormals);
  if (isFloatTy(t)) {
    return fc.oneof({ arbitrary: literalValue(t, subnormals), weight: 8 }, { arbitrary: fc.constantFrom(...SPECIAL_FLOATS), weight: 2 });
  }
  return literalValue(t);
}

/** x, or a zero of its sign where its magnitude is below f32's smallest normal (the targets without subnormals have f32 only). */
function flushed(x: number): number {
  return x !== 0 && Math.abs(x) < F32_MIN_NORMAL ? (x < 0 ? -0 : 0) : x;
}

/** A small integer-valued input of type t (float atomic sums stay exact with these). */
export function smallValue(t: Ty): fc.Arbitrary<Value> {
  if (t === "bool") return fc.boolean();
  if (isFloatTy(t)) return fc.integer({ min: -100, max: 100 });
  return smallInt(t);
}

/** An array of `n` values as the TypedArray of its element type (bool as 0/1 bytes, f16 and bf16 as bits). */
export function typedArray(t: Ty, n: number, values: fc.Arbitrary<Value> = inputValue(t)): fc.Arbitrary<AnyTypedArray> {
  return fc.array(values, { minLength: n, maxLength: n }).map((vs) => toTypedArray(t, vs));
}

export function toTypedArray(t: Ty, vs: readonly Value[]): AnyTypedArray {
  const a = newTypedArray(t, vs.length);
  vs.forEach((v, i) => ((a as unknown as Value[])[i] = storedValue(t, v)));
  return a;
}

/** A recognisable value that marks output slots no thread wrote. */
export function sentinel(t: Ty): Value {
  switch (t) {
    case "bool":
      return true;
    case "i32":
      return -559038737;
    case "u32":
      return 0xdeadbeef;
    case "i64":
      return -0x2152411021524111n;
    case "u64":
      return 0xdeadbeefdeadbeefn;
    case "f32":
      return -1234.5;
    case "f64":
      return -98765.4321;
    case "i8":
      return -34;
    case "u8":
      return 0xad;
    case "i16":
      return -8531;
    case "u16":
      return 0xbeef;
    case "f16":
      return -1234;
    case "bf16":
      return -98304;
  }
}

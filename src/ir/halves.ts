/**
 * The 16-bit floats, f16 (IEEE 754 binary16: 1 sign bit, 5 exponent bits, 10 fraction bits)
 * and bf16 (bfloat16: the top half of an f32, 8 exponent bits and 7 fraction bits), as
 * JavaScript sees them: a value is a `number` that the format represents exactly, and memory
 * holds its 16 bits (a `Uint16Array` element). Rounding is to nearest, ties to even, done
 * once from the exact double: the simulator, constant folding, the API's coercion of host
 * numbers and the conversion helpers exported from `gk` all round here.
 */

/** A binary floating-point format with subnormals: `precision` significant bits, smallest normal exponent `emin`. */
interface Format {
  readonly precision: number;
  readonly emin: number;
  /** The largest finite value. */
  readonly max: number;
  /** The smallest magnitude that rounds to infinity: max plus half an ulp of max (a tie, and max's significand is odd). */
  readonly overflow: number;
}

function format(precision: number, emin: number, emax: number): Format {
  const ulpOfMax = 2 ** (emax - precision + 1);
  const max = 2 ** (emax + 1) - ulpOfMax;
  return { precision, emin, max, overflow: max + ulpOfMax / 2 };
}

const F16 = format(11, -14, 15);
const BF16 = format(8, -126, 127);

/** The largest finite f16 (65504) and bf16 (about 3.39e38). */
export const F16_MAX = F16.max;
export const BF16_MAX = BF16.max;

/** y (finite, non-negative, below 2^52) rounded to an integer, ties to even. */
function roundHalfEven(y: number): number {
  const f = Math.floor(y);
  const d = y - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** The exponent e with 2^e <= a < 2^(e+1), for a finite positive double. */
function exponentOf(a: number): number {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

/** x rounded once, to nearest even, to the format; the sign of zero and NaN kept. */
function roundTo(f: Format, x: number): number {
  if (x !== x || x === 0) return x;
  const a = Math.abs(x);
  if (a >= f.overflow) return x > 0 ? Infinity : -Infinity;
  // The quantum: the place value of the last significant bit (fixed below the normals).
  const q = 2 ** (Math.max(exponentOf(a), f.emin) - f.precision + 1);
  const r = roundHalfEven(a / q) * q;
  return x < 0 ? -r : r;
}

/** The f16 nearest to x (ties to even), as a number. */
export function roundF16(x: number): number {
  return roundTo(F16, x);
}

/** The bf16 nearest to x (ties to even), as a number. */
export function roundBf16(x: number): number {
  return roundTo(BF16, x);
}

// ---------------------------------------------------------------- bits

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
/** The high word of `f64[0]` (sign, exponent and the fraction's top 20 bits), little endian. */
const hi = new Uint32Array(f64.buffer);

/**
 * A 16-bit NaN as a number: a quiet double NaN of its sign whose fraction carries the 16-bit
 * fraction (payload and quiet bit) just below the double's quiet bit, from bit 50 down. A quiet
 * double keeps its bits wherever JavaScript moves it, so every f16 and bf16 NaN, signaling ones
 * too, comes back from the number bit for bit (`nanBits`). A NaN made by arithmetic has its
 * own fraction there: its payload is whatever those bits say, as the payload of a NaN an
 * operation makes is unspecified (spec: Semantics of operations).
 */
function nanNumber(sign: number, fraction: number, fractionBits: number): number {
  hi[1] = (sign ? 0x80000000 : 0) | 0x7ff80000 | (fraction << (19 - fractionBits));
  hi[0] = 0;
  return f64[0]!;
}

/** The sign and fraction of a 16-bit NaN from its number (`nanNumber`); a fraction of zero, which is no NaN's, becomes the quiet bit alone. */
function nanBits(x: number, fractionBits: number, exponentBits: number): number {
  f64[0] = x;
  const word = hi[1]!;
  const fraction = (word >>> (19 - fractionBits)) & ((1 << fractionBits) - 1);
  return ((word >>> 31) << 15) | (((1 << exponentBits) - 1) << fractionBits) | (fraction || 1 << (fractionBits - 1));
}

/** The bits of the f16 nearest to x. */
export function f16Bits(x: number): number {
  if (x !== x) return nanBits(x, 10, 5);
  const r = roundF16(x);
  const sign = r < 0 || Object.is(r, -0) ? 0x8000 : 0;
  const a = Math.abs(r);
  if (a === Infinity) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | (a * 2 ** 24); // subnormal (or zero): the fraction counts 2^-24s
  const e = exponentOf(a);
  return sign | ((e + 15) << 10) | (a / 2 ** (e - 10) - 0x400);
}

/** The value of f16 bits. */
export function fromF16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (e === 0x1f) return frac === 0 ? sign * Infinity : nanNumber(bits & 0x8000, frac, 10);
  if (e === 0) return sign * frac * 2 ** -24;
  return sign * (0x400 + frac) * 2 ** (e - 25);
}

/** The bits of the bf16 nearest to x: the top half of the f32 that bf16 value is. */
export function bf16Bits(x: number): number {
  if (x !== x) return nanBits(x, 7, 8);
  f32[0] = roundBf16(x);
  return u32[0]! >>> 16;
}

/** The value of bf16 bits. */
export function fromBf16Bits(bits: number): number {
  if ((bits & 0x7f80) === 0x7f80 && bits & 0x7f) return nanNumber(bits & 0x8000, bits & 0x7f, 7);
  u32[0] = (bits & 0xffff) << 16;
  return f32[0]!;
}

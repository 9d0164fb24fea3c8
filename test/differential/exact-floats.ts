/**
 * Exact rounding, written from the spec's words and independent of src/ir/halves.ts: a value
 * as a big-integer fraction times a power of two, rounded once, to nearest even, to a binary
 * format with subnormals. The reference for tests of f16 and bf16 (test/ir/halves.test.ts) and
 * for the expected values of the edge-case kernels.
 */

export interface Fmt {
  readonly precision: number;
  readonly emin: number;
  readonly emax: number;
}
export const F16: Fmt = { precision: 11, emin: -14, emax: 15 };
export const BF16: Fmt = { precision: 8, emin: -126, emax: 127 };

const bitLength = (x: bigint) => (x === 0n ? 0 : x.toString(2).length);

/** num / den * 2^exp (num, den > 0) rounded once, to nearest even, to the format. */
export function roundExact(f: Fmt, negative: boolean, num: bigint, den: bigint, exp: number): number {
  if (num === 0n) return negative ? -0 : 0;
  // e = floor(log2(value)): start from the bit lengths and correct by one comparison.
  let e = bitLength(num) - bitLength(den) + exp;
  const atLeast = (k: number) => (k - exp >= 0 ? num >= den << BigInt(k - exp) : num << BigInt(exp - k) >= den);
  if (!atLeast(e)) e--;
  const qe = Math.max(e, f.emin) - f.precision + 1; // the quantum's exponent
  // value / 2^qe = n / d
  const n = qe - exp <= 0 ? num << BigInt(exp - qe) : num;
  const d = qe - exp > 0 ? den << BigInt(qe - exp) : den;
  let q = n / d;
  const twice = 2n * (n - q * d);
  if (twice > d || (twice === d && (q & 1n) === 1n)) q++;
  if (q >= 1n << BigInt(f.emax + 1 - qe)) return negative ? -Infinity : Infinity;
  const r = Number(q) * 2 ** qe;
  return negative ? -r : r;
}

/** A finite double as sign, integer significand and exponent. */
export function exact(x: number): { negative: boolean; m: bigint; e: number } {
  const buf = new Float64Array([x]);
  const bits = new BigUint64Array(buf.buffer)[0]!;
  const negative = bits >> 63n === 1n;
  const be = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return be === 0 ? { negative, m: frac, e: -1074 } : { negative, m: frac | (1n << 52n), e: be - 1075 };
}

export function roundDouble(f: Fmt, x: number): number {
  if (!Number.isFinite(x)) return x;
  const { negative, m, e } = exact(x);
  return roundExact(f, negative, m, 1n, e);
}

/** The exact result of a op b (finite operands), rounded once. */
export function exactOp(f: Fmt, op: "add" | "sub" | "mul" | "div", a: number, b: number): number {
  const x = exact(a);
  const y = exact(b);
  const sx = x.negative ? -x.m : x.m;
  const sy = (y.negative ? -y.m : y.m) * (op === "sub" ? -1n : 1n);
  if (op === "mul") return roundExact(f, x.negative !== y.negative, x.m * y.m, 1n, x.e + y.e);
  if (op === "div") return roundExact(f, x.negative !== y.negative, x.m, y.m, x.e - y.e);
  const e = Math.min(x.e, y.e);
  const sum = (sx << BigInt(x.e - e)) + (sy << BigInt(y.e - e));
  // An exact zero sum is +0, unless both operands are -0 (IEEE 754, to nearest).
  if (sum === 0n) return x.negative && (op === "sub" ? !y.negative : y.negative) && a === 0 ? -0 : 0;
  return roundExact(f, sum < 0n, sum < 0n ? -sum : sum, 1n, e);
}

export function exactFma(f: Fmt, a: number, b: number, c: number): number {
  const x = exact(a);
  const y = exact(b);
  const z = exact(c);
  const pe = x.e + y.e;
  const p = (x.negative !== y.negative ? -1n : 1n) * x.m * y.m;
  const zc = z.negative ? -z.m : z.m;
  const e = Math.min(pe, z.e);
  const sum = (p << BigInt(pe - e)) + (zc << BigInt(z.e - e));
  if (sum === 0n) return (p < 0n || (p === 0n && (x.negative !== y.negative))) && z.negative ? -0 : 0;
  return roundExact(f, sum < 0n, sum < 0n ? -sum : sum, 1n, e);
}

/** a op b as IEEE 754 defines it, rounded once to the format: exactly for finite operands, the special result otherwise. */
export function ieeeOp(f: Fmt, op: "add" | "sub" | "mul" | "div", a: number, b: number): number {
  const special = !Number.isFinite(a) || !Number.isFinite(b) || (op === "div" && b === 0);
  if (!special) return exactOp(f, op, a, b);
  // Infinities, NaNs and division by zero give ±Infinity, NaN or a signed zero, the same in every format.
  return op === "add" ? a + b : op === "sub" ? a - b : op === "mul" ? a * b : a / b;
}

/** fma(a, b, c) as IEEE 754 defines it, rounded once to the format. */
export function ieeeFma(f: Fmt, a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return a * b + c;
  return exactFma(f, a, b, c);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** sqrt(a) rounded once to the format (negative: NaN; ±0, +Infinity, NaN: themselves). */
export function exactSqrt(f: Fmt, a: number): number {
  if (Number.isNaN(a) || a === 0 || a === Infinity) return a;
  if (a < 0) return NaN;
  const { m, e } = exact(a);
  // sqrt(m * 2^e) = sqrt(m * 2^(e + 2s)) * 2^-s, with e + 2s even and enough bits that the
  // integer square root, plus a sticky half for a remainder, rounds as the exact root would.
  let shift = Math.max(0, 2 * (f.precision + 4) - bitLength(m));
  if ((shift - e) % 2 !== 0) shift++;
  const s = (shift - e) / 2;
  const n = m << BigInt(shift);
  const q = isqrt(n);
  const sticky = q * q === n ? 0n : 1n;
  return roundExact(f, false, 2n * q + sticky, 1n, -s - 1);
}

/** fmod(a, b): a - trunc(a / b) * b, exact (it is representable), with the sign of a; NaN for b = 0 or an infinite a. */
export function exactFmod(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b) || !Number.isFinite(a) || b === 0) return NaN;
  if (!Number.isFinite(b) || a === 0) return a;
  const x = exact(a);
  const y = exact(b);
  const e = Math.min(x.e, y.e);
  const r = (x.m << BigInt(x.e - e)) % (y.m << BigInt(y.e - e));
  const v = Number(r) * 2 ** e;
  return x.negative ? -v : v;
}

/**
 * f16 and bf16 (src/ir/halves.ts) and their arithmetic (evalOp, jsrt) against an exact
 * reference written here from scratch: values as big-integer fractions, rounded once to
 * nearest even. Every one of the 65,536 bit patterns of each format, random doubles, and
 * random operands of + - * / and fma, whose results the simulator computes in f64 and
 * rounds again (language.md says that is the same as rounding once: this checks it).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evalBinary, evalCast } from "../../src/ir/evalOp.js";
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits, roundBf16, roundF16 } from "../../src/ir/halves.js";
import { jsrt } from "../../src/ir/jsrt.js";
import { T } from "../../src/ir/types.js";

interface Fmt {
  readonly precision: number;
  readonly emin: number;
  readonly emax: number;
}
const F16: Fmt = { precision: 11, emin: -14, emax: 15 };
const BF16: Fmt = { precision: 8, emin: -126, emax: 127 };

const bitLength = (x: bigint) => (x === 0n ? 0 : x.toString(2).length);

/** num / den * 2^exp (num, den > 0) rounded once, to nearest even, to the format. */
function roundExact(f: Fmt, negative: boolean, num: bigint, den: bigint, exp: number): number {
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
function exact(x: number): { negative: boolean; m: bigint; e: number } {
  const buf = new Float64Array([x]);
  const bits = new BigUint64Array(buf.buffer)[0]!;
  const negative = bits >> 63n === 1n;
  const be = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return be === 0 ? { negative, m: frac, e: -1074 } : { negative, m: frac | (1n << 52n), e: be - 1075 };
}

function roundDouble(f: Fmt, x: number): number {
  if (!Number.isFinite(x)) return x;
  const { negative, m, e } = exact(x);
  return roundExact(f, negative, m, 1n, e);
}

/** The exact result of a op b (finite operands), rounded once. */
function exactOp(f: Fmt, op: "add" | "sub" | "mul" | "div", a: number, b: number): number {
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

function exactFma(f: Fmt, a: number, b: number, c: number): number {
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

const FORMATS = [
  { name: "f16", fmt: F16, round: roundF16, bits: f16Bits, fromBits: fromF16Bits, fma: jsrt.fmaF16 },
  { name: "bf16", fmt: BF16, round: roundBf16, bits: bf16Bits, fromBits: fromBf16Bits, fma: jsrt.fmaBf16 },
] as const;

describe.each(FORMATS)("$name", ({ name, fmt, round, bits, fromBits, fma }) => {
  const t = T[name];
  const values = Array.from({ length: 0x10000 }, (_, b) => fromBits(b));
  const finite = values.filter((v) => Number.isFinite(v));
  const anyValue = fc.integer({ min: 0, max: 0xffff }).map(fromBits);
  const finiteValue = anyValue.filter(Number.isFinite);

  it("reads every bit pattern as a value the format rounds to itself, and writes it back to the same bits", () => {
    const bad: string[] = [];
    for (let b = 0; b < 0x10000; b++) {
      const v = values[b]!;
      // A NaN stays a NaN, the quiet one of its sign.
      const ok = Number.isNaN(v) ? bits(v) === ((b & 0x8000) | (name === "f16" ? 0x7e00 : 0x7fc0)) : Object.is(round(v), v) && bits(v) === b;
      if (!ok) bad.push(b.toString(16));
    }
    expect(bad).toEqual([]);
  });

  it("rounds doubles once, to nearest even (against exact big-integer rounding)", () => {
    // Every midpoint between neighbours and the points just beside them, and random doubles.
    const sorted = [...new Set(finite.filter((v) => v >= 0))].sort((a, b) => a - b);
    const bad: number[] = [];
    for (let i = 0; i + 1 < sorted.length; i++) {
      const mid = (sorted[i]! + sorted[i + 1]!) / 2;
      for (const x of [mid, mid * (1 + 2 ** -52), mid * (1 - 2 ** -52), -mid]) if (!Object.is(round(x), roundDouble(fmt, x))) bad.push(x);
    }
    expect(bad).toEqual([]);
    fc.assert(fc.property(fc.double({ noNaN: true }), (x) => Object.is(round(x), roundDouble(fmt, x))), { numRuns: 3000 });
  });

  it("computes + - * / as the exact result rounded once", () => {
    for (const op of ["add", "sub", "mul", "div"] as const) {
      fc.assert(
        fc.property(finiteValue, finiteValue, (a, b) => {
          if (op === "div" && b === 0) return;
          const got = evalBinary(op, t, a, b) as number;
          expect(Object.is(got, exactOp(fmt, op, a, b)), `${a} ${op} ${b}: ${got}`).toBe(true);
        }),
        { numRuns: 3000 },
      );
    }
  });

  it("computes fma(a, b, c) as the exact result rounded once", () => {
    fc.assert(
      fc.property(finiteValue, finiteValue, finiteValue, (a, b, c) => {
        expect(Object.is(fma(a, b, c), exactFma(fmt, a, b, c)), `fma(${a}, ${b}, ${c})`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("converts 64-bit integers rounding once, and f32 and f64 exactly from it", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (x) => {
        const want = x === 0n ? 0 : roundExact(fmt, x < 0n, x < 0n ? -x : x, 1n, 0);
        expect(Object.is(evalCast(T.i64, t, x), want), `${x}`).toBe(true);
      }),
      { numRuns: 1000 },
    );
    expect(values.filter((v) => !Number.isNaN(v) && !(Object.is(evalCast(t, T.f32, v), v) && Object.is(evalCast(t, T.f64, v), v)))).toEqual([]);
  });
});

describe("conversions between the halves and to integers", () => {
  it("rounds f16 → bf16 and bf16 → f16 once", () => {
    const bad: number[] = [];
    for (let b = 0; b < 0x10000; b++) {
      const h = fromF16Bits(b);
      if (!Number.isNaN(h) && !Object.is(evalCast(T.f16, T.bf16, h), roundDouble(BF16, h))) bad.push(h);
      const g = fromBf16Bits(b);
      if (!Number.isNaN(g) && !Object.is(evalCast(T.bf16, T.f16, g), roundDouble(F16, g))) bad.push(g);
    }
    expect(bad).toEqual([]);
  });

  it("truncates to integers, saturating, NaN to 0", () => {
    expect(evalCast(T.f16, T.i8, 65504)).toBe(127);
    expect(evalCast(T.f16, T.i8, -65504)).toBe(-128);
    expect(evalCast(T.f16, T.u8, -3.5)).toBe(0);
    expect(evalCast(T.bf16, T.u16, 1e30)).toBe(65535);
    expect(evalCast(T.bf16, T.i16, NaN)).toBe(0);
    expect(Object.is(evalCast(T.f16, T.i32, -0.5), 0)).toBe(true);
    expect(evalCast(T.f16, T.i64, -Infinity)).toBe(-(1n << 63n));
  });

  it("keeps subnormals and the sign of zero", () => {
    expect(evalBinary("mul", T.f16, 2 ** -14, 0.5)).toBe(2 ** -15);
    expect(evalBinary("mul", T.f16, 2 ** -24, 0.5)).toBe(0);
    expect(Object.is(evalBinary("mul", T.f16, -(2 ** -24), 0.25), -0)).toBe(true);
    expect(evalBinary("mul", T.bf16, 2 ** -126, 2 ** -7)).toBe(2 ** -133);
    expect(evalBinary("add", T.f16, 65504, 16)).toBe(Infinity);
    expect(evalBinary("add", T.f16, 65504, 15.999)).toBe(65504);
    expect(evalBinary("add", T.bf16, 256, 1)).toBe(256);
    expect(evalBinary("add", T.bf16, 257 + 1, 1)).toBe(260);
  });
});

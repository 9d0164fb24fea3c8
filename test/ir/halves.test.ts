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
import { BF16, exactFma, exactFmod, exactOp, exactSqrt, F16, roundDouble, roundExact } from "../differential/exact-floats.js";

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
      // A NaN stays that NaN, its payload and quiet bit kept (bitcast needs every pattern back).
      const ok = Number.isNaN(v) ? Number.isNaN(round(v)) && bits(v) === b : Object.is(round(v), v) && bits(v) === b;
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

describe("the exact reference itself", () => {
  it("rounds square roots and fmod as Math does for f64 where that is exact", () => {
    const F64 = { precision: 53, emin: -1022, emax: 1023 };
    for (const x of [2, 0.5, 1e-300, 3, 1e300, 5e-324, 1.5, 10]) expect(exactSqrt(F64, x)).toBe(Math.sqrt(x));
    for (const [a, b] of [[7.5, 2], [-7.5, 2], [1e300, 3], [5e-324, 1e-320], [-0, 1]]) expect(Object.is(exactFmod(a!, b!), a! % b!)).toBe(true);
  });
});

describe("NaNs as numbers", () => {
  it("come back from every f16 and bf16 NaN bit for bit: sign, payload and quiet bit", () => {
    for (let b = 0; b < 0x10000; b++) {
      const f = fromF16Bits(b);
      if ((b & 0x7c00) === 0x7c00 && b & 0x3ff) expect(Number.isNaN(f)).toBe(true);
      expect(f16Bits(f)).toBe(b);
      expect(bf16Bits(fromBf16Bits(b))).toBe(b);
    }
  });

  it("make the quiet NaN of their sign from a NaN no 16-bit NaN made", () => {
    expect(f16Bits(NaN)).toBe(0x7e00);
    expect(bf16Bits(NaN)).toBe(0x7fc0);
    expect(f16Bits(-NaN)).toBe(0xfe00);
  });
});

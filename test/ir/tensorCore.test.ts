/**
 * The tensor-core arithmetic (src/ir/tensorCore.ts) against the measured model
 * (bench/tensorcore/model.mjs, which matched the H200 bit for bit over 786,432 elements per
 * shape): the same element, from the same bits, under fast-check: exponents spread as the
 * probe's sets were, subnormals, zeros, cancellations and one product far above the rest.
 * Operands that are inf or NaN, which the model leaves out, follow IEEE 754's exact sum.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module beside the probe, without declarations
import { FORMATS, mmaElement as modelElement } from "../../bench/tensorcore/model.mjs";
import { fromBf16Bits, fromF16Bits, f16Bits } from "../../src/ir/halves.js";
import { mmaElement, mmaIntElement, roundF32TowardZero, roundTf32, type MmaAcc, type MmaInput } from "../../src/ir/tensorCore.js";

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fromF32Bits = (b: number) => ((u32[0] = b >>> 0), f32[0]!);
const f32Bits = (x: number) => ((f32[0] = x), u32[0]!);

const VALUE: Record<MmaInput | MmaAcc, (bits: number) => number> = {
  f16: fromF16Bits,
  bf16: fromBf16Bits,
  tf32: (b) => fromF32Bits(b & ~0x1fff),
  f32: fromF32Bits,
};

/** A float's bits: sign, an exponent field from `lo` to `hi` (0: subnormal or zero), a random fraction. */
function bits(ebits: number, mbits: number, lo: number, hi: number): fc.Arbitrary<number> {
  return fc.tuple(fc.boolean(), fc.integer({ min: lo, max: hi }), fc.integer({ min: 0, max: 2 ** mbits - 1 }), fc.integer({ min: 0, max: 9 })).map(([s, e, m, z]) =>
    z === 0 ? (s ? 2 ** (ebits + mbits) : 0) : (((s ? 1 : 0) * 2 ** (ebits + mbits) + e * 2 ** mbits + m) >>> 0),
  );
}

/** An input's bits, an exponent field within `spread` of the bias (subnormals at the bottom of the range). */
function inputBits(fmt: MmaInput, spread: number): fc.Arbitrary<number> {
  if (fmt === "f16") return bits(5, 10, Math.max(0, 15 - spread), Math.min(30, 15 + spread));
  if (fmt === "bf16") return bits(8, 7, Math.max(0, 127 - spread), Math.min(254, 127 + spread));
  return bits(8, 23, Math.max(0, 127 - spread), Math.min(254, 127 + spread)).map((b) => (b & ~0x1fff) >>> 0);
}

function accBits(fmt: MmaAcc, spread: number): fc.Arbitrary<number> {
  return fmt === "f16" ? bits(5, 10, Math.max(0, 15 - spread), Math.min(30, 15 + spread)) : bits(8, 23, Math.max(0, 127 - spread), Math.min(254, 127 + spread));
}

/** K pairs and an accumulator; sometimes b[k] = −b[k−1] with a[k] = a[k−1] (exact cancellation), sometimes one product scaled far up. */
function element(input: MmaInput, acc: MmaAcc, k: number): fc.Arbitrary<{ a: number[]; b: number[]; c: number }> {
  const spreads = input === "f16" ? [2, 6, 15] : [2, 6, 30, 126];
  return fc.constantFrom(...spreads).chain((spread) =>
    fc.record({
      a: fc.array(inputBits(input, spread), { minLength: k, maxLength: k }),
      b: fc.array(inputBits(input, spread), { minLength: k, maxLength: k }),
      c: accBits(acc, acc === "f16" ? Math.min(spread + 2, 15) : spread * 2 + 4),
      cancel: fc.integer({ min: 0, max: k - 1 }),
      kind: fc.integer({ min: 0, max: 3 }),
    }).map(({ a, b, c, cancel, kind }) => {
      if (kind === 1 && cancel > 0) { a[cancel] = a[cancel - 1]!; b[cancel] = (b[cancel - 1]! ^ (input === "tf32" ? 0x80000000 : 0x8000)) >>> 0; }
      return { a, b, c };
    }),
  );
}

/** A finite double as the model's fixed point (value × 2^400). */
function fixed(x: number): bigint {
  if (x === 0) return 0n;
  const s = 52 - Math.floor(Math.log2(Math.abs(x)));
  return (BigInt(x * 2 ** s) << 400n) >> BigInt(s); // exact: x is a multiple of 2^-400
}

const LIMIT: Record<MmaAcc, bigint> = { f32: fixed(3.4028234663852886e38), f16: fixed(65504) };

const SHAPES: readonly [MmaInput, MmaAcc, number][] = [["f16", "f32", 16], ["bf16", "f32", 16], ["f16", "f16", 16], ["tf32", "f32", 8]];

describe("mmaElement agrees with the measured model bit for bit", () => {
  for (const [input, acc, k] of SHAPES) {
    it(`${input} -> ${acc}, k = ${k}`, () => {
      fc.assert(
        fc.property(element(input, acc, k), ({ a, b, c }) => {
          const want: bigint | null = modelElement(a, b, c, input, acc);
          if (want === null) return; // an inf/NaN operand: below
          const abs = want < 0n ? -want : want;
          if (abs > LIMIT[acc]) return; // past the format's range, which the probe's data never reached
          const got = mmaElement(a.map(VALUE[input]), b.map(VALUE[input]), VALUE[acc](c), input, acc);
          expect(fixed(got)).toBe(want);
          void FORMATS;
        }),
        { numRuns: 3000 },
      );
    });
  }

  it("keeps the sign of an all-negative-zero sum and gives +0 for a cancellation", () => {
    expect(Object.is(mmaElement([-0, 1], [1, -0], -0, "f16", "f32"), -0)).toBe(true);
    expect(Object.is(mmaElement([1, 1], [1, -1], 0, "f16", "f32"), 0)).toBe(true);
    expect(Object.is(mmaElement([0, 1], [1, 0], -0, "f16", "f32"), 0)).toBe(true);
  });

  it("gives +0 where the H200 does: an all-zero tf32 sum, and a nonzero sum that rounds to zero", () => {
    expect(Object.is(mmaElement([-0, 1], [1, -0], -0, "tf32", "f32"), 0)).toBe(true);
    expect(Object.is(mmaElement([-(2 ** -120)], [2 ** -120], -0, "tf32", "f32"), 0)).toBe(true);
    expect(Object.is(mmaElement([-(2 ** -20), 0], [2 ** -20, 0], -0, "f16", "f16"), 0)).toBe(true);
  });
});

describe("inf and NaN operands: the exact sum's IEEE 754 result", () => {
  it("propagates NaN, makes inf × 0 and inf − inf NaN, and keeps a lone infinity", () => {
    expect(mmaElement([NaN, 1], [1, 1], 0, "f16", "f32")).toBeNaN();
    expect(mmaElement([Infinity, 1], [0, 1], 0, "f16", "f32")).toBeNaN();
    expect(mmaElement([Infinity, 1], [1, 1], -Infinity, "bf16", "f32")).toBeNaN();
    expect(mmaElement([Infinity, -Infinity], [-1, 1], 5, "bf16", "f32")).toBe(-Infinity);
    expect(mmaElement([1, 2], [1, 2], Infinity, "f16", "f16")).toBe(Infinity);
  });
});

describe("roundings", () => {
  it("rounds toward zero into f32: a sum past FLT_MAX truncates to it, one of 2^128 or more overflows to inf", () => {
    const x = 1 + 2 ** -23 + 2 ** -30;
    expect(roundF32TowardZero(x)).toBe(1 + 2 ** -23);
    expect(roundF32TowardZero(-x)).toBe(-(1 + 2 ** -23));
    expect(roundF32TowardZero(1 + 2 ** -23 - 2 ** -40)).toBe(1);
    expect(roundF32TowardZero(2 ** 128 - 2 ** 100)).toBe(3.4028234663852886e38);
    expect(roundF32TowardZero(-(2 ** 128 - 2 ** 100))).toBe(-3.4028234663852886e38);
    expect(roundF32TowardZero(2 ** 128)).toBe(Infinity);
    expect(roundF32TowardZero(-(2 ** 130))).toBe(-Infinity);
    expect(roundF32TowardZero(2 ** -149 * 1.5)).toBe(2 ** -149);
    expect(roundF32TowardZero(2 ** -149 * 0.9)).toBe(0);
  });

  it("rounds f32 to tf32 to nearest, ties away from zero (cvt.rna)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7f7fdfff }), fc.boolean(), (b, neg) => {
        const x = fromF32Bits(b) * (neg ? -1 : 1);
        const r = roundTf32(x);
        const lo = fromF32Bits((b & ~0x1fff) >>> 0), hi = fromF32Bits(((b & ~0x1fff) + 0x2000) >>> 0);
        const a = Math.abs(x), want = a - lo < hi - a ? lo : hi; // a tie goes up, away from zero
        expect(r).toBe(neg ? -want : want);
        expect(f32Bits(r) & 0x1fff).toBe(0);
      }),
      { numRuns: 2000 },
    );
    expect(roundTf32(fromF32Bits(0x7f7ff000))).toBe(Infinity); // the largest tf32 plus half its ulp: a tie, away from zero
    expect(roundTf32(fromF32Bits(0x7f7fefff))).toBe(fromF32Bits(0x7f7fe000));
  });

  it("f16 accumulators round to nearest even", () => {
    // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even, 1; 1 + 3·2^-11 goes up.
    expect(f16Bits(mmaElement([1, 2 ** -11], [1, 1], 0, "f16", "f16"))).toBe(f16Bits(1));
    expect(f16Bits(mmaElement([1, 3 * 2 ** -11], [1, 1], 0, "f16", "f16"))).toBe(f16Bits(1 + 2 ** -9));
  });
});

describe("the integer shape", () => {
  it("sums exactly and wraps at 32 bits", () => {
    expect(mmaIntElement([-128, 127], [-128, 127], 5)).toBe(16384 + 16129 + 5);
    expect(mmaIntElement([127], [127], 2147483647)).toBe((2147483647 + 16129) | 0);
  });
});

/** Launch data made real (src/runtime/data.ts): the helpers' values, and rand() exactly as documented. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArrayData } from "../../../src/ir/nodes.js";
import { T } from "../../../src/ir/types.js";
import { materialize, mix32, randU32 } from "../../../src/runtime/data.js";

const rand = (length: number, seed: number, lo = 0, hi = 1): ArrayData => ({ kind: "rand", length, seed, lo, hi });

/** The documented definition, written again with BigInt arithmetic. */
function specU32(seed: number, k: number): number {
  const M = (1n << 32n) - 1n;
  const mix = (x0: bigint) => {
    let x = x0;
    x ^= x >> 16n;
    x = (x * 0x7feb352dn) & M;
    x ^= x >> 15n;
    x = (x * 0x846ca68bn) & M;
    x ^= x >> 16n;
    return x;
  };
  return Number(mix((mix(BigInt(seed)) + BigInt(k) * 0x9e3779b9n) & M));
}

describe("values, zeros, fill, iota", () => {
  it("convert to each element type", () => {
    expect(materialize(T.bool, { kind: "values", values: [true, false, true] })).toEqual(new Uint8Array([1, 0, 1]));
    expect(materialize(T.i64, { kind: "values", values: [-1n, 5n] })).toEqual(new BigInt64Array([-1n, 5n]));
    expect(materialize(T.f32, { kind: "values", values: [0.1] })).toEqual(new Float32Array([0.1]));
    expect(materialize(T.u32, { kind: "zeros", length: 3 })).toEqual(new Uint32Array(3));
    expect(materialize(T.u64, { kind: "fill", length: 2, value: 7n })).toEqual(new BigUint64Array([7n, 7n]));
    expect(materialize(T.bool, { kind: "fill", length: 2, value: true })).toEqual(new Uint8Array([1, 1]));
    expect(materialize(T.f64, { kind: "iota", length: 3 })).toEqual(new Float64Array([0, 1, 2]));
    expect(materialize(T.i64, { kind: "iota", length: 2 })).toEqual(new BigInt64Array([0n, 1n]));
  });
});

describe("rand()", () => {
  it("draws u(k) = mix(mix(seed) + k * 0x9e3779b9) with the lowbias32 mix", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x7fffffff }), (seed, k) => {
        expect(randU32(seed, k)).toBe(specU32(seed, k));
      }),
    );
    expect(mix32(0)).toBe(0);
    expect([randU32(1, 0), randU32(1, 1), randU32(7, 0)]).toEqual([specU32(1, 0), specU32(1, 1), specU32(7, 0)]);
  });

  it("floats: lo + (hi - lo) * (u >>> 8) / 2^24, rounded to the element type", () => {
    const a = materialize(T.f64, rand(50, 3, -2, 6));
    const b = materialize(T.f32, rand(50, 3, -2, 6));
    for (let k = 0; k < 50; k++) {
      const v = -2 + (8 * (specU32(3, k) >>> 8)) / 2 ** 24;
      expect(a[k]).toBe(v);
      expect(b[k]).toBe(Math.fround(v));
    }
  });

  it("floats stay in [lo, hi) after rounding, and are deterministic", () => {
    const bound = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), bound, bound, (seed, x, y) => {
        fc.pre(x !== y);
        const [lo, hi] = x < y ? [x, y] : [y, x];
        // Wide enough that some f32 lies in [lo, hi).
        fc.pre(hi - lo > 1e-5 * Math.max(1, Math.abs(lo), Math.abs(hi)));
        for (const t of [T.f32, T.f64]) {
          const a = materialize(t, rand(64, seed, lo, hi));
          for (const v of a as Float64Array) {
            expect(v).toBeGreaterThanOrEqual(lo);
            expect(v).toBeLessThan(hi);
          }
          expect(materialize(t, rand(64, seed, lo, hi))).toEqual(a);
        }
      }),
    );
  });

  it("floats clamp just below hi when rounding reaches it", () => {
    // (hi - lo) * (2^24 - 1) / 2^24 rounds up to hi in f32 for this range.
    const a = materialize(T.f32, rand(4096, 1, 0, 16777216)) as Float32Array;
    expect(Math.max(...a)).toBeLessThan(16777216);
  });

  it("integers: lo + floor(u * (hi - lo) / 2^32), exactly, however wide the range", () => {
    const a = materialize(T.i32, rand(50, 9, -5, 5));
    const wide = materialize(T.i64, rand(50, 9, -(2 ** 40), 2 ** 40));
    const u32 = materialize(T.u32, rand(50, 9, 0, 2 ** 32));
    for (let k = 0; k < 50; k++) {
      const u = BigInt(specU32(9, k));
      expect(a[k]).toBe(Number(-5n + ((u * 10n) >> 32n)));
      expect(wide[k]).toBe(-(2n ** 40n) + ((u * 2n ** 41n) >> 32n));
      expect(u32[k]).toBe(Number(u));
    }
  });

  it("integers stay in [lo, hi)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 1e7 }), (seed, lo, width) => {
        for (const v of materialize(T.i32, rand(64, seed, lo, lo + width)) as Int32Array) {
          expect(v).toBeGreaterThanOrEqual(lo);
          expect(v).toBeLessThan(lo + width);
        }
      }),
    );
  });

  it("bools: u & 1", () => {
    const a = materialize(T.bool, rand(64, 5));
    for (let k = 0; k < 64; k++) expect(a[k]).toBe(specU32(5, k) & 1);
    expect(new Set(a)).toEqual(new Set([0, 1]));
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsrt } from "../../src/ir/jsrt.js";

// erf and erfc against an exact reference: Taylor series in BigInt fixed point with P bits.
const P = 400n;
const ONE = 1n << P;

function sqrtBig(n: bigint): bigint {
  let x = BigInt(Math.floor(Math.sqrt(Number(n >> (P * 2n - 100n))))) << (P - 50n);
  for (let i = 0; i < 200; i++) {
    const y = (x + n / x) >> 1n;
    if (y === x) break;
    x = y;
  }
  return x;
}

/** arctan(1/k) * 2^P by its series. */
function arctanInv(k: bigint): bigint {
  let sum = 0n;
  let power = ONE / k;
  const k2 = k * k;
  for (let n = 0n; power !== 0n; n++) {
    const term = power / (2n * n + 1n);
    sum += n % 2n === 0n ? term : -term;
    power /= k2;
  }
  return sum;
}

const PI = 16n * arctanInv(5n) - 4n * arctanInv(239n); // Machin
const TWO_OVER_SQRT_PI = (2n * ONE * ONE) / sqrtBig(PI * ONE);

/** x as an exact fixed-point integer (x * 2^P). */
function fixed(x: number): bigint {
  let k = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  return (BigInt(m) << P) >> BigInt(k);
}

function erfRef(x: number): bigint {
  if (x < 0) return -erfRef(-x); // erf is odd; the series below needs x >= 0 to end
  const X = fixed(x);
  const X2 = (X * X) >> P;
  let term = X; // x^(2n+1)/n!
  let sum = 0n;
  for (let n = 0n; term !== 0n; n++) {
    const t = term / (2n * n + 1n);
    sum += n % 2n === 0n ? t : -t;
    term = (term * X2) / (n + 1n) >> P;
  }
  return (sum * TWO_OVER_SQRT_PI) >> P;
}

/** |got - exact| in ulps of got. */
function ulps(got: number, exact: bigint): number {
  const ulp = Math.max(Number.MIN_VALUE, 2 ** (Math.floor(Math.log2(Math.abs(got) || Number.MIN_VALUE)) - 52));
  const diff = fixed(got) - exact;
  return Math.abs(Number(diff)) / Number(fixed(ulp));
}

describe("erf and erfc", () => {
  it("are within 1 ulp of the exact values in f64 below |x| = 4, and 4 ulp beyond", () => {
    fc.assert(
      // |x| >= 1e-20 keeps the fixed-point reference (400 fraction bits) far finer than an ulp.
      fc.property(fc.double({ min: -5.5, max: 5.5, noNaN: true }).filter((x) => Math.abs(x) >= 1e-20), (x) => {
        const bound = Math.abs(x) < 4 ? 1 : 4;
        expect(ulps(jsrt.erf(x), erfRef(x)), `erf(${x})`).toBeLessThanOrEqual(bound);
        expect(ulps(jsrt.erfc(x), ONE - erfRef(x)), `erfc(${x})`).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 400, seed: 7 },
    );
  });
  it("handle the edges", () => {
    expect(jsrt.erf(0)).toBe(0);
    expect(Object.is(jsrt.erf(-0), -0)).toBe(true);
    expect(jsrt.erf(Infinity)).toBe(1);
    expect(jsrt.erf(-Infinity)).toBe(-1);
    expect(jsrt.erfc(Infinity)).toBe(0);
    expect(jsrt.erfc(-Infinity)).toBe(2);
    expect(jsrt.erf(NaN)).toBeNaN();
    expect(jsrt.erfc(30)).toBe(0);
  });
});

describe("bit counting and copysign", () => {
  it("count bits like CUDA's __popc and __clz", () => {
    expect(jsrt.popc32(-1)).toBe(32);
    expect(jsrt.popc32(0x80000001)).toBe(2);
    expect(jsrt.popc64(-1n)).toBe(64);
    expect(jsrt.clz64(1n)).toBe(63);
    expect(jsrt.clz64(0n)).toBe(64);
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (x) => {
      expect(jsrt.popc32(x)).toBe((x >>> 0).toString(2).split("").filter((c) => c === "1").length);
    }));
  });
  it("copies the sign bit, also of -0", () => {
    expect(jsrt.copysign(3, -0)).toBe(-3);
    expect(Object.is(jsrt.copysign(0, -1), -0)).toBe(true);
    expect(jsrt.copysign(-2, 5)).toBe(2);
  });
});

/**
 * Constants print exactly: f32 as the shortest decimal that rounds back to it (checked here
 * in JavaScript, and by nvcc itself in nvcc.test.ts), f64 as JavaScript's shortest, and
 * integers with their suffixes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDecimal, literal } from "../../../src/codegen/cuda/literals.js";
import { T } from "../../../src/ir/types.js";
import { finiteF32 } from "./helpers.js";

const f32 = (v: number) => literal(T.f32, v).text;
const f64 = (v: number) => literal(T.f64, v).text;


describe("f32 literals", () => {
  it("prints common values as people write them", () => {
    expect([0.1, 2.5, 1, 100, 0.001, 1e-7, 16777216, 3.4028234663852886e38, 1.401298464324817e-45, 1e30].map((v) => f32(Math.fround(v)))).toEqual([
      "0.1f", "2.5f", "1.0f", "100.0f", "0.001f", "1e-7f", "16777216.0f", "3.4028235e38f", "1e-45f", "1e30f",
    ]);
    expect([f32(-0), f32(0), f32(-1.5)]).toEqual(["-0.0f", "0.0f", "-1.5f"]);
  });

  it("reads back as the same f32 and has at most 9 significant digits", () => {
    fc.assert(
      fc.property(finiteF32, (v) => {
        const text = f32(v);
        expect(text.endsWith("f")).toBe(true);
        expect(Object.is(Math.fround(Number(text.slice(0, -1))), v)).toBe(true);
        const digits = text.slice(0, -1).replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
        expect(digits.length).toBeLessThanOrEqual(9);
      }),
      { numRuns: 5000, seed: 7 },
    );
  });

  it("is as short as the shortest decimal that JavaScript reads back as the f32", () => {
    const digitsOf = (s: string) => s.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length;
    fc.assert(
      fc.property(finiteF32.filter((v) => v !== 0), (v) => {
        let p = 1;
        while (Math.fround(Number(v.toPrecision(p))) !== v) p++;
        expect(digitsOf(f32(v).slice(0, -1))).toBe(digitsOf(v.toPrecision(p).replace(/e.*$/, "")));
      }),
      { numRuns: 5000, seed: 5 },
    );
  });

  it("is never longer than the shortest decimal of the same value as an f64", () => {
    fc.assert(
      fc.property(finiteF32, (v) => {
        const mantissa = (s: string) => s.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
        expect(mantissa(f32(v).slice(0, -1)).length).toBeLessThanOrEqual(Math.max(1, mantissa(Number(v).toExponential()).length));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});

describe("f64 literals", () => {
  it("prints JavaScript's shortest round-trip decimal in C++ form", () => {
    expect([0.1, 1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, -0].map(f64)).toEqual(["0.1", "1.0", "1e21", "1e-7", "5e-324", "1.7976931348623157e308", "-0.0"]);
  });

  it("reads back as the same double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(Object.is(Number(f64(v)), v)).toBe(true);
      }),
      { numRuns: 5000, seed: 3 },
    );
  });
});

describe("formatting decimals", () => {
  it("switches to an exponent for very large and small values, and always marks a float", () => {
    expect(formatDecimal({ digits: 15n, exp: -1 })).toBe("1.5");
    expect(formatDecimal({ digits: 1500n, exp: 0 })).toBe("1500.0");
    expect(formatDecimal({ digits: 15n, exp: 20 })).toBe("1.5e21");
    expect(formatDecimal({ digits: 15n, exp: -12 })).toBe("1.5e-11");
    expect(formatDecimal({ digits: 0n, exp: 5 })).toBe("0.0");
  });
});

describe("integer literals", () => {
  it("suffixes by type and spells the most negative values as expressions", () => {
    expect(literal(T.i32, -2147483648)).toEqual({ text: "(-2147483647 - 1)", negative: false });
    expect(literal(T.i32, -5)).toEqual({ text: "-5", negative: true });
    expect(literal(T.u32, 4294967295).text).toBe("4294967295u");
    expect(literal(T.i64, -(2n ** 63n)).text).toBe("(-9223372036854775807ll - 1)");
    expect(literal(T.u64, 2n ** 64n - 1n).text).toBe("18446744073709551615ull");
    expect(literal(T.bool, true).text).toBe("true");
  });
});

describe("the builtin table's half conversions", () => {
  it("are the backend's", async () => {
    const { CUDA } = await import("../../../src/codegen/cuda/settings.js");
    const { CUDA_MATH } = await import("../../../src/codegen/cuda/builtins.js");
    const { fill } = await import("../../../src/ir/templates.js");
    for (const h of ["f16", "bf16"] as const) {
      expect(fill(CUDA_MATH.tan![h]!.template, ["x"])).toBe(`${CUDA.half[h].fromF32}(tanf(${CUDA.half[h].toF32}(x)))`);
    }
  });
});

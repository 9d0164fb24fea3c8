/** The comparison rules of spec/differential.md, as src/testing/compare.ts implements them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packStructs } from "../../src/lang/structs.js";
import { scalarType, structType, vectorType } from "../../src/ir/types.js";
import { compareArrays, compareValues, describeMismatches, hexBits, sameElement, ulpDistance } from "../../src/testing/compare.js";

const nanWithPayload = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0]!;

describe("sameElement", () => {
  it("compares integers and bools exactly", () => {
    expect(sameElement("i32", -1, -1)).toBe(true);
    expect(sameElement("u64", 1n << 63n, (1n << 63n) + 1n)).toBe(false);
    expect(sameElement("bool", 1, 0)).toBe(false);
  });

  it("treats every NaN as equal to every NaN, and to nothing else", () => {
    expect(sameElement("f32", NaN, nanWithPayload(0x7fffffff))).toBe(true);
    expect(sameElement("f32", NaN, 0)).toBe(false);
    expect(sameElement("f64", Infinity, NaN, { ulp: 100 })).toBe(false);
  });

  it("tells -0 from +0 without a tolerance, not with one", () => {
    expect(sameElement("f32", -0, 0)).toBe(false);
    expect(sameElement("f32", -0, 0, { ulp: 0 })).toBe(true);
    expect(sameElement("f64", -0, 0, { abs: 0 })).toBe(true);
  });

  it("accepts floats within the ulp or absolute tolerance", () => {
    const next = (x: number) => new Float32Array(new Uint32Array([new Uint32Array(new Float32Array([x]).buffer)[0]! + 1]).buffer)[0]!;
    expect(sameElement("f32", 1, next(1))).toBe(false);
    expect(sameElement("f32", 1, next(1), { ulp: 1 })).toBe(true);
    expect(sameElement("f32", 1, next(next(1)), { ulp: 1 })).toBe(false);
    expect(sameElement("f32", 1, 1.5, { abs: 0.5 })).toBe(true);
    expect(sameElement("f32", 3.4028234663852886e38, Infinity, { ulp: 1 })).toBe(true);
  });
});

describe("ulpDistance", () => {
  it("counts representable values between two floats, across zero", () => {
    expect(ulpDistance("f32", 0, -0)).toBe(0n);
    expect(ulpDistance("f32", 1.401298464324817e-45, -1.401298464324817e-45)).toBe(2n);
    expect(ulpDistance("f64", 1, 1 + Number.EPSILON)).toBe(1n);
  });

  it("is a metric on f32 values", () => {
    const f = fc.float({ noNaN: true });
    fc.assert(
      fc.property(f, f, f, (a, b, c) => {
        expect(ulpDistance("f32", a, b)).toBe(ulpDistance("f32", b, a));
        expect(ulpDistance("f32", a, c) <= ulpDistance("f32", a, b) + ulpDistance("f32", b, c)).toBe(true);
        expect(ulpDistance("f32", a, b) === 0n).toBe(a === b);
      }),
    );
  });
});

describe("compareArrays", () => {
  it("reports the first differing elements with both values and their bits", () => {
    const c = compareArrays("out", "f32", Float32Array.from([1, 2, -0, NaN]), Float32Array.from([1, 2.5, 0, nanWithPayload(0x7fffffff)]));
    expect(c.mismatches).toBe(2);
    expect(describeMismatches(c)).toEqual([
      "out: 2 of 4 elements differ (compared bit for bit)",
      "  out[1]: cpu 2 (0x40000000), gpu 2.5 (0x40200000), 2097152 ulp apart",
      "  out[2]: cpu -0 (0x80000000), gpu 0 (0x00000000), 0 ulp apart",
    ]);
  });

  it("prints integer bits at their width", () => {
    expect(hexBits("i32", -1)).toBe("0xffffffff");
    expect(hexBits("i64", -1n)).toBe("0xffffffffffffffff");
  });
});

describe("compareValues", () => {
  it("compares arrays of structs leaf by leaf, per scalar type, named by element and path, padding left out", () => {
    const P = structType("P", [
      { name: "id", type: scalarType("u32") },
      { name: "pos", type: vectorType(scalarType("f32"), 3) },
      { name: "taps", type: { kind: "array", elem: scalarType("f32"), dims: [2], space: "local" } },
    ]);
    const cpu = new Uint8Array(packStructs(P, [{ id: 1, pos: [1, 2, 3], taps: [4, 5] }, { id: 2, pos: [6, 7, 8], taps: [9, 10] }]));
    const gpu = new Uint8Array(packStructs(P, [{ id: 1, pos: [1, 2, 3], taps: [4, 5] }, { id: 3, pos: [6, 7.5, 8], taps: [9, 11] }]));
    gpu[4] = 0xff; // padding between id and pos
    const [u32, f32] = compareValues("pts", P, cpu, gpu);
    expect(describeMismatches(u32!)).toEqual(["pts (u32 leaves): 1 of 2 elements differ (compared bit for bit)", "  pts[1].id: cpu 2 (0x00000002), gpu 3 (0x00000003)"]);
    expect(describeMismatches(f32!)).toEqual([
      "pts (f32 leaves): 2 of 10 elements differ (compared bit for bit)",
      "  pts[1].pos.y: cpu 7 (0x40e00000), gpu 7.5 (0x40f00000), 1048576 ulp apart",
      "  pts[1].taps[1]: cpu 10 (0x41200000), gpu 11 (0x41300000), 1048576 ulp apart",
    ]);
  });

  it("leaves a 3-lane vector's padding lane out", () => {
    const v3 = vectorType(scalarType("i32"), 3);
    const [c] = compareValues("v", v3, Int32Array.from([1, 2, 3, 99, 4, 5, 6, 99]), Int32Array.from([1, 2, 3, -7, 4, 5, 7, 0]));
    expect(describeMismatches(c!)).toEqual(["v (i32 leaves): 1 of 6 elements differ (compared bit for bit)", "  v[1].z: cpu 6 (0x00000006), gpu 7 (0x00000007)"]);
  });
});

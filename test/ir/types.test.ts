/** The type algebra (src/ir/types.ts): names, equality, interning and memory layout. */
import { describe, expect, it } from "vitest";
import { admittedScalars, satisfies } from "../../src/ir/builtins.js";
import { alignOf, laneScalar, sameType, sizeOf, structType, T, typeToString, vectorType, type ArrayType } from "../../src/ir/types.js";

describe("the type algebra", () => {
  it("interns scalars and vectors, so === compares them", () => {
    expect(vectorType(T.f32, 4)).toBe(vectorType(T.f32, 4));
    expect(vectorType(T.f32, 4)).not.toBe(vectorType(T.f32, 2));
    expect(sameType(vectorType(T.i32, 3), vectorType(T.i32, 3))).toBe(true);
    expect(sameType(vectorType(T.i32, 3), T.i32)).toBe(false);
  });

  it("names every kind as the language spells it", () => {
    const tile: ArrayType = { kind: "array", elem: T.f32, dims: [16, 17], space: "shared" };
    expect(typeToString(vectorType(T.f32, 4))).toBe("f32x4");
    expect(typeToString(tile)).toBe("shared f32[16][17]");
    expect(typeToString({ kind: "global", elem: T.u64, readonly: true })).toBe("readonly global<u64>");
    expect(typeToString(structType("Node", [{ name: "start", type: T.i32 }]))).toBe("Node");
    expect(typeToString({ kind: "typeParam", name: "T", allowed: [T.f32, T.i32] })).toBe("T");
  });

  it("lays out vectors as WGSL does: 3 lanes take the room of 4", () => {
    expect([sizeOf(vectorType(T.f32, 2)), alignOf(vectorType(T.f32, 2))]).toEqual([8, 8]);
    expect([sizeOf(vectorType(T.f32, 3)), alignOf(vectorType(T.f32, 3))]).toEqual([16, 16]);
    expect([sizeOf(vectorType(T.f64, 4)), alignOf(vectorType(T.f64, 4))]).toEqual([32, 32]);
    expect(laneScalar(vectorType(T.u32, 4))).toBe(T.u32);
  });

  it("lays out structs in C order with natural alignment", () => {
    const s = structType("S", [
      { name: "flag", type: T.bool },
      { name: "x", type: T.f64 },
      { name: "n", type: T.i32 },
      { name: "taps", type: { kind: "array", elem: T.f32, dims: [3], space: "local" } },
    ]);
    expect(s.fields.map((f) => f.offset)).toEqual([0, 8, 16, 20]);
    expect([s.size, s.align]).toEqual([32, 8]);
    const outer = structType("Outer", [{ name: "a", type: T.i32 }, { name: "s", type: s }]);
    expect(outer.fields.map((f) => f.offset)).toEqual([0, 8]);
    expect(sizeOf(outer)).toBe(40);
  });

  it("states builtin signatures as constraints over the algebra", () => {
    expect(admittedScalars({ scalars: "float", vectors: false })).toEqual([T.f16, T.bf16, T.f32, T.f64]);
    expect(admittedScalars({ scalars: "int", vectors: false })).toEqual([T.i8, T.u8, T.i16, T.u16, T.i32, T.u32, T.i64, T.u64]);
    expect(satisfies(T.f32, { scalars: "float", vectors: false })).toBe(true);
    expect(satisfies(T.i32, { scalars: "float", vectors: false })).toBe(false);
    expect(satisfies(vectorType(T.f32, 4), { scalars: "float", vectors: false })).toBe(false);
    expect(satisfies(vectorType(T.f32, 4), { scalars: "float", vectors: true })).toBe(true);
    expect(satisfies(structType("S", []), { scalars: "numeric", vectors: true })).toBe(false);
  });
});

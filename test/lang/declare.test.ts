/**
 * src/lang/declarations.ts is generated from the compiler's tables (a file snapshot: `npx
 * vitest run test/lang/declare.test.ts -u` rewrites it), and what its names do on the host:
 * conversions convert as a kernel does, builtins throw GK8019.
 */
import { describe, expect, it } from "vitest";
import { builtins } from "../../src/ir/builtins.js";
import { SCALAR_NAMES } from "../../src/ir/types.js";
import { declarationsText } from "../../src/lang/declare.js";
import { f16Bits, roundBf16, roundF16 } from "../../src/ir/halves.js";
import * as lang from "../../src/lang/index.js";
import { f16ToFloat32 } from "../../src/runtime/halfArrays.js";

describe("src/lang/declarations.ts", () => {
  it("is what the tables give", async () => {
    await expect(declarationsText()).toMatchFileSnapshot("../../src/lang/declarations.ts");
  });

  it("declares every scalar type and every builtin JavaScript does not already have", () => {
    const exported = lang as unknown as Record<string, unknown>;
    for (const n of SCALAR_NAMES) expect(typeof exported[n], n).toBe("function");
    for (const b of builtins) {
      if (b.name === "Infinity" || b.name === "NaN") continue;
      expect(exported[b.name], b.name).toBeDefined();
    }
  });
});

describe("gk's names on the host", () => {
  it("conversions convert as in a kernel", () => {
    expect(lang.f32(0.1)).toBe(Math.fround(0.1));
    expect(lang.u32(-1)).toBe(4294967295);
    expect(lang.i32(2.9)).toBe(2);
    expect(lang.i32(1e20)).toBe(2147483647);
    expect(lang.i64(5)).toBe(5n);
    expect(lang.bool(0)).toBe(false);
    expect(lang.f64(true)).toBe(1);
    expect(() => lang.f32("1" as never)).toThrow(/GK8005: f32\(x\) converts a number, a bigint or a boolean, got string/);
  });

  it("conversions to the small integers wrap and to f16 and bf16 round, as in a kernel", () => {
    expect(lang.u8(-1)).toBe(255);
    expect(lang.i8(200)).toBe(-56);
    expect(lang.u16(-1)).toBe(65535);
    expect(lang.i16(2.9)).toBe(2);
    expect(lang.u8(true)).toBe(1);
    expect(lang.f16(0.1)).toBe(roundF16(0.1));
    expect(lang.f16(0.1)).not.toBe(Math.fround(0.1));
    expect(lang.f16(70000)).toBe(Infinity);
    expect(lang.bf16(1 / 3)).toBe(roundBf16(1 / 3));
  });

  it("warpSize is 32; laneId is NaN, no lane's", () => {
    expect(lang.warpSize).toBe(32);
    expect(lang.laneId).toBeNaN();
  });

  it("builtins, thread indices, shared() and local() throw GK8019, device functions too", () => {
    expect(() => lang.sqrt(2)).toThrow(/GK8019: sqrt\(\) is gk's, for kernel bodies/);
    expect(() => lang.barrier()).toThrow(/GK8019/);
    expect(() => lang.globalId.x).toThrow(/GK8019: globalId\.x is gk's/);
    expect(() => lang.shared(lang.f32, 4)).toThrow(/GK8019: shared\(\) declares an array in a kernel body/);
    expect(() => lang.local(lang.f32, 4)).toThrow(/GK8019/);
    const sq = lang.deviceFn((v: lang.f32): lang.f32 => v * v);
    expect(() => sq(2)).toThrow(/GK8019: .*is a device function/);
  });

  it("a table is its values, row-major, converted to the element type", () => {
    const t = lang.table(lang.f32, [[0.1, 2], [3, 4]]) as unknown as Float32Array;
    expect(t).toBeInstanceOf(Float32Array);
    expect([...t]).toEqual([Math.fround(0.1), 2, 3, 4]);
    expect([...(lang.table(lang.i32, [2, 2], [1, 2, 3, 4]) as unknown as Int32Array)]).toEqual([1, 2, 3, 4]);
    expect([...(lang.table(lang.bool, [true, false]) as unknown as Uint8Array)]).toEqual([1, 0]);
    expect(lang.table(lang.i8, [-1, 127])).toEqual(new Int8Array([-1, 127]));
    expect(lang.table(lang.u8, [0, 255])).toEqual(new Uint8Array([0, 255]));
  });

  it("an f16 or bf16 table holds its values' bits, as a global<f16> argument does", () => {
    const h = lang.table(lang.f16, [0.5, 0.25, 0.1]) as unknown as Uint16Array;
    expect(h).toBeInstanceOf(Uint16Array);
    expect([...h]).toEqual([0x3800, 0x3400, f16Bits(0.1)]);
    expect([...f16ToFloat32(h)]).toEqual([0.5, 0.25, roundF16(0.1)]);
    expect([...(lang.table(lang.bf16, [1.5, -2]) as unknown as Uint16Array)]).toEqual([0x3fc0, 0xc000]);
  });
});

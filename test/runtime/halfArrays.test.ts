/** The host's f16 and bf16 array helpers, exported from gk, with a kernel that reads and writes halves. */
import { describe, expect, it } from "vitest";
import { bf16ToFloat32, compileSource, f16ToFloat32, float32ToBf16, float32ToF16, roundBf16, roundF16 } from "../../src/index.js";

describe("f16 and bf16 arrays on the host", () => {
  it("round each value once to nearest even, and read the bits back exactly", () => {
    const values = [0, -0, 1, 0.1, 65504, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -25, NaN, -Infinity, 1e39];
    const h = float32ToF16(values);
    expect([...h]).toEqual([0x0000, 0x8000, 0x3c00, 0x2e66, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x0002, 0x7e00, 0xfc00, 0x7c00]);
    expect([...f16ToFloat32(h)]).toEqual(values.map((v) => Math.fround(roundF16(v))));
    const b = float32ToBf16(Float32Array.from([1, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.4e38, -(2 ** -133), NaN]));
    expect([...b]).toEqual([0x3f80, 0x3f80, 0x3f82, 0x7f80, 0x8001, 0x7fc0]);
    expect([...bf16ToFloat32(b)]).toEqual([1, 1, 1 + 2 ** -6, Infinity, -(2 ** -133), NaN]);
    expect(roundBf16(1 + 2 ** -8 + 2 ** -30)).toBe(1 + 2 ** -7);
  });

  it("refuse what is not a Uint16Array of bits", () => {
    expect(() => f16ToFloat32(new Float32Array(2) as unknown as Uint16Array)).toThrow("expected a Uint16Array of half-precision bits, got a Float32Array");
  });

  it("carry a kernel's f16 and bf16 arrays, and take plain numbers for them too", async () => {
    const mod = await compileSource(
      "device_kernel k(x: readonly global<f16>, y: global<bf16>, z: global<u8>, s: f16) { const i = globalId.x; y[i] = bf16(x[i] * s); z[i] = u8(x[i]); }",
      { device: "cpu" },
    );
    const y = new Uint16Array(3);
    const r = await mod.launch("k", { grid: 1, block: 3 }, { x: float32ToF16([1.5, -2, 300]), y, z: new Uint8Array(3), s: 0.1 });
    expect([...bf16ToFloat32(r.y as Uint16Array)]).toEqual([0.150390625, -0.2001953125, 30]);
    const r2 = await mod.launch("k", { grid: 1, block: 3 }, { x: [1.5, -2, 300], y, z: [0, 0, 0], s: 0.1 });
    expect([...(r2.z as Uint8Array)]).toEqual([1, 0, 255]); // float to integer saturates
    await expect(mod.launch("k", { grid: 1, block: 3 }, { x: new Float32Array(3), y, z: new Uint8Array(3), s: 1 })).rejects.toThrow(
      "k: parameter 'x' (readonly global<f16>) takes a Uint16Array of f16 bits, got a Float32Array",
    );
    await mod.close();
  });
});

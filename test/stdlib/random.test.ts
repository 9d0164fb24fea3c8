// gk/std/random on the simulator: Philox4x32-10 against its published known-answer vectors and a
// plain-JS twin; uniform numbers bit for bit, normal ones within rounding.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stdModule } from "./helpers.js";

const SOURCE = `import { philox, randomF32, randomF64 } from "gk/std/random";
device_kernel kat(c: readonly global<u32>, k: readonly global<u32>, out: global<u32>) {
  const r = philox(u32x4(c[0], c[1], c[2], c[3]), u32x2(k[0], k[1]));
  out[0] = r.x;
  out[1] = r.y;
  out[2] = r.z;
  out[3] = r.w;
}
`;

/** Philox4x32-10 in JavaScript: the 32x32 -> 64-bit products through BigInt. */
function philoxRef(c: readonly number[], k: readonly number[]): number[] {
  let [x0, x1, x2, x3] = c as [number, number, number, number];
  let [k0, k1] = k as [number, number];
  for (let r = 0; r < 10; r++) {
    const p0 = 0xd2511f53n * BigInt(x0);
    const p1 = 0xcd9e8d57n * BigInt(x2);
    const hi0 = Number(p0 >> 32n), lo0 = Number(p0 & 0xffffffffn);
    const hi1 = Number(p1 >> 32n), lo1 = Number(p1 & 0xffffffffn);
    [x0, x1, x2, x3] = [(hi1 ^ x1 ^ k0) >>> 0, lo1, (hi0 ^ x3 ^ k1) >>> 0, lo0];
    k0 = (k0 + 0x9e3779b9) >>> 0;
    k1 = (k1 + 0xbb67ae85) >>> 0;
  }
  return [x0, x1, x2, x3];
}

// Random123's kat_vectors for philox4x32_10: counter, key, result.
const KAT: [number[], number[], number[]][] = [
  [[0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]],
  [[0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], [0xffffffff, 0xffffffff], [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]],
  [[0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0], [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]],
];

describe("gk/std/random", () => {
  it("philox matches Philox4x32-10's known answers, and the JS twin on any counter and key", async () => {
    const mod = await stdModule(SOURCE);
    const run = async (c: number[], k: number[]) =>
      [...((await mod.kat!({ grid: 1, block: 1 }, { c: Uint32Array.from(c), k: Uint32Array.from(k), out: new Uint32Array(4) })).out as Uint32Array)];
    for (const [c, k, want] of KAT) {
      expect(philoxRef(c, k)).toEqual(want);
      expect(await run(c, k)).toEqual(want);
    }
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    await fc.assert(
      fc.asyncProperty(fc.array(u32, { minLength: 4, maxLength: 4 }), fc.array(u32, { minLength: 2, maxLength: 2 }), async (c, k) => {
        expect(await run(c, k)).toEqual(philoxRef(c, k));
      }),
      { numRuns: 20 },
    );
  });

  it("randomF32 and randomF64: element i from counter (i / 4 or i / 2, stream), exact conversions; normals by Box-Muller", async () => {
    const mod = await stdModule(SOURCE);
    const n = 103;
    const seedLo = 0x12345678, seedHi = 0x9abcdef0, stream = 7;
    const f32 = (await mod.randomF32!.with({ NORMAL: false })({ grid: 1, block: 32 }, { n, seedLo, seedHi, stream, out: new Float32Array(n) })).out as Float32Array;
    const f64 = (await mod.randomF64!.with({ NORMAL: false })({ grid: 2, block: 32 }, { n, seedLo, seedHi, stream, out: new Float64Array(n) })).out as Float64Array;
    for (let i = 0; i < n; i++) {
      const w = philoxRef([i >> 2, stream, 0, 0], [seedLo, seedHi]);
      expect(f32[i]).toBe((w[i % 4]! >>> 8) * 2 ** -24);
      const v = philoxRef([i >> 1, stream, 0, 0], [seedLo, seedHi]);
      const hi = BigInt(v[2 * (i % 2)]!), lo = BigInt(v[2 * (i % 2) + 1]!);
      expect(f64[i]).toBe(Number(((hi << 32n) | lo) >> 11n) * 2 ** -53);
    }
    const z = (await mod.randomF64!.with({ NORMAL: true })({ grid: 2, block: 32 }, { n, seedLo, seedHi, stream, out: new Float64Array(n) })).out as Float64Array;
    for (let i = 0; i + 1 < n; i += 2) {
      const r = Math.sqrt(-2 * Math.log(1 - f64[i]!)), a = 2 * Math.PI * f64[i + 1]!;
      expect(z[i]).toBeCloseTo(r * Math.cos(a), 12);
      expect(z[i + 1]).toBeCloseTo(r * Math.sin(a), 12);
    }
  });
});

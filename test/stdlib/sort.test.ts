// gk/std/sort on the simulator, through the host call that runs its passes (src/runtime/stdlib/calls.ts):
// ascending keys of every integer type, and values moved stably with them.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stdlib } from "../../src/runtime/stdlib/calls.js";
import { sim, stdModule } from "./helpers.js";

describe("gk/std/sort", () => {
  it("sorts u32 and i32 keys with their values, stably", async () => {
    const gpu = await sim();
    const std = stdlib(gpu);
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 4500 }),
        fc.integer({ min: 0, max: 32 }),
        async (signed, raw, spread) => {
          // Few distinct keys now and then, so that equal keys (stability) are common.
          const keys = raw.map((k) => (spread < 8 ? k % (spread + 1) : k));
          const k = signed ? Int32Array.from(keys.map((v) => v | 0)) : Uint32Array.from(keys);
          const v = Uint32Array.from(keys, (_, i) => i);
          const ka = await gpu.array(k), va = await gpu.array(v);
          const r = await std.sort(ka, { values: va });
          const order = [...v].sort((a, b) => (k[a]! < k[b]! ? -1 : k[a]! > k[b]! ? 1 : a - b));
          expect([...(await r.values!.read())]).toEqual(order);
          expect([...(await r.keys.read())]).toEqual(order.map((i) => k[i]));
          expect([...(await ka.read())]).toEqual([...k]);
          for (const a of [ka, va, r.keys, r.values!]) a.free();
        },
      ),
      { numRuns: 12 },
    );
  });

  it("sorts i64 and u64 keys (eight passes), without values", async () => {
    const gpu = await sim();
    const std = stdlib(gpu);
    const big = BigInt64Array.from({ length: 700 }, (_, i) => (BigInt(i * 7919 % 701) - 350n) * 10n ** 15n + BigInt(i % 3));
    const r = await std.sort(await gpu.array(big));
    expect([...(await r.keys.read())]).toEqual([...big].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const ubig = BigUint64Array.from({ length: 300 }, (_, i) => BigInt.asUintN(64, BigInt(i) * 0x9e3779b97f4a7c15n));
    const u = await std.sort(await gpu.array(ubig));
    expect([...(await u.keys.read())]).toEqual([...ubig].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("sorts f32 and f64 keys in IEEE total order (-NaN, -Infinity, ..., -0, +0, ..., +Infinity, +NaN), with values", async () => {
    const gpu = await sim();
    const std = stdlib(gpu);
    // The keys' bits, so that -0, +0 and NaNs of either sign and any payload are compared as total order compares them.
    // Signaling NaNs among them (0x7f800001, 0xff83d60f): their bits come back as they went in.
    const special32 = [0x80000000, 0, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xff83d60f, 0x00000001, 0x80000001, 0x7f7fffff, 0xff7fffff];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...special32), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 3000 }), async (raw) => {
        const bits = Uint32Array.from(raw);
        const k = new Float32Array(bits.buffer);
        const order = [...bits.keys()].sort((a, b) => total32(bits[a]!) - total32(bits[b]!) || a - b);
        const r = await std.sort(await gpu.array(k), { values: await gpu.array(Uint32Array.from(bits.keys())) });
        expect([...(await r.values!.read())]).toEqual(order);
        expect([...new Uint32Array((await r.keys.read()).buffer)]).toEqual(order.map((i) => bits[i]));
      }),
      { numRuns: 8 },
    );
    const d = Float64Array.from([3.5, -0, 0, -Infinity, NaN, -1e300, 1e-310, -2, Infinity, 0.1]);
    const rd = await std.sort(await gpu.array(d));
    expect([...(await rd.keys.read())].map((x) => (Object.is(x, -0) ? "-0" : String(x)))).toEqual(["-Infinity", "-1e+300", "-2", "-0", "0", "1e-310", "0.1", "3.5", "Infinity", "NaN"]);
  });

  it("sorts over many tiles and histogram blocks (small tiles: the look-back of each digit walks back)", async () => {
    const gpu = await sim();
    const std = stdlib(gpu);
    const initial = { ...std.tuning };
    try {
      Object.assign(std.tuning, { sortItems: 3, sortItemsWide: 2, sortHistBlocks: 3 });
      const k = Int32Array.from({ length: 5000 }, (_, i) => Math.imul(i ^ (i >>> 7), 2654435761) % 1000);
      const v = Float32Array.from(k, (_, i) => i);
      const r = await std.sort(await gpu.array(k), { values: await gpu.array(v) });
      const order = [...v].sort((a, b) => k[a]! - k[b]! || a - b);
      expect([...(await r.values!.read())]).toEqual(order);
      expect([...(await r.keys.read())]).toEqual(order.map((i) => k[i]));
      const wide = BigUint64Array.from({ length: 1500 }, (_, i) => BigInt.asUintN(64, BigInt(i) * 0x9e3779b97f4a7c15n) >> BigInt(i % 60));
      const rw = await std.sort(await gpu.array(wide));
      expect([...(await rw.keys.read())]).toEqual([...wide].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    } finally {
      Object.assign(std.tuning, initial);
    }
  });

  it("radixOnesweep's look-back: over published counts, tile by tile, stopping at the nearest inclusive count", async () => {
    // The simulator runs blocks in order, so a tile always finds the one before it done. Here
    // tiles 0 .. done-1 are given as published by blocks that came before (per digit, some
    // inclusive counts, some only the tile's count), and the launch sorts the rest's pass 0.
    const mod = await stdModule(`import { radixOnesweep } from "gk/std/sort";\n`);
    const TILE = 256;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), async (published, more, pass1) => {
        const done = published.length;
        const tiles = done + more;
        const n = tiles * TILE - 17;
        const keys = Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 2654435761) >>> (i % 3 === 0 ? 20 : 0));
        const pass = pass1 ? 1 : 0;
        const digit = (k: number) => (k >>> (8 * pass)) & 255;
        const counts = Array.from({ length: tiles }, (_, q) => {
          const c = new Array<number>(256).fill(0);
          for (let i = q * TILE; i < Math.min(n, (q + 1) * TILE); i++) c[digit(keys[i]!)]!++;
          return c;
        });
        const hist = new Uint32Array(2 * 256 + 1);
        let at = 0;
        for (let d = 0; d < 256; d++) {
          hist[pass * 256 + d] = at;
          for (const c of counts) at += c[d]!;
        }
        const status = new Uint32Array(2 * tiles * 256);
        const inclusive = new Array<number>(256).fill(0);
        for (let q = 0; q < done; q++) {
          for (let d = 0; d < 256; d++) {
            inclusive[d]! += counts[q]![d]!;
            // Tile 0 always has its inclusive count; 1: this digit's inclusive count, 2: both kinds alternate by digit, 0: only the tile's count.
            const prefix = q === 0 || published[q] === 1 || (published[q] === 2 && d % 2 === 0);
            status[(pass * tiles + q) * 256 + d] = ((prefix ? 2 : 1) << 30) | (prefix ? inclusive[d]! : counts[q]![d]!);
          }
        }
        const order = [...keys.keys()].sort((a, b) => digit(keys[a]!) - digit(keys[b]!) || a - b);
        const r = await mod.radixOnesweep!.with({ K: "u32", V: "u32", BLOCK: 256, ITEMS: 1, VALUES: true })(
          { grid: more, block: 256 },
          { n, keysIn: keys, keysOut: new Uint32Array(n), valuesIn: Uint32Array.from(keys.keys()), valuesOut: new Uint32Array(n).fill(0xffffffff), pass, top: 31, hist, status, ticket: Uint32Array.of(done, done), tiles },
        );
        // The places of the keys of tiles done .. tiles-1 are exactly theirs in the stable order.
        const out = r.valuesOut as Uint32Array;
        order.forEach((src, place) => {
          if (src >= done * TILE) expect(out[place], `key ${src}`).toBe(src);
        });
      }),
      { numRuns: 20 },
    );
  });
});

/** An f32's bits as a number in IEEE total order (negative floats below positive ones, each in order). */
function total32(b: number): number {
  return b >= 0x80000000 ? 0xffffffff - b : b + 0x80000000;
}

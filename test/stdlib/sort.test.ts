// gk/std/sort on the simulator, through the host call that runs its passes (src/runtime/stdlib/calls.ts):
// ascending keys of every integer type, and values moved stably with them.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { stdlib } from "../../src/runtime/stdlib/calls.js";
import { sim } from "./helpers.js";

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
});

/**
 * Instances of generic kernels named from TypeScript (src/runtime/instances.ts): a module
 * keeps at most INSTANCE_CACHE_SIZE of them built, the least recently used dropped first
 * (issue 25, item 17: every with() was kept forever); a kernel function made before its
 * instance was dropped still runs. Counted, on the CPU simulator.
 */
import { describe, expect, it } from "vitest";
import { compileSource } from "../../src/index.js";
import { INSTANCE_CACHE_SIZE, InstanceCache } from "../../src/runtime/instances.js";

describe("the instances a module keeps", () => {
  it("are at most a bounded number, the least recently used dropped first", () => {
    const cache = new InstanceCache<number>(3);
    for (const k of ["a", "b", "c"]) cache.set(k, k.charCodeAt(0));
    expect(cache.get("a")).toBe(97); // a is now the most recently used
    cache.set("d", 100);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([97, 99, 100]);
    expect(INSTANCE_CACHE_SIZE).toBe(256);
  });

  it("still run through a kernel function made before they were dropped", async () => {
    const mod = await compileSource("device_kernel fill<N: i32>(o: global<i32>) { o[0] = N; }", { device: "cpu" });
    const first = mod.fill!.with({ N: 0 });
    for (let n = 1; n <= INSTANCE_CACHE_SIZE + 1; n++) mod.fill!.with({ N: n });
    const o = new Int32Array(1);
    await first({ grid: 1, block: 1 }, { o });
    expect(o[0]).toBe(0);
    await mod.fill!.with({ N: 7 })({ grid: 1, block: 1 }, { o });
    expect(o[0]).toBe(7);
    await mod.close();
  });
});

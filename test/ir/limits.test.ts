/** The launch limits and value facts (src/ir/limits.ts, src/ir/values.ts) that the API, the simulator and the checker share. */
import { describe, expect, it } from "vitest";
import { checkShape, LAUNCH_LIMITS } from "../../src/ir/limits.js";
import { T } from "../../src/ir/types.js";
import { coerceScalar, INT_RANGES, storedValue } from "../../src/ir/values.js";
import { frontEnd } from "../../src/pipeline.js";
import { memoryHost } from "../../src/load/program.js";
import { compileSource } from "../../src/runtime/api.js";
import { compileKernel, runKernel } from "../../src/runtime/sim/index.js";

describe("launch shapes", () => {
  it("are checked by one rule", () => {
    expect(checkShape("block", [32, 32])).toEqual({ ok: true, dims: [32, 32, 1] });
    expect(checkShape("block", [])).toEqual({ ok: false, why: "count" });
    expect(checkShape("grid", [1, 65536])).toMatchObject({ ok: false, why: "size", axis: 1, max: 65535 });
    expect(checkShape("block", [64, 32])).toMatchObject({ ok: false, why: "threads", threads: 2048 });
    expect(checkShape("grid", [LAUNCH_LIMITS.grid[0]])).toMatchObject({ ok: true });
  });

  it("refuse the same launches in the checker, the API and the simulator", async () => {
    const src = "device_kernel k(out: global<i32>) { out[0] = 1; }\n";
    const checked = (grid: string, block: string) =>
      frontEnd("l.gk", { host: memoryHost({ "l.gk": `${src}launch k(out = zeros(1)) grid(${grid}) block(${block});\n` }) }).diagnostics.map((d) => d.code);
    const mod = await compileSource(src, { device: "cpu" });
    const fe = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    const sim = compileKernel(fe.ir!, "k");
    for (const [grid, block] of [[[1], [64, 32]], [[1, 65536], [1]], [[1], [2048]]] as const) {
      expect(checked(grid.join(", "), block.join(", ")), `${grid} ${block}`).toEqual(["GK5006"]);
      await expect(mod.k({ grid: [...grid], block: [...block] }, { out: new Int32Array(1) })).rejects.toMatchObject({ code: "GK8005" });
      expect(() => runKernel(sim, { grid: [...grid], block: [...block] }, [new Int32Array(1)])).toThrow(/GK8010/);
    }
    await mod.close();
  });

  it("refuse a block past a kernel's @launchBounds alike in the checker (GK5006), the API and the simulator (GK8010)", async () => {
    const src = "@launchBounds(128, 2)\ndevice_kernel k(out: global<i32>) { out[globalId.x] = 1; }\n";
    const launch = (block: string) => frontEnd("l.gk", { host: memoryHost({ "l.gk": `${src}launch k(out = zeros(256)) grid(1) block(${block});\n` }) }).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(launch("128")).toEqual([]);
    expect(launch("16, 16")).toEqual(["GK5006 launch of 'k': the kernel is declared @launchBounds(128): its blocks have at most 128 threads, but block [16, 16, 1] has 256"]);
    const mod = await compileSource(src, { device: "cpu" });
    await expect(mod.k({ grid: 1, block: 128 }, { out: new Int32Array(256) })).resolves.toBeDefined();
    await expect(mod.k({ grid: 1, block: [64, 4] }, { out: new Int32Array(256) })).rejects.toMatchObject({ code: "GK8010", message: "GK8010: k: the kernel is declared @launchBounds(128): its blocks have at most 128 threads, but block [64, 4, 1] has 256" });
    await mod.close();
    const fe = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(() => runKernel(compileKernel(fe.ir!, "k"), { grid: [1], block: [129] }, [new Int32Array(256)])).toThrow(/GK8010.*@launchBounds\(128\)/);
  });
});

describe("scalar values from the host", () => {
  it("follow one coercion rule", () => {
    expect(coerceScalar(T.f32, 0.1)).toEqual({ ok: true, value: Math.fround(0.1) });
    expect(coerceScalar(T.i32, 7n)).toEqual({ ok: true, value: 7 });
    expect(coerceScalar(T.i64, 7)).toEqual({ ok: true, value: 7n });
    expect(coerceScalar(T.u32, -1)).toEqual({ ok: false, why: "range", integer: -1n });
    expect(coerceScalar(T.i32, 2.5)).toEqual({ ok: false, why: "type" });
    expect(coerceScalar(T.bool, 1)).toEqual({ ok: false, why: "type" });
    expect(coerceScalar(T.u64, INT_RANGES.u64[1])).toEqual({ ok: true, value: INT_RANGES.u64[1] });
    expect(storedValue("bool", true)).toBe(1);
  });
});

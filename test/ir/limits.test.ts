/** The launch limits and value facts (src/ir/limits.ts, src/ir/values.ts) that the API, the simulator and the checker share. */
import { describe, expect, it } from "vitest";
import { checkShape, dynamicSharedLayout, LAUNCH_LIMITS } from "../../src/ir/limits.js";
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

describe("dynamicSharedLayout", () => {
  it("puts the widest elements first and starts each array at a multiple of 16 bytes (spec: language.md's example)", () => {
    // shared a: f32[] (5 elements); shared b: f64[] (3): b at 0, its 24 bytes rounded to 32; a at 32; 52 bytes.
    expect(dynamicSharedLayout([4, 8], [5, 3])).toEqual({ offsets: [32, 0], bytes: 52, order: [1, 0] });
    expect(dynamicSharedLayout([4, 4, 1], [4, 1, 3])).toEqual({ offsets: [0, 16, 32], bytes: 35, order: [0, 1, 2] });
  });
});

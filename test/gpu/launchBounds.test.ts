/**
 * Kernel annotations on a real GPU: spec/ok/launch_bounds.gk (__launch_bounds__ with and
 * without minBlocks, __maxnreg__, a generic instance's bound) runs launch by launch as on the
 * simulator, byte for byte; through the API, a block within the bound runs and one past it is
 * refused before the GPU sees it (GK8010), and the device still works after. Skipped, with a
 * one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { compileSource } from "../../src/index.js";
import type { Runner } from "../../src/runtime/runner.js";
import { gpuAvailable } from "./gpu-available.js";
import { specLaunchesBothWays } from "./spec-launches.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/launchBounds.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

describe.skipIf(!gpu.ok)(title("launch bounds"), () => {
  it("spec/ok/launch_bounds.gk: the GPU computes what the simulator computes", { timeout: 120_000 }, async () => {
    const { pairs } = await specLaunchesBothWays("launch_bounds.gk", runners);
    expect(pairs.length).toBe(3);
    for (const { want, got } of pairs) {
      expect(got.device).toBe("cuda");
      for (const [name, w] of want.outputs) expect(Buffer.from(got.outputs.get(name)!.data.buffer).equals(Buffer.from(w.data.buffer)), name).toBe(true);
    }
  });

  it("an API launch runs within the bound, and is refused past it before it reaches the GPU (GK8010)", { timeout: 120_000 }, async () => {
    const mod = await compileSource("@launchBounds(64, 2)\ndevice_kernel k(out: global<i32>) { out[globalId.x] = i32(blockDim.x); }", { device: "cuda" });
    const out = new Int32Array(128);
    await mod.k({ grid: 2, block: 64 }, { out });
    expect(out.every((v) => v === 64)).toBe(true);
    await expect(mod.k({ grid: 1, block: 128 }, { out })).rejects.toMatchObject({ code: "GK8010" });
    await mod.k({ grid: 4, block: 32 }, { out });
    expect(out.every((v) => v === 32)).toBe(true);
    await mod.close();
  });
});

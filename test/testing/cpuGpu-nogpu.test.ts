/** gk/testing's comparison where no GPU is (src/testing/cpuGpu.ts): it says so, as a skip reason would, not that the two sides disagree. */
import { describe, expect, it } from "vitest";
import { compareCpuGpu, expectSameOnCpuAndGpu, gpuAvailable } from "../../src/testing/cpuGpu.js";

const gpu = await gpuAvailable();
const SRC = "device_kernel k(out: global<i32>) {\n  out[0] = 7;\n}\n";

describe("comparing without a GPU", () => {
  it.skipIf(gpu.ok)("says there is no GPU, and how to skip, instead of a disagreement", async () => {
    const r = await compareCpuGpu(SRC, "k", { grid: 1, block: 1 }, { out: new Int32Array(1) });
    expect(r.ok).toBe(false);
    // The reason is the device's, as opening it for the comparison gave it (it names what is missing).
    expect(r.message).toMatch(/^kernel 'k': no GPU to compare the simulator with \(.*\S.*\); skip this comparison where there is no GPU: it\.skipIf\(!\(await gpuAvailable\(\)\)\.ok\)\(\.\.\.\)$/);
    await expect(expectSameOnCpuAndGpu(SRC, "k", { grid: 1, block: 1 }, { out: new Int32Array(1) })).rejects.toThrow(/^kernel 'k': no GPU to compare the simulator with/);
  });
});

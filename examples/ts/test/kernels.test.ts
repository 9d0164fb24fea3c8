// The example's kernels under vitest (with gk/vite, vitest.config.ts): their results where
// they run (the GPU if there is one, else the simulator; GK_DEVICE=cpu forces the simulator),
// and the same kernels on the GPU against the simulator where there is one (gk/testing).
import { expectSameOnCpuAndGpu, gpuAvailable } from "gk/testing";
import { describe, expect, it } from "vitest";
import scaleModule, { scale } from "../src/kernels/scale.gk";
import { blur } from "../src/kernels/blur.js";

const gpu = await gpuAvailable();

describe("the example's kernels", () => {
  it(`scale (a .gk kernel) on ${scaleModule.device}`, async () => {
    const x = Float32Array.from([0, 1, 2, 3]);
    const { y } = await scale({ grid: 1, block: 32 }, { n: 4, a: 2, b: 1, x, y: new Float32Array(4) });
    expect([...y]).toEqual([1, 3, 5, 7]);
  });

  it("blur (a TypeScript kernel)", async () => {
    const out = new Float32Array(4);
    await blur({ grid: 1, block: 32 }, 4, Float32Array.from([4, 8, 4, 0]), out);
    expect([...out]).toEqual([4, 6, 4, 1]);
  });

  it.skipIf(!gpu.ok)(`both agree with the simulator on the GPU (${gpu.reason})`, async () => {
    const x = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i));
    await expectSameOnCpuAndGpu(scaleModule, "scale", { grid: 16, block: 64 }, { n: 1000, a: 1.5, b: -2, x, y: new Float32Array(1000) });
    await expectSameOnCpuAndGpu(blur, "blur", { grid: 16, block: 64 }, { n: 1000, x, out: new Float32Array(1000) });
  });
});

/**
 * gk/testing's comparer on the fake libcuda.so.1 (test/runtime/launcher/fake-driver/): it opens
 * its GPU through openDevice, in a launcher process by default or in-process when asked, runs
 * the kernel there on copies of the arguments, and compares with the simulator. The fake driver
 * runs the kernels of fake-gpu-helpers.ts's source by name (test/gpu/differential.test.ts
 * compares thousands of kernels on a real GPU); the file skips, saying so, where nvcc is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Isolation } from "../../src/runtime/device/engine.js";
import { checkProgram, compareCpuGpu, CpuGpuComparer, gpuAvailable } from "../../src/testing/cpuGpu.js";
import { FAKE_SRC, fakeSkip as skip, setUpFakeGpu } from "../runtime/device/fake-gpu-helpers.js";
import { removeTempDirs } from "../runtime/launcher/helpers.js";

if (skip) console.warn(`test/testing/cpuGpu.test.ts skipped: ${skip}`);

let cacheRoot: string;
beforeAll(async () => {
  if (!skip) cacheRoot = await setUpFakeGpu("cpu-gpu");
});
afterAll(removeTempDirs);

describe.skipIf(skip !== undefined)("the comparer on the fake driver", () => {
  it("finds the GPU as openDevice does", async () => {
    expect(await gpuAvailable()).toEqual({ ok: true, reason: "Fake GPU (gk test driver) (sm_90)" });
  });

  for (const isolation of ["process", "in-process"] as const satisfies readonly Isolation[]) {
    it(`compares a kernel on copies of its arguments, isolation ${isolation}`, async () => {
      const x = Float32Array.from({ length: 100 }, (_, i) => i / 4);
      const y = new Float32Array(100).fill(1);
      const out = new Float32Array(100);
      const r = await compareCpuGpu(FAKE_SRC, "saxpy", { grid: 1, block: 128 }, { n: 100, alpha: 2.5, x, y, out }, { cacheRoot, isolation });
      expect(r.message).toBe("");
      expect(r.ok).toBe(true);
      expect(r.gpu.get("out")).toEqual(Float32Array.from(x, (v) => Math.fround(2.5 * v) + 1));
      expect(out).toEqual(new Float32Array(100)); // the caller's array is not written
    });
  }

  it("passes a launch's constant arrays and runs many kernels on one device", async () => {
    const comparer = new CpuGpuComparer({ cacheRoot });
    try {
      const program = checkProgram(FAKE_SRC);
      const constant = await comparer.compare(program, "read_constant", { grid: 1, block: 4, constants: { table: [1, 2, 3, 4] } }, { out: new Float32Array(4) });
      expect(constant.gpu.get("out")).toEqual(Float32Array.from([1, 2, 3, 4]));
      expect(constant.ok).toBe(true);
      for (let n = 1; n <= 3; n++) {
        const r = await comparer.compare(program, "add_one", { grid: 1, block: 32 }, [n, Int32Array.from([5, 6, 7])]);
        expect(r.gpu.get("p")).toEqual(Int32Array.from([5, 6, 7], (v, i) => (i < n ? v + 1 : v)));
        expect(r.ok).toBe(true);
      }
    } finally {
      await comparer.close();
    }
  });
});

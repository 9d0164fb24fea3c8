/**
 * A faulting kernel in-process, on the fake driver, which poisons the process's CUDA state
 * as CUDA 13 does (no reset clears a sticky error; the context cannot be retained again).
 * The device goes on in a gpu_launcher process for the rest of its life: the fault is a
 * GkRuntimeError naming the kernel and the launch, the arrays made before are lost (GK8017),
 * and the next launch works. A file of its own: the fault poisons the whole test process, as
 * it would a program's. test/gpu/device.test.ts checks the same on a GPU.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDevice } from "../../../src/index.js";
import { removeTempDirs } from "../launcher/helpers.js";
import { FAKE_SRC as SRC, failure, fakeSkip as skip, setUpFakeGpu } from "./fake-gpu-helpers.js";

if (skip) console.warn(`test/runtime/device/fake-gpu-fault.test.ts skipped: ${skip}`);

let cacheRoot: string;
beforeAll(async () => {
  if (!skip) cacheRoot = await setUpFakeGpu("fake-gpu-fault");
});
afterAll(removeTempDirs);

describe.skipIf(skip !== undefined)("a faulting kernel in-process, on the fake driver", () => {
  it("names the kernel and the launch, loses the arrays made before, and goes on in a launcher process", async () => {
    const gpu = await openDevice({ device: "cuda", isolation: "in-process" });
    const other = await openDevice({ device: "cuda", isolation: "in-process" }); // shares the GPU's context
    try {
      const mod = await gpu.compileSource(SRC, { cacheRoot });
      const p = await gpu.array(new Int32Array(4), { label: "before" });
      const q = await other.array(new Int32Array(2), { label: "beside" });
      await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
      await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
      await mod.oob({ grid: 1, block: 1 }, { p });
      await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
      const e = await failure(mod.sync());
      expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", contextLost: true });
      expect(e.launch).toMatchObject({ queue: 0, seq: 3, kernel: "oob", certain: true });
      expect(e.message).toMatch(/^GK8006: launch 3 of kernel 'oob' on queue 0 failed: .*CUDA_ERROR_ILLEGAL_ADDRESS/);
      expect(e.diagnostic.notes.map((n) => n.message)).toContain(
        "in-process, CUDA cannot use the GPU again in this process after this error: the device goes on in a gpu_launcher process (isolation \"process\")",
      );
      // Every device on that GPU moved, and says so.
      expect(gpu.isolation).toBe("process");
      expect(other.isolation).toBe("process");
      expect(gpu.name).toBe("GPU 0 (Fake GPU (gk test driver), process)");
      expect((await failure(p.read())).message).toBe(
        "GK8017: GPU array 'before' (i32[4]) can no longer be used (read): the GPU context it was made in was lost (CUDA_ERROR_ILLEGAL_ADDRESS); its contents are gone, make it again",
      );
      expect((await failure(q.read())).code).toBe("GK8017");
      expect((await failure(mod.add_one({ grid: 1, block: 32 }, { n: 4, p }))).code).toBe("GK8017");
      // The next launch works, in the launcher process.
      const fresh = await gpu.array(new Int32Array([5, 6]));
      await mod.add_one({ grid: 1, block: 32 }, { n: 2, p: fresh });
      expect(await fresh.read()).toEqual(new Int32Array([6, 7]));
      expect((await gpu.memory()).total).toBe(2 ** 30);
      expect(gpu.hostArray("i32", 4)).toEqual(new Int32Array(4)); // ordinary memory now
      // A device opened in-process later in this process gets a launcher too.
      const later = await openDevice({ device: "cuda", isolation: "in-process" });
      expect(later.isolation).toBe("process");
      await later.close();
      // A fault there ends that launcher; the next launch starts another.
      await mod.oob({ grid: 1, block: 1 }, { p: fresh });
      const again = await failure(gpu.sync());
      expect(again).toMatchObject({ code: "GK8006", contextLost: true });
      expect(again.launch).toMatchObject({ kernel: "oob" });
      expect((await failure(fresh.read())).code).toBe("GK8017");
      const third = await gpu.array(new Int32Array([1]));
      await mod.add_one({ grid: 1, block: 1 }, { n: 1, p: third });
      expect(await third.read()).toEqual(new Int32Array([2]));
    } finally {
      await gpu.close();
      await other.close();
    }
  });
});

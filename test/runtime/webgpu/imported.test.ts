// Imported .gk modules and TypeScript kernels on a WebGPU device (GK_DEVICE=webgpu, as
// configure({ device: "webgpu" }) would): the same typed call shape as on the other devices.
// Skipped, with a one-line reason, where there is no WebGPU adapter.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { frontEnd } from "../../../src/pipeline.js";
import { loadGkModule } from "../../../src/modules/runtime.js";
import { sourceHash } from "../../../src/modules/shape.js";
import { webgpuAvailable } from "./adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/runtime/webgpu/imported.test.ts skipped: ${webgpu.reason}`);
// Before any imported module or TypeScript kernel is used: then their device is open.
process.env.GK_DEVICE = "webgpu";

describe.skipIf(!webgpu.ok)(`imported modules and TypeScript kernels on WebGPU (${webgpu.reason})`, () => {
  it("runs a TypeScript kernel (examples/saxpy.ts) with its positional arguments", async () => {
    const { saxpy } = await import("../../../examples/saxpy.js");
    const out = new Float32Array(4);
    await saxpy({ grid: 1, block: 32 }, 4, 2.5, Float32Array.from([1, 2, 3, 4]), new Float32Array(4).fill(1), out);
    expect([...out]).toEqual([3.5, 6, 8.5, 11]);
    expect((await saxpy.module()).device).toBe("webgpu");
  });

  it("runs an imported .gk module's kernel, its arguments by name, on the same device", async () => {
    const file = resolve("examples/saxpy.gk");
    const fe = frontEnd(file);
    const mod = await loadGkModule(file, { [file]: readFileSync(file, "utf8") }, sourceHash(file, fe.sources));
    expect(mod.device).toBe("webgpu");
    const { out } = await mod.saxpy!({ grid: 1, block: 32 }, { n: 3, alpha: 2, x: [1, 2, 3], y: [0, 0, 1], out: new Float32Array(3) });
    expect([...(out as Float32Array)]).toEqual([2, 4, 7]);
    const x = await mod.gpu.array(Float32Array.from([1, 1, 1]));
    const o = await mod.gpu.zeros("f32", 3);
    await mod.saxpy!({ grid: 1, block: 32 }, { n: 3, alpha: 3, x, y: x, out: o });
    expect([...(await o.read())]).toEqual([4, 4, 4]);
  });
});

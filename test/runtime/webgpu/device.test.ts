// A WebGPU device through gk's API (openDevice, GPU arrays, compiled modules): the same calls
// and errors as on a CUDA device or the simulator (spec/runtime-api.md). Skipped, with a
// one-line reason, where there is no WebGPU adapter.
import { afterAll, describe, expect, it } from "vitest";
import { compileSource } from "../../../src/runtime/api.js";
import { openDevice, type GpuDevice } from "../../../src/runtime/device/device.js";
import { GkRuntimeError } from "../../../src/runtime/errors.js";
import { requestWebGpu } from "../../../src/runtime/webgpu/open.js";
import { webgpuAvailable } from "./adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/runtime/webgpu/device.test.ts skipped: ${webgpu.reason}`);

const SRC = `
struct P { x: f32, n: i32 }
const TABLE: f32[4] = [1.0, 10.0, 100.0, 1000.0];
device_kernel scale(p: P, v: f32x2, xs: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  if (i < p.n) { out[i] = p.x * xs[i] + v.x * TABLE[i % 4] + v.y; }
}
device_kernel blocks(out: global<i32>) {
  shared s: i32[];
  s[threadIdx.x] = threadIdx.x + blockDim.x * 1000;
  barrier();
  out[globalId.x] = s[blockDim.x - 1 - threadIdx.x];
}
device_kernel wild(out: global<f32>) { out[globalId.x + 1000000] = 1.0; }
`;

describe.skipIf(!webgpu.ok)(`a WebGPU device through gk's API (${webgpu.reason})`, () => {
  let gpu: GpuDevice;
  afterAll(() => gpu?.close());

  it("runs kernels on GPU arrays and host arrays: structs, vectors and constant arrays in their places", async () => {
    gpu = await openDevice({ device: "webgpu" });
    expect(gpu.kind).toBe("webgpu");
    expect(gpu.name).toMatch(/^WebGPU \(/);
    const mod = await gpu.compileSource(SRC);
    expect(mod.device).toBe("webgpu");
    const xs = await gpu.array(Float32Array.from([1, 2, 3, 4, 5]), { label: "xs" });
    const out = await gpu.zeros("f32", 5);
    await mod.scale({ grid: 1, block: 64 }, { p: { x: 2, n: 5 }, v: [1, 0.5], xs, out });
    expect([...(await out.read())]).toEqual([3.5, 14.5, 106.5, 1008.5, 11.5]);
    const host = new Float32Array(5);
    await mod.scale({ grid: 1, block: 32 }, { p: { x: 1, n: 4 }, v: [0, 0], xs: Float32Array.from([5, 6, 7, 8, 9]), out: host });
    expect([...host]).toEqual([5, 6, 7, 8, 0]);
  });

  it("reports each launch's kernel time at the next wait", async () => {
    const mod = await gpu.compileSource(SRC);
    const out = await gpu.zeros("i32", 512);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) await mod.blocks({ grid: 2, block: 256, shared: { s: 256 }, kernelTime: (ms) => times.push(ms) }, { out });
    expect(times).toEqual([]);
    await gpu.sync();
    expect(times).toHaveLength(3);
    for (const ms of times) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it("takes the block size and dynamic shared lengths at each launch (a pipeline each)", async () => {
    const mod = await gpu.compileSource(SRC);
    for (const block of [4, 64, 256]) {
      const out = await gpu.zeros("i32", block * 2);
      await mod.blocks({ grid: 2, block, shared: { s: block } }, { out });
      const got = await out.read();
      expect(got[0]).toBe(block * 1000 + block - 1);
      expect(got[block * 2 - 1]).toBe(block * 1000);
      out.free();
    }
  });

  it("refuses a block or a grid beyond the device's limits, naming the kernel", async () => {
    const mod = await gpu.compileSource(SRC);
    const out = await gpu.zeros("i32", 4);
    const max = gpu.webgpu!.limits.maxComputeInvocationsPerWorkgroup;
    await expect(mod.blocks({ grid: 1, block: [max, 2], shared: { s: 2 * max } }, { out })).rejects.toThrow(`GK8005: blocks: a block has at most ${max} threads, but block [${max}, 2, 1] has ${2 * max}`);
    const big = gpu.webgpu!.limits.maxComputeWorkgroupsPerDimension + 1;
    await expect(mod.wild({ grid: big, block: 1 }, { out: await gpu.zeros("f32", 1) })).rejects.toThrow(/GK8005: wild: grid size x must be an integer from 1 to \d+/);
  });

  it("keeps a GPU array's rules: read after free is GK8016, a closed device's arrays GK8017", async () => {
    const d = await openDevice({ device: "webgpu" });
    const a = await d.array(Int32Array.from([1, 2, 3]), { label: "a" });
    await a.write(Int32Array.from([7]), 2);
    await a.fill(5, 0, 1);
    expect([...(await a.read())]).toEqual([5, 2, 7]);
    const b = await d.zeros("i32", 3);
    await b.copyFrom(a);
    expect([...(await b.read())]).toEqual([5, 2, 7]);
    b.free();
    await expect(b.read()).rejects.toThrow("GK8016: a GPU array (i32[3]) was used after free() (read)");
    await expect(d.memory()).rejects.toThrow(/GK8005: memory\(\): WebGPU does not tell/);
    await d.close();
    await expect(a.read()).rejects.toThrow(/GK8017: GPU array 'a' \(i32\[3\]\) can no longer be used \(read\): WebGPU \(.*\), which it belongs to, was closed/);
  });

  it("uses a GPUDevice the program has, and leaves it open at close()", async () => {
    const own = await requestWebGpu();
    const mod = await compileSource(SRC, { device: own.device });
    expect(mod.device).toBe("webgpu");
    const out = new Float32Array(2);
    await mod.scale({ grid: 1, block: 2 }, { p: { x: 3, n: 2 }, v: [0, 1], xs: Float32Array.from([1, 2]), out });
    expect([...out]).toEqual([4, 7]);
    await mod.close();
    expect(own.device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE }).size).toBe(4);
    own.device.destroy();
  });

  it("says a lost device's arrays are gone, with WebGPU's reason", async () => {
    const own = await requestWebGpu();
    const d = await openDevice({ device: own.device });
    const a = await d.zeros("f32", 4, { label: "lost" });
    own.device.destroy();
    await own.device.lost;
    const e = await a.read().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GkRuntimeError);
    expect((e as GkRuntimeError).message).toMatch(/GK8017: GPU array 'lost' \(f32\[4\]\) can no longer be used \(read\): the GPU context it was made in was lost \(the WebGPU device was lost \(destroyed\)/);
  });
});

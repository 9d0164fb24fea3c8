// The WebGPU engine with a hand-written shader: buffers (zeroed, written and read at any byte
// offset), a pipeline per override values, a dispatch with a uniform buffer, a validation
// error of a launch reported at the wait that follows it, naming the launch. Skipped, with a
// one-line reason, where there is no WebGPU adapter.
import { afterAll, describe, expect, it } from "vitest";
import { GkRuntimeError } from "../../../src/runtime/errors.js";
import { WebGpuEngine } from "../../../src/runtime/webgpu/engine.js";
import { dispatch } from "../../../src/runtime/webgpu/dispatch.js";
import { PipelineCache, type ShaderSource } from "../../../src/runtime/webgpu/pipelines.js";
import { requestWebGpu } from "../../../src/runtime/webgpu/open.js";
import { webgpuAvailable } from "./adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/runtime/webgpu/engine.test.ts skipped: ${webgpu.reason}`);

const SAXPY: ShaderSource = {
  kernel: "saxpy",
  entryPoint: "main",
  bindings: [
    { binding: 0, kind: "uniform" },
    { binding: 1, kind: "read-only-storage" },
    { binding: 2, kind: "storage" },
  ],
  code: `
override BX: u32 = 64;
struct Args { n: u32, alpha: f32 }
@group(0) @binding(0) var<uniform> args: Args;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(BX) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < args.n) { y[g.x] = args.alpha * x[g.x] + y[g.x]; }
}`,
};

describe.skipIf(!webgpu.ok)(`the WebGPU engine on ${webgpu.reason}`, () => {
  let engine: WebGpuEngine;
  afterAll(() => engine?.close());

  it("makes zeroed buffers and copies bytes at any offset", async () => {
    engine = new WebGpuEngine(await requestWebGpu());
    const m = await engine.alloc(10);
    const out = new Uint8Array(10);
    await engine.read(m, 0, out);
    expect([...out]).toEqual(new Array(10).fill(0));
    await engine.write(m, 3, Uint8Array.from([1, 2, 3, 4, 5]));
    await engine.write(m, 0, Uint8Array.from([9]));
    await engine.read(m, 0, out);
    expect([...out]).toEqual([9, 0, 0, 1, 2, 3, 4, 5, 0, 0]);
    const part = new Uint8Array(3);
    await engine.read(m, 5, part);
    expect([...part]).toEqual([3, 4, 5]);
    engine.free(m);
    expect(() => engine.buffer(m, "a read")).toThrow(GkRuntimeError);
  });

  it("dispatches a pipeline with override values and a uniform buffer", async () => {
    const pipelines = new PipelineCache(engine.device);
    const n = 1000;
    const x = await engine.alloc(n * 4);
    const y = await engine.alloc(n * 4);
    const u = engine.device.createBuffer({ size: 8, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const xs = Float32Array.from({ length: n }, (_, i) => i);
    await engine.write(x, 0, new Uint8Array(xs.buffer));
    await engine.write(y, 0, new Uint8Array(Float32Array.from({ length: n }, () => 1).buffer));
    for (const bx of [64, 128]) {
      const uniforms = new ArrayBuffer(8);
      new Uint32Array(uniforms, 0, 1)[0] = n;
      new Float32Array(uniforms, 4, 1)[0] = 2;
      const pipeline = await pipelines.pipeline(SAXPY, { BX: bx });
      expect(await pipelines.pipeline(SAXPY, { BX: bx }) === pipeline).toBe(true);
      dispatch(engine, {
        pipeline,
        bindings: [
          { binding: 0, buffer: u },
          { binding: 1, buffer: engine.buffer(x, "x") },
          { binding: 2, buffer: engine.buffer(y, "y") },
        ],
        workgroups: [Math.ceil(n / bx), 1, 1],
        uniforms: { buffer: u, bytes: new Uint8Array(uniforms) },
        what: `launch of saxpy with BX = ${bx}`,
      });
    }
    await engine.sync();
    const got = new Float32Array(n);
    await engine.read(y, 0, new Uint8Array(got.buffer));
    expect([...got]).toEqual([...xs].map((v) => 4 * v + 1));
  });

  it("reports a launch WebGPU refuses at the next wait, naming the launch", async () => {
    const pipelines = new PipelineCache(engine.device);
    const pipeline = await pipelines.pipeline(SAXPY, { BX: 64 });
    const x = await engine.alloc(16);
    dispatch(engine, { pipeline, bindings: [{ binding: 1, buffer: engine.buffer(x, "x") }], workgroups: [1, 1, 1], what: "launch 7 of kernel 'saxpy'" });
    await expect(engine.sync()).rejects.toThrow(/GK8021: launch 7 of kernel 'saxpy' failed: the WebGPU device refused it/);
    await engine.sync();
  });

  it("reports an error the device raised outside a launch at the next wait, once", async () => {
    const m = await engine.alloc(8);
    engine.device.queue.writeBuffer(engine.buffer(m, "m"), 16, new Uint8Array(8));
    await expect(engine.settle()).rejects.toThrow(/^GK8021: the WebGPU device reported an error: .*/);
    await engine.settle();
    engine.free(m);
  });

  it("reports WGSL the device refuses as a gk bug, naming the kernel and the line", async () => {
    const pipelines = new PipelineCache(engine.device);
    const bad = { ...SAXPY, kernel: "broken", code: SAXPY.code.replace("args.alpha * x[g.x]", "args.alpha * q[g.x]") };
    await expect(pipelines.pipeline(bad, {})).rejects.toThrow(/GK8021: the WGSL of kernel 'broken' \(its module's shader\) was refused by the WebGPU device \(a gk bug: please report it\):\n {2}8:\d+: unresolved value 'q'/);
  });
});

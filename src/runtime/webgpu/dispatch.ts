/// <reference types="@webgpu/types" />
/**
 * One dispatch on a WebGPU device: the kernel's pipeline, a bind group of its buffers, its
 * uniform bytes written to its uniform buffer just before (queue order: the launch before
 * it has read the bytes it was given), and a compute pass of `workgroups`. Submitted at
 * once; what went wrong (a validation or out-of-memory error inside the launch's error
 * scopes) is checked at the next wait, naming the launch.
 */
import { GkRuntimeError } from "../errors.js";
import type { Dim3 } from "../../ir/limits.js";
import type { WebGpuEngine } from "./engine.js";
import type { Pipeline } from "./pipelines.js";

export interface BufferBinding {
  readonly binding: number;
  readonly buffer: GPUBuffer;
}

export interface DispatchRecord {
  readonly pipeline: Pipeline;
  readonly bindings: readonly BufferBinding[];
  readonly workgroups: Dim3;
  /** Bytes to write before the pass: to `buffer` at 0. */
  readonly uniforms?: { readonly buffer: GPUBuffer; readonly bytes: Uint8Array } | undefined;
  /** `launch 3 of kernel 'saxpy'`: what errors name. */
  readonly what: string;
  /** Called with the kernel's time (ms: the GPU's timestamps, else submit to done), at the next wait. */
  readonly timing?: ((ms: number) => void) | undefined;
  /** Read after the work is done: throws the kernel's own report of a failure (out-of-bounds). */
  readonly after?: (() => Promise<void>) | undefined;
}

/** Submits `d`; its failure surfaces at the engine's next wait. */
export function dispatch(engine: WebGpuEngine, d: DispatchRecord): void {
  engine.live(d.what);
  const device = engine.device;
  const max = engine.limits.maxComputeWorkgroupsPerDimension;
  if (d.workgroups.some((n) => n > max)) {
    throw new GkRuntimeError("GK8010", `${d.what}: a grid of [${d.workgroups.join(", ")}] blocks is more than this WebGPU device dispatches (${max} workgroups per dimension)`);
  }
  device.pushErrorScope("out-of-memory");
  device.pushErrorScope("validation");
  if (d.uniforms) device.queue.writeBuffer(d.uniforms.buffer, 0, d.uniforms.bytes.buffer, d.uniforms.bytes.byteOffset, d.uniforms.bytes.byteLength);
  const group = bindGroup(device, d.pipeline.layout, d.bindings);
  const enc = device.createCommandEncoder();
  const stamps = d.timing && device.features.has("timestamp-query") ? timestamps(device) : undefined;
  const pass = enc.beginComputePass(stamps ? { timestampWrites: { querySet: stamps.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
  pass.setPipeline(d.pipeline.pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1], d.workgroups[2]);
  pass.end();
  if (stamps) {
    enc.resolveQuerySet(stamps.querySet, 0, 2, stamps.resolved, 0);
    enc.copyBufferToBuffer(stamps.resolved, 0, stamps.read, 0, 16);
  }
  const t0 = performance.now();
  device.queue.submit([enc.finish()]);
  const invalid = device.popErrorScope();
  const oom = device.popErrorScope();
  const wall = d.timing && !stamps ? device.queue.onSubmittedWorkDone().then(() => performance.now() - t0) : undefined;
  engine.expect(async () => {
    const [v, o] = await Promise.all([invalid, oom]);
    if (o) throw new GkRuntimeError("GK8018", `${d.what} failed: out of GPU memory (${firstLine(o.message)})`);
    if (v) throw new GkRuntimeError("GK8021", `${d.what} failed: the WebGPU device refused it: ${firstLine(v.message)}`);
    if (d.after) await d.after();
    if (stamps) d.timing!(await stamps.ms());
    else if (wall) d.timing!(await wall);
  });
}

/**
 * A launch's kernel time from the GPU's timestamps at the start and end of its pass (the
 * `timestamp-query` feature, which gk asks for where the adapter has it), in ms; without the
 * feature the time from submit to done stands in. Browsers may round timestamps (to 100 µs).
 */
function timestamps(device: GPUDevice): { querySet: GPUQuerySet; resolved: GPUBuffer; read: GPUBuffer; ms: () => Promise<number> } {
  const querySet = device.createQuerySet({ type: "timestamp", count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const ms = async () => {
    try {
      await read.mapAsync(GPUMapMode.READ);
      const [begin, end] = new BigUint64Array(read.getMappedRange());
      read.unmap();
      return end! >= begin! ? Number(end! - begin!) / 1e6 : 0;
    } finally {
      querySet.destroy();
      resolved.destroy();
      read.destroy();
    }
  };
  return { querySet, resolved, read, ms };
}

/** Bind groups by layout and buffers: a launch of the same kernel on the same arrays makes none (it cost more than the rest of a launch's WebGPU calls). */
const groups = new WeakMap<GPUBindGroupLayout, Map<string, GPUBindGroup>>();
/** Ids of buffers, for the bind groups' keys (a buffer's id is never given to another). */
const bufferIds = new WeakMap<GPUBuffer, number>();
let nextBufferId = 1;
/** Bind groups kept per layout; past it the oldest goes (a kept group keeps its buffers alive). */
const GROUPS_PER_LAYOUT = 16;

function bindGroup(device: GPUDevice, layout: GPUBindGroupLayout, bindings: readonly BufferBinding[]): GPUBindGroup {
  let byKey = groups.get(layout);
  if (byKey === undefined) groups.set(layout, (byKey = new Map()));
  let key = "";
  for (const b of bindings) {
    let id = bufferIds.get(b.buffer);
    if (id === undefined) bufferIds.set(b.buffer, (id = nextBufferId++));
    key += `${b.binding}:${id},`;
  }
  const known = byKey.get(key);
  if (known) return known;
  const group = device.createBindGroup({ layout, entries: bindings.map((b) => ({ binding: b.binding, resource: { buffer: b.buffer } })) });
  if (byKey.size >= GROUPS_PER_LAYOUT) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, group);
  return group;
}

function firstLine(s: string): string {
  return s.split("\n").find((l) => l.trim() !== "")?.trim() ?? s;
}

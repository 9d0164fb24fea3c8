/// <reference types="@webgpu/types" />
/**
 * A launch on a WebGPU device, its arguments already checked (api.ts), as device/launching.ts
 * hands it over: the module's WGSL (legalized for the WGSL target and generated once per
 * module, src/codegen/wgsl), the kernel's pipeline for the launch's block size and dynamic
 * shared lengths, its value parameters as the bytes of its uniform block, each global
 * parameter's storage buffer (a GPU array's own, or one made for a host TypedArray and read
 * back after), the constant arrays it reads, and a dispatch of the grid. The bindings and the
 * uniform slots are the code generator's descriptor's (src/codegen/wgsl/layout.ts).
 *
 * Given only GPU arrays, the launch is submitted and the call returns (a promise only while
 * the module's WGSL or the kernel's pipeline is first made); its failure surfaces at the next
 * wait. Given a host TypedArray, the call waits for the kernel and copies results back.
 */
import type { Value } from "../../ir/composite.js";
import { leafValues } from "../../ir/composite.js";
import type { Dim3 } from "../../ir/limits.js";
import type { Function } from "../../ir/nodes.js";
import { legalize } from "../../ir/passes/legalize.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { invariant } from "../../util.js";
import type { WgslKernel, WgslOutput, UniformScalar } from "../../codegen/wgsl/layout.js";
import { WGSL_TARGET } from "../../codegen/wgsl/target.js";
import { GkRuntimeError } from "../errors.js";
import { launchPlan } from "../launchPlan.js";
import type { GpuDevice, GpuQueue } from "../device/device.js";
import type { ArrayStore } from "../device/gpuArray.js";
import type { DeviceModule, LaunchExtras, RunConfig, RunValue } from "../device/launching.js";
import type { Memory } from "../device/engine.js";
import { align4, type WebGpuEngine } from "./engine.js";
import { dispatch, type BufferBinding } from "./dispatch.js";
import { PipelineCache, type Pipeline, type ShaderSource } from "./pipelines.js";

/** What a device keeps for its WebGPU launches: pipelines, and per kernel its uniform and constant buffers. */
interface DeviceState {
  readonly pipelines: PipelineCache;
  readonly buffers: Map<WgslKernel, KernelBuffers>;
}

interface KernelBuffers {
  readonly uniform: GPUBuffer | undefined;
  readonly constants: readonly GPUBuffer[];
}

/** A kernel ready to dispatch: its descriptor and shader; its pipelines by device and launch shape once made. */
interface ReadyKernel {
  readonly layout: WgslKernel;
  readonly source: ShaderSource;
  readonly pipelines: WeakMap<WebGpuEngine, Map<string, Pipeline>>;
}

const states = new WeakMap<WebGpuEngine, DeviceState>();
/** A module's WGSL, generated once (legalized first: GkCompileError for what WGSL lacks). */
const outputs = new WeakMap<DeviceModule, Promise<WgslOutput>>();
/** A module's kernels, ready, by IR kernel name. */
const readyKernels = new WeakMap<DeviceModule, Map<string, ReadyKernel>>();

function stateOf(engine: WebGpuEngine): DeviceState {
  let s = states.get(engine);
  if (s === undefined) states.set(engine, (s = { pipelines: new PipelineCache(engine.device), buffers: new Map() }));
  return s;
}

/** The module's WGSL: legalized for WGSL (refusals as a GkCompileError, located) and generated, once. */
export function wgslOf(mod: DeviceModule): Promise<WgslOutput> {
  let p = outputs.get(mod);
  if (p === undefined) {
    p = (async () => {
      const refused = legalize(mod.ir, WGSL_TARGET);
      if (refused.length > 0) {
        const { GkCompileError } = await import("../api.js");
        throw new GkCompileError(refused, mod.sources);
      }
      const { emitWgsl } = await import("../../codegen/wgsl/index.js");
      return emitWgsl(mod.ir);
    })();
    outputs.set(mod, p);
  }
  return p;
}

/** Launches `fn` on a WebGPU device (see the header); undefined when submitted at once. */
export function launchWebGpu(
  device: GpuDevice,
  engine: WebGpuEngine,
  mod: DeviceModule,
  fn: Function,
  grid: Dim3,
  block: Dim3,
  values: readonly RunValue[],
  stores: readonly (ArrayStore | undefined)[],
  host: boolean,
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
): Promise<void> | undefined {
  const k = readyKernels.get(mod)?.get(fn.name);
  const shape = `${block.join(",")};${extras.sharedLengths.join(",")}`;
  const pipeline = k?.pipelines.get(engine)?.get(shape);
  if (k === undefined || pipeline === undefined || host) return launchLater(device, engine, mod, fn, grid, block, values, stores, host, queue, config, extras, shape);
  submit(device, engine, k, pipeline, fn, grid, values, stores, queue, config, extras);
  return undefined;
}

async function launchLater(
  device: GpuDevice,
  engine: WebGpuEngine,
  mod: DeviceModule,
  fn: Function,
  grid: Dim3,
  block: Dim3,
  values: readonly RunValue[],
  stores: readonly (ArrayStore | undefined)[],
  host: boolean,
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
  shape: string,
): Promise<void> {
  const k = await readyKernel(mod, fn);
  let shapes = k.pipelines.get(engine);
  if (shapes === undefined) k.pipelines.set(engine, (shapes = new Map()));
  let pipeline = shapes.get(shape);
  if (pipeline === undefined) {
    checkShape(engine, k.layout, fn.name, block, extras.sharedLengths);
    const constants: Record<string, number> = { [k.layout.workgroupSize.x]: block[0], [k.layout.workgroupSize.y]: block[1], [k.layout.workgroupSize.z]: block[2] };
    k.layout.dynamicShared.forEach((d, i) => (constants[d.override] = extras.sharedLengths[i]!));
    pipeline = await stateOf(engine).pipelines.pipeline(k.source, constants);
    shapes.set(shape, pipeline);
  }
  if (!host) {
    submit(device, engine, k, pipeline, fn, grid, values, stores, queue, config, extras);
    return;
  }
  // Host arrays: a buffer each for the launch, read back where the kernel may write it.
  const temps: { readonly index: number; readonly mem: Memory; readonly data: AnyTypedArray }[] = [];
  try {
    const own = [...stores];
    const plan = launchPlan(mod.ir, fn);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (own[i] !== undefined || !ArrayBuffer.isView(v) || plan.params[i]!.scalar !== undefined || fn.params[i]!.kind !== "arrayVar") continue;
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      const mem = await engine.alloc(Math.max(bytes.byteLength, elemBytesOf(k.layout, fn.params[i]!.name)));
      temps.push({ index: i, mem, data: v as AnyTypedArray });
      own[i] = { kind: "device", mem };
      await engine.write(mem, 0, bytes);
    }
    submit(device, engine, k, pipeline, fn, grid, values, own, queue, config, extras);
    await engine.settle();
    for (const t of temps) {
      if (!plan.params[t.index]!.written) continue;
      await engine.read(t.mem, 0, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    }
  } catch (e) {
    throw device.note(e);
  } finally {
    for (const t of temps) engine.free(t.mem);
  }
}

/** The kernel's descriptor and shader, made once per module. */
async function readyKernel(mod: DeviceModule, fn: Function): Promise<ReadyKernel> {
  let byName = readyKernels.get(mod);
  if (byName === undefined) readyKernels.set(mod, (byName = new Map()));
  const known = byName.get(fn.name);
  if (known) return known;
  const out = await wgslOf(mod);
  const layout = out.kernels.get(fn.name);
  invariant(layout, `no WGSL entry point for kernel ${fn.name}`);
  const bindings: ShaderSource["bindings"][number][] = [];
  if (layout.uniform) bindings.push({ binding: layout.uniform.binding, kind: "uniform" });
  for (const p of layout.params) if (p.kind === "buffer") bindings.push({ binding: p.binding, kind: p.access === "read" ? "read-only-storage" : "storage" });
  for (const c of layout.constants) bindings.push({ binding: c.binding, kind: "read-only-storage" });
  const k: ReadyKernel = { layout, source: { kernel: fn.name, code: out.source, entryPoint: layout.entryPoint, bindings }, pipelines: new WeakMap() };
  byName.set(fn.name, k);
  return k;
}

function elemBytesOf(layout: WgslKernel, name: string): number {
  const p = layout.params.find((x) => x.name === name);
  return p?.kind === "buffer" ? p.elemBytes : 4;
}

/** GK8010 where the block or its workgroup memory is more than the device runs. */
function checkShape(engine: WebGpuEngine, layout: WgslKernel, kernel: string, block: Dim3, sharedLengths: readonly number[]): void {
  const l = engine.limits;
  const threads = block[0] * block[1] * block[2];
  const axes = [l.maxComputeWorkgroupSizeX, l.maxComputeWorkgroupSizeY, l.maxComputeWorkgroupSizeZ];
  const axis = block.findIndex((n, i) => n > axes[i]!);
  if (axis >= 0) throw new GkRuntimeError("GK8010", `${kernel}: block size ${"xyz"[axis]} ${block[axis]} is more than this WebGPU device runs (${axes[axis]}, maxComputeWorkgroupSize${"XYZ"[axis]})`);
  if (threads > l.maxComputeInvocationsPerWorkgroup) {
    throw new GkRuntimeError("GK8010", `${kernel}: a block of ${threads} threads ([${block.join(", ")}]) is more than this WebGPU device runs (${l.maxComputeInvocationsPerWorkgroup}, maxComputeInvocationsPerWorkgroup)`);
  }
  const bytes = layout.staticWorkgroupBytes + layout.dynamicShared.reduce((sum, d, i) => sum + align16(d.elemBytes * sharedLengths[i]!), 0);
  if (bytes > l.maxComputeWorkgroupStorageSize) {
    throw new GkRuntimeError("GK8010", `${kernel}: its shared memory takes ${bytes} bytes, more than this WebGPU device gives a workgroup (${l.maxComputeWorkgroupStorageSize}, maxComputeWorkgroupStorageSize)`);
  }
}

const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** Binds, writes the uniform block and the constants, and dispatches. */
function submit(
  device: GpuDevice,
  engine: WebGpuEngine,
  k: ReadyKernel,
  pipeline: Pipeline,
  fn: Function,
  grid: Dim3,
  values: readonly RunValue[],
  stores: readonly (ArrayStore | undefined)[],
  queue: GpuQueue,
  config: RunConfig,
  extras: LaunchExtras,
): void {
  const layout = k.layout;
  const state = stateOf(engine);
  let own = state.buffers.get(layout);
  if (own === undefined) {
    own = {
      uniform: layout.uniform ? engine.device.createBuffer({ size: layout.uniform.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: `${fn.name} uniforms` }) : undefined,
      constants: layout.constants.map((c) => engine.device.createBuffer({ size: Math.max(4, align4(c.bytes)), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST, label: c.name })),
    };
    state.buffers.set(layout, own);
  }
  const seq = queue.nextSeq++;
  const what = `launch ${seq} of kernel '${fn.name}'${queue.id === 0 ? "" : ` on queue ${queue.id}`}`;
  const bindings: BufferBinding[] = [];
  let uniforms: { buffer: GPUBuffer; bytes: Uint8Array } | undefined;
  if (layout.uniform) {
    const bytes = new Uint8Array(layout.uniform.bytes);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < layout.params.length; i++) {
      const p = layout.params[i]!;
      if (p.kind !== "value") continue;
      const leaves = p.type.kind === "scalar" ? [values[i] as Value] : leafValues(p.type, values[i] as Value);
      p.leaves.forEach((leaf, j) => writeSlot(view, leaf.offset, leaf.scalar, leaves[j]!));
    }
    uniforms = { buffer: own.uniform!, bytes };
    bindings.push({ binding: layout.uniform.binding, buffer: own.uniform! });
  }
  const maxBinding = engine.limits.maxStorageBufferBindingSize;
  for (let i = 0; i < layout.params.length; i++) {
    const p = layout.params[i]!;
    if (p.kind !== "buffer") continue;
    const s = stores[i];
    invariant(s !== undefined && s.kind === "device", `no WebGPU buffer for argument '${p.name}'`);
    const buffer = engine.buffer(s.mem, `argument '${p.name}' of ${what}`);
    if (buffer.size > maxBinding) throw new GkRuntimeError("GK8010", `${what}: argument '${p.name}' has ${s.mem.bytes} bytes, more than this WebGPU device binds (${maxBinding}, maxStorageBufferBindingSize)`);
    bindings.push({ binding: p.binding, buffer });
  }
  layout.constants.forEach((c, i) => {
    const data = extras.constants[i];
    invariant(data !== undefined, `no contents for the constant array ${c.name}`);
    const padded = data.byteLength % 4 === 0 ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : padTo4(data);
    engine.device.queue.writeBuffer(own.constants[i]!, 0, padded.buffer, padded.byteOffset, padded.byteLength);
    bindings.push({ binding: c.binding, buffer: own.constants[i]! });
  });
  try {
    dispatch(engine, { pipeline, bindings, workgroups: grid, uniforms, what, timing: config.kernelTime });
  } catch (e) {
    throw device.note(e);
  }
}

function padTo4(data: AnyTypedArray): Uint8Array {
  const out = new Uint8Array(align4(data.byteLength));
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return out;
}

function writeSlot(view: DataView, offset: number, scalar: UniformScalar, v: Value): void {
  switch (scalar) {
    case "i32":
      view.setInt32(offset, Number(v), true);
      return;
    case "u32":
      view.setUint32(offset, Number(v) >>> 0, true);
      return;
    case "f32":
      view.setFloat32(offset, Number(v), true);
      return;
    case "bool":
      view.setUint32(offset, v ? 1 : 0, true);
      return;
  }
}

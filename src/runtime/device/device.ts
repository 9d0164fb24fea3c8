/// <reference types="@webgpu/types" />
/**
 * A device: a GPU (driven in-process by the addon, or by a gpu_launcher process) or the CPU
 * simulator standing in for one, with the same API either way (spec/runtime-api.md):
 *
 *   const gpu = await openDevice();                   // a GPU when one is usable, else the simulator
 *   const x = await gpu.array(Float32Array.from([1, 2, 3]), { label: "x" });
 *   const out = await gpu.zeros("f32", 3);
 *   const mod = await gpu.compile("saxpy.gk");
 *   await mod.saxpy({ grid: 1, block: 256 }, { n: 3, alpha: 2, x, y: x2, out });   // queued
 *   console.log(await out.read());                     // waits for the launch that writes it
 *
 * Arrays and queues belong to the device; modules compiled for it share them. The launching
 * itself is in launching.ts.
 */
import { freemem, totalmem } from "node:os";
import { CUDA_TARGET, cudaTargetFor } from "../../codegen/cuda/target.js";
import type { Target } from "../../ir/target.js";
import type { ScalarName } from "../../ir/types.js";
import { elemNote, holdsElem, TYPED_ARRAY, typedArrayName, type AnyTypedArray, type ElemOfTypedArray, type TypedArrayFor } from "../../ir/values.js";
import { GkRuntimeError } from "../errors.js";
import { invariant } from "../../util.js";
import type { DeviceInfo, LauncherOptions } from "../launcher/types.js";
import type { SimOptions } from "../sim/index.js";
import type { Engine, Isolation } from "./engine.js";
import type { WebGpuEngine } from "../webgpu/engine.js";
import type { WebGpuOptions } from "../webgpu/open.js";
import { describeValue, GpuArray, type ArrayOptions, type ArrayStore } from "./gpuArray.js";
import { ELEM_TYPES_TEXT, layoutOf, type ArrayElem, type ElemName, type LanesOf, type Layout, type VectorName } from "./arrayElems.js";

/** Where kernels run: a GPU when one and nvcc are usable, else the simulator (auto); a GPU or an error (cuda); the simulator (cpu); a WebGPU device (webgpu: navigator.gpu, or Dawn's Node binding, the optional `webgpu` package). */
export type DeviceChoice = "auto" | "cuda" | "cpu" | "webgpu";

export function isDeviceChoice(s: string): s is DeviceChoice {
  return s === "auto" || s === "cuda" || s === "cpu" || s === "webgpu";
}

/** What a GPU array's memory asks of an engine: a CUDA engine's, or a WebGPU device's (src/runtime/webgpu). */
type ArrayEngine = Pick<Engine, "generation" | "lossReason" | "alloc" | "free" | "read" | "write">;

export interface DeviceOptions {
  /**
   * auto (default): a GPU when one and nvcc are usable, else the simulator; cuda: a GPU or an
   * error; cpu: the simulator; webgpu: a WebGPU device or an error; or a `GPUDevice` the
   * program has (a page's, or Dawn's), which gk uses and leaves open at close().
   */
  readonly device?: DeviceChoice | GPUDevice;
  /** How a WebGPU device is asked for (device webgpu). */
  readonly webgpu?: WebGpuOptions;
  /** GPU index (default 0). */
  readonly gpu?: number;
  /**
   * How the GPU is driven: "in-process" (the default where the addon is built: fastest) or
   * "process" (a gpu_launcher process: a kernel that never ends is stopped by a timeout).
   * Default: $GK_ISOLATION, else in-process where the addon is built, else process.
   */
  readonly isolation?: Isolation;
  /** Simulator options, for the CPU. */
  readonly sim?: SimOptions;
  /** The launcher's options, for isolation "process". */
  readonly launcher?: LauncherOptions;
}

export interface SyncOptions {
  /**
   * Give up after this many milliseconds (GK8012). In process mode the launcher is ended,
   * which stops the kernel; in-process a kernel cannot be stopped: the wait ends, the kernel
   * runs on, and the GPU cannot be used again by this process.
   */
  readonly timeoutMs?: number;
}

/** A queue of launches (a CUDA stream). Launches on one queue run in order; between queues, ordering is the caller's (sync one before using its results on another). */
export class GpuQueue {
  /** @internal */ nextSeq = 1;
  /** @internal The engine's queue and the generation it belongs to. */
  engineQueue: { readonly id: number; readonly generation: number } | undefined;
  /** @internal Kernel-time callbacks of queued timed launches, by launch number. */
  readonly timings = new Map<number, (ms: number) => void>();
  /** @internal Simulator: the failure of a queued launch, reported by the next wait. */
  failure: unknown;
  /** @internal Simulator: kernel times to deliver at the next wait. */
  simTimes: (() => void)[] = [];

  /** @internal */
  constructor(
    readonly device: GpuDevice,
    /** 0 for the device's default queue. */
    readonly id: number,
  ) {}

  /** Waits for every launch queued on this queue; throws what one of them failed with (naming the kernel and the launch). */
  sync(opts: SyncOptions = {}): Promise<void> {
    return this.device.syncQueue(this, opts);
  }
}

/**
 * A device: a GPU, or the simulator (openDevice). It is its arrays' ArrayOwner (gpuArray.ts;
 * `new GpuArray(this, ...)` checks it) without saying so, so that its members for arrays,
 * internal to gk, stay out of the published declarations (tsconfig.build.json strips them).
 */
export class GpuDevice {
  /** The queue launches go to unless they name another. */
  readonly defaultQueue: GpuQueue;
  /** @internal */ readonly queues: GpuQueue[] = [];
  private closed = false;
  private lossReason: string | undefined;

  /** @internal */
  constructor(
    /** "cuda" (a GPU), "cpu" (the simulator) or "webgpu" (a WebGPU device). */
    readonly kind: "cuda" | "cpu" | "webgpu",
    /** @internal */ readonly engine: Engine | undefined,
    /** Why `auto` did not pick a GPU, for the simulator. */
    readonly reason: string | undefined,
    /** @internal */ readonly simOptions: SimOptions | undefined,
    /**
     * @internal What the device's code generator says of it (src/ir/target.ts): the API's and
     * the simulator's launch checks read its limits. A GPU's is CUDA's for its arch; the
     * simulator stands in for a CUDA GPU, so its target is CUDA's too.
     */
    readonly target: Target,
    /** @internal A WebGPU device's engine (src/runtime/webgpu). */
    readonly webgpu?: WebGpuEngine,
  ) {
    this.defaultQueue = new GpuQueue(this, 0);
    this.queues.push(this.defaultQueue);
  }

  /** "in-process" or "process" for a GPU, "simulator" for the CPU, "webgpu" for a WebGPU device. */
  get isolation(): Isolation | "simulator" | "webgpu" {
    return this.webgpu ? "webgpu" : (this.engine?.isolation ?? "simulator");
  }

  /** The engine of the device's memory: a GPU's or a WebGPU device's; undefined on the simulator. */
  private get arrays(): ArrayEngine | undefined {
    return this.engine ?? this.webgpu;
  }

  /** The GPU's description (undefined on the simulator). */
  get info(): DeviceInfo | undefined {
    return this.engine?.info;
  }

  /** `GPU 0 (NVIDIA H100 80GB HBM3, in-process)`, `WebGPU (SwiftShader driver 5.0.0 (google, swiftshader))`, or `the CPU simulator`. */
  get name(): string {
    if (this.webgpu) return `WebGPU (${this.webgpu.name})`;
    const i = this.engine?.info;
    return i ? `GPU ${i.index} (${i.name}, ${this.isolation})` : "the CPU simulator";
  }

  /** @internal Throws when the device was closed; the CUDA engine (undefined on the simulator and on WebGPU). */
  open(use: string): Engine | undefined {
    if (this.closed) throw new GkRuntimeError("GK8017", `${this.name} was closed (${use}); open a device again`);
    return this.engine;
  }

  /** @internal Throws when the device was closed; the engine of its memory. */
  private openArrays(use: string): ArrayEngine | undefined {
    this.open(use);
    return this.arrays;
  }

  /** @internal Remembers why a context was lost, for the errors of arrays made before. */
  note(e: unknown): unknown {
    if (e instanceof GkRuntimeError && e.contextLost) this.lossReason = e.cudaError ?? e.launcher?.code ?? e.code;
    return e;
  }

  /**
   * A GPU array holding a copy of `data`, its element type `opts.elem` or the TypedArray's
   * (a Uint8Array is bool, a Uint16Array u16: say u8, f16 or bf16 in `opts.elem`). Typed
   * alike: `array(new Float32Array(n))` is a `GpuArray<"f32">`, `array(bits, { elem: "f16" })`
   * a `GpuArray<"f16">`; `array<"f32">(data)` names the type. A vector type in `opts.elem`
   * takes the TypedArray of its lanes, a whole number of vectors (`array(lanes, { elem:
   * "f32x4" })`: a `GpuArray<"f32x4">` of lanes.length / 4 vectors, 4 lanes for an f32x3 too).
   */
  array<A extends AnyTypedArray>(data: A, opts?: ArrayOptions & { readonly elem?: undefined }): Promise<GpuArray<ElemOfTypedArray<A>>>;
  array<E extends ElemName>(data: TypedArrayFor<E>, opts?: ArrayOptions & { readonly elem?: E }): Promise<GpuArray<E>>;
  array<V extends VectorName>(data: LanesOf<V>, opts: Omit<ArrayOptions, "elem"> & { readonly elem: V }): Promise<GpuArray<V>>;
  async array<E extends ElemName | VectorName>(data: AnyTypedArray, opts: Omit<ArrayOptions, "elem"> & { readonly elem?: E } = {}): Promise<GpuArray<E>> {
    const l = opts.elem === undefined ? undefined : layoutOf(opts.elem);
    if (opts.elem !== undefined && !(l !== undefined && l.type.kind !== "struct" && holdsElem(data, l.lane) && data.length % l.per === 0)) {
      const want = l === undefined || l.type.kind === "struct" ? "a TypedArray" : l.per === 1 ? `a ${typedArrayName(l.lane)}${elemNote(l.lane)}` : `a ${typedArrayName(l.lane)} of ${l.per}·n lanes`;
      throw new GkRuntimeError("GK8005", `array(data, { elem: ${JSON.stringify(opts.elem)} }) takes ${want}, got ${describeValue(data)}`);
    }
    const elem = opts.elem ?? elemOf(data);
    if (elem === undefined) throw new GkRuntimeError("GK8005", `array() takes a TypedArray (Float32Array, Int32Array, ...), got ${describeValue(data)}`);
    const a = await this.zeros(elem as E, data.length / (l?.per ?? 1), { ...(opts.label !== undefined && { label: opts.label }) });
    try {
      await (a as GpuArray<ElemName>).write(data as TypedArrayFor<ElemName>);
    } catch (e) {
      a.free();
      throw e;
    }
    return a;
  }

  /**
   * A GPU array of `length` zeros of element type `elem`: a scalar type ("f32", "i32", ...), a
   * vector type ("f32x4", "i32x2", ...: a `GpuArray<"f32x4">`) or a struct type
   * (`mod.structs.Particle`: its elements read back as objects).
   */
  async zeros<E extends ArrayElem>(elem: E, length: number, opts: ArrayOptions = {}): Promise<GpuArray<E>> {
    const l = checkShape("zeros()", elem, length);
    const engine = this.openArrays("zeros()");
    const label = opts.label;
    const what = () => (label !== undefined ? `GPU array '${label}' (${l.name}[${length}])` : `a GPU array (${l.name}[${length}])`);
    const bytes = length * l.size;
    if (engine === undefined) {
      const data = hostMemory(l.lane, length * l.per);
      if (data === undefined) throw new GkRuntimeError("GK8018", `${what()}: the CPU simulator cannot allocate ${bytes} bytes`);
      return new GpuArray<E>(this, elem, length, { kind: "host", data }, label);
    }
    try {
      const mem = await engine.alloc(bytes);
      return new GpuArray<E>(this, elem, length, { kind: "device", mem }, label);
    } catch (e) {
      this.note(e);
      if (e instanceof GkRuntimeError && e.code === "GK8018") throw new GkRuntimeError("GK8018", `${what()}: ${e.diagnostic.message}`, e.launcher ? { launcher: e.launcher } : {});
      throw e;
    }
  }

  /**
   * A TypedArray for fast copies to and from the GPU: in page-locked memory where the device
   * can make it (in-process), else an ordinary TypedArray.
   */
  hostArray<E extends ElemName>(elem: E, length: number): TypedArrayFor<E> {
    if (typeof elem !== "string" || !Object.hasOwn(TYPED_ARRAY, elem)) throw new GkRuntimeError("GK8005", `hostArray() takes an element type (${Object.keys(TYPED_ARRAY).join(", ")}), got ${describeValue(elem)}`);
    checkShape("hostArray()", elem, length);
    const Ctor = TYPED_ARRAY[elem];
    const buffer = this.open("hostArray()")?.hostBuffer(length * Ctor.BYTES_PER_ELEMENT);
    if (buffer) return new Ctor(buffer, 0, length) as TypedArrayFor<E>;
    const data = hostMemory(elem, length);
    if (data === undefined) throw new GkRuntimeError("GK8005", `hostArray() cannot allocate ${length * Ctor.BYTES_PER_ELEMENT} bytes of host memory (${elem}[${length}])`);
    return data as TypedArrayFor<E>;
  }

  /** A new queue: its launches run in order, independently of other queues' (CUDA streams). */
  async queue(): Promise<GpuQueue> {
    this.open("queue()");
    const q = new GpuQueue(this, this.queues.length);
    this.queues.push(q);
    return q;
  }

  /** @internal The engine's id for queue `q` in the current generation, made when first needed. */
  async engineQueue(q: GpuQueue): Promise<number> {
    const engine = this.engine!;
    if (q.id === 0) return 0;
    if (q.engineQueue?.generation !== engine.generation) {
      const id = await engine.newQueue();
      q.engineQueue = { id, generation: engine.generation };
    }
    return q.engineQueue.id;
  }

  /** Waits for everything queued on every queue of the device; throws the first failure. */
  async sync(opts: SyncOptions = {}): Promise<void> {
    const engine = this.open("sync()");
    if (this.webgpu) return this.syncWebGpu();
    if (engine === undefined) {
      for (const q of this.queues) this.deliverSim(q);
      return;
    }
    let times;
    try {
      times = await engine.sync(undefined, opts.timeoutMs);
    } catch (e) {
      for (const q of this.queues) q.timings.clear();
      throw this.note(e);
    }
    this.deliver(times);
  }

  /** @internal */
  async syncQueue(q: GpuQueue, opts: SyncOptions): Promise<void> {
    const engine = this.open("sync()");
    if (this.webgpu) return this.syncWebGpu();
    if (engine === undefined) return this.deliverSim(q);
    const current = q.id === 0 || q.engineQueue?.generation === engine.generation;
    let times;
    try {
      times = current ? await engine.sync(q.id === 0 ? 0 : q.engineQueue?.id, opts.timeoutMs) : await engine.sync(undefined, opts.timeoutMs);
    } catch (e) {
      q.timings.clear();
      throw this.note(e);
    }
    this.deliver(times);
  }

  /** WebGPU has one queue: a wait on any queue is a wait for all (timeouts do not apply: a WebGPU device's own watchdog ends a kernel that hangs). */
  private async syncWebGpu(): Promise<void> {
    try {
      await this.webgpu!.settle();
    } catch (e) {
      throw this.note(e);
    }
  }

  private deliver(times: readonly (readonly [number, number, number])[]): void {
    for (const [engineQ, seq, ms] of times) {
      const q = engineQ === 0 ? this.defaultQueue : this.queues.find((x) => x.engineQueue?.id === engineQ && x.engineQueue.generation === this.engine!.generation);
      const cb = q?.timings.get(seq);
      if (cb) {
        q!.timings.delete(seq);
        cb(ms);
      }
    }
  }

  private deliverSim(q: GpuQueue): void {
    const calls = q.simTimes;
    q.simTimes = [];
    const failure = q.failure;
    q.failure = undefined;
    if (failure !== undefined) throw failure;
    for (const c of calls) c();
  }

  /** Free and total memory in bytes: the GPU's, or the host's on the simulator. */
  async memory(): Promise<{ readonly free: number; readonly total: number }> {
    const engine = this.open("memory()");
    if (this.webgpu) throw new GkRuntimeError("GK8005", `memory(): WebGPU does not tell how much memory ${this.name} has`);
    return engine ? engine.memory() : { free: freemem(), total: totalmem() };
  }

  /** Compiles a `.gk` file for this device (its kernels then share the device's arrays and queues). */
  async compile(file: string, opts: import("../api.js").ModuleOptions = {}): Promise<import("../api.js").LoadedModule> {
    const { compile } = await import("../api.js");
    return compile(file, { ...opts, device: this });
  }

  /** Compiles gk source text for this device. */
  async compileSource(source: string, opts: import("../api.js").ModuleOptions & { filename?: string } = {}): Promise<import("../api.js").LoadedModule> {
    const { compileSource } = await import("../api.js");
    return compileSource(source, { ...opts, device: this });
  }

  /** Ends the device: its arrays and queues can no longer be used (GK8017). A second close() does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engine?.close();
    await this.webgpu?.close();
  }

  // ------------------------------------------------------------ what arrays ask of their device

  /** @internal */
  lostWhy(a: GpuArray): string | undefined {
    if (this.closed) return `${this.name}, which it belongs to, was closed`;
    const s = a.store;
    const engine = this.arrays;
    if (s?.kind === "device" && engine && s.mem.generation !== engine.generation) {
      const why = this.lossReason ?? engine.lossReason;
      return `the GPU context it was made in was lost${why ? ` (${why})` : ""}`;
    }
    return undefined;
  }

  /** @internal */
  async readArray(a: GpuArray, into: Uint8Array, byteOffset: number): Promise<void> {
    const q = (a.lastQueue as GpuQueue | undefined) ?? this.defaultQueue;
    await this.syncQueue(q, {}); // the work that writes it, and its failure if it failed
    const s = a.live("read");
    if (s.kind === "host") {
      into.set(new Uint8Array(s.data.buffer, s.data.byteOffset + byteOffset, into.byteLength));
      return;
    }
    try {
      await this.arrays!.read(s.mem, byteOffset, into);
    } catch (e) {
      throw this.note(e);
    }
  }

  /** @internal */
  async writeArray(a: GpuArray, data: Uint8Array, byteOffset: number): Promise<void> {
    const s = a.live("write");
    if (s.kind === "host") {
      new Uint8Array(s.data.buffer, s.data.byteOffset + byteOffset, data.byteLength).set(data);
      return;
    }
    try {
      await this.arrays!.write(s.mem, byteOffset, data);
    } catch (e) {
      throw this.note(e);
    }
  }

  /** @internal Queued on queue 0, after every queue's earlier work (the simulator: at once, unless a failed launch there waits to be reported). */
  async fillArray(a: GpuArray, pattern: Uint8Array, byteOffset: number, count: number): Promise<void> {
    const s = a.live("fill");
    a.lastQueue = this.defaultQueue;
    if (s.kind === "host") {
      if (this.defaultQueue.failure !== undefined) return;
      const bytes = new Uint8Array(s.data.buffer, s.data.byteOffset + byteOffset, pattern.byteLength * count);
      bytes.set(pattern);
      for (let done = pattern.byteLength; done < bytes.byteLength; done *= 2) bytes.copyWithin(done, 0, Math.min(done, bytes.byteLength - done));
      return;
    }
    try {
      if (this.webgpu) {
        // WebGPU has no fill of a pattern: the bytes go from host memory (writeBuffer), queued as the launches are.
        const bytes = new Uint8Array(pattern.byteLength * count);
        bytes.set(pattern);
        for (let done = pattern.byteLength; done < bytes.byteLength; done *= 2) bytes.copyWithin(done, 0, Math.min(done, bytes.byteLength - done));
        return await this.webgpu.write(s.mem, byteOffset, bytes);
      }
      await this.engine!.fill(s.mem, byteOffset, pattern, count);
    } catch (e) {
      throw this.note(e);
    }
  }

  /** @internal Queued as fillArray is; `overlap`: through a temporary (memmove), as the driver's copy of overlapping ranges is undefined. */
  async copyArray(dst: GpuArray, dstOffset: number, src: GpuArray, srcOffset: number, bytes: number, overlap: boolean): Promise<void> {
    const d = dst.live("copyFrom");
    const s = src.live(() => `copyFrom() into ${dst.describe()}`);
    dst.lastQueue = this.defaultQueue;
    if (d.kind === "host" || s.kind === "host") {
      invariant(d.kind === "host" && s.kind === "host", "a copy between host and device stores");
      if (this.defaultQueue.failure !== undefined) return;
      // set() copies a source in the same buffer as if through a temporary: memmove.
      new Uint8Array(d.data.buffer, d.data.byteOffset + dstOffset, bytes).set(new Uint8Array(s.data.buffer, s.data.byteOffset + srcOffset, bytes));
      return;
    }
    if (this.webgpu) {
      // Through host memory (a copy of overlapping ranges too, as memmove): read, then write in queue order.
      try {
        const staged = new Uint8Array(bytes);
        await this.webgpu.read(s.mem, srcOffset, staged);
        dst.live("copyFrom");
        return await this.webgpu.write(d.mem, dstOffset, staged);
      } catch (e) {
        throw this.note(e);
      }
    }
    const engine = this.engine!;
    try {
      if (!overlap) return await engine.copy(d.mem, dstOffset, s.mem, srcOffset, bytes);
      const temp = await engine.alloc(bytes);
      try {
        // Freed while this waited (the temporary, the first copy): nothing may touch its memory now.
        dst.live("copyFrom");
        await engine.copy(temp, 0, s.mem, srcOffset, bytes);
        dst.live("copyFrom");
        await engine.copy(d.mem, dstOffset, temp, 0, bytes);
      } finally {
        engine.free(temp);
      }
    } catch (e) {
      throw this.note(e);
    }
  }

  /** @internal */
  viewStore(store: ArrayStore, byteOffset: number, bytes: number): ArrayStore {
    if (store.kind === "device") return { kind: "device", mem: { ...store.mem, bytes, offset: (store.mem.offset ?? 0) + byteOffset } };
    const size = store.data.BYTES_PER_ELEMENT;
    return { kind: "host", data: store.data.subarray(byteOffset / size, (byteOffset + bytes) / size) as typeof store.data };
  }

  /** @internal */
  freeStore(store: ArrayStore): void {
    const engine = this.arrays;
    if (store.kind === "device" && !this.closed && engine && store.mem.generation === engine.generation) engine.free(store.mem);
  }
}

function elemOf(data: unknown): ElemName | undefined {
  for (const [name, Ctor] of Object.entries(TYPED_ARRAY)) {
    if (data instanceof Ctor && data.constructor === Ctor) return name as ElemName;
  }
  return undefined;
}

/**
 * Opens a device: every caller's road to a GPU or the simulator (the API, `gkc run`, gk/testing).
 * `auto` (the default) takes a GPU when one and nvcc are usable, and the simulator otherwise
 * (`reason` says why); `cuda` throws GK8007 when no GPU can be used, saying why. Opening a GPU
 * is the probe: it finds nvcc, then opens the engine (in-process or a launcher process), which
 * finds the driver and the GPU or says why not. `webgpu` asks for a WebGPU device (GK8007 when
 * there is none, saying how to get one), and a `GPUDevice` is used as it is (src/runtime/webgpu).
 */
export async function openDevice(opts: DeviceOptions = {}): Promise<GpuDevice> {
  const choice = opts.device ?? "auto";
  if (choice === "cpu") return new GpuDevice("cpu", undefined, undefined, opts.sim, CUDA_TARGET);
  if (typeof choice === "object" || choice === "webgpu") {
    const [{ openWebGpu }, { wgslTargetFor }] = await Promise.all([import("../webgpu/device.js"), import("../../codegen/wgsl/target.js")]);
    const engine = await openWebGpu(choice, opts.webgpu);
    return new GpuDevice("webgpu", undefined, undefined, opts.sim, wgslTargetFor(engine.limits), engine);
  }
  if (!isDeviceChoice(choice)) throw new GkRuntimeError("GK8005", `openDevice(): device must be "auto", "cuda", "cpu", "webgpu" or a GPUDevice, got ${describeValue(choice)}`);
  const noGpu = (why: string): GpuDevice => {
    if (choice === "cuda") throw new GkRuntimeError("GK8007", `a GPU was asked for (device cuda), but none can be used: ${why}`);
    return new GpuDevice("cpu", undefined, why, opts.sim, CUDA_TARGET);
  };
  const { findNvcc } = await import("../../build/nvcc.js");
  try {
    findNvcc(process.env);
  } catch {
    return noGpu("nvcc (the CUDA compiler) was not found; install the CUDA toolkit or set GK_NVCC");
  }
  const gpu = opts.gpu ?? 0;
  const asked = opts.isolation ?? isolationFromEnv();
  let engine: Engine;
  try {
    engine = await openEngine(asked, gpu, opts.launcher);
  } catch (e) {
    if (e instanceof GkRuntimeError && e.code === "GK8007") return noGpu(e.diagnostic.message.replace(/^no usable GPU: /, ""));
    throw e;
  }
  const sm = /^sm_(\d+)/.exec(engine.info.arch);
  return new GpuDevice("cuda", engine, undefined, opts.sim, sm ? cudaTargetFor(Number(sm[1])) : CUDA_TARGET);
}

function isolationFromEnv(): Isolation | undefined {
  const v = process.env.GK_ISOLATION;
  if (v === undefined || v === "") return undefined;
  if (v === "in-process" || v === "process") return v;
  throw new GkRuntimeError("GK8005", `GK_ISOLATION must be "in-process" or "process", got ${JSON.stringify(v)}`);
}

async function openEngine(asked: Isolation | undefined, gpu: number, launcher: LauncherOptions | undefined): Promise<Engine> {
  await (await import("../nativeParts.js")).buildDeferredNativeParts();
  if (asked !== "process") {
    const { loadAddon } = await import("./addon.js");
    const a = loadAddon();
    if ("addon" in a) {
      const { InProcessEngine } = await import("./inProcess.js");
      return InProcessEngine.open(a.addon, gpu, launcher ?? {});
    }
    if (asked === "in-process") throw new GkRuntimeError("GK8007", `no usable GPU in-process: ${a.why}`);
    // Not built here: the launcher process serves instead.
  }
  const { ServeEngine } = await import("./serve.js");
  return ServeEngine.open(gpu, launcher ?? {});
}

/** The layout of `elem`, or GK8005 unless it is an element type (arrayElems.ts) and `length` a non-negative safe integer. */
function checkShape(what: string, elem: unknown, length: unknown): Layout {
  const l = layoutOf(elem);
  if (l === undefined) throw new GkRuntimeError("GK8005", `${what} takes an element type: ${ELEM_TYPES_TEXT}; got ${describeValue(elem)}`);
  if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) throw new GkRuntimeError("GK8005", `${what} takes a length that is a non-negative integer, got ${describeValue(length)}`);
  return l;
}

/** A zeroed TypedArray of `length` elements in the process's memory, or undefined where it cannot be had (a RangeError: beyond V8's limit or out of memory). */
function hostMemory(elem: ElemName, length: number): TypedArrayFor<ScalarName> | undefined {
  try {
    return new TYPED_ARRAY[elem](length) as TypedArrayFor<ScalarName>;
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

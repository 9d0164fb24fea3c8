/**
 * The process engine: the GPU driven by a `gpu_launcher --serve` process (LauncherSession),
 * which a kernel cannot take down with it and which survives a kernel that never ends: a
 * wait's timeout ends the process, and the next call starts a new one. Queued launches are
 * written to the server without waiting for their answers; an answer that reports a failure
 * is kept and thrown by the next wait. A generation is one server: when it ends after a lost
 * context, its memory and kernels are gone.
 */
import type { DeviceBuffer, ModuleHandle, QueuedLaunchOptions, SessionArg } from "../launcher/session.js";
import { LauncherSession } from "../launcher/session.js";
import type { GkRuntimeError } from "../errors.js";
import type { BufferArg } from "../launcher/session.js";
import type { DeviceInfo, KernelArg, LauncherOptions } from "../launcher/types.js";
import type { Engine, EngineArg, EngineKernel, EngineLaunch, LaunchTimes, Memory, QueuedLaunch } from "./engine.js";

interface ServeMemory extends Memory {
  readonly buffer: DeviceBuffer;
}

interface ServeKernel {
  readonly module: ModuleHandle;
  readonly path: string;
  readonly symbol: string;
}

export class ServeEngine implements Engine {
  readonly isolation = "process" as const;
  /** The first failure a queued launch's answer reported, by queue (-1: the context was lost). */
  private readonly failures = new Map<number, GkRuntimeError>();

  private constructor(
    private readonly session: LauncherSession,
    public info: DeviceInfo,
    /** Generations before this engine's first server (an in-process engine's, when this one takes over from it). */
    private readonly base: number,
  ) {}

  /** Starts a server for GPU `gpu`; throws GK8007 when there is no usable GPU. */
  static async open(gpu: number, opts: LauncherOptions = {}): Promise<ServeEngine> {
    const session = new LauncherSession({ ...opts, device: gpu });
    const info = await session.device();
    return new ServeEngine(session, info, 0);
  }

  /**
   * An engine for GPU `gpu`, already known to be usable (`info`), that takes over from
   * another whose generations end at `base`: its server starts with the first call.
   */
  static after(gpu: number, opts: LauncherOptions, info: DeviceInfo, base: number): ServeEngine {
    return new ServeEngine(new LauncherSession({ ...opts, device: gpu }), info, base);
  }

  get generation(): number {
    return this.base + (this.session.live ? this.session.generation : this.session.generation + 1);
  }

  private memOf(m: Memory): DeviceBuffer {
    return (m as ServeMemory).buffer;
  }

  async alloc(bytes: number): Promise<Memory> {
    const buffer = await this.session.alloc("bool", bytes);
    const mem: ServeMemory = { handle: buffer.id, bytes, generation: this.base + buffer.generation, buffer };
    return mem;
  }

  free(m: Memory): void {
    if (m.generation !== this.generation) return; // went with its server
    this.session.free(this.memOf(m)).catch((e: GkRuntimeError) => this.fail(-1, e));
  }

  // A buffer's elements are bytes (alloc's "bool"): offsets are in bytes, a view's from its buffer's start.
  async write(m: Memory, byteOffset: number, data: Uint8Array): Promise<void> {
    await this.session.write(this.memOf(m), data, (m.offset ?? 0) + byteOffset);
  }

  async read(m: Memory, byteOffset: number, into: Uint8Array): Promise<void> {
    await this.session.read(this.memOf(m), (m.offset ?? 0) + byteOffset, into.byteLength, into);
  }

  async fill(m: Memory, byteOffset: number, pattern: Uint8Array, count: number): Promise<void> {
    await this.session.fill(this.memOf(m), (m.offset ?? 0) + byteOffset, pattern, count);
  }

  async copy(dst: Memory, dstOffset: number, src: Memory, srcOffset: number, bytes: number): Promise<void> {
    await this.session.copy(this.memOf(dst), (dst.offset ?? 0) + dstOffset, this.memOf(src), (src.offset ?? 0) + srcOffset, bytes);
  }

  async kernel(module: string, symbol: string, name: string): Promise<EngineKernel> {
    const handle = await this.session.loadModule(module);
    return { handle: { module: handle, path: module, symbol } satisfies ServeKernel, name, generation: this.base + handle.generation };
  }

  private sessionArgs(args: readonly EngineArg[]): (SessionArg | KernelArg)[] {
    return args.map((a): SessionArg | KernelArg => {
      switch (a.kind) {
        case "scalar":
          return a;
        case "memory":
          return (a.mem.offset ? { kind: "buffer", buffer: this.memOf(a.mem), offset: a.mem.offset } : { kind: "buffer", buffer: this.memOf(a.mem) }) satisfies BufferArg;
        case "host":
          return { kind: "array", elem: a.elem, data: a.data, copyBack: a.copyBack };
      }
    });
  }

  private fail(queue: number, e: GkRuntimeError): void {
    const key = e.contextLost ? -1 : queue;
    if (!this.failures.has(key)) this.failures.set(key, e);
  }

  /** The failure kept for `queue` (any, when undefined), taken. */
  private takeFailure(queue: number | undefined): GkRuntimeError | undefined {
    for (const key of queue === undefined ? [-1, ...this.failures.keys()] : [-1, queue]) {
      const f = this.failures.get(key);
      if (f) {
        this.failures.delete(key);
        return f;
      }
    }
    return undefined;
  }

  launch(l: QueuedLaunch): void {
    const k = l.kernel.handle as ServeKernel;
    const queue = l.queue;
    const o: QueuedLaunchOptions = {
      module: k.module, kernel: k.symbol, grid: l.grid, block: l.block, args: this.sessionArgs(l.args) as SessionArg[], queue, seq: l.seq, name: l.kernel.name, timing: l.timing,
      ...(l.sharedBytes !== undefined && { sharedBytes: l.sharedBytes }), ...(l.constants !== undefined && { constants: l.constants }),
    };
    this.session.queueLaunch(o, (e) => {
      if (e) this.fail(queue, e);
    });
  }

  async run(launch: EngineLaunch, timeoutMs: number | undefined, _seq: number): Promise<number> {
    const k = launch.kernel.handle as ServeKernel;
    const r = await this.session.run({
      ...launch, module: k.path, kernel: k.symbol, args: this.sessionArgs(launch.args) as (KernelArg | BufferArg)[], copyBackInPlace: true,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    return r.timing.kernelMs;
  }

  async sync(queue: number | undefined, timeoutMs: number | undefined): Promise<LaunchTimes> {
    let times: LaunchTimes = [];
    let error: GkRuntimeError | undefined;
    try {
      times = await this.session.sync(queue, timeoutMs);
    } catch (e) {
      error = e as GkRuntimeError;
    }
    // A launch's own answer came before the sync's: its failure is the earlier one.
    const failed = this.takeFailure(queue) ?? error;
    if (failed) throw failed;
    return times;
  }

  async newQueue(): Promise<number> {
    return this.session.newQueue();
  }

  async memory(): Promise<{ free: number; total: number }> {
    return this.session.memory();
  }

  hostBuffer(): ArrayBuffer | undefined {
    return undefined;
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}

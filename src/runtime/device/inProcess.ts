/**
 * The engine of a device opened in-process: the addon (native.ts) drives the GPU from this
 * process until a kernel faults. CUDA cannot use a GPU again in a process after a sticky
 * error (driver 580 / CUDA 13: the primary context cannot even be retained again after a
 * reset), so from then on a `gpu_launcher --serve` process (serve.ts) drives it, for the rest
 * of this process's life: the fault is reported (naming the kernel and the launch), the
 * arrays made before are lost (a new generation), and the next launch works, in the launcher.
 *
 * A kernel that never ends is another matter: it still runs in this process, which can then
 * not use the GPU at all (native.ts says so in every later error); only ending the process
 * stops it.
 *
 * Devices opened on one GPU in-process share one engine (one CUDA context a process), so a
 * fault moves them all; a device opened in-process after one gets a launcher at once.
 */
import { GkRuntimeError } from "../errors.js";
import type { DeviceInfo, LauncherOptions } from "../launcher/types.js";
import type { Engine, EngineKernel, EngineLaunch, LaunchTimes, Memory, QueuedLaunch } from "./engine.js";
import type { Addon } from "./addon.js";
import { NativeEngine } from "./native.js";
import { ServeEngine } from "./serve.js";

const MOVED = 'in-process, CUDA cannot use the GPU again in this process after this error: the device goes on in a gpu_launcher process (isolation "process")';

/** The engines of GPUs opened in-process, by GPU index, with the number of devices using each. */
const shared = new Map<number, { engine: InProcessEngine; refs: number }>();
/** GPUs this process can no longer drive itself, and why (the CUDA error). */
const poisoned = new Map<number, { info: DeviceInfo; why: string }>();

export class InProcessEngine implements Engine {
  private native: NativeEngine | undefined;
  private serve: ServeEngine | undefined;
  /** A fault that a launch call found (its launch was not made): thrown by the next wait. */
  private failed: GkRuntimeError | undefined;
  /** The CUDA error that ended the in-process context, for the errors of arrays made in it. */
  lossReason: string | undefined;

  private constructor(
    private readonly gpu: number,
    private readonly launcher: LauncherOptions,
    native: NativeEngine | undefined,
    moved: { info: DeviceInfo; why: string } | undefined,
  ) {
    this.native = native;
    if (moved) this.takeOver(moved.info, moved.why);
  }

  /** Opens GPU `gpu` in-process (or, after a fault in this process, through a launcher); GK8007 when there is no usable GPU. */
  static open(addon: Addon, gpu: number, launcher: LauncherOptions): InProcessEngine {
    const known = shared.get(gpu);
    if (known) {
      known.refs++;
      return known.engine;
    }
    const moved = poisoned.get(gpu);
    const engine = new InProcessEngine(gpu, launcher, moved ? undefined : NativeEngine.open(addon, gpu), moved);
    shared.set(gpu, { engine, refs: 1 });
    return engine;
  }

  get isolation(): "in-process" | "process" {
    return this.serve ? "process" : "in-process";
  }

  get info(): DeviceInfo {
    return (this.serve ?? this.native!).info;
  }

  /** The in-process context is generation 1; the launcher's servers come after it. */
  get generation(): number {
    return this.serve ? this.serve.generation : 1;
  }

  /** After a fault in-process: a launcher process from now on, and the fault with a note that says so. */
  private moved(e: GkRuntimeError): GkRuntimeError {
    if (!e.contextLost || e.code === "GK8012" || this.serve) return e;
    const why = e.cudaError ?? e.launcher?.code ?? e.code;
    const info = this.native!.info;
    this.native!.abandon();
    this.takeOver(info, why);
    poisoned.set(this.gpu, { info, why });
    return new GkRuntimeError(e.code, e.diagnostic.message, { notes: [...e.diagnostic.notes, { message: MOVED }], contextLost: true, ...(e.launcher ? { launcher: e.launcher } : {}) });
  }

  private takeOver(info: DeviceInfo, why: string): void {
    this.native = undefined;
    this.serve = ServeEngine.after(this.gpu, this.launcher, info, 1);
    this.lossReason = why;
  }

  /** Runs `f` on the addon; a fault moves the engine to a launcher before it is thrown. */
  private async onAddon<T>(f: (n: NativeEngine) => Promise<T>): Promise<T> {
    try {
      return await f(this.native!);
    } catch (e) {
      throw e instanceof GkRuntimeError ? this.moved(e) : e;
    }
  }

  /** The fault a launch call found, taken: a wait reports it. */
  private takeFailed(): void {
    const f = this.failed;
    if (f) {
      this.failed = undefined;
      throw f;
    }
  }

  async alloc(bytes: number): Promise<Memory> {
    return this.serve ? this.serve.alloc(bytes) : this.onAddon((n) => n.alloc(bytes));
  }

  free(m: Memory): void {
    if (m.generation !== this.generation) return; // went with its context
    (this.serve ?? this.native!).free(m);
  }

  async write(m: Memory, byteOffset: number, data: Uint8Array): Promise<void> {
    this.takeFailed();
    return this.serve ? this.serve.write(m, byteOffset, data) : this.onAddon((n) => n.write(m, byteOffset, data));
  }

  async read(m: Memory, byteOffset: number, into: Uint8Array): Promise<void> {
    this.takeFailed();
    return this.serve ? this.serve.read(m, byteOffset, into) : this.onAddon((n) => n.read(m, byteOffset, into));
  }

  async fill(m: Memory, byteOffset: number, pattern: Uint8Array, count: number): Promise<void> {
    this.takeFailed();
    return this.serve ? this.serve.fill(m, byteOffset, pattern, count) : this.onAddon((n) => n.fill(m, byteOffset, pattern, count));
  }

  async copy(dst: Memory, dstOffset: number, src: Memory, srcOffset: number, bytes: number): Promise<void> {
    this.takeFailed();
    return this.serve ? this.serve.copy(dst, dstOffset, src, srcOffset, bytes) : this.onAddon((n) => n.copy(dst, dstOffset, src, srcOffset, bytes));
  }

  async kernel(module: string, symbol: string, name: string): Promise<EngineKernel> {
    return this.serve ? this.serve.kernel(module, symbol, name) : this.onAddon((n) => n.kernel(module, symbol, name));
  }

  launch(l: QueuedLaunch): void {
    if (this.serve) return this.serve.launch(l);
    try {
      this.native!.launch(l);
    } catch (e) {
      if (!(e instanceof GkRuntimeError) || !e.contextLost) throw e;
      // Queued work failed before this launch could be made: the next wait reports it.
      this.failed ??= this.moved(e);
    }
  }

  async run(launch: EngineLaunch, timeoutMs: number | undefined, seq: number): Promise<number> {
    this.takeFailed();
    return this.serve ? this.serve.run(launch, timeoutMs, seq) : this.onAddon((n) => n.run(launch, timeoutMs, seq));
  }

  async sync(queue: number | undefined, timeoutMs: number | undefined): Promise<LaunchTimes> {
    this.takeFailed();
    if (this.serve) return this.serve.sync(queue, timeoutMs);
    try {
      return await this.native!.sync(queue, timeoutMs); // onAddon's work, without a closure a wait
    } catch (e) {
      throw e instanceof GkRuntimeError ? this.moved(e) : e;
    }
  }

  async newQueue(): Promise<number> {
    return this.serve ? this.serve.newQueue() : this.onAddon((n) => n.newQueue());
  }

  async memory(): Promise<{ readonly free: number; readonly total: number }> {
    return this.serve ? this.serve.memory() : this.onAddon((n) => n.memory());
  }

  hostBuffer(bytes: number): ArrayBuffer | undefined {
    return this.serve ? undefined : this.native!.hostBuffer(bytes);
  }

  /** Closes the engine when the last device using it closes. */
  async close(): Promise<void> {
    const entry = shared.get(this.gpu);
    if (entry?.engine === this && --entry.refs > 0) return;
    shared.delete(this.gpu);
    await (this.serve ?? this.native!).close();
  }
}

/**
 * The in-process engine: the GPU driven from this Node process through the Node-API addon
 * (native/addon.cpp), with no process hop. Launches are queued with one call each; a wait
 * first polls the queue for a moment on this thread (a short kernel is done by then), then
 * goes on polling on a worker thread so Node goes on meanwhile.
 *
 * One context, for the engine's life: after a sticky error (a faulting kernel) CUDA cannot
 * use the GPU again in this process, and inProcess.ts moves the device to a launcher
 * process. A kernel that never ends cannot be stopped in-process: a wait's timeout gives up
 * on it (GK8012), and the GPU cannot be used again by this process (isolation "process"
 * ends such a kernel by ending the launcher).
 */
import { readFileSync } from "node:fs";
import { bf16Bits, f16Bits } from "../../ir/halves.js";
import type { ScalarName, ScalarValue } from "../../ir/types.js";
import { assertNever } from "../../util.js";
import { bytesOf } from "../launcher/codec.js";
import { GkRuntimeError } from "../errors.js";
import { fromLauncherError, launcherFailed, parseLauncherError } from "../launcher/errors.js";
import type { DeviceInfo } from "../launcher/types.js";
import type { Addon } from "./addon.js";
import type { Engine, EngineArg, EngineKernel, EngineLaunch, LaunchTimes, Memory, QueuedLaunch } from "./engine.js";

/** How long a wait polls on this thread (after a first query) before handing over to a worker thread: bounded, so a long kernel does not hold Node's thread. */
const SPIN_US = 100;
const HEADER = 48;
const NO_TIMES: LaunchTimes = Object.freeze([]);
const MAX_PARAMS = 1024;

/** A thrown addon error as a GkRuntimeError. */
function converted(e: unknown): GkRuntimeError {
  if (e instanceof GkRuntimeError) return e;
  const err = e as { code?: unknown; message?: unknown };
  if (err?.code === "GK_LAUNCHER" && typeof err.message === "string") {
    let info;
    try {
      info = parseLauncherError(JSON.parse(err.message));
    } catch {
      info = undefined;
    }
    if (info) return fromLauncherError(info);
  }
  return launcherFailed(`the in-process GPU path failed: ${err?.message !== undefined ? String(err.message) : String(e)}`);
}

/**
 * Writes one parameter's bytes at `at` (8 bytes a parameter; the driver takes its size's low
 * bytes). A value is of its type already (the API coerced it: f16 and bf16 rounded).
 */
function encodeScalar(view: DataView, at: number, type: ScalarName, v: ScalarValue): void {
  switch (type) {
    case "bool":
      view.setUint8(at, v ? 1 : 0);
      return;
    case "i8":
      view.setInt8(at, Number(v));
      return;
    case "u8":
      view.setUint8(at, Number(v));
      return;
    case "i16":
      view.setInt16(at, Number(v), true);
      return;
    case "u16":
      view.setUint16(at, Number(v), true);
      return;
    case "f16":
      view.setUint16(at, f16Bits(Number(v)), true);
      return;
    case "bf16":
      view.setUint16(at, bf16Bits(Number(v)), true);
      return;
    case "i32":
      view.setInt32(at, Number(v), true);
      return;
    case "u32":
      view.setUint32(at, Number(v), true);
      return;
    case "i64":
      view.setBigInt64(at, BigInt(v), true);
      return;
    case "u64":
      view.setBigUint64(at, BigInt(v), true);
      return;
    case "f32":
      view.setFloat32(at, Number(v), true);
      return;
    case "f64":
      view.setFloat64(at, Number(v), true);
      return;
    default:
      assertNever(type, "scalar type");
  }
}

export class NativeEngine implements Engine {
  readonly isolation = "in-process" as const;
  readonly generation = 1;
  private dead: GkRuntimeError | undefined;
  private failed: GkRuntimeError | undefined;
  private readonly modules = new Map<string, number>();
  private readonly kernels = new Map<string, EngineKernel>();
  private readonly block = new ArrayBuffer(HEADER + 8 * MAX_PARAMS);
  private readonly words = new Uint32Array(this.block, 0, HEADER / 4);
  private readonly view = new DataView(this.block);
  private readonly bytes = new Uint8Array(this.block);
  private times: (readonly [number, number, number])[] = [];
  /** Allocations a read or write waits to copy, by handle, with how many; and those freed meanwhile. */
  private readonly copying = new Map<number, number>();
  private readonly freeAfterCopy = new Set<number>();

  private constructor(
    private readonly addon: Addon,
    private readonly gpu: number,
    readonly info: DeviceInfo,
  ) {}

  /** Opens GPU `gpu` in this process; throws GK8007 when there is no usable GPU. */
  static open(addon: Addon, gpu: number): NativeEngine {
    try {
      return new NativeEngine(addon, gpu, JSON.parse(addon.open(gpu)) as DeviceInfo);
    } catch (e) {
      throw converted(e);
    }
  }

  /** Runs an addon call; after an error that loses the context, every later call throws. */
  private call<T>(f: () => T): T {
    if (this.dead) throw this.dead;
    try {
      return f();
    } catch (e) {
      throw this.lost(converted(e));
    }
  }

  private lost(e: GkRuntimeError): GkRuntimeError {
    if (!e.contextLost) return e;
    this.modules.clear();
    this.kernels.clear();
    const why =
      e.code === "GK8012"
        ? "a kernel that did not finish still runs in this process: its GPU cannot be used again until the process ends (isolation \"process\" stops such kernels by ending the launcher)"
        : `its context was lost (${e.cudaError ?? e.code})`;
    this.dead ??= new GkRuntimeError(e.code, `the GPU cannot be used again in this process: ${why}`, { contextLost: true, ...(e.launcher ? { launcher: e.launcher } : {}) });
    return e;
  }

  /** Lets go of a context lost to a fault (inProcess.ts goes on in a launcher process). */
  abandon(): void {
    this.dead ??= new GkRuntimeError("GK8006", "the GPU cannot be used again in this process: its context was lost", { contextLost: true });
    try {
      this.addon.close(this.gpu);
    } catch {
      // the context is gone already; there is nothing left to release
    }
  }

  async alloc(bytes: number): Promise<Memory> {
    const handle = this.call(() => this.addon.alloc(this.gpu, bytes));
    return { handle, bytes, generation: this.generation };
  }

  free(m: Memory): void {
    if (m.generation !== this.generation || this.dead) return; // went with its context
    if (this.copying.has(m.handle)) {
      this.freeAfterCopy.add(m.handle); // a copy waits to use it: freed when that copy is done
      return;
    }
    try {
      this.call(() => this.addon.free(this.gpu, m.handle));
    } catch (e) {
      this.failed ??= e as GkRuntimeError; // reported by the next wait
    }
  }

  async write(m: Memory, byteOffset: number, data: Uint8Array): Promise<void> {
    await this.whileCopying(m, () => this.addon.upload(this.gpu, m.handle, (m.offset ?? 0) + byteOffset, data));
  }

  async read(m: Memory, byteOffset: number, into: Uint8Array): Promise<void> {
    await this.whileCopying(m, () => this.addon.download(this.gpu, m.handle, (m.offset ?? 0) + byteOffset, into));
  }

  /**
   * Settles the queues, then copies. Memory freed while the copy waits (an array freed before
   * its read() or write() is done) is freed once the copy is, never before it: the copy does
   * not reach memory that another array may have been given meanwhile.
   */
  private async whileCopying(m: Memory, copy: () => void): Promise<void> {
    this.copying.set(m.handle, (this.copying.get(m.handle) ?? 0) + 1);
    try {
      await this.settle();
      this.call(copy);
    } finally {
      const left = this.copying.get(m.handle)! - 1;
      if (left > 0) this.copying.set(m.handle, left);
      else {
        this.copying.delete(m.handle);
        if (this.freeAfterCopy.delete(m.handle)) this.free(m);
      }
    }
  }

  async fill(m: Memory, byteOffset: number, pattern: Uint8Array, count: number): Promise<void> {
    this.takeFailed();
    this.call(() => this.addon.fill(this.gpu, m.handle, (m.offset ?? 0) + byteOffset, pattern, count));
  }

  async copy(dst: Memory, dstOffset: number, src: Memory, srcOffset: number, bytes: number): Promise<void> {
    this.takeFailed();
    this.call(() => this.addon.deviceCopy(this.gpu, dst.handle + (dst.offset ?? 0) + dstOffset, src.handle + (src.offset ?? 0) + srcOffset, bytes));
  }

  /** The failure of an earlier free(), reported by the next call that queues work. */
  private takeFailed(): void {
    const f = this.failed;
    if (f) {
      this.failed = undefined;
      throw f;
    }
  }

  /** Waits for every queue (keeping the launch times for sync()), so a copy neither blocks this thread nor hides a queued failure. */
  private async settle(): Promise<void> {
    this.times.push(...(await this.waitFor(-1, undefined)));
  }

  async kernel(module: string, symbol: string, name: string): Promise<EngineKernel> {
    const key = `${module}\0${symbol}\0${name}`;
    const known = this.kernels.get(key);
    if (known && known.generation === this.generation) return known;
    let m = this.modules.get(module);
    if (m === undefined) {
      const image = readFileSync(module);
      m = this.call(() => this.addon.load(this.gpu, image, module));
      this.modules.set(module, m);
    }
    const mod = m;
    const handle = this.call(() => this.addon.kernel(this.gpu, mod, symbol, name));
    const k = { handle, name, generation: this.generation };
    this.kernels.set(key, k);
    return k;
  }

  launch(l: QueuedLaunch): void {
    const w = this.words;
    w[0] = l.grid[0];
    w[1] = l.grid[1];
    w[2] = l.grid[2];
    w[3] = l.block[0];
    w[4] = l.block[1];
    w[5] = l.block[2];
    w[6] = l.sharedBytes ?? 0;
    w[7] = l.queue;
    w[8] = l.seq;
    w[9] = l.timing ? 1 : 0;
    w[10] = l.args.length;
    for (let i = 0; i < l.args.length; i++) {
      const a = l.args[i]!;
      const at = HEADER + 8 * i;
      if (a.kind === "scalar") encodeScalar(this.view, at, a.type, a.value);
      else if (a.kind === "memory") {
        const ptr = a.mem.offset === undefined ? a.mem.handle : a.mem.handle + a.mem.offset;
        this.view.setUint32(at, ptr % 0x100000000, true);
        this.view.setUint32(at + 4, Math.floor(ptr / 0x100000000), true);
      } else throw launcherFailed("internal error: a host array in a queued launch");
    }
    const handle = l.kernel.handle as number;
    if (l.constants) for (const c of l.constants) this.call(() => this.addon.constants(this.gpu, handle, c.name, bytesOf(c.data)));
    // call()'s work, without a closure a launch.
    if (this.dead) throw this.dead;
    try {
      this.addon.launch(this.gpu, handle, this.bytes);
    } catch (e) {
      throw this.lost(converted(e));
    }
  }

  async run(launch: EngineLaunch, timeoutMs: number | undefined, seq: number): Promise<number> {
    const temps: { mem: Memory; arg: EngineArg & { kind: "host" } }[] = [];
    try {
      const launchArgs: EngineArg[] = [];
      for (const a of launch.args) {
        if (a.kind !== "host") {
          launchArgs.push(a);
          continue;
        }
        const mem = await this.alloc(a.data.byteLength);
        temps.push({ mem, arg: a });
        await this.write(mem, 0, bytesOf(a.data));
        launchArgs.push({ kind: "memory", mem });
      }
      this.launch({ ...launch, args: launchArgs, queue: 0, seq, timing: true });
      const times = await this.waitFor(0, timeoutMs);
      const mine = times.find((t) => t[1] === seq);
      this.times.push(...times.filter((t) => t !== mine));
      for (const t of temps) if (t.arg.copyBack) this.call(() => this.addon.download(this.gpu, t.mem.handle, 0, bytesOf(t.arg.data)));
      return mine ? mine[2] : 0;
    } finally {
      for (const t of temps) this.free(t.mem);
    }
  }

  async sync(queue: number | undefined, timeoutMs: number | undefined): Promise<LaunchTimes> {
    const got = await this.waitFor(queue ?? -1, timeoutMs);
    if (this.times.length === 0) return got; // nothing kept from before: got is all there is (of `queue` alone, when given)
    const all = [...this.times, ...got];
    this.times = queue === undefined ? [] : all.filter((t) => t[0] !== queue);
    return queue === undefined ? all : all.filter((t) => t[0] === queue);
  }

  /** Polls, then waits off this thread; throws the failure of queued work (or of an earlier free). */
  private async waitFor(queue: number, timeoutMs: number | undefined): Promise<LaunchTimes> {
    if (this.failed) {
      const f = this.failed;
      this.failed = undefined;
      throw f;
    }
    for (;;) {
      const r = this.call(() => this.addon.poll(this.gpu, queue, SPIN_US));
      if (r !== null) {
        if (r.length === 0) return NO_TIMES;
        const out: [number, number, number][] = [];
        for (let i = 0; i + 2 < r.length; i += 3) out.push([r[i]!, r[i + 1]!, r[i + 2]!]);
        return out;
      }
      const waiting = this.call(() => this.addon.wait(this.gpu, queue, timeoutMs ?? 0));
      try {
        await waiting;
      } catch (e) {
        throw e instanceof GkRuntimeError ? e : this.lost(converted(e));
      }
    }
  }

  async newQueue(): Promise<number> {
    return this.call(() => this.addon.queue(this.gpu));
  }

  async memory(): Promise<{ free: number; total: number }> {
    const [free, total] = this.call(() => this.addon.memory(this.gpu));
    return { free, total };
  }

  hostBuffer(bytes: number): ArrayBuffer | undefined {
    return this.call(() => this.addon.hostArray(this.gpu, bytes));
  }

  async close(): Promise<void> {
    try {
      this.addon.close(this.gpu);
    } catch (e) {
      throw converted(e);
    }
  }
}

/// <reference types="@webgpu/types" />
/**
 * A WebGPU device as gk drives it: the memory of GPU arrays (storage buffers, each a Memory
 * handle as a CUDA engine gives, device/engine.ts), copies to and from them, dispatches
 * (dispatch.ts makes them), waits, and failures. WebGPU has one queue per device: every gk
 * queue of a WebGPU device submits to it, so launches run in the order they were made, which
 * keeps each queue's order.
 *
 * Failures are reported where gk's other devices report them: a validation or out-of-memory
 * error of a launch (caught by error scopes around it) and a kernel's own report of a bad
 * access surface at the next wait, naming the kernel and the launch; a lost device makes its
 * arrays unusable (GK8017) with the reason WebGPU gave.
 */
import { GkRuntimeError } from "../errors.js";
import type { LaunchTimes, Memory } from "../device/engine.js";
import type { WebGpuHandle } from "./open.js";

/** A copy's or buffer's bytes rounded up to WebGPU's 4-byte unit. */
export const align4 = (n: number) => Math.ceil(n / 4) * 4;

/** Something a wait must check once the work before it is done: a launch's error scopes, its kernel time. */
interface Pending {
  /** Throws what went wrong (a GkRuntimeError naming the launch), after the work is done. */
  readonly check: () => Promise<void>;
}

export class WebGpuEngine {
  readonly device: GPUDevice;
  readonly name: string;
  /** 1, then 2 once the device is lost: memory of generation 1 is gone. */
  generation = 1;
  lossReason: string | undefined;
  private readonly handle: WebGpuHandle;
  private readonly buffers = new Map<number, GPUBuffer>();
  private nextHandle = 1;
  private pending: Pending[] = [];
  private closed = false;

  constructor(handle: WebGpuHandle) {
    this.handle = handle;
    this.device = handle.device;
    this.name = handle.adapterName;
    void this.device.lost.then((info) => {
      if (this.closed) return;
      this.lossReason = `the WebGPU device was lost${info.reason === "destroyed" ? " (destroyed)" : ""}: ${info.message || "no reason given"}`;
      this.generation++;
      this.buffers.clear();
    });
    // An error outside a launch's scopes (a copy the device refused): reported by the next wait.
    this.device.addEventListener?.("uncapturederror", (ev) => {
      this.uncaptured ??= (ev as GPUUncapturedErrorEvent).error.message.split("\n")[0];
    });
  }

  /** The first error the device reported outside a launch's error scopes since the last wait. */
  private uncaptured: string | undefined;

  /** The device's limits (those gk asked for where gk asked for the device). */
  get limits(): GPUSupportedLimits {
    return this.device.limits;
  }

  /** Throws GK8017 once the device is lost. */
  live(use: string): void {
    if (this.lossReason !== undefined) throw new GkRuntimeError("GK8017", `${use}: ${this.lossReason}`, { contextLost: true });
  }

  /** The buffer of `m`, or GK8017 when the device lost it. */
  buffer(m: Memory, use: string): GPUBuffer {
    const b = m.generation === this.generation ? this.buffers.get(m.handle) : undefined;
    if (b === undefined) throw new GkRuntimeError("GK8017", `${use}: ${this.lossReason ?? "its WebGPU buffer is gone"}`, { contextLost: true });
    return b;
  }

  /** `bytes` of zeros in a storage buffer (WebGPU zeroes new buffers). Beyond the device's limits or its memory: GK8018. */
  async alloc(bytes: number): Promise<Memory> {
    this.live("an allocation");
    const size = Math.max(4, align4(bytes));
    const max = this.limits.maxBufferSize;
    if (size > max) throw new GkRuntimeError("GK8018", `out of GPU memory: ${bytes} bytes asked, but this WebGPU device's buffers hold at most ${max} bytes (maxBufferSize)`);
    this.device.pushErrorScope("out-of-memory");
    this.device.pushErrorScope("validation");
    const buffer = this.device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const invalid = await this.device.popErrorScope();
    const oom = await this.device.popErrorScope();
    if (oom || invalid) {
      buffer.destroy();
      throw new GkRuntimeError("GK8018", `out of GPU memory: ${bytes} bytes asked of the WebGPU device (${(oom ?? invalid)!.message.split("\n")[0]})`);
    }
    const handle = this.nextHandle++;
    this.buffers.set(handle, buffer);
    return { handle, bytes, generation: this.generation };
  }

  /** Frees after the work submitted before it (WebGPU keeps a destroyed buffer until that work is done). */
  free(m: Memory): void {
    const b = m.generation === this.generation ? this.buffers.get(m.handle) : undefined;
    if (b === undefined) return;
    this.buffers.delete(m.handle);
    b.destroy();
  }

  /** Writes after the work submitted before (queue order). Bytes not on 4-byte bounds are merged with those around them. */
  async write(m: Memory, byteOffset: number, data: Uint8Array): Promise<void> {
    const b = this.buffer(m, "a write");
    if (data.byteLength === 0) return;
    const start = byteOffset & ~3;
    const end = align4(byteOffset + data.byteLength);
    if (start === byteOffset && end === byteOffset + data.byteLength) {
      this.device.queue.writeBuffer(b, byteOffset, data.buffer, data.byteOffset, data.byteLength);
      return;
    }
    const words = new Uint8Array(end - start);
    await this.read(m, start, words.subarray(0, Math.min(words.length, b.size - start)));
    words.set(data, byteOffset - start);
    this.device.queue.writeBuffer(b, start, words.buffer, 0, words.byteLength);
  }

  /** Reads after the work submitted before, through a staging buffer; throws what that work failed with first. */
  async read(m: Memory, byteOffset: number, into: Uint8Array): Promise<void> {
    const b = this.buffer(m, "a read");
    if (into.byteLength === 0) return;
    const start = byteOffset & ~3;
    const size = align4(byteOffset + into.byteLength) - start;
    const staging = this.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    try {
      const enc = this.device.createCommandEncoder();
      enc.copyBufferToBuffer(b, start, staging, 0, size);
      this.device.queue.submit([enc.finish()]);
      await this.settle();
      try {
        await staging.mapAsync(GPUMapMode.READ);
      } catch (e) {
        this.live("a read");
        throw new GkRuntimeError("GK8021", `a read of a WebGPU buffer failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      into.set(new Uint8Array(staging.getMappedRange(), byteOffset - start, into.byteLength));
      staging.unmap();
    } finally {
      staging.destroy();
    }
  }

  /** Remembers what a wait must check after the work submitted so far. */
  expect(check: () => Promise<void>): void {
    this.pending.push({ check });
  }

  /** Waits for the work submitted so far; throws the first failure of a launch among it. */
  async settle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await this.device.queue.onSubmittedWorkDone();
    this.live("a wait");
    let first: unknown;
    for (const p of pending) {
      try {
        await p.check();
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== undefined) throw first;
    const stray = this.uncaptured;
    this.uncaptured = undefined;
    if (stray !== undefined) throw new GkRuntimeError("GK8021", `the WebGPU device reported an error: ${stray}`);
  }

  /** Waits for every queue (WebGPU has one); the engine interface's times are delivered by the launches themselves. */
  async sync(): Promise<LaunchTimes> {
    await this.settle();
    return [];
  }

  /** WebGPU has one queue: every gk queue is it. */
  async newQueue(): Promise<number> {
    return 0;
  }

  /** Destroys the device where gk asked for it; a program's own device keeps going, without gk's buffers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const b of this.buffers.values()) b.destroy();
    this.buffers.clear();
    if (this.handle.owned) this.device.destroy();
  }
}

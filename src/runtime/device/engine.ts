/**
 * What a GPU device (device.ts) asks of the code that drives the GPU: an engine, one CUDA
 * context, either in this process (native.ts, the Node-API addon) or in a `gpu_launcher
 * --serve` process (serve.ts). Both queue launches without waiting for them (on queue 0,
 * the context's default stream, or on queues made by newQueue()), and both copy
 * synchronously with respect to every queue's earlier work, so a read sees what queued
 * launches wrote.
 *
 * Memory and kernels belong to a generation of the engine: when the GPU context is lost (a
 * faulting kernel), the engine starts a new one, and what the old one held is gone.
 */
import type { ScalarName, ScalarValue } from "../../ir/types.js";
import type { AnyTypedArray } from "../../ir/values.js";
import type { DeviceInfo, LaunchRecord } from "../launcher/types.js";

export type Isolation = "in-process" | "process";

/**
 * Device memory: `handle` is a device pointer (in-process) or a server's buffer handle
 * (process). A view's memory (a GPU array's view) is its allocation's with its own `bytes`
 * and the `offset` of its first byte in the allocation; only an allocation is freed.
 */
export interface Memory {
  readonly handle: number;
  readonly bytes: number;
  readonly generation: number;
  /** Bytes from the start of the allocation (a view's); 0 when absent. */
  readonly offset?: number;
}

/** A kernel ready to launch, of one generation. */
export interface EngineKernel {
  readonly handle: unknown;
  /** The IR kernel's name, which errors give. */
  readonly name: string;
  readonly generation: number;
}

export type EngineArg =
  | { readonly kind: "scalar"; readonly type: ScalarName; readonly value: ScalarValue }
  | { readonly kind: "memory"; readonly mem: Memory }
  /** A host array for run(): copied in, and back when `copyBack`. */
  | { readonly kind: "host"; readonly elem: ScalarName; readonly data: AnyTypedArray; readonly copyBack: boolean };

/**
 * A launch on an engine: the launch record of the launcher client (launcher/types.ts) with a
 * kernel the engine loaded. Its `constants` are filled before it runs (a later launch with other
 * contents leaves earlier ones reading theirs: the copy waits for the work queued before it).
 */
export type EngineLaunch = LaunchRecord<EngineKernel, EngineArg>;

/** A launch queued without waiting for it: scalars and memory only in `args`. */
export interface QueuedLaunch extends EngineLaunch {
  readonly queue: number;
  /** The launch's number on its queue, 1, 2, ...: errors name it. */
  readonly seq: number;
  readonly timing: boolean;
}

/** [queue, seq, kernel milliseconds] of timed launches that finished. */
export type LaunchTimes = readonly (readonly [number, number, number])[];

export interface Engine {
  /** How the GPU is driven now: an in-process engine goes on in a launcher process after a fault (inProcess.ts). */
  readonly isolation: Isolation;
  readonly info: DeviceInfo;
  /** 1 for the first context, +1 each time a lost one is replaced. */
  readonly generation: number;
  /** Why the last context was lost (the CUDA error), where the engine knows it before a device is told. */
  readonly lossReason?: string | undefined;
  /** `bytes` of zeroed memory. Out of memory: GK8018, with the bytes asked and free. */
  alloc(bytes: number): Promise<Memory>;
  /** Frees after the work queued before it. */
  free(m: Memory): void;
  write(m: Memory, byteOffset: number, data: Uint8Array): Promise<void>;
  read(m: Memory, byteOffset: number, into: Uint8Array): Promise<void>;
  /**
   * Sets `count` elements of `pattern.byteLength` bytes, from `byteOffset`, to `pattern`, on the
   * device: queued on queue 0 (after every queue's earlier work, before later launches on any),
   * not waited for. Its failure surfaces at the next wait.
   */
  fill(m: Memory, byteOffset: number, pattern: Uint8Array, count: number): Promise<void>;
  /** Copies `bytes` bytes from `src` to `dst` on the device, queued as fill() is; the two ranges do not overlap. */
  copy(dst: Memory, dstOffset: number, src: Memory, srcOffset: number, bytes: number): Promise<void>;
  kernel(module: string, symbol: string, name: string): Promise<EngineKernel>;
  /** Queues a launch. A failure the launch call knows at once (a bad shape) is thrown; others surface at the next sync. */
  launch(l: QueuedLaunch): void;
  /**
   * Runs one launch with host arrays on queue 0 (as its launch `seq`) and waits for it, copying
   * arrays back; its kernel time (CUDA events).
   */
  run(launch: EngineLaunch, timeoutMs: number | undefined, seq: number): Promise<number>;
  /** Waits for `queue` (every queue when undefined); the times of its timed launches. Throws what queued work failed with. */
  sync(queue: number | undefined, timeoutMs: number | undefined): Promise<LaunchTimes>;
  /** A new queue of the current generation. */
  newQueue(): Promise<number>;
  memory(): Promise<{ readonly free: number; readonly total: number }>;
  /** A page-locked host array, where the engine can make one (in-process); undefined otherwise. */
  hostBuffer(bytes: number): ArrayBuffer | undefined;
  close(): Promise<void>;
}

/**
 * A persistent launcher (`gpu_launcher --serve`) for repeated launches: modules stay loaded
 * and buffers stay on the GPU between calls. The server starts on the first call. When it
 * dies, or reports that the GPU context was lost (a faulting kernel, a timeout), the error is
 * thrown with `contextLost` set, every handle from before becomes invalid, and the next call
 * starts a new server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Socket } from "node:net";
import { elemOfTypedArray } from "../../ir/types.js";
import { checkArrayArg, bytesOf, elemSize, scalarWire, typedFromBytes } from "./codec.js";
import { GkRuntimeError, fromLauncherError, invalidArgs, launcherFailed, parseLauncherError } from "./errors.js";
import { FrameReader, encodeFrame, type Frame } from "./frames.js";
import { missingLauncher } from "./oneshot.js";
import { launcherPath } from "./process.js";
import type { AnyTypedArray, DeviceInfo, Dim3, KernelArg, LauncherOptions, ScalarArg, ScalarName } from "./types.js";

export interface SessionOptions extends LauncherOptions {
  /** Kill the server if any one request takes longer than this (default: no limit). */
  readonly requestTimeoutMs?: number;
}

/** A buffer in GPU memory, valid while the server that made it lives (see `generation`). */
export interface DeviceBuffer {
  readonly id: number;
  readonly elem: ScalarName;
  readonly length: number;
  readonly byteLength: number;
  readonly generation: number;
}

export interface ModuleHandle {
  readonly id: number;
  readonly path: string;
  readonly generation: number;
}

export interface BufferArg {
  readonly kind: "buffer";
  readonly buffer: DeviceBuffer;
}
export type SessionArg = ScalarArg | BufferArg;

export interface SessionLaunchOptions {
  readonly module: ModuleHandle;
  readonly kernel: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly args: readonly SessionArg[];
  readonly sharedBytes?: number;
  readonly repeat?: number;
  readonly timeoutMs?: number;
}

/** Milliseconds: kernel times from CUDA events (median and min over `launches`), hostMs for the whole request. */
export interface SessionTiming {
  readonly kernelMs: number;
  readonly kernelMinMs: number;
  readonly kernelMedianMs: number;
  readonly launches: number;
  readonly hostMs: number;
}

export interface SessionRunOptions extends Omit<SessionLaunchOptions, "module" | "args"> {
  readonly module: string;
  readonly args: readonly KernelArg[];
}

interface Server {
  readonly child: ChildProcess;
  readonly reader: FrameReader;
  readonly generation: number;
  readonly exited: Promise<void>;
  alive: boolean;
}

const LAUNCH_GRACE_MS = 60_000;

export class LauncherSession {
  private server: Server | undefined;
  private generations = 0;
  private lost = 0;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: SessionOptions = {}) {}

  /** Which server the session talks to: 1 for the first, +1 for each restart; 0 before the first call. */
  get generation(): number {
    return this.generations;
  }
  /** How many servers ended without `close()` (context lost, crash, timeout). */
  get restarts(): number {
    return this.lost;
  }

  /** Starts the server if needed and describes its GPU. */
  async device(): Promise<DeviceInfo> {
    return (await this.call({ op: "init" })).frame.header.device as DeviceInfo;
  }

  /** Loads a .ptx or .cubin file; the server keeps it loaded, and loads it again only when the file changes. */
  async loadModule(path: string): Promise<ModuleHandle> {
    const abs = resolve(path);
    const { frame, generation } = await this.call({ op: "load", path: abs });
    return { id: frame.header.module as number, path: abs, generation };
  }

  async unloadModule(m: ModuleHandle): Promise<void> {
    this.checkHandle(m, "module");
    await this.call({ op: "unload", module: m.id });
  }

  /** A zero-filled buffer of `length` elements. */
  async alloc(elem: ScalarName, length: number): Promise<DeviceBuffer> {
    if (!Number.isSafeInteger(length) || length < 0) throw invalidArgs(`buffer length must be a non-negative integer, got ${length}`);
    const byteLength = length * elemSize(elem);
    const { frame, generation } = await this.call({ op: "alloc", bytes: byteLength });
    return { id: frame.header.buffer as number, elem, length, byteLength, generation };
  }

  /** A buffer holding a copy of `data` (element type from the TypedArray; Uint8Array is bool). */
  async upload(data: AnyTypedArray, elem: ScalarName | undefined = elemOfTypedArray(data)): Promise<DeviceBuffer> {
    if (elem === undefined) throw invalidArgs("upload needs a TypedArray");
    const buf = await this.alloc(elem, data.length);
    await this.write(buf, data);
    return buf;
  }

  /** Copies `data` into `buf` starting at element `offset`. */
  async write(buf: DeviceBuffer, data: AnyTypedArray, offset = 0): Promise<void> {
    this.checkHandle(buf, "buffer");
    checkArrayArg({ kind: "array", elem: buf.elem, data, copyBack: false }, 0);
    await this.call({ op: "upload", buffer: buf.id, offset: offset * elemSize(buf.elem) }, bytesOf(data));
  }

  /** Copies `length` elements from `buf`, starting at element `offset`, into a new TypedArray. */
  async read(buf: DeviceBuffer, offset = 0, length = buf.length - offset): Promise<AnyTypedArray> {
    this.checkHandle(buf, "buffer");
    const size = elemSize(buf.elem);
    const { frame } = await this.call({ op: "download", buffer: buf.id, offset: offset * size, bytes: length * size });
    return typedFromBytes(buf.elem, frame.payload);
  }

  async free(buf: DeviceBuffer): Promise<void> {
    this.checkHandle(buf, "buffer");
    await this.call({ op: "free", buffer: buf.id });
  }

  async launch(o: SessionLaunchOptions): Promise<SessionTiming> {
    this.checkHandle(o.module, "module");
    const args = o.args.map((a, i) => {
      if (a.kind === "scalar") return { type: a.type, value: scalarWire(a.type, a.value, `argument ${i}`) };
      this.checkHandle(a.buffer, "buffer");
      return { type: "buffer", buffer: a.buffer.id };
    });
    const header = {
      op: "launch",
      module: o.module.id,
      kernel: o.kernel,
      grid: o.grid,
      block: o.block,
      args,
      ...(o.sharedBytes !== undefined ? { sharedBytes: o.sharedBytes } : {}),
      ...(o.repeat !== undefined ? { repeat: o.repeat } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    };
    const watchdog = o.timeoutMs !== undefined ? o.timeoutMs * Math.max(1, o.repeat ?? 1) + LAUNCH_GRACE_MS : undefined;
    const { frame } = await this.call(header, undefined, watchdog);
    const t = frame.header.timing as Omit<SessionTiming, "hostMs">;
    return { ...t, hostMs: frame.header.ms as number };
  }

  /** launchOnce's contract over this session: upload, launch, copy back, free. */
  async run(o: SessionRunOptions): Promise<{ outputs: Map<number, AnyTypedArray>; timing: SessionTiming }> {
    o.args.forEach((a, i) => checkArrayArg(a, i));
    const module = await this.loadModule(o.module);
    const buffers: (DeviceBuffer | undefined)[] = [];
    try {
      for (const a of o.args) {
        buffers.push(a.kind === "scalar" ? undefined : "data" in a ? await this.upload(a.data, a.elem) : await this.alloc(a.elem, a.length));
      }
      const args = o.args.map((a, i): SessionArg => (a.kind === "scalar" ? a : { kind: "buffer", buffer: buffers[i]! }));
      const timing = await this.launch({ ...o, module, args });
      const outputs = new Map<number, AnyTypedArray>();
      for (let i = 0; i < o.args.length; i++) {
        const a = o.args[i]!;
        if (a.kind === "array" && a.copyBack) outputs.set(i, await this.read(buffers[i]!));
      }
      return { outputs, timing };
    } finally {
      for (const b of buffers) {
        // After a lost context the buffers went with it; otherwise a failed free is its own error.
        if (b && this.server?.generation === b.generation) await this.free(b);
      }
    }
  }

  /** Ends the server, freeing everything it holds. The session can be used again afterwards (a new server starts). */
  async close(): Promise<void> {
    await this.serialize(async () => {
      const s = this.server;
      if (!s) return;
      this.server = undefined;
      if (s.alive) {
        s.alive = false; // ending by request: not counted in `restarts`
        this.setRef(s, true);
        s.child.stdin?.end(Buffer.concat(encodeFrame({ op: "close", id: this.nextId++ })));
        const timer = setTimeout(() => s.child.kill("SIGKILL"), 10_000);
        await s.exited;
        clearTimeout(timer);
      }
    });
  }

  private checkHandle(h: { id: number; generation: number }, what: string): void {
    if (this.server === undefined || h.generation !== this.server.generation) {
      throw new GkRuntimeError("GK8005", `${what} ${h.id} belongs to a launcher server that has ended (the GPU context was lost or the session was closed); create it again`, { contextLost: true });
    }
  }

  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn, fn);
    this.queue = p.catch(() => undefined);
    return p;
  }

  private call(header: Record<string, unknown>, payload?: Uint8Array, timeoutMs = this.opts.requestTimeoutMs): Promise<{ frame: Frame; generation: number }> {
    return this.serialize(() => this.exchange(header, payload, timeoutMs));
  }

  private async exchange(header: Record<string, unknown>, payload: Uint8Array | undefined, timeoutMs: number | undefined) {
    const s = this.server ?? (this.server = this.start());
    const id = this.nextId++;
    const answer = s.reader.next();
    answer.catch(() => undefined); // observed below; this keeps an early failure from going unhandled
    this.setRef(s, true);
    const timer = timeoutMs !== undefined ? setTimeout(() => this.retire(s, `gpu_launcher --serve did not answer within ${timeoutMs} ms and was stopped`), timeoutMs) : undefined;
    try {
      for (const part of encodeFrame({ ...header, id }, payload)) {
        if (!s.alive) break; // the answer, or the exit, says what happened
        if (!s.child.stdin!.write(part)) await Promise.race([new Promise((r) => s.child.stdin!.once("drain", r)), s.exited]);
      }
      const frame = await answer;
      if (frame.header.id !== id) throw launcherFailed(`gpu_launcher --serve answered request ${String(frame.header.id)}, expected ${id}`);
      if (frame.header.ok !== true) {
        const lost = frame.header.contextLost === true || frame.header.fatal === true;
        if (lost) this.retire(s, "");
        const info = parseLauncherError(frame.header.error);
        throw info ? fromLauncherError(info, lost) : launcherFailed(`gpu_launcher --serve sent a malformed error: ${JSON.stringify(frame.header)}`);
      }
      return { frame, generation: s.generation };
    } finally {
      if (timer) clearTimeout(timer);
      if (s.alive) this.setRef(s, false);
    }
  }

  private start(): Server {
    const path = launcherPath(this.opts);
    if (!existsSync(path)) throw missingLauncher(path);
    const args = [...(this.opts.device !== undefined ? ["--device", String(this.opts.device)] : []), "--serve"];
    const child = spawn(path, args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...this.opts.env } });
    const reader = new FrameReader();
    let stderr = "";
    let resolveExit!: () => void;
    const exited = new Promise<void>((r) => (resolveExit = r));
    const s: Server = { child, reader, generation: ++this.generations, exited, alive: true };
    child.stdout!.on("data", (c: Buffer) => reader.push(c));
    child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString("utf8")).slice(-4096)));
    child.stdin!.on("error", () => undefined); // EPIPE after an exit; the exit is reported instead
    const ended = (how: string) => {
      if (s.alive) this.lost++;
      s.alive = false;
      if (this.server === s) this.server = undefined;
      const tail = stderr.trim() ? `; stderr: ${stderr.trim().slice(-1000)}` : "";
      reader.end(new GkRuntimeError("GK8008", `gpu_launcher --serve ${how}${tail}`, { contextLost: true }));
      resolveExit();
    };
    child.on("error", (e) => ended(`could not run: ${e.message}`));
    child.on("close", (code, signal) => ended(signal ? `was killed by ${signal}` : `exited with status ${code}`));
    return s;
  }

  /** Stops using a server whose context is gone; it exits by itself, or is killed if `why` says it hangs. */
  private retire(s: Server, why: string): void {
    if (this.server === s) this.server = undefined;
    if (!s.alive) return;
    this.lost++;
    s.alive = false;
    if (why) {
      s.reader.end(new GkRuntimeError("GK8008", why, { contextLost: true }));
      s.child.kill("SIGKILL");
    } else {
      s.child.stdin?.end();
    }
  }

  /** An idle server does not keep Node running; a busy one does. */
  private setRef(s: Server, on: boolean): void {
    for (const h of [s.child, s.child.stdin, s.child.stdout, s.child.stderr]) {
      if (h instanceof Socket || h === s.child) {
        if (on) h.ref();
        else h.unref();
      }
    }
  }
}

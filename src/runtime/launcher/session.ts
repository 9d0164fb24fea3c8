/**
 * A persistent launcher (`gpu_launcher --serve`) for repeated launches: modules stay loaded
 * and buffers stay on the GPU between calls. The server starts on the first call. When it
 * dies, or reports that the GPU context was lost (a faulting kernel, a timeout), the error is
 * thrown with `contextLost` set, every handle from before becomes invalid, and the next call
 * starts a new server.
 *
 * Arrays of at least `sharedFileMinBytes` bytes travel through the server's shared file
 * (shared.ts); smaller ones as frame payloads. `run` sends its requests in two batches (the
 * module and the buffers with their contents; then the launch, the copies back and the frees),
 * so it costs two round trips whatever the number of arrays.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { elemOfTypedArray } from "../../ir/values.js";
import { checkHostArray, bytesOf, constantsWire, deliver, elemSize, scalarWire } from "./codec.js";
import { GkRuntimeError } from "../errors.js";
import { fromLauncherError, invalidArgs, launcherFailed, parseLauncherError } from "./errors.js";
import { hostIo } from "./hostIo.js";
import type { Frame } from "./frames.js";
import { missingLauncher } from "./oneshot.js";
import { launcherPath } from "./process.js";
import { ServeProcess, type Answers, type ServeRequest } from "./server.js";
import { CallQueue } from "./callQueue.js";
import { DEFAULT_SHARED_MIN_BYTES, FilePlan, SHARED_FD, SharedFile, type Slot } from "./shared.js";
import type { DeviceInfo, KernelArg, LauncherOptions, LaunchRecord, ScalarArg, ScalarName } from "./types.js";
import type { AnyTypedArray } from "../../ir/values.js";

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
  /** Bytes from the buffer's start: the kernel gets a pointer that far in (a GPU array's view). */
  readonly offset?: number;
}
export type SessionArg = ScalarArg | BufferArg;

/** A launch of kernel `kernel` (its extern "C" name) of a loaded module, on buffers already on the GPU. */
export interface SessionLaunchOptions extends LaunchRecord<string, SessionArg> {
  readonly module: ModuleHandle;
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

/** A launch with its module file and its arrays: `args` holds arrays sent with the launch (uploaded, copied back, freed), and buffers already on the GPU. */
export interface SessionRunOptions extends LaunchRecord<string, KernelArg | BufferArg> {
  readonly module: string;
  readonly repeat?: number;
  readonly timeoutMs?: number;
  /** Copy results back into the arguments' own TypedArrays (arrays sent with `data`), which `outputs` then holds. */
  readonly copyBackInPlace?: boolean;
}

/** One request of a batch, built once the server (and its shared file) is known. */
interface Planned {
  readonly header: Record<string, unknown>;
  readonly payload?: Uint8Array;
  readonly timeoutMs?: number;
}

/** A launch queued without waiting for the kernel (spec: "Queues"): `seq` numbers it on its queue, `name` is what errors call it. */
export interface QueuedLaunchOptions extends Omit<SessionLaunchOptions, "repeat" | "timeoutMs"> {
  readonly queue: number;
  readonly seq: number;
  readonly name: string;
  readonly timing: boolean;
}

/** A batch's outcome: each request's answer frame or error, in order, and the server that answered. */
interface Outcome {
  readonly results: readonly (Frame | GkRuntimeError)[];
  readonly generation: number;
}

const LAUNCH_GRACE_MS = 60_000;

const fileRef = (slot: Slot) => ({ fd: SHARED_FD, offset: slot.at });

function firstError(results: readonly (Frame | GkRuntimeError)[]): GkRuntimeError | undefined {
  for (const r of results) if (r instanceof GkRuntimeError) return r;
  return undefined;
}

function frameOf(r: Frame | GkRuntimeError): Frame {
  if (r instanceof GkRuntimeError) throw r;
  return r;
}

export class LauncherSession {
  private server: ServeProcess | undefined;
  private generations = 0;
  private lost = 0;
  private nextId = 1;
  /** The session's calls, one at a time and in order. */
  private readonly calls = new CallQueue();

  constructor(private readonly opts: SessionOptions = {}) {}

  /** Which server the session talks to: 1 for the first, +1 for each restart; 0 before the first call. */
  get generation(): number {
    return this.generations;
  }
  /** Whether a server is running: false before the first call, after close(), and after a lost context until the next call. */
  get live(): boolean {
    return this.server !== undefined;
  }
  /** How many servers ended without `close()` (context lost, crash, timeout). */
  get restarts(): number {
    return this.lost;
  }

  /** Starts the server if needed and describes its GPU. */
  async device(): Promise<DeviceInfo> {
    return this.call({ op: "init" }, (f) => f.header.device as DeviceInfo);
  }

  /** Loads a .ptx or .cubin file; the server keeps it loaded, and loads it again only when the file changes. */
  async loadModule(path: string): Promise<ModuleHandle> {
    const abs = resolve(path);
    return this.call({ op: "load", path: abs }, (f, generation) => ({ id: f.header.module as number, path: abs, generation }));
  }

  async unloadModule(m: ModuleHandle): Promise<void> {
    this.checkHandle(m, "module");
    await this.call({ op: "unload", module: m.id }, () => undefined);
  }

  /** A zero-filled buffer of `length` elements. */
  async alloc(elem: ScalarName, length: number): Promise<DeviceBuffer> {
    if (!Number.isSafeInteger(length) || length < 0) throw invalidArgs(`buffer length must be a non-negative integer, got ${length}`);
    const byteLength = length * elemSize(elem);
    return this.call({ op: "alloc", bytes: byteLength }, (f, generation) => ({ id: f.header.buffer as number, elem, length, byteLength, generation }));
  }

  /**
   * A buffer holding a copy of `data`, of element type `elem`: by default the TypedArray's
   * (`elemOfTypedArray`: a Uint8Array is bool, a Uint16Array u16; say u8, f16 or bf16). One round trip.
   */
  async upload(data: AnyTypedArray, elem: ScalarName | undefined = elemOfTypedArray(data)): Promise<DeviceBuffer> {
    if (elem === undefined) throw invalidArgs("upload needs a TypedArray");
    checkHostArray({ kind: "array", elem, data, copyBack: false }, 0);
    return this.batch(
      (plan) => {
        const slot = plan.put(bytesOf(data));
        return () => [this.allocWith(data, slot)];
      },
      (o) => ({ id: frameOf(o.results[0]!).header.buffer as number, elem, length: data.length, byteLength: data.byteLength, generation: o.generation }),
    );
  }

  /** Copies `data` into `buf` starting at element `offset`. */
  async write(buf: DeviceBuffer, data: AnyTypedArray, offset = 0): Promise<void> {
    this.checkHandle(buf, "buffer");
    checkHostArray({ kind: "array", elem: buf.elem, data, copyBack: false }, 0);
    const bytes = bytesOf(data);
    await this.batch(
      (plan) => {
        const slot = plan.put(bytes);
        return () => {
          const header = { op: "upload", buffer: buf.id, offset: offset * elemSize(buf.elem) };
          return [slot.at !== undefined ? { header: { ...header, file: fileRef(slot), bytes: bytes.byteLength } } : { header, payload: bytes }];
        };
      },
      (o) => frameOf(o.results[0]!),
    );
  }

  /** Copies `length` elements from `buf`, starting at element `offset`, into a new TypedArray (or into `into`, of that many elements). */
  async read(buf: DeviceBuffer, offset = 0, length = buf.length - offset, into?: AnyTypedArray): Promise<AnyTypedArray> {
    this.checkHandle(buf, "buffer");
    let slot: Slot;
    return this.batch(
      (plan) => {
        slot = plan.reserve(length * elemSize(buf.elem));
        return () => [this.downloadOf(buf, offset, length, slot)];
      },
      ({ results }, shared) => this.received(buf, frameOf(results[0]!), slot, shared, into),
    );
  }

  /** Sets `count` elements of `pattern.byteLength` bytes of `buf`, from byte `offset`, to `pattern`, queued on queue 0 (spec: `fill`). */
  async fill(buf: DeviceBuffer, offset: number, pattern: Uint8Array, count: number): Promise<void> {
    this.checkHandle(buf, "buffer");
    await this.call({ op: "fill", buffer: buf.id, offset, count }, () => undefined, pattern);
  }

  /** Copies `bytes` bytes from byte `srcOffset` of `src` to byte `offset` of `dst`, queued on queue 0 (spec: `copy`); the ranges do not overlap. */
  async copy(dst: DeviceBuffer, offset: number, src: DeviceBuffer, srcOffset: number, bytes: number): Promise<void> {
    this.checkHandle(dst, "buffer");
    this.checkHandle(src, "buffer");
    await this.call({ op: "copy", buffer: dst.id, offset, from: src.id, fromOffset: srcOffset, bytes }, () => undefined);
  }

  async free(buf: DeviceBuffer): Promise<void> {
    this.checkHandle(buf, "buffer");
    await this.call({ op: "free", buffer: buf.id }, () => undefined);
  }

  launch(o: SessionLaunchOptions): Promise<SessionTiming> {
    let header: Record<string, unknown>;
    try {
      header = this.launchHeader(o);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.call(header, timingOf, undefined, this.launchWatchdog(o));
  }

  /**
   * Queues a launch without waiting for it or for the answer: the request is sent in order with
   * every other call, and `answered` gets the answer's error (undefined when it was queued)
   * once it comes. Failures of the kernel itself surface at the next sync().
   */
  queueLaunch(o: QueuedLaunchOptions, answered: (e: GkRuntimeError | undefined) => void): void {
    // The header's JSON written here, with its id added when it is sent: the hot path of a
    // loop of launches, where JSON.stringify of a header object was most of the cost.
    const json = this.queuedLaunchJson(o);
    this.calls.enqueue(() => this.sendQueued(json, answered));
  }

  private sendQueued(json: string, answered: (e: GkRuntimeError | undefined) => void): void {
    let s: ServeProcess;
    try {
      s = this.ensureServer();
    } catch (e) {
      this.calls.release();
      answered(e instanceof GkRuntimeError ? e : launcherFailed(String(e)));
      return;
    }
    const id = this.nextId++;
    s.sendQueued(`${json},"id":${id}}`, this.queuedAnswer(s, id, answered));
    this.calls.release();
  }

  /**
   * What takes a queued launch's answer. Made apart from the launch's other values: a closure
   * keeps its maker's scope alive, and thousands of launches wait for their answers at once.
   */
  private queuedAnswer(s: ServeProcess, id: number, answered: (e: GkRuntimeError | undefined) => void): (a: Answers) => void {
    return (answers) => {
      const r = this.settle(s, id, answers.frames[0], answers.ended);
      answered(r instanceof GkRuntimeError ? r : undefined);
    };
  }

  /** A new queue (a CUDA stream) on the current server; its number is 1 or more. */
  async newQueue(): Promise<number> {
    return this.call({ op: "queue" }, (f) => f.header.queue as number);
  }

  async dropQueue(queue: number): Promise<void> {
    await this.call({ op: "queue", destroy: queue }, () => undefined);
  }

  /**
   * Waits for `queue` (every queue when undefined) to finish; the kernel times of its timed
   * launches as [queue, seq, ms]. `timeoutMs`: stop the server (and the kernel) after this long.
   */
  async sync(queue?: number, timeoutMs?: number): Promise<(readonly [number, number, number])[]> {
    const header: Record<string, unknown> = { op: "sync" };
    if (queue !== undefined) header.queue = queue;
    if (timeoutMs !== undefined && timeoutMs > 0) header.timeoutMs = Math.ceil(timeoutMs);
    const watchdog = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs + LAUNCH_GRACE_MS : this.opts.requestTimeoutMs;
    return this.call(header, (f) => f.header.times as [number, number, number][], undefined, watchdog);
  }

  /** The GPU's free and total memory in bytes. */
  async memory(): Promise<{ free: number; total: number }> {
    return this.call({ op: "memory" }, (f) => ({ free: f.header.free as number, total: f.header.total as number }));
  }

  /** The server the next call goes to: its generation (a new one after a lost context), starting it if needed. */
  current(): number {
    return this.ensureServer().generation;
  }

  /** launchOnce's contract over this session: upload, launch, copy back, free (in two round trips). */
  async run(o: SessionRunOptions): Promise<{ outputs: Map<number, AnyTypedArray>; timing: SessionTiming }> {
    o.args.forEach((a, i) => {
      if (a.kind !== "buffer") checkHostArray(a, i);
    });
    const path = resolve(o.module);
    // The module, and a buffer for each array with its contents.
    const first = await this.batch(
      (plan) => {
        const slots = o.args.map((a) => (a.kind === "array" && "data" in a ? plan.put(bytesOf(a.data)) : undefined));
        return () => [
          { header: { op: "load", path } },
          ...o.args.flatMap((a, i): Planned[] => {
            if (a.kind !== "array") return [];
            return ["data" in a ? this.allocWith(a.data, slots[i]!) : { header: { op: "alloc", bytes: a.length * elemSize(a.elem) } }];
          }),
        ];
      },
      (outcome) => outcome,
    );
    const generation = first.generation;
    const buffers: (DeviceBuffer | undefined)[] = [];
    let k = 1;
    o.args.forEach((a, i) => {
      if (a.kind !== "array") return;
      const r = first.results[k++]!;
      const length = "data" in a ? a.data.length : a.length;
      if (!(r instanceof GkRuntimeError)) buffers[i] = { id: r.header.buffer as number, elem: a.elem, length, byteLength: length * elemSize(a.elem), generation };
    });
    const made = buffers.filter((b): b is DeviceBuffer => b !== undefined);
    const failed = firstError(first.results);
    if (failed) {
      // After a lost context the buffers went with it; otherwise they are freed before the error is reported.
      if (made.length > 0 && this.server?.alive && this.server.generation === generation) {
        await this.batch(() => () => made.map((b) => ({ header: { op: "free", buffer: b.id } })), () => undefined);
      }
      throw failed;
    }
    // The launch, the copies back and the frees.
    const module: ModuleHandle = { id: frameOf(first.results[0]!).header.module as number, path, generation };
    const args = o.args.map((a, i): SessionArg => (a.kind === "scalar" || a.kind === "buffer" ? a : { kind: "buffer", buffer: buffers[i]! }));
    const launch = this.launchHeader({ ...o, module, args });
    const backs = o.args.map((a, i) => (a.kind === "array" && a.copyBack ? i : -1)).filter((i) => i >= 0);
    const slots: Slot[] = [];
    return this.batch(
      (plan) => {
        for (const i of backs) slots.push(plan.reserve(buffers[i]!.byteLength));
        return () => [
          { header: launch, timeoutMs: this.launchWatchdog(o) },
          ...backs.map((i, j) => this.downloadOf(buffers[i]!, 0, buffers[i]!.length, slots[j]!)),
          ...made.map((b) => ({ header: { op: "free", buffer: b.id } })),
        ];
      },
      ({ results }, shared) => {
        // The first error in order: the launch's, a copy's, then a free's.
        const failedLater = firstError(results);
        if (failedLater) throw failedLater;
        const outputs = new Map<number, AnyTypedArray>();
        backs.forEach((i, j) => {
          const a = o.args[i] as KernelArg & { kind: "array" };
          const into = o.copyBackInPlace && "data" in a ? a.data : undefined;
          outputs.set(i, this.received(buffers[i]!, frameOf(results[1 + j]!), slots[j]!, shared, into));
        });
        return { outputs, timing: timingOf(frameOf(results[0]!)) };
      },
      module,
    );
  }

  /** Ends the server, freeing everything it holds. The session can be used again afterwards (a new server starts). */
  async close(): Promise<void> {
    await this.serialize(async () => {
      const s = this.server;
      if (!s) return;
      this.server = undefined;
      await s.close({ op: "close", id: this.nextId++ });
    });
  }

  /** A download request for `length` elements of `buf` from element `offset`, into the shared file when `slot` has a place. */
  private downloadOf(buf: DeviceBuffer, offset: number, length: number, slot: Slot): Planned {
    const size = elemSize(buf.elem);
    const header = { op: "download", buffer: buf.id, offset: offset * size, bytes: length * size };
    return { header: slot.at !== undefined ? { ...header, file: fileRef(slot) } : header };
  }

  /**
   * The array a download answer brings: the bytes the server put in the shared file, or the
   * payload. Called in the batch's turn, before another request may reuse the file.
   */
  private received(buf: DeviceBuffer, frame: Frame, slot: Slot, shared: SharedFile | undefined, into: AnyTypedArray | undefined): AnyTypedArray {
    const bytes = frame.header.bytes;
    if (typeof bytes !== "number") throw launcherFailed(`gpu_launcher --serve answered a download without "bytes": ${JSON.stringify(frame.header)}`);
    if (slot.at !== undefined && shared !== undefined) {
      const at = slot.at;
      return deliver(buf.elem, bytes, (t) => shared.readInto(at, t), into);
    }
    if (frame.payload.length !== bytes) throw launcherFailed(`gpu_launcher --serve sent ${frame.payload.length} bytes for a download of ${bytes}`);
    return deliver(buf.elem, bytes, (t) => t.set(frame.payload), into);
  }

  /** An alloc request that also fills the buffer: from the shared file when `slot` has a place, else as the payload. */
  private allocWith(data: AnyTypedArray, slot: Slot): Planned {
    return slot.at !== undefined
      ? { header: { op: "alloc", bytes: data.byteLength, file: fileRef(slot) } }
      : { header: { op: "alloc", bytes: data.byteLength }, payload: bytesOf(data) };
  }

  private launchHeader(o: SessionLaunchOptions): Record<string, unknown> {
    this.checkHandle(o.module, "module");
    const args = new Array<unknown>(o.args.length);
    for (let i = 0; i < o.args.length; i++) {
      const a = o.args[i]!;
      if (a.kind === "scalar") {
        args[i] = { type: a.type, value: scalarWire(a.type, a.value, `argument ${i}`) };
      } else {
        this.checkHandle(a.buffer, "buffer");
        args[i] = a.offset ? { type: "buffer", buffer: a.buffer.id, offset: a.offset } : { type: "buffer", buffer: a.buffer.id };
      }
    }
    const header: Record<string, unknown> = { op: "launch", module: o.module.id, kernel: o.kernel, grid: o.grid, block: o.block, args };
    if (o.sharedBytes !== undefined) header.sharedBytes = o.sharedBytes;
    if (o.constants?.length) header.constants = constantsWire(o.constants);
    if (o.repeat !== undefined) header.repeat = o.repeat;
    if (o.timeoutMs !== undefined) header.timeoutMs = o.timeoutMs;
    return header;
  }

  /**
   * launchHeader's checks and header, with a queued launch's members, as JSON text without its
   * closing brace (the id goes last).
   */
  private queuedLaunchJson(o: QueuedLaunchOptions): string {
    this.checkHandle(o.module, "module");
    let args = "";
    for (let i = 0; i < o.args.length; i++) {
      const a = o.args[i]!;
      if (i > 0) args += ",";
      if (a.kind === "scalar") {
        const v = scalarWire(a.type, a.value, `argument ${i}`);
        args += `{"type":${JSON.stringify(a.type)},"value":${typeof v === "string" ? JSON.stringify(v) : String(v)}}`;
      } else {
        this.checkHandle(a.buffer, "buffer");
        args += a.offset ? `{"type":"buffer","buffer":${a.buffer.id},"offset":${a.offset}}` : `{"type":"buffer","buffer":${a.buffer.id}}`;
      }
    }
    const [g, b] = [o.grid, o.block];
    let json = `{"op":"launch","module":${o.module.id},"kernel":${JSON.stringify(o.kernel)},"grid":[${g[0]},${g[1]},${g[2]}],"block":[${b[0]},${b[1]},${b[2]}],"args":[${args}]`;
    if (o.sharedBytes !== undefined) json += `,"sharedBytes":${o.sharedBytes}`;
    if (o.constants?.length) json += `,"constants":${JSON.stringify(constantsWire(o.constants))}`;
    json += `,"queue":${o.queue},"seq":${o.seq},"name":${JSON.stringify(o.name)}`;
    if (o.timing) json += `,"timing":true`;
    return json;
  }

  private launchWatchdog(o: { timeoutMs?: number; repeat?: number }): number | undefined {
    return o.timeoutMs !== undefined ? o.timeoutMs * Math.max(1, o.repeat ?? 1) + LAUNCH_GRACE_MS : this.opts.requestTimeoutMs;
  }

  private checkHandle(h: { id: number; generation: number }, what: string): void {
    if (this.server === undefined || h.generation !== this.server.generation) {
      throw new GkRuntimeError("GK8005", `${what} ${h.id} belongs to a launcher server that has ended (the GPU context was lost or the session was closed); create it again`, { contextLost: true });
    }
  }

  /** Runs `fn` alone, after every call before it. */
  private serialize<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.calls.enqueue(() => {
        let p: Promise<T>;
        try {
          p = fn();
        } catch (e) {
          p = Promise.reject(e);
        }
        p.then(
          (v) => {
            this.calls.release();
            resolve(v);
          },
          (e: unknown) => {
            this.calls.release();
            reject(e);
          },
        );
      });
    });
  }

  /**
   * One request: resolves with `map` of its answer, or rejects with its error. The hot path
   * of a session (every launch), so it settles straight from the read of the answer.
   */
  private call<T>(header: Record<string, unknown>, map: (f: Frame, generation: number) => T, payload?: Uint8Array, timeoutMs = this.opts.requestTimeoutMs): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.calls.enqueue(() => {
        let s: ServeProcess;
        try {
          s = this.ensureServer();
        } catch (e) {
          this.calls.release();
          reject(e);
          return;
        }
        const id = this.nextId++;
        header.id = id;
        s.send([{ header, payload, timeoutMs }], (answers) => {
          const r = this.settle(s, id, answers.frames[0], answers.ended);
          this.calls.release();
          if (r instanceof GkRuntimeError) return reject(r);
          try {
            resolve(map(r, s.generation));
          } catch (e) {
            reject(e);
          }
        });
      });
    });
  }

  /**
   * A batch of requests, built in two steps against the server's shared file: `build` reserves
   * places in the file and returns what makes the requests once the uploads are written.
   * `finish` sees the answers before any other call can reuse the file.
   */
  private batch<T>(build: (plan: FilePlan) => () => Planned[], finish: (o: Outcome, shared: SharedFile | undefined) => T, module?: ModuleHandle): Promise<T> {
    return this.serialize(async () => {
      if (module !== undefined) this.checkHandle(module, "module"); // the server that made the handles still runs
      const s = this.ensureServer();
      const plan = new FilePlan(this.opts.sharedFileMinBytes ?? DEFAULT_SHARED_MIN_BYTES);
      const make = build(plan);
      plan.commit(s.shared);
      return finish(await this.exchange(s, make()), s.shared);
    });
  }

  /** Sends the requests (each given an id) and turns each answer into its frame or its error. */
  private async exchange(s: ServeProcess, planned: readonly Planned[]): Promise<Outcome> {
    const requests: ServeRequest[] = planned.map((p) => {
      p.header.id = this.nextId++;
      return p.timeoutMs === undefined && this.opts.requestTimeoutMs !== undefined ? { ...p, timeoutMs: this.opts.requestTimeoutMs } : p;
    });
    const answers = await new Promise<Answers>((done) => s.send(requests, done));
    const results = requests.map((r, k) => this.settle(s, r.header.id as number, answers.frames[k], answers.ended));
    return { results, generation: s.generation };
  }

  /** A request's answer as its frame, or its error (a lost context retires the server). */
  private settle(s: ServeProcess, id: number, f: Frame | undefined, ended: Error | undefined): Frame | GkRuntimeError {
    if (f === undefined) {
      return ended instanceof GkRuntimeError ? ended : launcherFailed(`gpu_launcher --serve stopped answering: ${String(ended?.message)}`);
    }
    if (f.header.id !== id) return launcherFailed(`gpu_launcher --serve answered request ${String(f.header.id)}, expected ${id}`);
    if (f.header.ok === true) return f;
    const lost = f.header.contextLost === true || f.header.fatal === true;
    if (lost) s.retire("");
    const info = parseLauncherError(f.header.error);
    return info ? fromLauncherError(info, lost) : launcherFailed(`gpu_launcher --serve sent a malformed error: ${JSON.stringify(f.header)}`);
  }

  private ensureServer(): ServeProcess {
    if (this.server !== undefined) return this.server;
    const path = launcherPath(this.opts);
    if (!existsSync(path)) throw missingLauncher(path);
    const args = [...(this.opts.device !== undefined ? ["--device", String(this.opts.device)] : []), "--serve"];
    const io = this.opts.hostIo === false ? undefined : hostIo();
    const shared = (this.opts.sharedFileMinBytes ?? DEFAULT_SHARED_MIN_BYTES) === Infinity ? undefined : SharedFile.create(this.opts.sharedFileDir, false, io);
    const s = new ServeProcess(
      path,
      args,
      this.opts.env,
      ++this.generations,
      shared,
      (ended) => {
        this.lost++;
        if (this.server === ended) this.server = undefined;
      },
      io,
    );
    this.server = s;
    return s;
  }
}

function timingOf(frame: Frame): SessionTiming {
  const t = frame.header.timing as Omit<SessionTiming, "hostMs">;
  return { kernelMs: t.kernelMs, kernelMinMs: t.kernelMinMs, kernelMedianMs: t.kernelMedianMs, launches: t.launches, hostMs: frame.header.ms as number };
}

/**
 * One `gpu_launcher --serve` process and the frames exchanged with it. Requests go out in
 * batches (one request is a batch of one): all of a batch's frames are written at once and
 * the answers, which come back in order, are collected as they arrive. Batches may be sent
 * before the answers to earlier ones have come (queued launches do not wait for theirs). The process inherits
 * the session's shared file (shared.ts) as descriptor 3.
 *
 * A batch whose answer is awaited (everything but a queued launch) goes out at once, and with
 * the addon's host helpers (hostIo.ts) its answer is awaited for a moment on this thread
 * without sleeping: Node waking from its event loop costs tens of microseconds on an idle
 * core, several times what the server takes to answer a sync.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import { GkRuntimeError } from "../errors.js";
import { Fifo, FrameReader, PREFIX_BYTES, encodeHead, writePrefix, type Frame } from "./frames.js";
import type { HostIo } from "./hostIo.js";
import type { SharedFile } from "./shared.js";

export interface ServeRequest {
  /** The request's header, with its `id`. */
  readonly header: Record<string, unknown>;
  /** The header as JSON text, where the caller wrote it (sent instead of `header` stringified). */
  readonly json?: string;
  readonly payload?: Uint8Array;
  /** Stop the server if this answer takes longer than this many milliseconds. */
  readonly timeoutMs?: number;
}

/** A batch's answers, in order: as many as came before the stream ended, and why it ended if it did. */
export interface Answers {
  readonly frames: readonly Frame[];
  readonly ended?: Error;
}

interface Pending {
  readonly requests: readonly ServeRequest[];
  readonly frames: Frame[];
  readonly done: (a: Answers) => void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

const COALESCE_BYTES = 1 << 16;
/** How long an awaited answer is waited for on this thread, as the in-process engine waits for a queue (native.ts). */
const SPIN_US = 100;
/** Queued launches after the first of a turn go out this many at a time, unless a request that is awaited or the end of the turn sends them sooner. */
const HELD_LAUNCHES = 32;
/** One answer awaited by nobody (a queued launch's): no payload, no timeout. */
const QUEUED: readonly ServeRequest[] = [{ header: {} }];

export class ServeProcess {
  /** Requests may be sent; false once the process ended, lost its context, or was closed. */
  alive = true;
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly reader = new FrameReader();
  private readonly handles: readonly { ref(): unknown; unref(): unknown }[];
  private readonly pending = new Fifo<Pending>();
  private readonly outbox: Buffer[] = [];
  private waitingDrain = false;
  private inTurn = false;
  /** Queued launches' frames held back (`heldBytes` of them, `heldCount` frames), written together. */
  private held = Buffer.allocUnsafe(1 << 16);
  private heldBytes = 0;
  private heldCount = 0;
  private refd = true;
  private stderr = "";
  /** The descriptor answers are read from, when this thread may wait for them (with `io`). */
  private readonly answerFd: number | undefined;
  private spinBuf: Buffer | undefined;
  private spinning = false;

  /**
   * `onEnd` is called once, when the process stops taking requests other than by close():
   * it exited, could not start, lost its GPU context, or was stopped.
   */
  constructor(
    path: string,
    args: readonly string[],
    env: Readonly<Record<string, string>> | undefined,
    readonly generation: number,
    readonly shared: SharedFile | undefined,
    private readonly onEnd: (s: ServeProcess) => void,
    private readonly io?: HostIo,
  ) {
    this.child = spawn(path, [...args], {
      stdio: ["pipe", "pipe", "pipe", ...(shared ? [shared.fd] : [])],
      env: { ...process.env, ...env },
    });
    let resolveExit!: () => void;
    this.exited = new Promise<void>((r) => (resolveExit = r));
    this.child.stdout!.on("data", (c: Buffer) => {
      this.reader.push(c);
      this.deliver();
    });
    this.child.stderr!.on("data", (c: Buffer) => (this.stderr = (this.stderr + c.toString("utf8")).slice(-4096)));
    this.child.stdin!.on("error", () => undefined); // EPIPE after an exit; the exit is reported instead
    const ended = (how: string) => {
      this.stop();
      const tail = this.stderr.trim() ? `; stderr: ${this.stderr.trim().slice(-1000)}` : "";
      this.reader.end(new GkRuntimeError("GK8008", `gpu_launcher --serve ${how}${tail}`, { contextLost: true }));
      this.deliver();
      this.shared?.close();
      resolveExit();
    };
    this.child.on("error", (e) => ended(`could not run: ${e.message}`));
    this.child.on("close", (code, signal) => ended(signal ? `was killed by ${signal}` : `exited with status ${code}`));
    this.handles = [this.child, this.child.stdin, this.child.stdout, this.child.stderr].filter((h) => h === this.child || h instanceof Socket) as { ref(): unknown; unref(): unknown }[];
    this.setRef(false);
    const fd = (this.child.stdout as unknown as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
    this.answerFd = io !== undefined && typeof fd === "number" && fd >= 0 ? fd : undefined;
  }

  /**
   * Sends the requests; `done` gets their answers, called from the read that completes them
   * (no extra turn of the event loop). Batches are answered in the order they were sent.
   * The caller waits for the answers, so the requests go out at once and the answers are
   * waited for here for a moment (a queued launch, whose answer nobody waits for, goes by
   * sendQueued instead).
   */
  send(requests: readonly ServeRequest[], done: (a: Answers) => void): void {
    const p: Pending = { requests, frames: [], done, timer: undefined, settled: false };
    this.pending.push(p);
    this.setRef(true);
    if (this.pending.length === 1) this.arm(p);
    if (requests.length === 1 && !(requests[0]!.payload?.byteLength ?? 0)) {
      const r = requests[0]!;
      this.write([encodeHead(r.json ?? r.header)], true); // the common case: one small frame
    } else {
      this.write(this.frames(requests), true);
    }
    this.deliver(); // the process may have ended already
    this.await(p);
  }

  /**
   * Sends a queued launch (`json`, its header as JSON text); `done` gets its answer, which
   * nobody waits for. The hot path of a loop of launches: the frame is written into a buffer
   * that goes out with the launches after it (see write()), with no objects made for the
   * request.
   */
  sendQueued(json: string, done: (a: Answers) => void): void {
    const p: Pending = { requests: QUEUED, frames: [], done, timer: undefined, settled: false };
    this.pending.push(p);
    this.setRef(true);
    const most = PREFIX_BYTES + json.length * 3;
    if (most > this.held.length) {
      this.write([encodeHead(json)], false);
    } else {
      if (this.heldBytes + most > this.held.length) this.release();
      const n = this.held.write(json, this.heldBytes + PREFIX_BYTES, "utf8");
      writePrefix(this.held, this.heldBytes, n, 0);
      this.heldBytes += PREFIX_BYTES + n;
      this.heldCount++;
      this.write([], false);
    }
    this.deliver(); // the process may have ended already
  }

  /**
   * Reads answers on this thread, without sleeping, until `p` is answered or SPIN_US have
   * passed (the event loop reads the rest). Both read the same pipe, one at a time, in order.
   */
  private await(p: Pending): void {
    const fd = this.answerFd;
    if (fd === undefined || this.spinning || p.settled || !this.alive) return;
    this.spinning = true;
    try {
      const buf = (this.spinBuf ??= Buffer.allocUnsafe(1 << 16));
      const until = performance.now() + SPIN_US / 1000;
      while (!p.settled) {
        const left = (until - performance.now()) * 1000;
        if (left <= 0) return;
        const n = this.io!.readReady(fd, buf, left);
        if (n < 0) return; // the end of the stream: the event loop sees it and says why
        if (n > 0) {
          this.reader.push(Buffer.from(buf.subarray(0, n)));
          this.deliver();
        }
      }
    } finally {
      this.spinning = false;
    }
  }

  /** The requests as buffers to write: small frames joined, large payloads on their own. */
  private frames(requests: readonly ServeRequest[]): Buffer[] {
    const parts: Buffer[] = [];
    let small: Buffer[] = [];
    let smallBytes = 0;
    for (const r of requests) {
      const n = r.payload?.byteLength ?? 0;
      const head = encodeHead(r.json ?? r.header, n);
      small.push(head);
      smallBytes += head.length;
      if (n > 0 && n <= COALESCE_BYTES) {
        small.push(Buffer.from(r.payload!.buffer, r.payload!.byteOffset, n));
        smallBytes += n;
      }
      if (n > COALESCE_BYTES || smallBytes > COALESCE_BYTES) {
        parts.push(small.length === 1 ? small[0]! : Buffer.concat(small, smallBytes));
        small = [];
        smallBytes = 0;
      }
      if (n > COALESCE_BYTES) parts.push(Buffer.from(r.payload!.buffer, r.payload!.byteOffset, n));
    }
    if (small.length > 0) parts.push(small.length === 1 ? small[0]! : Buffer.concat(small, smallBytes));
    return parts;
  }

  /** Stops a server whose context is gone: it exits by itself, or is killed if `why` says it hangs. */
  retire(why: string): void {
    if (!this.alive) return;
    this.stop();
    if (why) {
      this.reader.end(new GkRuntimeError("GK8008", why, { contextLost: true }));
      this.child.kill("SIGKILL");
      this.deliver();
    } else {
      this.child.stdin?.end();
    }
  }

  /** Ends the server by request (`closing` is the close frame), freeing everything it holds. */
  async close(closing: object): Promise<void> {
    if (this.alive) {
      this.release(); // the launches held back go before the close
      this.flush();
      this.alive = false; // ending by request: onEnd is not called
      this.setRef(true);
      this.child.stdin?.end(encodeHead(closing));
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private stop(): void {
    if (!this.alive) return;
    this.alive = false;
    this.onEnd(this);
  }

  /**
   * Writes the parts after everything written before, waiting for the pipe to drain after a
   * part it could not take at once (a later batch waits behind, so frames never interleave).
   * The first queued launch of a turn of the event loop goes out at once (the GPU starts on it
   * while Node goes on: for a launch and its sync, a head start worth more than the write(2)
   * saved by sending both together), and so does everything else but the queued launches
   * after it: those are held back and go out HELD_LAUNCHES at a time, with the next request
   * that is awaited, or at the end of the turn. A loop of queued launches costs one write(2)
   * per HELD_LAUNCHES launches, not one per launch.
   */
  private write(parts: readonly Buffer[], now: boolean): void {
    if (now || parts.length > 0 || !this.inTurn || this.heldCount >= HELD_LAUNCHES) this.release(parts);
    this.flush();
    if (now) {
      this.inTurn = false; // a queued launch after it goes at once too (its answer may come within this turn)
    } else if (!this.inTurn) {
      this.inTurn = true;
      setImmediate(() => {
        this.inTurn = false;
        this.release();
        this.flush();
      });
    }
  }

  /** Moves the held-back launches to the outbox, then `parts` (joined with them when small: one write). */
  private release(parts: readonly Buffer[] = []): void {
    if (this.heldBytes === 0) {
      for (const p of parts) this.outbox.push(p);
      return;
    }
    const held = this.held.subarray(0, this.heldBytes);
    let small = 0;
    for (const p of parts) small += p.length;
    if (small <= COALESCE_BYTES) {
      this.outbox.push(Buffer.concat([held, ...parts], this.heldBytes + small));
    } else {
      this.outbox.push(Buffer.from(held));
      for (const p of parts) this.outbox.push(p);
    }
    this.heldBytes = 0;
    this.heldCount = 0;
  }

  private flush(): void {
    const stdin = this.child.stdin!;
    while (!this.waitingDrain && this.outbox.length > 0) {
      if (!this.alive) {
        this.outbox.length = 0; // the answers, or the exit, say what happened
        return;
      }
      const part = this.outbox.shift()!;
      if (!stdin.write(part) && this.outbox.length > 0) {
        this.waitingDrain = true;
        stdin.once("drain", () => {
          this.waitingDrain = false;
          this.flush();
        });
      }
    }
  }

  /** Hands the answers read so far to the pending batches, in order; resolves each when complete or when the stream ended. */
  private deliver(): void {
    for (;;) {
      const p = this.pending.first();
      if (p === undefined) return;
      while (p.frames.length < p.requests.length) {
        const f = this.reader.shift();
        if (f === undefined) break;
        p.frames.push(f);
        if (p.timer !== undefined) {
          clearTimeout(p.timer);
          p.timer = undefined;
          this.arm(p);
        }
      }
      const ended = p.frames.length < p.requests.length ? this.reader.ended : undefined;
      if (p.frames.length < p.requests.length && ended === undefined) return;
      this.pending.shift();
      p.settled = true;
      if (p.timer !== undefined) clearTimeout(p.timer);
      if (this.pending.length > 0) this.arm(this.pending.first()!);
      else if (this.alive) this.setRef(false);
      p.done(ended ? { frames: p.frames, ended } : { frames: p.frames });
    }
  }

  /** Starts the timer of the next answer the batch waits for, if it has one. */
  private arm(p: Pending): void {
    const ms = p.requests[p.frames.length]?.timeoutMs;
    if (ms !== undefined) {
      p.timer = setTimeout(() => this.retire(`gpu_launcher --serve did not answer within ${ms} ms and was stopped`), ms);
    }
  }

  /** An idle server does not keep Node running; a busy one does. */
  private setRef(on: boolean): void {
    if (this.refd === on) return;
    this.refd = on;
    for (const h of this.handles) {
      if (on) h.ref();
      else h.unref();
    }
  }
}

/**
 * --serve frames (spec: "--serve frames"): "GKF1", a u32 header length, a u64 payload length
 * (little-endian), the JSON header, then the raw payload bytes.
 */
import { launcherFailed } from "./errors.js";

export const FRAME_MAGIC = Buffer.from("GKF1", "latin1");
export const PREFIX_BYTES = 16;
export const MAX_HEADER_BYTES = 1 << 20;

const MAGIC_U32 = FRAME_MAGIC.readUInt32LE(0);
const TWO_32 = 2 ** 32;
const EMPTY = Buffer.alloc(0);

export interface Frame {
  readonly header: Record<string, unknown>;
  readonly payload: Buffer;
}

/** Writes a frame's prefix at `at` in `buf`: the magic, the header's and the payload's lengths. */
export function writePrefix(buf: Buffer, at: number, headerBytes: number, payloadBytes: number): void {
  buf.writeUInt32LE(MAGIC_U32, at);
  buf.writeUInt32LE(headerBytes, at + 4);
  buf.writeUInt32LE(payloadBytes % TWO_32, at + 8);
  buf.writeUInt32LE(Math.floor(payloadBytes / TWO_32), at + 12);
}

/** The prefix and header of one frame (an object, or its JSON text), in one new Buffer. */
export function encodeHead(header: object | string, payloadBytes = 0): Buffer {
  const json = typeof header === "string" ? header : JSON.stringify(header);
  const n = Buffer.byteLength(json, "utf8");
  const head = Buffer.allocUnsafe(PREFIX_BYTES + n);
  writePrefix(head, 0, n, payloadBytes);
  head.write(json, PREFIX_BYTES, n, "utf8");
  return head;
}

/** The bytes of one frame: the prefix and header together, then the payload (not copied). */
export function encodeFrame(header: object, payload?: Uint8Array): Buffer[] {
  const p = payload?.byteLength ?? 0;
  const head = encodeHead(header, p);
  return payload && p > 0 ? [head, Buffer.from(payload.buffer, payload.byteOffset, p)] : [head];
}

/**
 * A first-in first-out list whose shift() takes the same time however long the list: a loop of
 * queued launches that never yields leaves thousands of answers waiting, and
 * Array.prototype.shift copies a long array each time.
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  /** The first item, left in place. */
  first(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head];
    this.items[this.head++] = undefined; // collectable
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
}

/**
 * Reassembles frames from stdout chunks. A chunk that holds whole frames (the usual case for
 * answers) is parsed where it lies; otherwise chunks are kept as they came and joined once per
 * frame, so a large payload costs one copy.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private waiting: { resolve: (f: Frame) => void; reject: (e: Error) => void } | undefined;
  private endedWith: Error | undefined;
  private readonly ready = new Fifo<Frame>();

  push(chunk: Buffer): void {
    if (this.endedWith) return;
    if (this.buffered === 0) {
      // Fast path: frames that lie whole in this chunk are read from it directly.
      let at = 0;
      while (at + PREFIX_BYTES <= chunk.length) {
        const end = this.frameEnd(chunk, at);
        if (end < 0 || end > chunk.length) break;
        const f = this.parse(chunk, at, end);
        if (!f) return this.pump();
        this.ready.push(f);
        at = end;
      }
      if (this.endedWith) return this.pump();
      if (at < chunk.length) {
        this.chunks.push(at === 0 ? chunk : chunk.subarray(at));
        this.buffered = chunk.length - at;
      }
    } else {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      for (;;) {
        const f = this.tryFrame();
        if (f === undefined) break;
        this.ready.push(f);
      }
    }
    this.pump();
  }

  /** No more data will come; a pending or later `next()` rejects with `why` once the frames already read are taken. */
  end(why: Error): void {
    this.endedWith ??= why;
    this.pump();
  }

  /** Why the stream ended, once it has and every frame read before has been taken. */
  get ended(): Error | undefined {
    return this.ready.length === 0 ? this.endedWith : undefined;
  }

  /** The next frame already read, if any. */
  shift(): Frame | undefined {
    return this.ready.shift();
  }

  next(): Promise<Frame> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.pump();
    });
  }

  private pump(): void {
    const w = this.waiting;
    if (!w) return;
    const f = this.ready.shift();
    if (f) {
      this.waiting = undefined;
      w.resolve(f);
    } else if (this.endedWith) {
      this.waiting = undefined;
      w.reject(this.endedWith);
    }
  }

  /** Where the frame starting at `at` in `b` ends (≥ 0), or -1 (and the stream ends) if the bytes are not a frame. */
  private frameEnd(b: Buffer, at: number): number {
    if (b.readUInt32LE(at) !== MAGIC_U32) {
      this.fail(b.subarray(at, at + PREFIX_BYTES));
      return -1;
    }
    return at + PREFIX_BYTES + b.readUInt32LE(at + 4) + b.readUInt32LE(at + 8) + b.readUInt32LE(at + 12) * TWO_32;
  }

  /** The frame in b[at, end), or undefined (and the stream ends) if its header is not a JSON object. */
  private parse(b: Buffer, at: number, end: number): Frame | undefined {
    const headerEnd = at + PREFIX_BYTES + b.readUInt32LE(at + 4);
    const text = b.toString("utf8", at + PREFIX_BYTES, headerEnd);
    let header: unknown;
    try {
      header = JSON.parse(text);
    } catch {
      header = undefined;
    }
    if (typeof header !== "object" || header === null) {
      this.endedWith ??= launcherFailed(`gpu_launcher --serve sent a frame whose header is not a JSON object: ${text.slice(0, 200)}`);
      this.chunks = [];
      this.buffered = 0;
      return undefined;
    }
    return { header: header as Record<string, unknown>, payload: headerEnd === end ? EMPTY : b.subarray(headerEnd, end) };
  }

  private fail(prefix: Buffer): void {
    this.endedWith ??= launcherFailed(`gpu_launcher --serve sent bytes that are not a frame: ${JSON.stringify(prefix.toString("latin1"))}`);
    this.chunks = [];
    this.buffered = 0;
  }

  private tryFrame(): Frame | undefined {
    if (this.endedWith || this.buffered < PREFIX_BYTES) return undefined;
    const prefix = this.peek(PREFIX_BYTES);
    const end = this.frameEnd(prefix, 0);
    if (end < 0 || this.buffered < end) return undefined;
    const whole = this.take(end);
    return this.parse(whole, 0, end);
  }

  /** The first n buffered bytes (n ≤ buffered), left in place. */
  private peek(n: number): Buffer {
    const parts: Buffer[] = [];
    let have = 0;
    for (const c of this.chunks) {
      parts.push(c);
      have += c.length;
      if (have >= n) break;
    }
    return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).subarray(0, n);
  }

  /** Removes and returns the first n buffered bytes (n ≤ buffered). */
  private take(n: number): Buffer {
    const first = this.chunks[0];
    if (n === 0) return EMPTY;
    let out: Buffer;
    if (first && first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0]!;
        const k = Math.min(c.length, n - filled);
        c.copy(out, filled, 0, k);
        filled += k;
        if (k === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(k);
      }
    }
    this.buffered -= n;
    return out;
  }
}

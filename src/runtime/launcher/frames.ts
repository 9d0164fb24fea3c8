/**
 * --serve frames (spec: "--serve frames"): "GKF1", a u32 header length, a u64 payload length
 * (little-endian), the JSON header, then the raw payload bytes.
 */
import { launcherFailed } from "./errors.js";

export const FRAME_MAGIC = Buffer.from("GKF1", "latin1");
export const PREFIX_BYTES = 16;
export const MAX_HEADER_BYTES = 1 << 20;

export interface Frame {
  readonly header: Record<string, unknown>;
  readonly payload: Buffer;
}

/** The bytes of one frame: the prefix and header together, then the payload (not copied). */
export function encodeFrame(header: object, payload?: Uint8Array): Buffer[] {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const head = Buffer.alloc(PREFIX_BYTES + json.length);
  FRAME_MAGIC.copy(head, 0);
  head.writeUInt32LE(json.length, 4);
  head.writeBigUInt64LE(BigInt(payload?.byteLength ?? 0), 8);
  json.copy(head, PREFIX_BYTES);
  return payload && payload.byteLength > 0 ? [head, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)] : [head];
}

/**
 * Reassembles frames from stdout chunks. Chunks are kept as they came and joined once per
 * frame, so a large payload costs one copy.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private waiting: { resolve: (f: Frame) => void; reject: (e: Error) => void } | undefined;
  private ended: Error | undefined;
  private readonly ready: Frame[] = [];

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.pump();
  }

  /** No more data will come; a pending or later `next()` rejects with `why`. */
  end(why: Error): void {
    this.ended ??= why;
    this.pump();
  }

  next(): Promise<Frame> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.pump();
    });
  }

  private pump(): void {
    for (;;) {
      const frame = this.tryFrame();
      if (frame === undefined) break;
      this.ready.push(frame);
    }
    const w = this.waiting;
    if (!w) return;
    const f = this.ready.shift();
    if (f) {
      this.waiting = undefined;
      w.resolve(f);
    } else if (this.ended) {
      this.waiting = undefined;
      w.reject(this.ended);
    }
  }

  private tryFrame(): Frame | undefined {
    if (this.buffered < PREFIX_BYTES) return undefined;
    const prefix = this.peek(PREFIX_BYTES);
    if (!prefix.subarray(0, 4).equals(FRAME_MAGIC)) {
      this.ended ??= launcherFailed(`gpu_launcher --serve sent bytes that are not a frame: ${JSON.stringify(prefix.toString("latin1"))}`);
      this.chunks = [];
      this.buffered = 0;
      return undefined;
    }
    const headerBytes = prefix.readUInt32LE(4);
    const payloadBytes = Number(prefix.readBigUInt64LE(8));
    if (this.buffered < PREFIX_BYTES + headerBytes + payloadBytes) return undefined;
    this.take(PREFIX_BYTES);
    const headerText = this.take(headerBytes).toString("utf8");
    const payload = this.take(payloadBytes);
    let header: unknown;
    try {
      header = JSON.parse(headerText);
    } catch {
      header = undefined;
    }
    if (typeof header !== "object" || header === null) {
      this.ended ??= launcherFailed(`gpu_launcher --serve sent a frame whose header is not a JSON object: ${headerText.slice(0, 200)}`);
      return undefined;
    }
    return { header: header as Record<string, unknown>, payload };
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
    if (n === 0) return Buffer.alloc(0);
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

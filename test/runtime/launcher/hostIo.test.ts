// The addon's host helpers for process isolation (src/runtime/launcher/hostIo.ts,
// native/hostio.cpp): reading a pipe without sleeping, and the shared file mapped into this
// process, against the system-call path it replaces.
import { spawn } from "node:child_process";
import { readSync, writeSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { hostIo, type HostIo } from "../../../src/runtime/launcher/hostIo.js";
import { SharedFile } from "../../../src/runtime/launcher/shared.js";
import { ensureAddon } from "./helpers.js";

let io: HostIo;
beforeAll(async () => {
  await ensureAddon();
  io = hostIo()!;
  expect(io).toBeDefined();
});

/** Bytes that differ from place to place and from seed to seed. */
function pattern(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe("readReady", () => {
  it("returns 0 when nothing comes within the spin, the bytes once they come, and -1 at the end of the input", async () => {
    const child = spawn("sh", ["-c", "sleep 0.3; printf abc; sleep 0.3"], { stdio: ["ignore", "pipe", "ignore"] });
    const fd = (child.stdout as unknown as { _handle: { fd: number } })._handle.fd;
    expect(fd).toBeGreaterThanOrEqual(0);
    const buf = Buffer.alloc(16);
    // Node's event loop does not run during these calls: nothing else reads the pipe.
    const t0 = performance.now();
    expect(io.readReady(fd, buf, 2000)).toBe(0);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1.9); // 0, not the bytes: it did not wait for them (no upper bound on the time: a loaded machine decides that)
    const n = io.readReady(fd, buf, 5_000_000);
    expect(buf.subarray(0, n).toString()).toBe("abc");
    expect(io.readReady(fd, buf, 5_000_000)).toBe(-1);
    await new Promise((r) => child.on("close", r));
  });

  it("refuses a read with no room, and reports a closed descriptor as the end", () => {
    expect(() => io.readReady(0, new Uint8Array(0), 10)).toThrow(/room/);
    expect(io.readReady(1 << 20, Buffer.alloc(4), 10)).toBe(-1);
  });
});

describe("the shared file, mapped", () => {
  it("reads back what was written, across growing and shrinking, and agrees with the system-call path both ways", () => {
    const mapped = SharedFile.create(undefined, false, io)!;
    const plain = SharedFile.create(undefined, false)!;
    try {
      // Each size change drops the mapping; the next one may be given the same address.
      const sizes = [4096, 3 << 20, 70 << 20, 5000, 9 << 20, 1 << 20, 90 << 20, 64 << 10];
      sizes.forEach((size, k) => {
        expect(mapped.fit(size)).toBe(true);
        const at = size > 8192 ? 4096 : 0;
        const data = pattern(size - at, k + 1);
        expect(mapped.write(at, data)).toBe(true);
        const back = new Uint8Array(data.length);
        mapped.readInto(at, back);
        expect(Buffer.compare(back, data), `size ${size}`).toBe(0);
        // What the mapping wrote, read by system calls on the same descriptor.
        const viaCalls = new Uint8Array(data.length);
        let done = 0;
        while (done < viaCalls.length) done += readSync(mapped.fd, viaCalls, done, viaCalls.length - done, at + done);
        expect(Buffer.compare(viaCalls, data)).toBe(0);
        // What system calls wrote, read through the mapping.
        const other = pattern(data.length, 1000 + k);
        done = 0;
        while (done < other.length) done += writeSync(mapped.fd, other, done, other.length - done, at + done);
        mapped.readInto(at, back);
        expect(Buffer.compare(back, other)).toBe(0);
        // And the plain file gives the same answers.
        expect(plain.fit(size)).toBe(true);
        expect(plain.write(at, data)).toBe(true);
        const plainBack = new Uint8Array(data.length);
        plain.readInto(at, plainBack);
        expect(Buffer.compare(plainBack, data)).toBe(0);
      });
    } finally {
      mapped.close();
      plain.close();
    }
  });

  it("copy moves large arrays exactly and refuses arrays of different lengths", () => {
    const src = new Float64Array(pattern(24 << 20, 7).buffer);
    const dst = new Float64Array(src.length);
    io.copy(new Uint8Array(dst.buffer), new Uint8Array(src.buffer));
    expect(Buffer.compare(Buffer.from(dst.buffer), Buffer.from(src.buffer))).toBe(0);
    const part = new Uint8Array(dst.buffer, 12345, 3 << 20);
    io.copy(part, new Uint8Array(src.buffer, 999, 3 << 20));
    expect(Buffer.compare(part, new Uint8Array(src.buffer, 999, 3 << 20))).toBe(0);
    expect(() => io.copy(new Uint8Array(3), new Uint8Array(4))).toThrow(/same byte length/);
  });

  it("unmapFile detaches the mapping's ArrayBuffer, and leaves other ArrayBuffers alone", () => {
    const f = SharedFile.create(undefined, false, io)!;
    try {
      expect(f.fit(1 << 20)).toBe(true);
      const ab = io.mapFile(f.fd, 1 << 20);
      expect(ab.byteLength).toBe(1 << 20);
      io.unmapFile(ab);
      expect(ab.byteLength).toBe(0);
      io.unmapFile(ab); // twice: nothing left to do
      const ordinary = new ArrayBuffer(8);
      io.unmapFile(ordinary);
      expect(ordinary.byteLength).toBe(8);
      expect(() => io.mapFile(f.fd, 0)).toThrow(/size/);
      expect(() => io.mapFile(-1, 4096)).toThrow();
    } finally {
      f.close();
    }
  });
});

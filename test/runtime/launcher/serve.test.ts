// --serve's frame protocol, spoken directly (spec/launcher-protocol.md, "--serve frames"):
// answers, ids, payloads, and what happens to malformed frames.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameReader, encodeFrame, type Frame } from "../../../src/runtime/launcher/frames.js";
import { NO_DRIVER_ENV, buildFakeDriver, ensureLauncher, fakeModule, runRaw, tempDir, removeTempDirs } from "./helpers.js";

let bin: string;
let fakeEnv: Record<string, string>;
let mod: string;

beforeAll(async () => {
  bin = await ensureLauncher();
  const dir = tempDir("serve");
  fakeEnv = await buildFakeDriver(dir);
  mod = fakeModule(dir, ["saxpy", "oob"]);
});
afterAll(removeTempDirs);

/** A server and a way to send it raw bytes and read its frames. */
function serve(env: Record<string, string>) {
  const child = spawn(bin, ["--serve"], { env: { ...process.env, ...env } });
  const reader = new FrameReader();
  child.stdout.on("data", (c: Buffer) => reader.push(c));
  const exit = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  exit.then(() => reader.end(new Error("server exited")));
  child.stdin.on("error", () => undefined);
  return {
    send(bytes: Buffer | Buffer[]) {
      for (const b of [bytes].flat()) child.stdin.write(b);
    },
    async ask(header: object, payload?: Uint8Array): Promise<Frame> {
      this.send(encodeFrame(header, payload));
      return reader.next();
    },
    next: () => reader.next(),
    end: () => child.stdin.end(),
    exit,
  };
}

describe("--serve", () => {
  it("answers hello without a driver, echoes ids, and exits 0 at end of input", async () => {
    const s = serve(NO_DRIVER_ENV);
    const hello = await s.ask({ op: "hello", id: 7 });
    expect(hello.header).toMatchObject({ ok: true, id: 7, protocol: 1 });
    const alloc = await s.ask({ op: "alloc", bytes: 16, id: 8 });
    expect(alloc.header).toMatchObject({ ok: false, id: 8, error: { code: "NO_CUDA_DRIVER" } });
    expect(alloc.header.contextLost).toBeUndefined();
    s.end();
    expect(await s.exit).toBe(0);
  });

  it("answers malformed headers and carries on; skips payloads that were not asked for", async () => {
    const s = serve(NO_DRIVER_ENV);
    const raw = Buffer.from("{not json");
    const prefix = Buffer.alloc(16);
    prefix.write("GKF1", 0, "latin1");
    prefix.writeUInt32LE(raw.length, 4);
    s.send([prefix, raw]);
    expect((await s.next()).header).toMatchObject({ ok: false, error: { code: "BAD_REQUEST", offset: 1 } });
    expect((await s.ask({ op: "frobnicate" })).header.error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining('unknown op "frobnicate"') });
    expect((await s.ask({ op: "hello", extra: 1 })).header.error.message).toContain('unknown key "extra"');
    expect((await s.ask({ op: "hello" }, new Uint8Array(100))).header.error.message).toContain("takes no payload");
    expect((await s.ask({ op: "hello", id: 1 })).header).toMatchObject({ ok: true, id: 1 });
    expect((await s.ask({ op: "launch", module: 1, kernel: "k", grid: [1, 1, 1], block: [1, 1, 1], args: [] })).header.error).toMatchObject({ code: "UNKNOWN_HANDLE" });
    s.end();
    expect(await s.exit).toBe(0);
  });

  it("stops at a frame it cannot trust: bad magic, oversized header, truncation", async () => {
    for (const bytes of [
      Buffer.from("XXXX0000000000000000"),
      Buffer.concat([Buffer.from("GKF1"), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.alloc(8)]),
      Buffer.from("GKF1\x05\x00"),
    ]) {
      const r = await runRaw(bin, ["--serve"], bytes, NO_DRIVER_ENV);
      expect(r.code).toBe(3);
      const reader = new FrameReader();
      reader.push(r.stdout);
      const f = await reader.next();
      expect(f.header).toMatchObject({ ok: false, fatal: true, error: { code: "BAD_FRAME" } });
    }
  });

  it("uploads, launches, downloads and bounds-checks buffers on the fake driver", async () => {
    const s = serve(fakeEnv);
    const m = (await s.ask({ op: "load", path: mod })).header;
    expect(m).toMatchObject({ ok: true, cached: false });
    expect((await s.ask({ op: "load", path: mod })).header).toMatchObject({ module: m.module, cached: true });
    const ids: number[] = [];
    for (const data of [[1, 2, 3], [1, 1, 1], [0, 0, 0]]) {
      const a = (await s.ask({ op: "alloc", bytes: 12 })).header;
      ids.push(a.buffer as number);
      await s.ask({ op: "upload", buffer: a.buffer }, new Uint8Array(new Float32Array(data).buffer));
    }
    const launch = await s.ask({
      op: "launch", module: m.module, kernel: "saxpy", grid: [1, 1, 1], block: [32, 1, 1],
      args: [{ type: "i32", value: 3 }, { type: "f32", value: 2 }, ...ids.map((b) => ({ type: "buffer", buffer: b }))],
    });
    expect(launch.header).toMatchObject({ ok: true, timing: { launches: 1 } });
    const out = await s.ask({ op: "download", buffer: ids[2] });
    expect(new Float32Array(new Uint8Array(out.payload).buffer)).toEqual(new Float32Array([3, 5, 7]));
    expect((await s.ask({ op: "download", buffer: ids[2], offset: 4, bytes: 4 })).payload.length).toBe(4);
    expect((await s.ask({ op: "upload", buffer: ids[0], offset: 8 }, new Uint8Array(8))).header.error).toMatchObject({ code: "BAD_REQUEST", path: "payload" });
    expect((await s.ask({ op: "download", buffer: ids[0], bytes: 13 })).header.error).toMatchObject({ code: "BAD_REQUEST" });
    expect((await s.ask({ op: "free", buffer: 999 })).header.error).toMatchObject({ code: "UNKNOWN_HANDLE" });
    expect((await s.ask({ op: "free", buffer: ids[0] })).header.ok).toBe(true);
    expect((await s.ask({ op: "close" })).header.ok).toBe(true);
    expect(await s.exit).toBe(0);
  });

  it("answers a sticky error with contextLost and exits", async () => {
    const s = serve(fakeEnv);
    const m = (await s.ask({ op: "load", path: mod })).header;
    const b = (await s.ask({ op: "alloc", bytes: 4 })).header;
    const r = await s.ask({ op: "launch", module: m.module, kernel: "oob", grid: [1, 1, 1], block: [1, 1, 1], args: [{ type: "buffer", buffer: b.buffer }] });
    expect(r.header).toMatchObject({ ok: false, contextLost: true, error: { cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", sticky: true, phase: "kernel" } });
    expect(await s.exit).toBe(1);
  });
});

describe("--serve's fill and copy, and buffer arguments with an offset", () => {
  it("fills, copies and launches on part of a buffer, queued on queue 0, and bounds-checks each range", async () => {
    const s = serve(fakeEnv);
    const m = (await s.ask({ op: "load", path: mod })).header;
    const [x, y, out] = [
      (await s.ask({ op: "alloc", bytes: 32 })).header.buffer,
      (await s.ask({ op: "alloc", bytes: 32 })).header.buffer,
      (await s.ask({ op: "alloc", bytes: 32 })).header.buffer,
    ];
    const f32 = (...v: number[]) => new Uint8Array(new Float32Array(v).buffer);
    expect((await s.ask({ op: "fill", buffer: x, count: 8 }, f32(2))).header).toMatchObject({ ok: true });
    expect((await s.ask({ op: "fill", buffer: y, offset: 16, count: 2 }, new Uint8Array(new Float64Array([0.5]).buffer))).header.ok).toBe(true);
    const launch = await s.ask({
      op: "launch", module: m.module, kernel: "saxpy", grid: [1, 1, 1], block: [32, 1, 1], queue: 0, seq: 1,
      args: [{ type: "i32", value: 4 }, { type: "f32", value: 3 }, { type: "buffer", buffer: x, offset: 16 }, { type: "buffer", buffer: y, offset: 16 }, { type: "buffer", buffer: out, offset: 8 }],
    });
    expect(launch.header).toMatchObject({ ok: true, queued: true });
    expect((await s.ask({ op: "copy", buffer: out, offset: 0, from: out, fromOffset: 8, bytes: 8 })).header.ok).toBe(true);
    const got = new Float32Array(new Uint8Array((await s.ask({ op: "download", buffer: out })).payload).buffer);
    const half = new Float32Array(new Float64Array([0.5]).buffer);
    expect([...got]).toEqual([6 + half[0]!, 6 + half[1]!, 6 + half[0]!, 6 + half[1]!, 6 + half[0]!, 6 + half[1]!, 0, 0]);
    const error = async (h: object, p?: Uint8Array) => (await s.ask(h, p)).header.error;
    expect(await error({ op: "fill", buffer: x, offset: 4, count: 8 }, f32(1))).toMatchObject({ code: "BAD_REQUEST", path: "offset", message: expect.stringContaining("32 bytes at offset 4 do not fit a buffer of 32 bytes") });
    expect(await error({ op: "fill", buffer: x, count: 1 })).toMatchObject({ code: "BAD_REQUEST", path: "payload" });
    expect(await error({ op: "copy", buffer: x, offset: 0, from: x, fromOffset: 4, bytes: 8 })).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("overlap") });
    expect(await error({ op: "copy", buffer: x, from: 999, bytes: 8 })).toMatchObject({ code: "UNKNOWN_HANDLE" });
    expect(await error({ op: "copy", buffer: x, from: y, fromOffset: 28, bytes: 8 })).toMatchObject({ code: "BAD_REQUEST", path: "fromOffset" });
    expect(await error({ op: "launch", module: m.module, kernel: "saxpy", grid: [1, 1, 1], block: [1, 1, 1], args: [{ type: "i32", value: 0 }, { type: "f32", value: 0 }, { type: "buffer", buffer: x, offset: 33 }, { type: "buffer", buffer: y }, { type: "buffer", buffer: out }] })).toMatchObject({ code: "BAD_REQUEST", path: "args[2].offset" });
    expect((await s.ask({ op: "close" })).header.ok).toBe(true);
    expect(await s.exit).toBe(0);
  });
});

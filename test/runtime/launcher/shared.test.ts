// Shared files spoken directly (spec/launcher-protocol.md, "Shared files"): arrays read from and
// copied back into files named by descriptor or path, in --check and --serve, and a structured
// error for every way a reference can be wrong.
import { spawn } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameReader, encodeFrame, type Frame } from "../../../src/runtime/launcher/frames.js";
import { answer, buildFakeDriver, dummyModule, ensureLauncher, fakeModule, hexOf, removeTempDirs, runRaw, sampleArray, tempDir } from "./helpers.js";

let bin: string;
let dir: string;
let mod: string;
let fakeEnv: Record<string, string>;
let fakeMod: string;
const DIMS = ["1", "1", "1", "32", "1", "1"];
const ELEMS = { bool: 1, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8 } as const;
type Elem = keyof typeof ELEMS;

beforeAll(async () => {
  bin = await ensureLauncher();
  dir = tempDir("shared");
  mod = dummyModule(dir);
  fakeEnv = await buildFakeDriver(dir);
  fakeMod = fakeModule(dir, ["copy_f32"]);
});
afterAll(removeTempDirs);

const check = (req: unknown, fds: number[] = []) => runRaw(bin, ["--check", mod, "k", ...DIMS], JSON.stringify(req), {}, fds);

/** A request that must fail: its error, after checking the status. */
async function rejects(req: unknown, fds: number[] = [], status = 3) {
  const r = await check(req, fds);
  const a = answer(r);
  expect(a.ok, JSON.stringify(a)).toBe(false);
  expect(r.code).toBe(status);
  return a.error;
}

/** A file holding `bytes` at `offset` (zeros before), and its path. */
function fileWith(name: string, bytes: Uint8Array, offset = 0, size = offset + bytes.length): string {
  const path = join(dir, name);
  const b = Buffer.alloc(size);
  Buffer.from(bytes).copy(b, offset);
  writeFileSync(path, b);
  return path;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe("--check with shared files", () => {
  it("reads every element type from a file by path and copies it back, into the answer or into a file", async () => {
    const arrays = (Object.keys(ELEMS) as Elem[]).map((elem) => ({ elem, data: sampleArray(elem, 37) }));
    const args = arrays.flatMap(({ elem, data }, k) => {
      const src = fileWith(`in-${elem}`, bytesOf(data), 100 + k); // any offset, aligned or not
      const dst = fileWith(`out-${elem}`, new Uint8Array(0), 0, 7 + data.byteLength);
      return [
        { type: "array", elem, length: data.length, file: { path: src, offset: 100 + k }, copyBack: true },
        { type: "array", elem, length: data.length, file: { path: src, offset: 100 + k }, copyBack: true, copyBackTo: { path: dst, offset: 7 } },
      ];
    });
    const r = await check({ args });
    const a = answer(r);
    expect(a.ok, JSON.stringify(a)).toBe(true);
    arrays.forEach(({ elem, data }, k) => {
      expect(a.outputs[2 * k]).toEqual({ index: 2 * k, elem, b64: Buffer.from(bytesOf(data)).toString("base64") });
      expect(a.outputs[2 * k + 1]).toEqual({ index: 2 * k + 1, elem, copyBackTo: { path: join(dir, `out-${elem}`), offset: 7 }, bytes: data.byteLength });
      expect(readFileSync(join(dir, `out-${elem}`)).subarray(7).toString("hex")).toBe(hexOf(data));
    });
  });

  it("reads and writes through an inherited descriptor, in place, and zero-fills length arrays copied to a file", async () => {
    const data = sampleArray("f64", 1000);
    const path = fileWith("fd-file", bytesOf(data), 0, data.byteLength + 8000);
    const fd = openSync(path, "r+");
    try {
      writeSync(fd, Buffer.alloc(8000, 0xee), 0, 8000, data.byteLength);
      const a = answer(await check({
        args: [
          { type: "array", elem: "f64", length: 1000, file: { fd: 3 }, copyBack: true, copyBackTo: { fd: 3, offset: 0 } },
          { type: "array", elem: "f64", length: 1000, copyBack: true, copyBackTo: { fd: 3, offset: data.byteLength } },
          { type: "array", elem: "f64", length: 0, file: { fd: 3, offset: 16000 }, copyBack: true, copyBackTo: { fd: 3, offset: 16000 } },
        ],
      }, [fd]));
      expect(a.ok, JSON.stringify(a)).toBe(true);
      expect(a.outputs.map((o: { bytes: number }) => o.bytes)).toEqual([8000, 8000, 0]);
      const after = readFileSync(path);
      expect(after.subarray(0, 8000).toString("hex")).toBe(hexOf(data));
      expect(after.subarray(8000).equals(Buffer.alloc(8000))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it("answers every bad reference with BAD_REQUEST naming it, before touching a byte", async () => {
    const short = fileWith("short", new Uint8Array(8));
    const folder = join(dir, "a-folder");
    mkdirSync(folder, { recursive: true });
    const arr = (extra: object, elem = "f32") => ({ args: [{ type: "array", elem, length: 4, copyBack: true, ...extra }] });
    const cases: [object, string, RegExp][] = [
      [arr({ file: { fd: 1 } }), "args[0].file.fd", /standard streams/],
      [arr({ file: { fd: 9 } }), "args[0].file.fd", /descriptor 9 is not open/],
      [arr({ file: { path: "/nonexistent/gk/x" } }), "args[0].file.path", /cannot open "\/nonexistent\/gk\/x": No such file/],
      [arr({ file: { path: folder } }), "args[0].file", /is not a regular file/],
      [arr({ file: { path: short } }), "args[0].file", /holds 8 bytes, but bytes 0 to 16 were asked for/],
      [arr({ file: { path: short, offset: 4 } }), "args[0].file", /holds 8 bytes, but bytes 4 to 20/],
      [arr({ file: { path: short, offset: 2 ** 63 } }), "args[0].file.offset", /expected an integer from 0 to/],
      [arr({ file: { path: short, fd: 3 } }), "args[0].file", /give either "fd" or "path"/],
      [arr({ file: {} }), "args[0].file", /give either "fd" or "path"/],
      [arr({ file: { path: short, size: 4 } }), "args[0].file", /unknown key "size"/],
      [arr({ file: 3 }), "args[0].file", /expected \{"fd": N\} or \{"path": P\}/],
      [arr({ file: { path: "" } }), "args[0].file.path", /expected a file path/],
      [{ args: [{ type: "array", elem: "f32", file: { path: short } }] }, "args[0]", /needs "length"/],
      [arr({ file: { path: short }, b64: "" }), "args[0]", /give only one of "b64", "values" and "file"/],
      [{ args: [{ type: "array", elem: "f32", length: 1, copyBackTo: { path: short } }] }, "args[0].copyBackTo", /needs "copyBack": true/],
      [arr({ copyBackTo: { path: "/nonexistent/gk/y" } }), "args[0].copyBackTo.path", /cannot open/],
      [arr({ copyBackTo: { path: short, offset: 1 } }), "args[0].copyBackTo", /holds 8 bytes/],
      [arr({ file: { path: fileWith("bools", new Uint8Array([0, 2, 1, 0])) } }, "bool"), "args[0].file", /bool element 1 is 2/],
    ];
    // A FIFO would block an open for reading: it is refused like any file that is not regular.
    const fifo = join(dir, "a-fifo");
    if ((await execa("mkfifo", [fifo], { reject: false })).exitCode === 0) cases.push([arr({ file: { path: fifo } }), "args[0].file", /is not a regular file/]);
    for (const [req, path, message] of cases) {
      const e = await rejects(req);
      expect(e, JSON.stringify(req)).toMatchObject({ code: "BAD_REQUEST", phase: "request", path });
      expect(e.message).toMatch(message);
    }
  });

  it("needs a descriptor open for writing to copy back into it", async () => {
    const path = fileWith("read-only", new Uint8Array(16));
    const fd = openSync(path, "r");
    try {
      expect(await rejects(arr4({ file: { fd: 3 } }), [fd])).toMatchObject({ code: "BAD_REQUEST", path: "args[0].copyBackTo.fd", message: expect.stringContaining("not open for reading and writing") });
      expect(answer(await check({ args: [{ type: "array", elem: "f32", length: 4, file: { fd: 3 }, copyBack: true }] }, [fd])).ok).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it("allows arrays in files beyond the 2 GiB of JSON arrays, up to 2^40 bytes", async () => {
    const e = await rejects({ args: [{ type: "array", elem: "f64", length: 2 ** 38, copyBack: true, copyBackTo: { fd: 3 } }] });
    expect(e).toMatchObject({ code: "TOO_LARGE", message: expect.stringContaining("in shared files") });
    const big = await rejects({ args: [{ type: "array", elem: "f32", length: 2 ** 32, copyBack: true, copyBackTo: { path: fileWith("short-2", new Uint8Array(8)) } }] });
    expect(big).toMatchObject({ code: "BAD_REQUEST", path: "args[0].copyBackTo" }); // not TOO_LARGE: only the file is too short
  });
});

function arr4(extra: object) {
  return { args: [{ type: "array", elem: "f32", length: 4, copyBack: true, copyBackTo: { fd: 3 }, ...extra }] };
}

/** A --serve process on the fake driver with `fd` as its descriptor 3. */
function serve(fd?: number, env: Record<string, string> = {}) {
  const child = spawn(bin, ["--serve"], { env: { ...process.env, ...fakeEnv, ...env }, stdio: ["pipe", "pipe", "pipe", ...(fd !== undefined ? [fd] : [])] });
  const reader = new FrameReader();
  child.stdout!.on("data", (c: Buffer) => reader.push(c));
  const exit = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  exit.then(() => reader.end(new Error("server exited")));
  child.stdin!.on("error", () => undefined);
  return {
    async ask(header: object, payload?: Uint8Array): Promise<Frame> {
      for (const b of encodeFrame(header, payload)) child.stdin!.write(b);
      return reader.next();
    },
    end: () => child.stdin!.end(),
    exit,
  };
}

describe("--serve with shared files", () => {
  it("allocates, uploads and downloads through a descriptor, and follows the file when it grows", async () => {
    const path = join(dir, "staging");
    const fd = openSync(path, "w+");
    try {
      const data = sampleArray("u64", 512);
      ftruncateSync(fd, 4096);
      writeSync(fd, bytesOf(data), 0, data.byteLength, 0);
      const s = serve(fd);
      const a = (await s.ask({ op: "alloc", bytes: 4096, file: { fd: 3 } })).header;
      expect(a).toMatchObject({ ok: true, bytes: 4096, pinned: true }); // the descriptor's file is page-locked
      const back = await s.ask({ op: "download", buffer: a.buffer, file: { fd: 3, offset: 0 } });
      expect(back.header).toMatchObject({ ok: true, bytes: 4096, pinned: true });
      expect(back.payload.length).toBe(0);
      expect(readFileSync(path).toString("hex")).toBe(hexOf(data));
      // The file grows: the server maps it again.
      const more = sampleArray("u64", 100);
      ftruncateSync(fd, 1 << 20);
      writeSync(fd, bytesOf(more), 0, more.byteLength, 900_000);
      expect((await s.ask({ op: "upload", buffer: a.buffer, offset: 8, file: { fd: 3, offset: 900_000 }, bytes: 800 })).header).toMatchObject({ ok: true, bytes: 800 });
      const part = await s.ask({ op: "download", buffer: a.buffer, offset: 8, bytes: 800 });
      expect(part.payload.toString("hex")).toBe(hexOf(more));
      // A payload still works, for alloc too; a path is mapped for one request and not page-locked.
      const b = (await s.ask({ op: "alloc", bytes: 800 }, bytesOf(more))).header;
      expect(b.pinned).toBeUndefined();
      expect((await s.ask({ op: "download", buffer: b.buffer })).payload.toString("hex")).toBe(hexOf(more));
      expect((await s.ask({ op: "upload", buffer: b.buffer, file: { path, offset: 900_000 }, bytes: 800 })).header).toMatchObject({ ok: true, pinned: false });
      expect((await s.ask({ op: "close" })).header.ok).toBe(true);
      expect(await s.exit).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("answers bad transfers with BAD_REQUEST and carries on", async () => {
    const path = join(dir, "staging-2");
    const fd = openSync(path, "w+");
    ftruncateSync(fd, 64);
    try {
      const s = serve(fd);
      const b = (await s.ask({ op: "alloc", bytes: 128 })).header.buffer;
      const cases: [object, Uint8Array | undefined, string, RegExp][] = [
        [{ op: "upload", buffer: b, file: { fd: 3 }, bytes: 8 }, new Uint8Array(8), "file", /not both/],
        [{ op: "upload", buffer: b, file: { fd: 3 } }, undefined, "frame", /missing "bytes"/],
        [{ op: "upload", buffer: b, bytes: 8 }, new Uint8Array(8), "bytes", /goes with "file"/],
        [{ op: "upload", buffer: b, file: { fd: 3 }, bytes: 128 }, undefined, "file", /holds 64 bytes, but bytes 0 to 128/],
        [{ op: "upload", buffer: b, offset: 100, file: { fd: 3 }, bytes: 64 }, undefined, "bytes", /do not fit a buffer of 128 bytes/],
        [{ op: "download", buffer: b, file: { fd: 3, offset: 8 } }, undefined, "file", /holds 64 bytes, but bytes 8 to 136/],
        [{ op: "download", buffer: b, file: { fd: 4 } }, undefined, "file.fd", /not open/],
        [{ op: "download", buffer: b, file: { path: "/nonexistent/gk/z" } }, undefined, "file.path", /cannot open/],
        [{ op: "alloc", bytes: 16 }, new Uint8Array(8), "payload", /a payload of 8 bytes does not fill a buffer of 16 bytes/],
        [{ op: "alloc", bytes: 8, file: { fd: 3 } }, new Uint8Array(8), "file", /not both/],
        [{ op: "alloc", bytes: 128, file: { fd: 3 } }, undefined, "file", /holds 64 bytes/],
      ];
      for (const [header, payload, p, message] of cases) {
        const f = await s.ask(header, payload);
        expect(f.header, JSON.stringify(header)).toMatchObject({ ok: false, error: { code: "BAD_REQUEST", path: p } });
        expect((f.header.error as { message: string }).message).toMatch(message);
      }
      expect((await s.ask({ op: "hello" })).header.ok).toBe(true);
      s.end();
      expect(await s.exit).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("copies from pageable memory, with the same result, where the driver refuses to page-lock", async () => {
    const path = join(dir, "staging-4");
    const fd = openSync(path, "w+");
    try {
      const data = sampleArray("i64", 100);
      ftruncateSync(fd, 4096);
      writeSync(fd, bytesOf(data), 0, 800, 0);
      const s = serve(fd, { FAKE_CUDA_PIN: "refuse" });
      const a = (await s.ask({ op: "alloc", bytes: 800, file: { fd: 3 } })).header;
      expect(a).toMatchObject({ ok: true, pinned: false });
      expect((await s.ask({ op: "download", buffer: a.buffer })).payload.toString("hex")).toBe(hexOf(data));
      s.end();
      expect(await s.exit).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("launches on buffers filled from files (fake driver)", async () => {
    const path = join(dir, "staging-3");
    const fd = openSync(path, "w+");
    try {
      const data = sampleArray("f32", 64);
      ftruncateSync(fd, 8192);
      writeSync(fd, bytesOf(data), 0, 256, 4096);
      const s = serve(fd);
      const m = (await s.ask({ op: "load", path: fakeMod })).header.module;
      const src = (await s.ask({ op: "alloc", bytes: 256, file: { fd: 3, offset: 4096 } })).header.buffer;
      const dst = (await s.ask({ op: "alloc", bytes: 256 })).header.buffer;
      const l = await s.ask({ op: "launch", module: m, kernel: "copy_f32", grid: [1, 1, 1], block: [64, 1, 1], args: [{ type: "i32", value: 64 }, { type: "buffer", buffer: src }, { type: "buffer", buffer: dst }] });
      expect(l.header.ok).toBe(true);
      await s.ask({ op: "download", buffer: dst, file: { fd: 3, offset: 0 } });
      expect(readFileSync(path).subarray(0, 256).toString("hex")).toBe(hexOf(data));
      s.end();
      expect(await s.exit).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});

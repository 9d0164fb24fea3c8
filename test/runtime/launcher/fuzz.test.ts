// Fuzzing the launcher's request readers with fast-check, against a build with AddressSanitizer
// and UBSan that aborts on the first finding. Whatever the input, the launcher must answer
// with JSON (or frames), exit with a documented status, and never crash.
// The --serve fuzzers also run on the fake driver, so that frames reach the driver-facing code.
// GK_FUZZ_RUNS=5000 runs more cases than CI does (test/helpers.ts). No time limit: it is CPU-bound.
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../helpers.js";
import { FrameReader, encodeFrame } from "../../../src/runtime/launcher/frames.js";
import { NO_DRIVER_ENV, buildFakeDriver, dummyModule, ensureLauncher, ensureSanitizedLauncher, fakeModule, runRaw, tempDir, type RawResult, removeTempDirs } from "./helpers.js";

const RUNS = FUZZ_RUNS;
const REQUEST_CODES = ["BAD_REQUEST", "TOO_LARGE", "BAD_LAUNCH_CONFIG"];

let bin: string;
let mod: string;
let scratch: string;
let fakeEnv: Record<string, string>;
let fakeMod: string;

beforeAll(async () => {
  try {
    bin = await ensureSanitizedLauncher();
  } catch (e) {
    // A machine whose g++ lacks the sanitizer runtimes still fuzzes the release build.
    console.warn(`launcher-fuzz: no sanitized build (${String(e).split("\n")[1] ?? e}); fuzzing build/gpu_launcher`);
    bin = await ensureLauncher();
  }
  const dir = tempDir("fuzz");
  mod = dummyModule(dir);
  scratch = join(dir, "scratch.bin");
  writeFileSync(scratch, Buffer.alloc(256, 1));
  fakeEnv = await buildFakeDriver(dir);
  fakeMod = fakeModule(dir, ["saxpy", "add_one", "oob", "bounded", "use_shared", "spin"]);
});
afterAll(removeTempDirs);

/** No sanitizer report, no signal, a documented status, and one JSON answer that agrees with it. */
function expectSound(r: RawResult): { ok: boolean; error?: { code: string } } {
  expect(r.stderr, r.stderr).not.toMatch(/Sanitizer|runtime error/);
  expect(r.signal).toBeNull();
  const a = JSON.parse(r.stdout.toString("utf8"));
  expect(typeof a.ok).toBe("boolean");
  if (a.ok) expect(r.code).toBe(0);
  else {
    // A grid "number" that looks like an option ("--x") is a usage error (status 2).
    expect(r.code).toBe(a.error.code === "USAGE" ? 2 : 3);
    expect([...REQUEST_CODES, "USAGE"]).toContain(a.error.code);
    expect(typeof a.error.message).toBe("string");
  }
  return a;
}

const ELEMS = { bool: 1, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8 } as const;
type Elem = keyof typeof ELEMS;
const elem = fc.constantFrom(...(Object.keys(ELEMS) as Elem[]));

const special = (x: number) => (Number.isNaN(x) ? "NaN" : x === Infinity ? "Infinity" : x === -Infinity ? "-Infinity" : Object.is(x, -0) ? "-0" : x);
const scalar = fc.oneof(
  fc.record({ type: fc.constant("bool"), value: fc.boolean() }),
  fc.record({ type: fc.constant("i32"), value: fc.integer() }),
  fc.record({ type: fc.constant("u32"), value: fc.nat({ max: 0xffffffff }) }),
  fc.record({ type: fc.constant("i64"), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
  fc.record({ type: fc.constant("u64"), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((v) => `0x${v.toString(16)}`) }),
  fc.record({ type: fc.constant("f32"), value: fc.float().map(special) }),
  fc.record({ type: fc.constant("f64"), value: fc.double().map(special) }),
);
const array = elem.chain((e) =>
  fc.oneof(
    fc.uint8Array({ maxLength: 8 * ELEMS[e], max: e === "bool" ? 1 : 255 }).map((bytes) => ({
      type: "array", elem: e, copyBack: true, b64: Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % ELEMS[e]))).toString("base64"),
    })),
    fc.nat({ max: 64 }).map((length) => ({ type: "array", elem: e, copyBack: true, length })),
  ),
);
const validRequest = fc.record({ args: fc.array(fc.oneof(scalar, array), { maxLength: 8 }) }, { requiredKeys: ["args"] });
// Shared-file references, good and bad: a scratch file of 256 bytes, a folder, a missing path,
// descriptors that are not open, and malformed objects.
const fileRef = () => fc.oneof(
  fc.record({
    path: fc.constantFrom("SCRATCH", "/nonexistent/gk/f", "/tmp", "").map((p) => (p === "SCRATCH" ? scratch : p)),
    offset: fc.oneof(fc.nat({ max: 300 }), fc.constant(2 ** 62)),
  }, { requiredKeys: ["path"] }),
  fc.record({ fd: fc.nat({ max: 12 }), offset: fc.nat({ max: 64 }) }, { requiredKeys: ["fd"] }),
  fc.jsonValue({ maxDepth: 1 }),
);
const fileArray = fc.record({
  type: fc.constant("array"), elem, length: fc.oneof(fc.nat({ max: 16 }), fc.constant(2 ** 40)), copyBack: fc.boolean(),
  file: fileRef(), copyBackTo: fileRef(),
}, { requiredKeys: ["type", "elem"] });
const anyRequest = fc.record({
  args: fc.array(fc.oneof(scalar, array, fileArray, fc.jsonValue({ maxDepth: 3 })), { maxLength: 8 }),
  sharedBytes: fc.oneof(fc.nat(), fc.jsonValue({ maxDepth: 1 })),
  repeat: fc.oneof(fc.nat({ max: 200_000 }), fc.double()),
}, { requiredKeys: ["args"] });

type Mutation = { at: number; kind: "truncate" | "flip" | "insert" | "delete"; byte: number; text: string };
const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("truncate", "flip", "insert", "delete"),
  byte: fc.nat({ max: 255 }),
  text: fc.constantFrom('"', "\\", "\\u", "{", "[", "]", "}", ",", ":", "-", "0x", "1e999", "\u0000", "\ud800", "é", "null", " "),
}) as fc.Arbitrary<Mutation>;

function mutate(text: string, ms: Mutation[]): Buffer {
  let b = Buffer.from(text, "utf8");
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1);
    if (m.kind === "truncate") b = b.subarray(0, at);
    else if (m.kind === "flip" && at < b.length) b[at] = m.byte;
    else if (m.kind === "insert") b = Buffer.concat([b.subarray(0, at), Buffer.from(m.text, "utf8"), b.subarray(at)]);
    else if (m.kind === "delete") b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + (m.byte % 8))]);
  }
  return b;
}

const DIMS = ["1", "1", "1", "32", "1", "1"];

describe("fuzzing --check (sanitized build)", () => {
  it("echoes valid requests exactly", async () => {
    await fc.assert(
      fc.asyncProperty(validRequest, async (req) => {
        const a = expectSound(await runRaw(bin, ["--check", mod, "k", ...DIMS], JSON.stringify(req))) as any;
        expect(a.ok).toBe(true);
        const arrays = req.args.map((x, i) => [x, i] as const).filter(([x]) => x.type === "array");
        expect(a.outputs.map((o: { index: number }) => o.index)).toEqual(arrays.map(([, i]) => i));
        arrays.forEach(([x], k) => {
          const want = "b64" in x ? x.b64 : Buffer.alloc((x as { length: number }).length * ELEMS[x.elem as Elem]).toString("base64");
          expect(a.outputs[k].b64).toBe(want);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("answers mutated requests with JSON and never crashes", async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest, fc.array(mutation, { maxLength: 4 }), async (req, ms) => {
        expectSound(await runRaw(bin, ["--check", mod, "k", ...DIMS], mutate(JSON.stringify(req), ms)));
      }),
      { numRuns: RUNS },
    );
  });

  it("answers random bytes and random grid numbers with JSON and never crashes", async () => {
    const dim = fc.oneof(fc.nat({ max: 70_000 }).map(String), fc.string({ maxLength: 12 }), fc.constantFrom("4294967296", "-1", "1e3", ""));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.array(dim, { minLength: 6, maxLength: 6 }), async (bytes, dims) => {
        expectSound(await runRaw(bin, ["--check", mod, "k", ...dims], bytes));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzzing --serve (sanitized build, no driver)", () => {
  it("answers any sequence of frames and bytes with frames, and never crashes", async () => {
    const header = fc.record({
      op: fc.constantFrom("hello", "devices", "init", "load", "unload", "alloc", "free", "upload", "download", "launch", "close", "x"),
      id: fc.oneof(fc.nat(), fc.jsonValue({ maxDepth: 1 })),
      buffer: fc.oneof(fc.nat({ max: 3 }), fc.jsonValue({ maxDepth: 1 })),
      bytes: fc.oneof(fc.nat(), fc.constant(2 ** 60)),
      path: fc.oneof(fc.constant(mod), fc.string()),
      grid: fc.array(fc.nat({ max: 70_000 }), { maxLength: 4 }),
      args: fc.array(fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }),
      file: fileRef(),
    }, { requiredKeys: ["op"] });
    const piece = fc.oneof(
      { weight: 5, arbitrary: fc.tuple(header, fc.uint8Array({ maxLength: 64 })).map(([h, p]) => Buffer.concat(encodeFrame(h, p))) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), async (pieces) => {
        const r = await runRaw(bin, ["--serve"], Buffer.concat(pieces), NO_DRIVER_ENV);
        expect(r.stderr).not.toMatch(/Sanitizer|runtime error/);
        expect(r.signal).toBeNull();
        expect([0, 3]).toContain(r.code);
        const reader = new FrameReader();
        reader.push(r.stdout);
        reader.end(new Error("end"));
        for (;;) {
          const f = await reader.next().catch(() => undefined);
          if (!f) break;
          expect(typeof f.header.ok).toBe("boolean");
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzzing --serve on the fake driver (sanitized build)", () => {
  // Requests that reach the driver: handles in the range the server hands out (modules and
  // buffers count from 1 together), payloads and shared-file transfers (descriptor 3, 256
  // bytes), launches of the fake kernels (a faulting one ends the server with contextLost; the
  // never-ending "spin" always with a short timeoutMs, which ends it with KERNEL_TIMEOUT), after
  // a set-up that loads a module and makes two buffers, in most sessions.
  const handle = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(0), fc.constant(2 ** 53));
  // Mostly the set-up's buffers (2 and 3).
  const bufHandle = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(2, 3) }, { weight: 1, arbitrary: handle });
  const fdRef = fc.record({ fd: fc.constantFrom(3, 3, 3, 4, 0), offset: fc.oneof(fc.nat({ max: 300 }), fc.constant(2 ** 62)) }, { requiredKeys: ["fd"] });
  const launchArg = fc.oneof(scalar, fc.record({ type: fc.constant("buffer"), buffer: bufHandle }));
  type Req = { header: Record<string, unknown>; payload?: Uint8Array };
  const request: fc.Arbitrary<Req> = fc.oneof(
    fc.record({ op: fc.constantFrom("hello", "init", "devices") }).map((h) => ({ header: h })),
    fc.record({ op: fc.constant("load"), path: fc.constantFrom("MOD", "MOD", "/nonexistent/m.ptx", "/tmp") }).map((h) => ({ header: { ...h, path: h.path === "MOD" ? fakeMod : h.path } })),
    fc.record({ op: fc.constant("unload"), module: handle }).map((h) => ({ header: h })),
    fc.tuple(fc.nat({ max: 64 }), fc.oneof(fc.constant("none"), fc.constant("payload"), fc.constant("short"), fdRef)).map(([bytes, contents]) =>
      contents === "none" ? { header: { op: "alloc", bytes } }
      : contents === "payload" ? { header: { op: "alloc", bytes }, payload: new Uint8Array(bytes).map((_, i) => i * 7) }
      : contents === "short" ? { header: { op: "alloc", bytes }, payload: new Uint8Array(bytes + 1) }
      : { header: { op: "alloc", bytes, file: contents } }),
    fc.tuple(bufHandle, fc.nat({ max: 80 }), fc.uint8Array({ maxLength: 72 }), fc.option(fdRef)).map(([buffer, offset, data, file]) =>
      file === null ? { header: { op: "upload", buffer, offset }, payload: data } : { header: { op: "upload", buffer, offset, file, bytes: data.length } }),
    fc.record({ op: fc.constant("download"), buffer: bufHandle, offset: fc.nat({ max: 80 }), bytes: fc.nat({ max: 80 }), file: fdRef }, { requiredKeys: ["op", "buffer"] }).map((h) => ({ header: h })),
    fc.record({ op: fc.constant("free"), buffer: bufHandle }).map((h) => ({ header: h })),
    fc.record({
      op: fc.constant("launch"), module: handle, kernel: fc.constantFrom("saxpy", "add_one", "oob", "bounded", "use_shared", "spin", "nope"),
      grid: fc.constantFrom([1, 1, 1], [2, 1, 1], [0, 1, 1]), block: fc.constantFrom([32, 1, 1], [256, 1, 1], [1025, 1, 1]),
      args: fc.array(launchArg, { maxLength: 5 }), sharedBytes: fc.constantFrom(0, 4096, 1 << 20), repeat: fc.integer({ min: 1, max: 3 }),
      timeoutMs: fc.integer({ min: 1, max: 50 }),
    }, { requiredKeys: ["op", "module", "kernel", "grid", "block", "args"] }).map((h) => ({ header: h.kernel === "spin" ? { ...h, timeoutMs: h.timeoutMs ?? 20 } : h })),
    // Launches whose arguments fit the kernel, so that they run (or fault, or time out).
    fc.tuple(bufHandle, bufHandle, bufHandle, fc.integer({ min: -1, max: 70 }), fc.constantFrom([32, 1, 1], [256, 1, 1], [129, 1, 1])).chain(([a, b, c, n, block]) =>
      fc.constantFrom(
        { kernel: "saxpy", args: [{ type: "i32", value: n }, { type: "f32", value: 2.5 }, { type: "buffer", buffer: a }, { type: "buffer", buffer: b }, { type: "buffer", buffer: c }] },
        { kernel: "add_one", args: [{ type: "i32", value: n }, { type: "buffer", buffer: a }], repeat: 2 },
        { kernel: "oob", args: [{ type: "buffer", buffer: a }] },
        { kernel: "bounded", args: [{ type: "buffer", buffer: a }] },
        { kernel: "use_shared", args: [{ type: "i32", value: n * 300 }, { type: "buffer", buffer: a }], sharedBytes: 4 * n * 300 },
        { kernel: "spin", args: [{ type: "i64", value: "1000000" }, { type: "buffer", buffer: a }], timeoutMs: 10 },
      ).map((k) => ({ header: { op: "launch", module: 1, grid: [1, 1, 1], block, ...k } })),
    ),
  );
  // Usually a module (handle 1) and buffers of 64 bytes (2 and 3) first; sometimes a close last.
  const SETUP: Req[] = [
    { header: { op: "load", path: "MOD" } },
    { header: { op: "alloc", bytes: 64 }, payload: new Uint8Array(64).map((_, i) => i) },
    { header: { op: "alloc", bytes: 64 } },
  ];
  const session = fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), fc.array(request, { minLength: 1, maxLength: 8 }), fc.boolean()).map(([setup, body, close]) =>
    [...(setup ? SETUP : []), ...body, ...(close ? [{ header: { op: "close" } }] : [])].map((q) => (q.header.path === "MOD" ? { ...q, header: { ...q.header, path: fakeMod } } : q)),
  );

  it("answers each request in order, or ends as the protocol says, and never crashes", async () => {
    const shared = join(tempDir("fuzz-serve"), "shared.bin");
    await fc.assert(
      fc.asyncProperty(session, async (reqs) => {
        writeFileSync(shared, Buffer.alloc(256, 5));
        const fd = openSync(shared, "r+");
        let r: RawResult;
        try {
          const frames = reqs.flatMap((q, i) => encodeFrame({ ...q.header, id: i + 1 }, q.payload));
          r = await runRaw(bin, ["--serve"], Buffer.concat(frames), fakeEnv, [fd], 30_000);
        } finally {
          closeSync(fd);
        }
        expect(r.stderr).not.toMatch(/Sanitizer|runtime error/);
        expect(r.signal).toBeNull();
        const reader = new FrameReader();
        reader.push(r.stdout);
        reader.end(new Error("end"));
        const answers = [];
        for (;;) {
          const f = await reader.next().catch(() => undefined);
          if (!f) break;
          answers.push(f);
        }
        // One answer per request, in order, until a close or a lost context ends the server.
        const last = answers.length - 1;
        answers.forEach((a, i) => {
          expect(a.header.id).toBe(i + 1);
          expect(typeof a.header.ok).toBe("boolean");
          if (a.header.ok && reqs[i]!.header.op === "download" && reqs[i]!.header.file === undefined) expect(a.payload.length).toBe(a.header.bytes);
          if (i < last) expect(a.header.contextLost).toBeUndefined();
        });
        const ended = answers[last];
        if (ended?.header.contextLost) {
          expect(r.code).toBe(1);
        } else {
          expect(r.code).toBe(0);
          const closeAt = reqs.findIndex((q) => q.header.op === "close");
          expect(answers).toHaveLength(closeAt < 0 ? reqs.length : closeAt + 1);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("gives back the bytes it was given: alloc with a payload or from the shared file, then download", async () => {
    const shared = join(tempDir("fuzz-roundtrip"), "shared.bin");
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.boolean(), fc.nat({ max: 50 }), async (data, viaFile, at) => {
        writeFileSync(shared, Buffer.concat([Buffer.alloc(at), data, Buffer.alloc(64)]));
        const fd = openSync(shared, "r+");
        let r: RawResult;
        try {
          const alloc = viaFile ? encodeFrame({ op: "alloc", id: 1, bytes: data.length, file: { fd: 3, offset: at } }) : encodeFrame({ op: "alloc", id: 1, bytes: data.length }, data);
          const frames = [...alloc, ...encodeFrame({ op: "download", id: 2, buffer: 1 }), ...encodeFrame({ op: "download", id: 3, buffer: 1, file: { fd: 3, offset: 0 } })];
          r = await runRaw(bin, ["--serve"], Buffer.concat(frames), fakeEnv, [fd], 30_000);
        } finally {
          closeSync(fd);
        }
        expect(r.stderr).not.toMatch(/Sanitizer|runtime error/);
        expect(r.code).toBe(0);
        const reader = new FrameReader();
        reader.push(r.stdout);
        const [, down, toFile] = [await reader.next(), await reader.next(), await reader.next()];
        expect(Buffer.from(down!.payload).equals(Buffer.from(data))).toBe(true);
        expect(toFile!.header).toMatchObject({ ok: true, bytes: data.length });
        expect(readFileSync(shared).subarray(0, data.length).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

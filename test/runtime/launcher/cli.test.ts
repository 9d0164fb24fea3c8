// The launcher binary without a GPU: its build, its modes, --check's exact round trip, and
// every class of malformed request, each with its structured error.
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FrameReader, encodeFrame } from "../../../src/runtime/launcher/frames.js";
import { NO_DRIVER_ENV, answer, dummyModule, ensureLauncher, runRaw, tempDir, removeTempDirs } from "./helpers.js";

let bin: string;
let mod: string;
const DIMS = ["1", "1", "1", "32", "1", "1"];

beforeAll(async () => {
  bin = await ensureLauncher();
  mod = dummyModule(tempDir("cli"));
});
afterAll(removeTempDirs);

const check = (req: unknown, dims = DIMS) =>
  runRaw(bin, ["--check", mod, "k", ...dims], typeof req === "string" ? req : JSON.stringify(req));

/** Runs a request that must fail and returns its error object, after checking the exit status. */
async function rejects(req: unknown, status = 3, dims = DIMS) {
  const r = await check(req, dims);
  const a = answer(r);
  expect(a.ok, JSON.stringify(a)).toBe(false);
  expect(r.code).toBe(status);
  return a.error;
}

const b64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");

describe("gpu_launcher modes", () => {
  it("--version answers the protocol version", async () => {
    const r = await runRaw(bin, ["--version"], "");
    expect(r.code).toBe(0);
    expect(answer(r)).toMatchObject({ ok: true, protocol: 1 });
  });

  it("reports NO_CUDA_DRIVER cleanly from --devices, one-shot and --serve where there is no driver", async () => {
    const devices = await runRaw(bin, ["--devices"], "", NO_DRIVER_ENV);
    expect(devices.code).toBe(4);
    expect(answer(devices).error).toMatchObject({ code: "NO_CUDA_DRIVER", phase: "init" });
    expect(answer(devices).error.message).toMatch(/^no CUDA driver found \(.*libcuda\.so\.1 could not be loaded: .+\)$/);

    const once = await runRaw(bin, [mod, "k", ...DIMS], '{"args":[]}', NO_DRIVER_ENV);
    expect(once.code).toBe(4);
    expect(answer(once)).toEqual({ ok: false, error: expect.objectContaining({ code: "NO_CUDA_DRIVER" }) });
  });

  it("answers --devices on this machine: devices, or the reason there are none", async () => {
    const r = await runRaw(bin, ["--devices"], "");
    const a = answer(r);
    if (a.ok) expect(a.devices.length).toBeGreaterThan(0);
    else expect(["NO_CUDA_DRIVER", "NO_DEVICE", "DRIVER_TOO_OLD"]).toContain(a.error.code);
    expect(r.code).toBe(a.ok ? 0 : 4);
  });

  it("reports usage errors as JSON with status 2", async () => {
    for (const args of [[], ["m.ptx"], ["--bogus"], ["--serve", "x"], ["--devices", "--serve"], ["--device", "x", "--serve"]]) {
      const r = await runRaw(bin, args, "");
      expect(r.code, args.join(" ")).toBe(2);
      expect(answer(r).error.code).toBe("USAGE");
    }
  });

  it("validates a request identically with and without a driver (validation comes first)", async () => {
    const bad = '{"args":[{"type":"f32"}]}';
    const withCheck = answer(await check(bad));
    const oneShot = answer(await runRaw(bin, [mod, "k", ...DIMS], bad, NO_DRIVER_ENV));
    expect(oneShot).toEqual(withCheck);
    expect(withCheck.error).toMatchObject({ code: "BAD_REQUEST", path: "args[0]" });
  });
});

describe("--check round trip", () => {
  it("echoes every array type byte for byte, including NaN payloads, -0, infinities and 64-bit extremes", async () => {
    const f32 = new Float32Array([NaN, -0, Infinity, -Infinity, 1.5, 3.4028234663852886e38, 1e-45]);
    new Uint32Array(f32.buffer)[0] = 0x7fa00001; // a signalling NaN with a payload
    const f64 = new Float64Array([NaN, -0, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE]);
    new BigUint64Array(f64.buffer)[0] = 0xfff0000000000123n;
    const arrays = {
      bool: new Uint8Array([0, 1, 1, 0]),
      i32: new Int32Array([-2147483648, 2147483647, 0, -1]),
      u32: new Uint32Array([0, 4294967295, 1]),
      i64: new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n]),
      u64: new BigUint64Array([0n, 2n ** 64n - 1n, 2n ** 53n + 1n]),
      f32,
      f64,
    };
    const args = Object.entries(arrays).map(([elem, data]) => ({
      type: "array",
      elem,
      copyBack: true,
      b64: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64"),
    }));
    const r = await check({ args });
    expect(r.code).toBe(0);
    const a = answer(r);
    expect(a.check).toBe(true);
    expect(a.outputs.map((o: { b64: string }) => o.b64)).toEqual(args.map((x) => x.b64));
    expect(a.outputs.map((o: { index: number }) => o.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("reads scalar values in every spelling to their exact bits", async () => {
    const cases: [string, unknown, string][] = [
      ["bool", true, "0x01"], ["bool", false, "0x00"], ["bool", 1, "0x01"], ["bool", "0x1", "0x01"],
      ["i32", -2147483648, "0x80000000"], ["i32", "2147483647", "0x7fffffff"], ["i32", "-0", "0x00000000"], ["i32", "0xffffffff", "0xffffffff"],
      ["u32", 4294967295, "0xffffffff"],
      ["i64", "-9223372036854775808", "0x8000000000000000"], ["i64", "9007199254740993", "0x0020000000000001"],
      ["u64", "18446744073709551615", "0xffffffffffffffff"],
      ["f32", "NaN", "0x7fc00000"], ["f32", "-0", "0x80000000"], ["f32", "Infinity", "0x7f800000"], ["f32", "-Infinity", "0xff800000"],
      ["f32", 0.1, "0x3dcccccd"], ["f32", "0x7fa00001", "0x7fa00001"], ["f32", 1e39, "0x7f800000"], ["f32", 1.401298464324817e-45, "0x00000001"],
      ["f64", 0.1, "0x3fb999999999999a"], ["f64", "-0", "0x8000000000000000"], ["f64", "NaN", "0x7ff8000000000000"],
      ["f64", "0xfff0000000000123", "0xfff0000000000123"], ["f64", 5e-324, "0x0000000000000001"], ["f64", "1e400", "0x7ff0000000000000"],
    ];
    const r = await check({ args: cases.map(([type, value]) => ({ type, value })) });
    const a = answer(r);
    expect(a.ok, JSON.stringify(a)).toBe(true);
    expect(a.scalars.map((s: { bits: string }) => s.bits)).toEqual(cases.map((c) => c[2]));
  });

  it("reads a JSON number for a 64-bit integer exactly, not through a double", async () => {
    const a = answer(await check('{"args":[{"type":"i64","value":9007199254740993},{"type":"u64","value":18446744073709551615}]}'));
    expect(a.scalars.map((s: { bits: string }) => s.bits)).toEqual(["0x0020000000000001", "0xffffffffffffffff"]);
  });

  it("accepts values arrays, zero-filled length arrays and empty arrays", async () => {
    const a = answer(await check({
      args: [
        { type: "array", elem: "i64", values: ["-9223372036854775808", 1, "0xffffffffffffffff"], copyBack: true },
        { type: "array", elem: "f32", length: 3, copyBack: true },
        { type: "array", elem: "f64", b64: "", copyBack: true },
        { type: "array", elem: "u32", values: [1, 2], copyBack: false },
      ],
      sharedBytes: 1024,
      repeat: 3,
    }));
    expect(a.outputs).toEqual([
      { index: 0, elem: "i64", b64: b64([0, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255]) },
      { index: 1, elem: "f32", b64: b64(new Array(12).fill(0)) },
      { index: 2, elem: "f64", b64: "" },
    ]);
  });

  it("round-trips a 48 MiB array through the chunked base64 paths", async () => {
    const data = new Uint8Array(48 << 20);
    for (let i = 0; i < data.length; i += 4093) data[i] = i & 255;
    const text = Buffer.from(data).toString("base64");
    const r = await check(`{"args":[{"type":"array","elem":"u32","copyBack":true,"b64":"${text}"}]}`);
    const out = answer(r).outputs[0].b64 as string;
    expect(out.length).toBe(text.length);
    expect(out === text).toBe(true);
  });
});

describe("malformed requests", () => {
  it("reports truncated and invalid JSON with the byte offset", async () => {
    expect(await rejects('{"args":[{"type":"i32","value":1}')).toMatchObject({ code: "BAD_REQUEST", offset: 33, message: expect.stringMatching(/^truncated JSON/) });
    expect(await rejects('{"args":[1,]}')).toMatchObject({ code: "BAD_REQUEST", offset: 11 });
    expect(await rejects("")).toMatchObject({ code: "BAD_REQUEST", offset: 0 });
    expect(await rejects('{"args":[]} x')).toMatchObject({ offset: 12, message: expect.stringContaining("after the JSON value") });
    expect(await rejects('{"args":[],"args":[]}')).toMatchObject({ message: expect.stringContaining('duplicate key "args"') });
    expect(await rejects('{"a":"\\ud800"}')).toMatchObject({ message: expect.stringContaining("unpaired high surrogate") });
    expect(await rejects('{"a":"\u0001"}')).toMatchObject({ message: expect.stringContaining("control character") });
    expect(await rejects("[".repeat(100))).toMatchObject({ message: expect.stringContaining("nesting deeper than 64") });
  });

  it("reports bad base64 and element sizes", async () => {
    const arr = (extra: object) => ({ args: [{ type: "array", elem: "f32", copyBack: true, ...extra }] });
    expect(await rejects(arr({ b64: "AAA" }))).toMatchObject({ path: "args[0].b64", message: expect.stringContaining("not a multiple of 4") });
    expect(await rejects(arr({ b64: "AA*A" }))).toMatchObject({ message: expect.stringContaining("invalid base64 character at position 2") });
    expect(await rejects(arr({ b64: "AB==" }))).toMatchObject({ message: expect.stringContaining("non-canonical") });
    expect(await rejects(arr({ b64: "AAAAAAA=" }))).toMatchObject({ path: "args[0].b64", message: expect.stringContaining("decodes to 5 bytes, not a multiple of 4") });
    expect(await rejects({ args: [{ type: "array", elem: "bool", b64: "AAI=" }] })).toMatchObject({ message: expect.stringContaining("bool element 1 is 2") });
    expect(await rejects(arr({ b64: "AAAAAA==", values: [1] }))).toMatchObject({ message: expect.stringContaining("not both") });
    expect(await rejects(arr({ b64: "AAAAAA==", length: 2 }))).toMatchObject({ path: "args[0].length" });
  });

  it("reports missing fields, wrong types and unknown types or keys", async () => {
    expect(await rejects({})).toMatchObject({ message: expect.stringContaining('missing "args"') });
    expect(await rejects([])).toMatchObject({ message: expect.stringContaining("must be a JSON object") });
    expect(await rejects({ args: {} })).toMatchObject({ path: "args" });
    expect(await rejects({ args: [{ value: 1 }] })).toMatchObject({ path: "args[0]", message: expect.stringContaining('missing "type"') });
    expect(await rejects({ args: [{ type: "f8", value: 1 }] })).toMatchObject({ path: "args[0].type", message: expect.stringContaining('unknown type "f8"') });
    expect(await rejects({ args: [{ type: "array", elem: "int", b64: "" }] })).toMatchObject({ path: "args[0].elem" });
    expect(await rejects({ args: [{ type: "array", elem: "f32" }] })).toMatchObject({ message: expect.stringContaining('needs "b64", "values" or "length"') });
    expect(await rejects({ args: [{ type: "array", elem: "f32", b64: "", copyBack: 1 }] })).toMatchObject({ path: "args[0].copyBack" });
    expect(await rejects({ args: [{ type: "i32", value: 1, extra: 2 }] })).toMatchObject({ message: expect.stringContaining('unknown key "extra"') });
    expect(await rejects({ args: [], repeats: 2 })).toMatchObject({ message: expect.stringContaining('unknown key "repeats"') });
    expect(await rejects({ args: [{ type: "i32", value: true }] })).toMatchObject({ path: "args[0].value" });
    expect(await rejects({ args: [{ type: "i32", value: null }] })).toMatchObject({ path: "args[0].value" });
  });

  it("rejects values that do not fit their type", async () => {
    const bad: [string, unknown][] = [
      ["i32", 2147483648], ["i32", 1.5], ["i32", "1e3"], ["i32", "NaN"], ["u32", -1], ["u32", "4294967296"],
      ["i64", "9223372036854775808"], ["u64", "-1"], ["u64", "18446744073709551616"], ["bool", 2], ["bool", "0x2"],
      ["f32", "0x123456789"], ["f32", "nan"], ["f64", "1.5.2"], ["i32", "0x"], ["i32", "0xg"], ["i32", " 1"],
      ["i8", 128], ["i8", -129], ["u8", 256], ["u8", -1], ["i16", 32768], ["u16", 65536], ["u16", 1.5], ["f16", "0x12345"], ["bf16", "nan"], ["f16", true],
    ];
    for (const [type, value] of bad) {
      const e = await rejects({ args: [{ type, value }] });
      expect(e, `${type} ${JSON.stringify(value)}`).toMatchObject({ code: "BAD_REQUEST", path: "args[0].value" });
    }
  });

  it("rejects bad grid and block numbers and options", async () => {
    const cases: [string[], RegExp][] = [
      [["0", "1", "1", "32", "1", "1"], /grid x must be an integer from 1 to 2147483647, got "0"/],
      [["1", "65536", "1", "32", "1", "1"], /grid y/],
      [["1", "1", "1", "2048", "1", "1"], /block x must be an integer from 1 to 1024, got "2048"/],
      [["1", "1", "1", "32", "1", "65"], /block z/],
      [["1", "1", "1", "64", "32", "1"], /2048 threads exceeds the limit of 1024/],
      [["-1", "1", "1", "32", "1", "1"], /grid x/],
      [["1.5", "1", "1", "32", "1", "1"], /grid x/],
      [["99999999999999999999999", "1", "1", "32", "1", "1"], /grid x/],
    ];
    for (const [dims, message] of cases) {
      expect(await rejects({ args: [] }, 3, dims)).toMatchObject({ code: "BAD_LAUNCH_CONFIG", message: expect.stringMatching(message) });
    }
    expect(await rejects({ args: [], repeat: 0 })).toMatchObject({ path: "repeat" });
    expect(await rejects({ args: [], sharedBytes: -1 })).toMatchObject({ path: "sharedBytes" });
    expect(await rejects({ args: [], timeoutMs: 1.5 })).toMatchObject({ path: "timeoutMs" });
  });

  it("checks constants: a list of {name, elem, b64}, names once each, whole elements, at most 64 KiB each", async () => {
    const c = (entries: unknown) => ({ args: [], constants: entries });
    expect(await rejects(c({}))).toMatchObject({ code: "BAD_REQUEST", path: "constants" });
    expect(await rejects(c([1]))).toMatchObject({ path: "constants[0]" });
    expect(await rejects(c([{ name: "T", elem: "f32" }]))).toMatchObject({ message: expect.stringContaining('missing "b64"') });
    expect(await rejects(c([{ name: "", elem: "f32", b64: "" }]))).toMatchObject({ path: "constants[0].name" });
    expect(await rejects(c([{ name: "T", elem: "f8", b64: "" }]))).toMatchObject({ path: "constants[0].elem" });
    expect(await rejects(c([{ name: "T", elem: "f32", b64: b64([1, 2, 3]) }]))).toMatchObject({ path: "constants[0].b64", message: expect.stringContaining("not a whole number of f32 elements") });
    expect(await rejects(c([{ name: "T", elem: "bool", b64: b64([2]) }]))).toMatchObject({ path: "constants[0].b64" });
    const t = { name: "T", elem: "u32", b64: b64([1, 0, 0, 0]) };
    expect(await rejects(c([t, t]))).toMatchObject({ path: "constants[1].name", message: expect.stringContaining("given twice") });
    expect(await rejects(c([{ ...t, extra: 1 }]))).toMatchObject({ message: expect.stringContaining('unknown key "extra"') });
    expect(await rejects(c([{ name: "T", elem: "u32", b64: Buffer.alloc(65_540).toString("base64") }]))).toMatchObject({ code: "TOO_LARGE" });
    expect(await rejects(c(Array.from({ length: 1025 }, (_, i) => ({ ...t, name: `T${i}` }))))).toMatchObject({ code: "TOO_LARGE" });
    const ok = answer(await check(c([t])));
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
  });

  it("rejects huge declared sizes and too many arguments before allocating", async () => {
    expect(await rejects({ args: [{ type: "array", elem: "f64", length: 2 ** 40, copyBack: true }] })).toMatchObject({ code: "TOO_LARGE" });
    expect(await rejects({ args: [{ type: "array", elem: "f64", length: 1e300, copyBack: true }] })).toMatchObject({ path: "args[0].length" });
    expect(await rejects({ args: Array.from({ length: 1025 }, () => ({ type: "i32", value: 0 })) })).toMatchObject({ code: "TOO_LARGE" });
    expect(await rejects(`{"args":[${"0,".repeat(4_200_000)}0]}`)).toMatchObject({ code: "TOO_LARGE" });
  });

  it("reports an unreadable module file", async () => {
    const r = await runRaw(bin, ["--check", "/nonexistent/k.ptx", "k", ...DIMS], '{"args":[]}');
    expect(r.code).toBe(3);
    expect(answer(r).error).toMatchObject({ code: "MODULE_UNREADABLE", message: expect.stringContaining("No such file") });
  });

  it("refuses a module that is not a regular file (a FIFO, a folder, a device) at once, in every mode", async () => {
    const dir = tempDir("special");
    const fifo = join(dir, "module.ptx");
    await execa("mkfifo", [fifo]);
    for (const path of [fifo, dir, "/dev/null"]) {
      for (const mode of [["--check"], []]) {
        const r = await runRaw(bin, [...mode, path, "k", ...DIMS], '{"args":[]}', NO_DRIVER_ENV, [], 5_000);
        expect(r.signal, `${mode.join(" ")} ${path} must not block`).toBeNull();
        expect(answer(r).error).toMatchObject({ code: "MODULE_UNREADABLE", message: expect.stringContaining("not a regular file") });
      }
    }
    // --serve's load: answered, and the server goes on.
    const frames = Buffer.concat([...encodeFrame({ op: "load", id: 1, path: fifo }), ...encodeFrame({ op: "hello", id: 2 })]);
    const r = await runRaw(bin, ["--serve"], frames, NO_DRIVER_ENV, [], 5_000);
    expect(r.signal).toBeNull();
    const reader = new FrameReader();
    reader.push(r.stdout);
    const load = await reader.next();
    expect(load.header).toMatchObject({ ok: false, id: 1, error: { code: "MODULE_UNREADABLE", message: expect.stringContaining("not a regular file") } });
    expect((await reader.next()).header).toMatchObject({ ok: true, id: 2 });
  });

  it("refuses a shared file or driver library that is not a regular file without blocking", async () => {
    const dir = tempDir("special-files");
    const fifo = join(dir, "fifo");
    await execa("mkfifo", [fifo]);
    const req = { args: [{ type: "array", elem: "f32", length: 4, file: { path: fifo } }] };
    const r = await runRaw(bin, ["--check", mod, "k", ...DIMS], JSON.stringify(req), {}, [], 5_000);
    expect(r.signal).toBeNull();
    expect(answer(r).error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("not a regular file") });
    const devices = await runRaw(bin, ["--devices"], "", { GK_LIBCUDA: fifo }, [], 5_000);
    expect(devices.signal, "dlopen of a FIFO must not block").toBeNull();
    expect(answer(devices).error).toMatchObject({ code: "NO_CUDA_DRIVER", message: expect.stringContaining("not a regular file") });
  });
});

// The launcher's driver-facing code without a GPU: a fake libcuda.so.1 (fake-driver/)
// stands in for the CUDA driver, so argument marshalling, timing, every error phase, sticky
// errors and the --serve session's recovery all run in CI. test/gpu/launcher.test.ts runs
// the same paths on a real GPU.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GkRuntimeError, LauncherSession, launchOnce, listDevices, type KernelArg } from "../../../src/runtime/launcher.js";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFakeDriver, ensureLauncher, failure, fakeModule, removeTempDirs, tempDir } from "./helpers.js";

let env: Record<string, string>;
let mod: string;
/** A module with a 16-byte constant `table` and a kernel `read_constant(out)` that copies it to out. */
let constMod: string;
let dir: string;
const grid = [1, 1, 1] as const;
const block = [32, 1, 1] as const;

beforeAll(async () => {
  await ensureLauncher();
  dir = tempDir("fake");
  env = await buildFakeDriver(dir);
  mod = fakeModule(dir, ["saxpy", "roundtrip", "roundtrip_narrow", "add_one", "oob", "bounded", "spin"]);
  constMod = join(dir, "constants.ptx");
  writeFileSync(constMod, "// fake-cuda module\nkernel read_constant\nconstant table 16\n");
});
afterAll(removeTempDirs);

const saxpyArgs = (n: number): KernelArg[] => [
  { kind: "scalar", type: "i32", value: n },
  { kind: "scalar", type: "f32", value: 2.5 },
  { kind: "array", elem: "f32", data: Float32Array.from({ length: n }, (_, i) => i + 1), copyBack: false },
  { kind: "array", elem: "f32", data: new Float32Array(n).fill(1), copyBack: false },
  { kind: "array", elem: "f32", length: n, copyBack: true },
];
const saxpyExpected = (n: number) => Float32Array.from({ length: n }, (_, i) => Math.fround(2.5 * (i + 1) + 1));

const SPIN_ARGS: KernelArg[] = [{ kind: "scalar", type: "i64", value: 10n ** 12n }, { kind: "array", elem: "i32", length: 1, copyBack: true }];

const ROUNDTRIP: KernelArg[] = [
  { kind: "scalar", type: "bool", value: true },
  { kind: "scalar", type: "i32", value: -2147483648 },
  { kind: "scalar", type: "u32", value: 4294967295 },
  { kind: "scalar", type: "i64", value: -(2n ** 63n) },
  { kind: "scalar", type: "u64", value: 2n ** 64n - 1n },
  { kind: "scalar", type: "f32", value: -0 },
  { kind: "scalar", type: "f64", value: -Infinity },
  ...(["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const).map((elem): KernelArg => ({ kind: "array", elem, length: 1, copyBack: true })),
];
const ROUNDTRIP_OUT = [
  new Uint8Array([1]), new Int32Array([-2147483648]), new Uint32Array([4294967295]), new BigInt64Array([-(2n ** 63n)]),
  new BigUint64Array([2n ** 64n - 1n]), new Float32Array([-0]), new Float64Array([-Infinity]),
];

/** One scalar of each 1- and 2-byte type, and an output array for each (the fake kernel copies each scalar's bytes there). */
const NARROW: KernelArg[] = [
  { kind: "scalar", type: "i8", value: -128 },
  { kind: "scalar", type: "u8", value: 255 },
  { kind: "scalar", type: "i16", value: -2 },
  { kind: "scalar", type: "u16", value: 65535 },
  { kind: "scalar", type: "f16", value: -0.1 },
  { kind: "scalar", type: "bf16", value: 3.5 },
  ...(["i8", "u8", "i16", "u16", "f16", "bf16"] as const).map((elem): KernelArg => ({ kind: "array", elem, length: 1, copyBack: true })),
];
const NARROW_OUT = [new Int8Array([-128]), new Uint8Array([255]), new Int16Array([-2]), new Uint16Array([65535]), new Uint16Array([0xae66]), new Uint16Array([0x4060])];

describe("one-shot on the fake driver", () => {
  const once = (kernel: string, args: KernelArg[], more: object = {}) => launchOnce({ module: mod, kernel, grid, block, args, env, ...more });

  it("lists the fake GPU", async () => {
    const r = await listDevices({ env });
    expect(r).toMatchObject({ ok: true, driverVersion: 12040 });
    if (r.ok) expect(r.devices[0]).toMatchObject({ index: 0, arch: "sm_90", computeCapability: { major: 9, minor: 0 }, maxThreadsPerBlock: 1024 });
    expect(await listDevices({ env: { ...env, FAKE_CUDA_DEVICES: "0" } })).toMatchObject({ ok: false, reason: "no-devices" });
  });

  it("runs saxpy and reports every timing", async () => {
    const r = await once("saxpy", saxpyArgs(8));
    expect(r.check).toBe(false);
    expect(r.outputs.get(4)).toEqual(saxpyExpected(8));
    expect(r.timing).toMatchObject({ kernelMs: 0.015625, kernelMinMs: 0.015625, launches: 1 });
    for (const k of ["initMs", "moduleLoadMs", "allocMs", "h2dMs", "d2hMs", "totalMs"] as const) expect(r.timing[k]).toBeGreaterThanOrEqual(0);
  });

  it("passes scalars of every type to the kernel exactly", async () => {
    const r = await once("roundtrip", ROUNDTRIP);
    ROUNDTRIP_OUT.forEach((want, i) => expect(r.outputs.get(7 + i)).toEqual(want));
    const n = await once("roundtrip_narrow", NARROW);
    NARROW_OUT.forEach((want, i) => expect(n.outputs.get(6 + i), `argument ${i}`).toEqual(want));
    expect(Object.is((r.outputs.get(12) as Float32Array)[0], -0)).toBe(true);
  });

  it("repeats launches on the same buffers", async () => {
    const r = await once("add_one", [{ kind: "scalar", type: "i32", value: 4 }, { kind: "array", elem: "i32", data: new Int32Array([0, 1, 2, 3]), copyBack: true }], { repeat: 5 });
    expect(r.outputs.get(1)).toEqual(new Int32Array([5, 6, 7, 8]));
    expect(r.timing.launches).toBe(5);
  });

  it("reports a faulting kernel as CUDA_ERROR_ILLEGAL_ADDRESS in phase kernel, and the next launch works", async () => {
    const e = await failure(once("oob", [{ kind: "array", elem: "f32", length: 4, copyBack: true }]));
    expect(e.code).toBe("GK8006");
    expect(e).toMatchObject({ cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", phase: "kernel", call: "cuEventSynchronize", contextLost: true });
    expect(e.message).toContain("CUDA_ERROR_ILLEGAL_ADDRESS");
    expect((await once("saxpy", saxpyArgs(3))).outputs.get(4)).toEqual(saxpyExpected(3));
  });

  it("reports launch, module, kernel-name, argument and memory errors with their phases", async () => {
    const bounded = await failure(once("bounded", [{ kind: "array", elem: "f32", length: 1, copyBack: false }], { block: [256, 1, 1] }));
    expect(bounded).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_INVALID_VALUE", phase: "launch", call: "cuLaunchKernel", contextLost: false });
    expect(bounded.diagnostic.notes[0]?.message).toContain("at most 128 threads per block");

    const name = await failure(once("nope", []));
    expect(name).toMatchObject({ code: "GK8009", cudaError: "CUDA_ERROR_NOT_FOUND", phase: "module_load" });

    const image = await failure(launchOnce({ module: new URL(import.meta.url).pathname, kernel: "k", grid, block, args: [], env }));
    expect(image).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_INVALID_IMAGE", phase: "module_load" });
    expect(image.launcher?.log).toContain("not a module it can read");

    const count = await failure(once("saxpy", saxpyArgs(2).slice(0, 4)));
    expect(count).toMatchObject({ code: "GK8005" });
    expect(count.launcher).toMatchObject({ code: "BAD_ARGS", phase: "launch" });
    expect(count.message).toContain("takes 5 parameters (4, 4, 8, 8, 8 bytes) but the request gives 4 arguments");

    const size = await failure(once("saxpy", [{ kind: "scalar", type: "i64", value: 2n }, ...saxpyArgs(2).slice(1)]));
    expect(size.launcher).toMatchObject({ code: "BAD_ARGS", path: "args[0]" });

    const oom = await failure(once("saxpy", [...saxpyArgs(2).slice(0, 4), { kind: "array", elem: "f32", length: 400_000_000, copyBack: false }]));
    expect(oom).toMatchObject({ code: "GK8018", cudaError: "CUDA_ERROR_OUT_OF_MEMORY", phase: "alloc", call: "cuMemAlloc_v2" });
    expect(oom.message).toMatch(/^GK8018: out of GPU memory: 1\.49 GiB asked, [\d.]+ [KMG]iB free of 1\.00 GiB \(CUDA_ERROR_OUT_OF_MEMORY in cuMemAlloc_v2\)$/);
  });

  it("checks dynamic shared memory against the device and opts in above 48 KB", async () => {
    expect((await once("saxpy", saxpyArgs(2), { sharedBytes: 100_000 })).outputs.get(4)).toEqual(saxpyExpected(2));
    const big = await failure(once("saxpy", saxpyArgs(2), { sharedBytes: 300_000 }));
    expect(big).toMatchObject({ code: "GK8010", phase: "launch" });
  });

  it("stops waiting for a kernel after timeoutMs (GK8012), and the next launch works", async () => {
    const started = Date.now();
    const e = await failure(once("spin", SPIN_ARGS, { timeoutMs: 200 }));
    expect(e).toMatchObject({ code: "GK8012", phase: "kernel", contextLost: true });
    expect(Date.now() - started).toBeLessThan(120_000); // the kernel spins forever: any end is the timeout's
    expect((await once("saxpy", saxpyArgs(1))).outputs.get(4)).toEqual(saxpyExpected(1));
  });

  it("reports a missing GPU index and a driver without devices as GK8007", async () => {
    expect(await failure(once("saxpy", saxpyArgs(1), { device: 3 }))).toMatchObject({ code: "GK8007", message: expect.stringContaining("no GPU with index 3") });
    expect(await failure(once("saxpy", saxpyArgs(1), { env: { ...env, FAKE_CUDA_DEVICES: "0" } }))).toMatchObject({ code: "GK8007" });
  });
});

describe("constants (__constant__ variables) on the fake driver", () => {
  const table = (values: number[]) => ({ name: "table", elem: "f32" as const, data: Float32Array.from(values) });
  const out: KernelArg[] = [{ kind: "array", elem: "f32", length: 4, copyBack: true }];

  it("fills a module's constant before the launch, one-shot", async () => {
    const r = await launchOnce({ module: constMod, kernel: "read_constant", grid, block, args: out, env, constants: [table([1, 2, 3, 4])] });
    expect(r.outputs.get(0)).toEqual(Float32Array.of(1, 2, 3, 4));
  });

  it("refuses an unknown constant or one of another size (BAD_ARGS, naming the field)", async () => {
    const unknown = await failure(launchOnce({ module: constMod, kernel: "read_constant", grid, block, args: out, env, constants: [{ ...table([1, 2, 3, 4]), name: "tabel" }] }));
    expect(unknown).toMatchObject({ code: "GK8005", message: expect.stringContaining('the module has no constant "tabel"') });
    const short = await failure(launchOnce({ module: constMod, kernel: "read_constant", grid, block, args: out, env, constants: [table([1, 2, 3])] }));
    expect(short).toMatchObject({ code: "GK8005", message: expect.stringContaining('the constant "table" is 16 bytes but the request gives 12') });
  });

  it("in a session, copies a constant only when its contents change", async () => {
    const log = join(dir, "constants.log");
    rmSync(log, { force: true });
    const session = new LauncherSession({ env: { ...env, FAKE_CUDA_LOG: log } });
    const m = await session.loadModule(constMod);
    const b = await session.alloc("f32", 4);
    for (const values of [[1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [1, 2, 3, 4]]) {
      await session.launch({ module: m, kernel: "read_constant", grid, block, args: [{ kind: "buffer", buffer: b }], constants: [table(values)] });
      expect(await session.read(b)).toEqual(Float32Array.from(values));
    }
    await session.close();
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["constant table 16", "constant table 16", "constant table 16"]);
  });
});

describe("LauncherSession on the fake driver", () => {
  let session: LauncherSession;
  beforeAll(() => {
    session = new LauncherSession({ env });
  });
  afterAll(async () => {
    await session.close();
  });

  it("keeps modules and buffers between launches", async () => {
    expect(await session.device()).toMatchObject({ name: "Fake GPU (gk test driver)", arch: "sm_90" });
    const m = await session.loadModule(mod);
    expect((await session.loadModule(mod)).id).toBe(m.id); // cached by path
    const p = await session.upload(new Int32Array([10, 20, 30]));
    const n = { kind: "scalar", type: "i32", value: 3 } as const;
    for (let i = 0; i < 3; i++) await session.launch({ module: m, kernel: "add_one", grid, block, args: [n, { kind: "buffer", buffer: p }] });
    const t = await session.launch({ module: m, kernel: "add_one", grid, block, args: [n, { kind: "buffer", buffer: p }], repeat: 4 });
    expect(t).toMatchObject({ launches: 4, kernelMs: 0.015625 });
    expect(t.hostMs).toBeGreaterThanOrEqual(0);
    expect(await session.read(p)).toEqual(new Int32Array([17, 27, 37]));
    expect(await session.read(p, 1, 1)).toEqual(new Int32Array([27]));
    await session.write(p, new Int32Array([-1]), 2);
    expect(await session.read(p)).toEqual(new Int32Array([17, 27, -1]));
    await session.free(p);
    expect(session.generation).toBe(1);
  });

  it("sends thousands of queued launches waiting behind a call in flight, without a stack frame per launch", async () => {
    const m = await session.loadModule(mod);
    const p = await session.upload(new Int32Array([0]));
    const n = { kind: "scalar", type: "i32", value: 1 } as const;
    const busy = session.memory(); // the launches below wait behind it, then go out at once
    const failures: unknown[] = [];
    for (let i = 0; i < 50_000; i++) {
      session.queueLaunch({ module: m, kernel: "add_one", grid, block, args: [n, { kind: "buffer", buffer: p }], queue: 0, seq: i + 1, name: "add_one", timing: false }, (e) => e && failures.push(e));
    }
    await busy;
    await session.sync(0);
    expect(failures).toEqual([]);
    expect(await session.read(p)).toEqual(new Int32Array([50_000]));
    await session.free(p);
  });

  /**
   * Runs `body` on a session whose fake driver logs its launches, queries and marker writes to
   * `log` (named `name`), with a counter `p` on the device and `addOne(seq)`, which queues
   * add_one on it.
   */
  async function loggedCounter(
    name: string,
    body: (c: { s: LauncherSession; log: string; p: Awaited<ReturnType<LauncherSession["upload"]>>; addOne: (seq: number, answered: (e: GkRuntimeError | undefined) => void) => void }) => Promise<void>,
  ): Promise<void> {
    const log = join(dir, name);
    const s = new LauncherSession({ env: { ...env, FAKE_CUDA_LOG: log, FAKE_CUDA_LOG_LAUNCHES: "1" } });
    try {
      const m = await s.loadModule(mod);
      const p = await s.upload(new Int32Array([0]));
      const n = { kind: "scalar", type: "i32", value: 1 } as const;
      const addOne = (seq: number, answered: (e: GkRuntimeError | undefined) => void) =>
        s.queueLaunch({ module: m, kernel: "add_one", grid, block, args: [n, { kind: "buffer", buffer: p }], queue: 0, seq, name: "add_one", timing: false }, answered);
      await body({ s, log, p, addOne });
    } finally {
      await s.close();
    }
  }

  it("sends the first queued launch of a turn of the event loop at once and the rest 32 at a time, the tail with the next awaited request", async () => {
    await loggedCounter("launches.log", async ({ s, log, p, addOne }) => {
      const launched = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l === "launch add_one").length : 0);
      const failures: unknown[] = [];
      // One turn: nothing below yields to the event loop until the await.
      for (let i = 0; i < 40; i++) addOne(i + 1, (e) => e && failures.push(e));
      const until = Date.now() + 5000;
      while (launched() < 33 && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); // time for more, were more sent
      expect(launched()).toBe(33);
      await s.sync(0); // sent with the 7 held back, in one write
      expect(launched()).toBe(40);
      expect(failures).toEqual([]);
      expect(await s.read(p)).toEqual(new Int32Array([40]));
    });
  });

  it("writes a marker for each queued launch but the last, without asking the driver first while there is one queue", async () => {
    await loggedCounter("stream.log", async ({ s, log, p, addOne }) => {
      rmSync(log, { force: true });
      for (let i = 0; i < 10; i++) addOne(i + 1, () => undefined);
      await s.sync(0);
      const lines = readFileSync(log, "utf8").trim().split("\n");
      expect(lines.filter((l) => l === "launch add_one")).toHaveLength(10);
      expect(lines.filter((l) => l === "marker")).toHaveLength(9);
      // The queries are the sync's, after the last launch.
      expect(lines.lastIndexOf("launch add_one")).toBeLessThan(lines.indexOf("query"));
      expect(await s.read(p)).toEqual(new Int32Array([10]));
    });
  });

  it("runs launchOnce's contract over the session, for every scalar type", async () => {
    const r = await session.run({ module: mod, kernel: "roundtrip", grid, block, args: ROUNDTRIP });
    ROUNDTRIP_OUT.forEach((want, i) => expect(r.outputs.get(7 + i)).toEqual(want));
    const n = await session.run({ module: mod, kernel: "roundtrip_narrow", grid, block, args: NARROW });
    NARROW_OUT.forEach((want, i) => expect(n.outputs.get(6 + i), `argument ${i}`).toEqual(want));
    expect((await session.run({ module: mod, kernel: "saxpy", grid, block, args: saxpyArgs(5) })).outputs.get(4)).toEqual(saxpyExpected(5));
  });

  it("moves 32 MiB buffers in both directions exactly", async () => {
    const data = new Float64Array(1 << 22).map((_, i) => i / 3);
    const b = await session.upload(data);
    const back = (await session.read(b)) as Float64Array;
    expect(Buffer.compare(Buffer.from(back.buffer), Buffer.from(data.buffer))).toBe(0);
    await session.free(b);
  });

  it("recovers from a non-sticky launch error on the same server", async () => {
    const gen = session.generation;
    const m = await session.loadModule(mod);
    const b = await session.alloc("f32", 128);
    const e = await failure(session.launch({ module: m, kernel: "bounded", grid, block: [256, 1, 1], args: [{ kind: "buffer", buffer: b }] }));
    expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_INVALID_VALUE", contextLost: false });
    await session.launch({ module: m, kernel: "bounded", grid, block: [128, 1, 1], args: [{ kind: "buffer", buffer: b }] });
    expect(session.generation).toBe(gen);
    await session.free(b);
  });

  it("after a faulting kernel: reports the context lost, invalidates old handles, and starts a new server", async () => {
    const gen = session.generation;
    const restarts = session.restarts;
    const m = await session.loadModule(mod);
    const b = await session.alloc("f32", 4);
    const e = await failure(session.launch({ module: m, kernel: "oob", grid, block, args: [{ kind: "buffer", buffer: b }] }));
    expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", phase: "kernel", contextLost: true });
    const stale = await failure(session.read(b));
    expect(stale).toMatchObject({ code: "GK8005", contextLost: true });
    expect((await session.run({ module: mod, kernel: "saxpy", grid, block, args: saxpyArgs(4) })).outputs.get(4)).toEqual(saxpyExpected(4));
    expect(session.generation).toBe(gen + 1);
    expect(session.restarts).toBe(restarts + 1);
  });

  it("after a kernel timeout: reports GK8012 and starts a new server", async () => {
    const m = await session.loadModule(mod);
    const b = await session.alloc("i32", 1);
    const e = await failure(session.launch({ module: m, kernel: "spin", grid, block, args: [SPIN_ARGS[0]!, { kind: "buffer", buffer: b }], timeoutMs: 150 }));
    expect(e).toMatchObject({ code: "GK8012", contextLost: true });
    expect((await session.run({ module: mod, kernel: "saxpy", grid, block, args: saxpyArgs(2) })).outputs.get(4)).toEqual(saxpyExpected(2));
  });

  it("reports request errors without losing the server", async () => {
    const gen = session.generation;
    const m = await session.loadModule(mod);
    const e = await failure(session.launch({ module: m, kernel: "saxpy", grid, block: [2048, 1, 1], args: [] }));
    expect(e.code).toBe("GK8010");
    expect(await failure(session.loadModule("/nonexistent/x.cubin"))).toMatchObject({ code: "GK8011" });
    expect(await failure(session.alloc("f32", 2 ** 40))).toMatchObject({ code: "GK8005" });
    expect(session.generation).toBe(gen);
  });

  it("closes, and starts again on the next call", async () => {
    const restarts = session.restarts;
    await session.close();
    expect(session.restarts).toBe(restarts);
    const before = session.generation;
    expect((await session.run({ module: mod, kernel: "saxpy", grid, block, args: saxpyArgs(1) })).outputs.get(4)).toEqual(saxpyExpected(1));
    expect(session.generation).toBe(before + 1);
  });
});

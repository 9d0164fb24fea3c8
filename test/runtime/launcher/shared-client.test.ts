// The client's shared files (src/runtime/launcher/shared.ts): every element type exact through
// --check, one-shot and a session on the fake driver, above and below the threshold; page-locking
// and its fallback; and no file left behind after normal runs, errors, or a killed launcher.
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GkRuntimeError, LauncherSession, launchOnce, type KernelArg } from "../../../src/runtime/launcher.js";
import { SharedFile } from "../../../src/runtime/launcher/shared.js";
import { buildFakeDriver, dummyModule, ensureLauncher, failure, fakeModule, hexOf, LAUNCHER, removeTempDirs, sampleArray, tempDir } from "./helpers.js";

const ELEMS = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const;
const SMALL = 16; // below the default threshold (64 KiB) for every type
const LARGE = 70_000; // above it for every type, bool included
const grid = [1, 1, 1] as const;
const block = [32, 1, 1] as const;

let dir: string;
let check: string;
let mod: string;
let env: Record<string, string>;

beforeAll(async () => {
  await ensureLauncher();
  dir = tempDir("shared-client");
  check = dummyModule(dir);
  env = await buildFakeDriver(dir);
  mod = fakeModule(dir, [...ELEMS.map((e) => `copy_${e}`), "saxpy", "oob", "spin"]);
});
afterAll(removeTempDirs);

/** copy_<elem>(n, in, out) over `data`: arguments and launch shape. */
function copyArgs(elem: (typeof ELEMS)[number], data: ArrayBufferView & { length: number }): { kernel: string; grid: [number, number, number]; block: [number, number, number]; args: KernelArg[] } {
  return {
    kernel: `copy_${elem}`,
    grid: [Math.max(1, Math.ceil(data.length / 256)), 1, 1],
    block: [256, 1, 1],
    args: [
      { kind: "scalar", type: "i32", value: data.length },
      { kind: "array", elem, data: data as never, copyBack: false },
      { kind: "array", elem, length: data.length, copyBack: true },
    ],
  };
}

describe("--check through shared files", () => {
  it("returns every element type bit for bit, above and below the threshold, with the default options", async () => {
    for (const n of [SMALL, LARGE]) {
      const inputs = ELEMS.map((elem) => sampleArray(elem, n));
      const r = await launchOnce({ module: check, kernel: "k", grid, block, check: true, args: inputs.map((data, i) => ({ kind: "array", elem: ELEMS[i]!, data, copyBack: true })) });
      inputs.forEach((data, i) => {
        expect(r.outputs.get(i)!.constructor).toBe(data.constructor);
        expect(hexOf(r.outputs.get(i)!), `${ELEMS[i]} x ${n}`).toBe(hexOf(data));
      });
    }
  });

  it("copies back into the caller's own arrays with copyBackInPlace", async () => {
    for (const n of [SMALL, LARGE]) {
      const data = sampleArray("f64", n);
      const want = hexOf(data);
      const r = await launchOnce({ module: check, kernel: "k", grid, block, check: true, copyBackInPlace: true, args: [{ kind: "array", elem: "f64", data, copyBack: true }] });
      expect(r.outputs.get(0)).toBe(data);
      expect(hexOf(data)).toBe(want);
    }
  });

  it("sends everything through the file at threshold 0 (empty arrays too), and falls back to base64 without one", async () => {
    for (const opts of [{ sharedFileMinBytes: 0 }, { sharedFileMinBytes: 0, sharedFileDir: "/nonexistent/gk-shared" }, { sharedFileMinBytes: Infinity }]) {
      const inputs = ELEMS.map((elem, i) => sampleArray(elem, i)); // 0 to 6 elements
      const r = await launchOnce({ ...opts, module: check, kernel: "k", grid, block, check: true, args: [
        ...inputs.map((data, i): KernelArg => ({ kind: "array", elem: ELEMS[i]!, data, copyBack: true })),
        { kind: "array", elem: "i64", length: 3, copyBack: true },
      ] });
      inputs.forEach((data, i) => expect(hexOf(r.outputs.get(i)!), JSON.stringify(opts)).toBe(hexOf(data)));
      expect(r.outputs.get(7)).toEqual(new BigInt64Array(3));
    }
  });
});

describe("the fake driver through shared files", () => {
  it("one-shot: copies every element type through the device exactly, above and below the threshold", async () => {
    for (const n of [SMALL, LARGE]) {
      for (const elem of ELEMS) {
        const data = sampleArray(elem, n);
        const r = await launchOnce({ module: mod, env, ...copyArgs(elem, data) });
        expect(hexOf(r.outputs.get(2)!), `${elem} x ${n}`).toBe(hexOf(data));
      }
    }
  });

  it.each([
    ["with the addon's host helpers (the file mapped here, answers awaited on this thread)", true],
    ["without them (system calls, answers through the event loop)", false],
  ])("session: upload, read, write, partial reads and run, for every element type, above and below the threshold, %s", async (_, hostIo) => {
    const session = new LauncherSession({ env, hostIo });
    try {
      for (const n of [SMALL, LARGE]) {
        for (const elem of ELEMS) {
          const data = sampleArray(elem, n);
          const b = await session.upload(data);
          expect(hexOf(await session.read(b)), `${elem} x ${n}`).toBe(hexOf(data));
          expect(hexOf(await session.read(b, 3, n - 5))).toBe(hexOf(data.subarray(3, n - 2)));
          const other = sampleArray(elem, n + 1).subarray(1, n - 7);
          await session.write(b, other, 7);
          expect(hexOf(await session.read(b, 7, n - 8))).toBe(hexOf(other));
          await session.free(b);
          const r = await session.run({ module: mod, ...copyArgs(elem, data) });
          expect(hexOf(r.outputs.get(2)!)).toBe(hexOf(data));
        }
      }
      // In place: the outputs are the caller's arrays.
      const x = sampleArray("i32", LARGE) as Int32Array;
      const r = await session.run({ module: mod, kernel: "copy_i32", grid: [Math.ceil(LARGE / 256), 1, 1], block: [256, 1, 1], copyBackInPlace: true, args: [
        { kind: "scalar", type: "i32", value: LARGE }, { kind: "array", elem: "i32", data: x.slice(), copyBack: false }, { kind: "array", elem: "i32", data: new Int32Array(LARGE), copyBack: true },
      ] });
      expect(hexOf(r.outputs.get(2)!)).toBe(hexOf(x));
      expect(session.restarts).toBe(0);
    } finally {
      await session.close();
    }
  });

  it("page-locks the session's file once per size and unlocks it at the end; one-shot files only when asked", async () => {
    const log = join(dir, "pin.log");
    const lines = () => {
      try {
        return readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
      } catch {
        return [];
      }
    };
    const session = new LauncherSession({ env: { ...env, FAKE_CUDA_LOG: log } });
    for (const n of [1 << 16, 1 << 16, 1 << 19]) {
      const data = sampleArray("f32", n);
      expect(hexOf((await session.run({ module: mod, ...copyArgs("f32", data) })).outputs.get(2)!)).toBe(hexOf(data));
    }
    await session.close();
    const pins = lines();
    expect(pins.filter((l) => l.startsWith("register")).length).toBe(2); // grown once
    expect(pins.filter((l) => l.startsWith("unregister")).length).toBe(2);

    rmSync(log, { force: true });
    const data = sampleArray("u64", LARGE);
    const once = (more: Record<string, string>) => launchOnce({ module: mod, env: { ...env, FAKE_CUDA_LOG: log, ...more }, ...copyArgs("u64", data) });
    expect(hexOf((await once({})).outputs.get(2)!)).toBe(hexOf(data));
    expect(lines()).toEqual([]);
    expect(hexOf((await once({ GK_LAUNCHER_PIN: "1" })).outputs.get(2)!)).toBe(hexOf(data));
    expect(lines()).toEqual(["register 560000", "unregister 560000", "register 560000", "unregister 560000"]);
    rmSync(log, { force: true });
    expect(hexOf((await once({ GK_LAUNCHER_PIN: "1", FAKE_CUDA_PIN: "refuse" })).outputs.get(2)!)).toBe(hexOf(data));
    const refused = new LauncherSession({ env: { ...env, FAKE_CUDA_PIN: "refuse" } });
    expect(hexOf((await refused.run({ module: mod, ...copyArgs("u64", data) })).outputs.get(2)!)).toBe(hexOf(data));
    await refused.close();
    const none = new LauncherSession({ env: { ...env, FAKE_CUDA_LOG: log, GK_LAUNCHER_PIN: "0" } });
    expect(hexOf((await none.run({ module: mod, ...copyArgs("u64", data) })).outputs.get(2)!)).toBe(hexOf(data));
    await none.close();
    expect(lines()).toEqual([]);
  });
});

describe("no file is left behind", () => {
  const big = (n = LARGE): KernelArg[] => [
    { kind: "scalar", type: "i32", value: n },
    { kind: "scalar", type: "f32", value: 2 },
    { kind: "array", elem: "f32", data: new Float32Array(n).fill(1), copyBack: false },
    { kind: "array", elem: "f32", data: new Float32Array(n).fill(2), copyBack: true },
    { kind: "array", elem: "f32", length: n, copyBack: true },
  ];
  const saxpy = { kernel: "saxpy", grid: [Math.ceil(LARGE / 256), 1, 1] as const, block: [256, 1, 1] as const };
  const spin: KernelArg[] = [{ kind: "scalar", type: "i64", value: 10n ** 12n }, { kind: "array", elem: "i32", data: new Int32Array(LARGE), copyBack: true }];

  /** A launcher that records its process id, so that a test can kill it mid-request. */
  function killable(folder: string): { launcherPath: string; kill: () => void } {
    const pids = join(folder, "..", "pids");
    const wrapper = join(folder, "..", "launcher.sh");
    writeFileSync(wrapper, `#!/bin/sh\necho $$ >> "${pids}"\nexec "${LAUNCHER}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    return {
      launcherPath: wrapper,
      kill: () => {
        // The launcher started last, which is running the request, and nothing else.
        const pid = Number(readFileSync(pids, "utf8").trim().split("\n").at(-1));
        expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).toContain("gpu_launcher");
        process.kill(pid, "SIGKILL");
      },
    };
  }

  it("after one-shot launches that succeed, fail, time out or are killed", async () => {
    const folder = join(tempDir("no-leftovers"), "shm");
    mkdirSync(folder);
    const o = { module: mod, env, sharedFileDir: folder, ...saxpy };
    expect((await launchOnce({ ...o, args: big() })).outputs.get(4)![0]).toBe(4);
    expect(readdirSync(folder)).toEqual([]);
    expect(await failure(launchOnce({ ...o, kernel: "oob", args: [{ kind: "array", elem: "f32", data: new Float32Array(LARGE), copyBack: true }] }))).toMatchObject({ cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS" });
    expect(await failure(launchOnce({ ...o, kernel: "nope", args: big() }))).toMatchObject({ code: "GK8009" });
    expect(await failure(launchOnce({ ...o, kernel: "spin", args: spin, timeoutMs: 100 }))).toMatchObject({ code: "GK8012" });
    expect(readdirSync(folder)).toEqual([]);
    const k = killable(folder);
    const pending = launchOnce({ ...o, launcherPath: k.launcherPath, kernel: "spin", args: spin });
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(folder)).toEqual([]); // the file never has a name, even while in use
    k.kill();
    expect(await failure(pending)).toMatchObject({ code: "GK8008", message: expect.stringContaining("SIGKILL") });
    expect(readdirSync(folder)).toEqual([]);
  });

  it("after a session's runs, a lost context, a stopped server and a killed one", async () => {
    const folder = join(tempDir("no-leftovers"), "shm");
    mkdirSync(folder);
    const k = killable(folder);
    const session = new LauncherSession({ env, sharedFileDir: folder, launcherPath: k.launcherPath, requestTimeoutMs: 5_000 });
    const r = await session.run({ module: mod, ...saxpy, args: big() });
    expect(r.outputs.get(4)![LARGE - 1]).toBe(4);
    expect(readdirSync(folder)).toEqual([]);
    expect(await failure(session.run({ module: mod, ...saxpy, kernel: "oob", args: [{ kind: "array", elem: "f32", data: new Float32Array(LARGE), copyBack: true }] }))).toMatchObject({ contextLost: true });
    expect(await failure(session.run({ module: mod, ...saxpy, kernel: "spin", args: spin, timeoutMs: 100 }))).toMatchObject({ code: "GK8012" });
    const m = await session.loadModule(mod);
    const b = await session.upload(new Int32Array(LARGE));
    const pending = session.launch({ module: m, kernel: "spin", grid, block, args: [spin[0]! as never, { kind: "buffer", buffer: b }] });
    await new Promise((r) => setTimeout(r, 300));
    k.kill();
    expect(await failure(pending)).toMatchObject({ code: "GK8008", contextLost: true });
    expect(readdirSync(folder)).toEqual([]);
    const again = await session.run({ module: mod, ...saxpy, args: big() });
    expect(again.outputs.get(4)![0]).toBe(4);
    await session.close();
    expect(readdirSync(folder)).toEqual([]);
  });

  it("where O_TMPFILE is missing too: the named file is gone before it is used", () => {
    const folder = tempDir("named");
    const f = SharedFile.create(folder, true)!;
    expect(f).toBeDefined();
    expect(readdirSync(folder)).toEqual([]);
    expect(f.fit(10_000)).toBe(true);
    expect(f.write(4096, new Uint8Array([1, 2, 3]))).toBe(true);
    const back = new Uint8Array(3);
    f.readInto(4096, back);
    expect([...back]).toEqual([1, 2, 3]);
    f.close();
  });

  it("in /dev/shm, the default folder", async () => {
    const ours = () => {
      try {
        return readdirSync("/dev/shm").filter((n) => n.startsWith("gk-launcher-"));
      } catch {
        return [];
      }
    };
    const before = ours();
    const session = new LauncherSession({ env });
    await session.run({ module: mod, ...saxpy, args: big() });
    expect(ours()).toEqual(before);
    await session.close();
    await launchOnce({ module: mod, env, ...saxpy, args: big() });
    expect(ours()).toEqual(before);
  });
});

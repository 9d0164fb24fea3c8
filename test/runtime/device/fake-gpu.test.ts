/**
 * GPU devices without a GPU: the fake libcuda.so.1 (test/runtime/launcher/fake-driver/)
 * stands in for the driver under both engines, the in-process addon (native/addon.cpp,
 * built here by node-gyp) and the gpu_launcher server. Its kernels run inside
 * cuLaunchKernel, by name, on modules nvcc builds from the .gk source of fake-gpu-helpers.ts (nvcc is on CI's
 * machines; the file skips, saying so, where it is not). test/gpu/device.test.ts runs the
 * same paths on a real GPU.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUDA_TARGET } from "../../../src/codegen/cuda/target.js";
import { openDevice, type GpuDevice, type Isolation, type LoadedModule, type StructType } from "../../../src/index.js";
import { scalarType } from "../../../src/ir/types.js";
import { removeTempDirs, ROOT, tempDir } from "../launcher/helpers.js";
import { FAKE_SRC as SRC, failure, fakeSkip as skip, setUpFakeGpu } from "./fake-gpu-helpers.js";

if (skip) console.warn(`test/runtime/device/fake-gpu.test.ts skipped: ${skip}`);

let cacheRoot: string;
beforeAll(async () => {
  if (!skip) cacheRoot = await setUpFakeGpu("fake-gpu");
});
afterAll(removeTempDirs);

const ISOLATIONS: readonly Isolation[] = ["in-process", "process"];

describe.skipIf(skip !== undefined).each(ISOLATIONS)("a device on the fake driver, isolation %s", (isolation) => {
  let gpu: GpuDevice;
  let mod: LoadedModule;
  beforeAll(async () => {
    gpu = await openDevice({ device: "cuda", isolation });
    mod = await gpu.compileSource(SRC, { cacheRoot });
  });
  afterAll(async () => {
    await gpu?.close();
  });

  it("describes the GPU and its memory", async () => {
    expect(gpu).toMatchObject({ kind: "cuda", isolation });
    expect(gpu.info).toMatchObject({ name: "Fake GPU (gk test driver)", arch: "sm_90" });
    expect(gpu.name).toBe(`GPU 0 (Fake GPU (gk test driver), ${isolation})`);
    expect((await gpu.memory()).total).toBe(2 ** 30);
    // The target whose limits its launches are checked against: CUDA's, for an sm_90.
    expect(gpu.target).toBe(CUDA_TARGET);
  });

  it("keeps arrays on the device, queues launches on them, and reads results back", async () => {
    const n = 1000;
    const x = await gpu.array(Float32Array.from({ length: n }, (_, i) => i), { label: "x" });
    const y = await gpu.array(new Float32Array(n).fill(1));
    const out = await gpu.zeros("f32", n);
    await mod.saxpy({ grid: 4, block: 256 }, { n, alpha: 2, x, y, out });
    expect(await out.read()).toEqual(Float32Array.from({ length: n }, (_, i) => 2 * i + 1));
    const p = await gpu.array(new Int32Array([1, 2, 3]));
    for (let i = 0; i < 10; i++) await mod.add_one({ grid: 1, block: 32 }, { n: 3, p });
    expect(await p.read()).toEqual(new Int32Array([11, 12, 13]));
    await p.write(new Int32Array([100]), 1);
    expect(await p.read()).toEqual(new Int32Array([11, 100, 13]));
    for (const a of [x, y, out, p]) a.free();
  });

  it("fills arrays and copies between them, after the launches queued before", async () => {
    const n = 1000;
    const x = await gpu.zeros("f32", n);
    await x.fill(3);
    const out = await gpu.zeros("f32", n);
    await out.fill(1, 500);
    const y = await gpu.array(new Float32Array(n));
    await mod.saxpy({ grid: 4, block: 256 }, { n, alpha: 2, x, y, out });
    const copy = await gpu.zeros("f32", n + 2);
    await copy.copyFrom(out, { offset: 2 });
    const want = new Float32Array(n + 2).fill(6, 2);
    expect(await copy.read()).toEqual(want);
    for (const a of [x, out, y, copy]) a.free();
  });

  it("passes scalars of 1 and 2 bytes at their sizes, f16 and bf16 rounded once", async () => {
    const arrays = { oa: new Int8Array(1), ob: new Uint8Array(1), oc: new Int16Array(1), od: new Uint16Array(1), oh: new Uint16Array(1), og: await gpu.zeros("bf16", 1) };
    await mod.roundtrip_narrow({ grid: 1, block: 1 }, { a: -128, b: 255, c: -2, d: 65535, h: -0.1, g: 3.5, ...arrays });
    expect([arrays.oa[0], arrays.ob[0], arrays.oc[0], arrays.od[0], arrays.oh[0]]).toEqual([-128, 255, -2, 65535, 0xae66]);
    expect(await arrays.og.read()).toEqual(new Uint16Array([0x4060]));
  });

  it("fills constant arrays and sizes dynamic shared memory per launch, queued or with host arrays", async () => {
    const out = await gpu.zeros("f32", 4);
    await mod.read_constant({ grid: 1, block: 4 }, { out, table: [1, 2, 3, 4] });
    await mod.read_constant({ grid: 1, block: 4 }, { out: await gpu.zeros("f32", 4), table: [9, 9, 9, 9] });
    expect(await out.read()).toEqual(Float32Array.from([1, 2, 3, 4]));
    const host = new Float32Array(4);
    await mod.read_constant({ grid: 1, block: 4 }, { out: host, table: Float32Array.from([5, 6, 7, 8]) });
    expect(host).toEqual(Float32Array.from([5, 6, 7, 8]));
    const len = new Float32Array(1);
    await mod.shared_length({ grid: 1, block: 32, shared: { buf: 300 } }, { out: len });
    expect(len[0]).toBe(300);
    const queued = await gpu.zeros("f32", 1);
    await mod.shared_length({ grid: 1, block: 32, shared: { buf: 7 } }, { out: queued });
    expect(await queued.read()).toEqual(Float32Array.from([7]));
    const e = await failure(mod.read_constant({ grid: 1, block: 4 }, { out }));
    expect(e.message).toContain("missing argument 'table'");
  });

  it("copies host arrays in and back, alone or beside GPU arrays, with the kernel time", async () => {
    let ms = -1;
    const out = new Float32Array(3);
    await mod.saxpy({ grid: 1, block: 32, kernelTime: (t) => (ms = t) }, { n: 3, alpha: 3, x: Float32Array.from([1, 2, 3]), y: Float32Array.from([1, 1, 1]), out });
    expect(out).toEqual(Float32Array.from([4, 7, 10]));
    expect(ms).toBe(0.015625);
    const x = await gpu.array(Float32Array.from([1, 2, 3]));
    await mod.saxpy({ grid: 1, block: 32 }, { n: 3, alpha: 1, x, y: Float32Array.from([0, 0, 1]), out });
    expect(out).toEqual(Float32Array.from([1, 2, 4]));
  });

  it("gives each timed queued launch its CUDA-event time at the next wait, on any queue", async () => {
    const q = await gpu.queue();
    const p = await gpu.zeros("i32", 4);
    const r = await gpu.zeros("i32", 4);
    const times: string[] = [];
    for (let i = 0; i < 3; i++) await mod.add_one({ grid: 1, block: 32, kernelTime: (t) => times.push(`default ${t}`) }, { n: 4, p });
    for (let i = 0; i < 2; i++) await mod.add_one({ grid: 1, block: 32, queue: q, kernelTime: (t) => times.push(`q ${t}`) }, { n: 4, p: r });
    await q.sync();
    expect(times).toEqual(["q 0.015625", "q 0.015625"]);
    await mod.sync();
    expect(times.slice(2)).toEqual(["default 0.015625", "default 0.015625", "default 0.015625"]);
    expect(await p.read()).toEqual(new Int32Array([3, 3, 3, 3]));
    expect(await r.read()).toEqual(new Int32Array([2, 2, 2, 2]));
  });

  // In-process, a fault poisons the process: fake-gpu-fault.test.ts runs that case in a process of its own.
  it.skipIf(isolation === "in-process")("names the kernel and the launch that faulted, loses the arrays made before, and the next launch works", async () => {
    const p = await gpu.array(new Int32Array(4), { label: "before" });
    await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
    await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
    await mod.oob({ grid: 1, block: 1 }, { p });
    await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
    const e = await failure(mod.sync());
    expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", contextLost: true });
    expect(e.launch).toMatchObject({ queue: 0, kernel: "oob", certain: true });
    expect(e.message).toMatch(/^GK8006: launch \d+ of kernel 'oob' on queue 0 failed: .*CUDA_ERROR_ILLEGAL_ADDRESS/);
    const lost = await failure(p.read());
    expect(lost.message).toBe("GK8017: GPU array 'before' (i32[4]) can no longer be used (read): the GPU context it was made in was lost (CUDA_ERROR_ILLEGAL_ADDRESS); its contents are gone, make it again");
    expect((await failure(mod.add_one({ grid: 1, block: 32 }, { n: 4, p }))).code).toBe("GK8017");
    const fresh = await gpu.array(new Int32Array([5, 6]));
    await mod.add_one({ grid: 1, block: 32 }, { n: 2, p: fresh });
    expect(await fresh.read()).toEqual(new Int32Array([6, 7]));
  });

  // The last launch's marker is written only by what comes after it (launcher/queues.hpp): a
  // fault in that launch, or on another queue, is still named for certain.
  it.skipIf(isolation === "in-process")("names a faulting last launch for certain, and the faulting launch among queues", async () => {
    const p = await gpu.array(new Int32Array(4));
    await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
    await mod.oob({ grid: 1, block: 1 }, { p });
    const seq = gpu.defaultQueue.nextSeq - 1;
    const last = await failure(mod.sync());
    expect(last.launch).toEqual({ queue: 0, seq, kernel: "oob", certain: true });
    const fresh = await gpu.array(new Int32Array(4));
    const q = await gpu.queue();
    await mod.oob({ grid: 1, block: 1, queue: q }, { p: fresh });
    await mod.add_one({ grid: 1, block: 32 }, { n: 4, p: fresh });
    const other = await failure(mod.sync());
    expect(other.launch).toMatchObject({ seq: 1, kernel: "oob", certain: true });
    expect(other.launch?.queue).toBeGreaterThan(0);
  });

  it("reports out of memory with the size asked and the memory free (GK8018), and goes on", async () => {
    const e = await failure(gpu.zeros("f32", 2 ** 29, { label: "big" }));
    expect(e.code).toBe("GK8018");
    expect(e.message).toMatch(/^GK8018: GPU array 'big' \(f32\[536870912\]\): out of GPU memory: 2\.00 GiB asked, [\d.]+ [KMG]iB free of 1\.00 GiB/);
    const small = await gpu.array(new Int32Array([1]));
    expect(await small.read()).toEqual(new Int32Array([1]));
  });

  it("refuses arrays used after free() (GK8016)", async () => {
    const p = await gpu.zeros("i32", 2, { label: "gone" });
    p.free();
    expect((await failure(mod.add_one({ grid: 1, block: 2 }, { n: 2, p }))).message).toBe("GK8016: GPU array 'gone' (i32[2]) was used after free() (argument 'p' of add_one); make a new array");
  });
});

// fill() and copyFrom() run on the device (launcher/device.cpp): the fake driver logs each
// memset and copy (FAKE_CUDA_LOG_LAUNCHES), so the way each fill went is seen, not only its result.
describe.skipIf(skip !== undefined).each(ISOLATIONS)("GPU arrays' views, fill() and copyFrom() on the fake driver, isolation %s", (isolation) => {
  let gpu: GpuDevice;
  let mod: LoadedModule;
  let log: string;
  const memops = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => /^(memset|copy|upload)/.test(l)) : []);
  beforeAll(async () => {
    log = join(tempDir("fake-gpu-memops"), "log");
    Object.assign(process.env, { FAKE_CUDA_LOG: log, FAKE_CUDA_LOG_LAUNCHES: "1" }); // read by the addon, and by the launcher this device starts
    gpu = await openDevice({ device: "cuda", isolation });
    mod = await gpu.compileSource(SRC, { cacheRoot });
  });
  afterAll(async () => {
    delete process.env.FAKE_CUDA_LOG;
    delete process.env.FAKE_CUDA_LOG_LAUNCHES;
    await gpu?.close();
  });

  it("fill with one memset where the element repeats every 1, 2 or 4 bytes, else upload the first elements and copy them, doubling", async () => {
    const bools = (n: number): StructType => ({ kind: "struct", name: `B${n}`, fields: Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type: scalarType("bool"), offset: i })), size: n, align: 1 });
    const [f, d, zero, h, v, same, b, b3, big] = [
      await gpu.zeros("f32", 1000),
      await gpu.zeros("f64", 5),
      await gpu.array(Float64Array.from([1, 2, 3])),
      await gpu.zeros("f16", 3),
      await gpu.zeros("f32x3", 2),
      await gpu.zeros("i32x4", 2),
      await gpu.zeros("boolx3", 2),
      await gpu.zeros(bools(3), 2), // a struct of 3 bool fields (bytes)
      await gpu.zeros("f64", 2 ** 14 + 5), // past 64 KiB: uploaded 8192, copied 8192, then 5
    ];
    rmSync(log, { force: true }); // the allocations' zero fills are not the point
    await f.fill(3, 10);
    await d.fill(Math.PI, 1, 4);
    await zero.fill(0);
    await h.fill(-2);
    await v.fill([1, 2, 3]);
    await same.fill([7, 7, 7, 7]);
    await b.fill([true, false, true]);
    await b3.fill({ f0: true, f1: false, f2: true });
    await big.fill(-1.5);
    await big.fill(Math.E, 1);
    expect(memops()).toEqual([
      "memset D32 990",
      "upload 24",
      "memset D8 24",
      "memset D16 3",
      "upload 32",
      "memset D32 8",
      "memset D16 4",
      "upload 6",
      "upload 65536",
      "copy 65536",
      "copy 40",
      "upload 65536",
      "copy 65536",
      "copy 32",
    ]);
    const bigBack = await big.read();
    expect(bigBack[0]).toBe(-1.5);
    expect(bigBack.subarray(1).every((x) => x === Math.E)).toBe(true);
    expect(await f.read()).toEqual(Float32Array.from({ length: 1000 }, (_, i) => (i < 10 ? 0 : 3)));
    expect(await d.read()).toEqual(Float64Array.from([0, Math.PI, Math.PI, Math.PI, 0]));
    expect(await zero.read()).toEqual(new Float64Array(3));
    expect([...(await h.read())]).toEqual([0xc000, 0xc000, 0xc000]);
    expect([...(await v.read())]).toEqual([1, 2, 3, 0, 1, 2, 3, 0]);
    expect(await same.read()).toEqual(new Int32Array(8).fill(7));
    expect([...(await b.read())]).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    expect(await b3.read()).toEqual([{ f0: true, f1: false, f2: true }, { f0: true, f1: false, f2: true }]);
  });

  it("copy device to device, overlapping ranges through a temporary, in order with launches", async () => {
    const p = await gpu.array(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]), { label: "p" });
    await mod.add_one({ grid: 1, block: 32 }, { n: 8, p });
    const q = await gpu.zeros("i32", 8);
    rmSync(log, { force: true });
    await q.copyFrom(p, { srcOffset: 2, length: 4 });
    await p.copyFrom(p, { srcOffset: 0, offset: 2, length: 6 });
    expect(memops().filter((l) => l.startsWith("copy"))).toEqual(["copy 16", "copy 24", "copy 24"]); // the overlapping copy: through a temporary
    await mod.add_one({ grid: 1, block: 32 }, { n: 8, p: q });
    expect(await q.read()).toEqual(Int32Array.from([4, 5, 6, 7, 1, 1, 1, 1]));
    expect(await p.read()).toEqual(Int32Array.from([1, 2, 1, 2, 3, 4, 5, 6]));
    // Freed while an overlapping copy waits for its temporary: the copy stops, touching nothing.
    const copying = p.view(1).copyFrom(p, { length: 7 });
    p.free();
    expect((await failure(copying)).message).toBe("GK8016: elements 1 to 7 of GPU array 'p' (i32[8]) was used, after the array it views was freed (copyFrom); make a new array");
  });

  it("pass views to kernels as pointers into their array, and read and write them", async () => {
    const x = await gpu.array(Float32Array.from({ length: 64 }, (_, i) => i), { label: "x" });
    const out = await gpu.zeros("f32", 64, { label: "out" });
    await mod.saxpy({ grid: 1, block: 32 }, { n: 16, alpha: 2, x: x.view(8, 16), y: x.view(32, 16), out: out.view(48) });
    const want = new Float32Array(64);
    for (let i = 0; i < 16; i++) want[48 + i] = 2 * (8 + i) + (32 + i);
    expect(await out.read()).toEqual(want);
    const p = await gpu.array(new Int32Array(6));
    const mid = p.view(2, 2);
    await mid.write(Int32Array.from([5, 6]));
    await mod.add_one({ grid: 1, block: 32 }, { n: 2, p: mid });
    expect(await mid.read()).toEqual(Int32Array.from([6, 7]));
    expect(await p.read()).toEqual(Int32Array.from([0, 0, 6, 7, 0, 0]));
    // Freed while its write waits for the queues: the write is done first, then the memory freed.
    const q = await gpu.zeros("i32", 4);
    const writing = q.write(Int32Array.from([1, 2, 3, 4]));
    q.free();
    await writing;
    p.free();
    expect((await failure(mod.add_one({ grid: 1, block: 32 }, { n: 2, p: mid }))).message).toBe(
      "GK8016: elements 2 to 3 of a GPU array (i32[6]) was used, after the array it views was freed (argument 'p' of add_one); make a new array",
    );
  });
});

describe.skipIf(skip !== undefined)("a kernel that never ends, on the fake driver", () => {
  it("process: a wait's timeout ends the launcher, and the next launch works", async () => {
    const gpu = await openDevice({ device: "cuda", isolation: "process" });
    const mod = await gpu.compileSource(SRC, { cacheRoot });
    const done = await gpu.zeros("i32", 1);
    await mod.spin({ grid: 1, block: 1 }, { cycles: 10n ** 15n, done });
    const started = Date.now();
    const e = await failure(gpu.sync({ timeoutMs: 300 }));
    expect(e).toMatchObject({ code: "GK8012", contextLost: true });
    expect(e.launch).toMatchObject({ kernel: "spin" });
    expect(Date.now() - started).toBeLessThan(120_000); // 10^15 cycles: any end is the timeout's
    const p = await gpu.array(new Int32Array([1]));
    await mod.add_one({ grid: 1, block: 1 }, { n: 1, p });
    expect(await p.read()).toEqual(new Int32Array([2]));
    await gpu.close();
  });

  it("in-process: a wait's timeout gives up on the kernel, says it still runs, and the GPU stays unusable", () => {
    // In a process of its own: the fake driver stays busy for good afterwards, as a GPU would.
    const r = spawnSync(process.execPath, [join(ROOT, "test", "runtime", "fixtures", "spin-in-process.mjs")], {
      encoding: "utf8",
      env: { ...process.env, GK_CACHE_DIR: cacheRoot },
      timeout: 600_000,
    });
    expect(r.stderr).toBe("");
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^timeout GK8012 .*in-process, a timeout stops the wait but not the kernel: it goes on running, and this process cannot use the GPU again until it ends/);
    expect(lines[1]).toMatch(/^after GK8012: the GPU cannot be used again in this process: a kernel that did not finish still runs/);
    expect(r.status).toBe(0);
  });
});

describe.skipIf(skip !== undefined).each(ISOLATIONS)("a program that never calls close(), isolation %s", (isolation) => {
  it("still exits", () => {
    const r = spawnSync(process.execPath, [join(ROOT, "test", "runtime", "fixtures", "no-close.mjs"), isolation], {
      encoding: "utf8",
      env: { ...process.env, GK_CACHE_DIR: cacheRoot },
      timeout: 600_000,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("[ 2, 3 ]\n");
    expect(r.status).toBe(0);
  });
});

describe.skipIf(skip !== undefined)("two devices on one GPU in-process", () => {
  it("share its context: closing one leaves the other working", async () => {
    const a = await openDevice({ device: "cuda", isolation: "in-process" });
    const b = await openDevice({ device: "cuda", isolation: "in-process" });
    const mod = await b.compileSource(SRC, { cacheRoot });
    const p = await b.array(new Int32Array([1]));
    await a.close();
    await mod.add_one({ grid: 1, block: 1 }, { n: 1, p });
    expect(await p.read()).toEqual(new Int32Array([2]));
    await b.close();
  });
});

describe.skipIf(skip !== undefined)("launch markers off (GK_LAUNCH_MARKERS=0), process isolation", () => {
  it("blames a fault on the first launch not seen to finish, and says the blame is not certain", async () => {
    process.env.GK_LAUNCH_MARKERS = "0"; // read by the launcher this device starts
    const gpu = await openDevice({ device: "cuda", isolation: "process" });
    try {
      const mod = await gpu.compileSource(SRC, { cacheRoot });
      const p = await gpu.array(new Int32Array(4));
      await mod.add_one({ grid: 1, block: 32 }, { n: 4, p });
      await mod.oob({ grid: 1, block: 1 }, { p });
      const e = await failure(mod.sync());
      expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", contextLost: true });
      expect(e.launch).toEqual({ queue: 0, seq: 1, kernel: "add_one", certain: false });
      expect(e.message).toMatch(/^GK8006: launch 1 of kernel 'add_one' on queue 0 \(the first on its queue not seen to finish\) failed: .*CUDA_ERROR_ILLEGAL_ADDRESS/);
    } finally {
      delete process.env.GK_LAUNCH_MARKERS;
      await gpu.close();
    }
  });
});

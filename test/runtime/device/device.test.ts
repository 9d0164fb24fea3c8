/**
 * GPU arrays, queues and asynchronous launches on the simulator (device.ts, gpuArray.ts,
 * launching.ts): the same API a GPU has, with arrays in host memory, so programs run
 * unchanged without a GPU. test/gpu/device.test.ts runs the same on a GPU in both isolations.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GkRuntimeError, GpuArray, openDevice, packStructs, SimError, unpackStructs, type GpuDevice } from "../../../src/index.js";

const SRC = `
device_kernel saxpy(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  if (i < n) { out[i] = alpha * x[i] + y[i]; }
}
device_kernel add_one(n: i32, p: global<i32>) {
  const i = globalId.x;
  if (i < n) { p[i] = p[i] + 1; }
}
device_kernel oob(p: global<i32>) {
  p[globalId.x + 100] = 1;
}
`;

const opened: GpuDevice[] = [];
async function cpu(): Promise<GpuDevice> {
  const d = await openDevice({ device: "cpu" });
  opened.push(d);
  return d;
}
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
});

async function failure(p: Promise<unknown> | (() => unknown)): Promise<GkRuntimeError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(GkRuntimeError);
    return e as GkRuntimeError;
  }
  throw new Error("expected a GkRuntimeError");
}

describe("GPU arrays on the simulator", () => {
  it("hold a copy of a TypedArray, read back into a new or a given array, and take writes at an offset", async () => {
    const gpu = await cpu();
    expect(gpu).toMatchObject({ kind: "cpu", isolation: "simulator", name: "the CPU simulator" });
    const src = Float32Array.from([1, 2, 3, 4]);
    const a = await gpu.array(src, { label: "a" });
    src[0] = 99; // the array holds a copy
    expect(a).toMatchObject({ elem: "f32", length: 4, byteLength: 16, label: "a" });
    expect(String(a)).toBe(`GpuArray<"f32">[4] 'a'`);
    expect(await a.read()).toEqual(Float32Array.from([1, 2, 3, 4]));
    await a.write(Float32Array.from([7, 8]), 2);
    const into = new Float32Array(4);
    expect(await a.read(into)).toBe(into);
    expect(into).toEqual(Float32Array.from([1, 2, 7, 8]));
    const z = await gpu.zeros("i64", 3);
    expect(await z.read()).toEqual(new BigInt64Array(3));
    expect(await (await gpu.array(new Uint8Array([1, 0, 1]))).read()).toEqual(new Uint8Array([1, 0, 1]));
  });

  it("are filled with a value and copied from another array, in whole or in part, and refuse what does not fit", async () => {
    const gpu = await cpu();
    const a = await gpu.zeros("i32", 6, { label: "a" });
    await a.fill(7);
    await a.fill(-1, 4);
    expect(await a.read()).toEqual(Int32Array.from([7, 7, 7, 7, -1, -1]));
    const h = await gpu.zeros("f16", 2);
    await h.fill(1.0);
    expect([...(await h.read())]).toEqual([0x3c00, 0x3c00]);
    const w = await gpu.zeros("u64", 2);
    await w.fill(2n ** 64n - 1n);
    expect(await w.read()).toEqual(BigUint64Array.from([2n ** 64n - 1n, 2n ** 64n - 1n]));
    const b = await gpu.array(Int32Array.from([1, 2, 3, 4]), { label: "b" });
    await a.copyFrom(b);
    expect(await a.read()).toEqual(Int32Array.from([1, 2, 3, 4, -1, -1]));
    await a.copyFrom(b, { srcOffset: 2, offset: 4 });
    expect(await a.read()).toEqual(Int32Array.from([1, 2, 3, 4, 3, 4]));
    expect((await failure(a.fill(2.5))).message).toBe("GK8005: fill() of GPU array 'a' (i32[6]) takes a value of i32, got number 2.5");
    expect((await failure(a.fill(3n))).message).toBe("GK8005: fill() of GPU array 'a' (i32[6]) takes a value of i32, got bigint 3");
    expect((await failure(a.fill(0, 2, 9))).message).toBe("GK8005: fill() of elements 2 to 9 does not fit GPU array 'a' (i32[6])");
    expect((await failure(a.copyFrom(b, { offset: 3 }))).message).toBe(
      "GK8005: copyFrom(): 4 elements from element 0 of GPU array 'b' (i32[4]) to element 3 of GPU array 'a' (i32[6]) do not fit",
    );
    expect((await failure(a.copyFrom(h as never))).message).toBe("GK8005: copyFrom(): a GPU array (f16[2]) does not hold i32 elements like GPU array 'a' (i32[6])");
    await a.copyFrom(a); // onto itself: nothing changes
    expect(await a.read()).toEqual(Int32Array.from([1, 2, 3, 4, 3, 4]));
    const other = await cpu();
    expect((await failure(a.copyFrom(await other.array(new Int32Array(1))))).message).toMatch(/^GK8005: copyFrom\(\): a GPU array \(i32\[1\]\) belongs to /);
  });

  it("hold arrays of vectors (their lanes) and of structs (their bytes), which kernels take and update in place", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(
      "struct P { pos: f32x3; n: i32; }\n" +
        "device_kernel k(vs: global<f32x3>, ps: global<P>) {\n  const i = globalId.x;\n  vs[i] = vs[i] * 2.0;\n  ps[i].pos = vs[i];\n  ps[i].n += 1;\n}\n",
    );
    const P = mod.structs.P!;
    const vs = await gpu.array(Float32Array.from([1, 2, 3, 0, 4, 5, 6, 0]), { label: "vs" });
    const ps = await gpu.array(new Uint8Array(packStructs(P, [{ pos: [0, 0, 0], n: 1 }, { pos: [0, 0, 0], n: 2 }])), { elem: "u8", label: "ps" });
    await mod.k!({ grid: 1, block: 2 }, { vs, ps });
    expect([...(await vs.read())]).toEqual([2, 4, 6, 0, 8, 10, 12, 0]);
    expect(unpackStructs(P, await ps.read())).toEqual([{ pos: [2, 4, 6], n: 2 }, { pos: [8, 10, 12], n: 3 }]);
    const wrong = async (args: Record<string, unknown>) => (await failure(mod.k!({ grid: 1, block: 2 }, { vs, ps, ...args } as never))).message;
    expect(await wrong({ vs: await gpu.zeros("f32", 6) })).toBe(`GK8005: k: parameter 'vs' (global<f32x3>) takes a GpuArray<"f32x3">, or a GpuArray<"f32"> of 4·n lanes (4 per 3-lane vector, the last padding), got GpuArray<"f32">[6]`);
    expect(await wrong({ vs: await gpu.zeros("i32", 8) })).toBe(`GK8005: k: parameter 'vs' (global<f32x3>) takes a GpuArray<"f32x3">, or a GpuArray<"f32"> of 4·n lanes (4 per 3-lane vector, the last padding), got GpuArray<"i32">[8]`);
    expect(await wrong({ ps: await gpu.zeros("u8", P.size + 1) })).toBe(
      `GK8005: k: parameter 'ps' (global<P>) takes a GPU array of P structs (gpu.zeros(mod.structs.P, n)), or of the bytes of n of them (${P.size} bytes each: packStructs), got GpuArray<"u8">[${P.size + 1}] of ${P.size + 1} bytes`,
    );
  });

  it("take their element type from the TypedArray, or from { elem } where it does not say (u8, f16, bf16)", async () => {
    const gpu = await cpu();
    expect((await gpu.array(new Uint8Array([1, 0]))).elem).toBe("bool");
    expect((await gpu.array(new Uint16Array([1]))).elem).toBe("u16");
    const h = await gpu.array(Uint16Array.from([0x3c00, 0xc000]), { elem: "f16" });
    expect(h.elem).toBe("f16");
    expect([...(await h.read())]).toEqual([0x3c00, 0xc000]);
    expect((await gpu.array(Uint8Array.from([200]), { elem: "u8" })).elem).toBe("u8");
    expect((await failure(gpu.array(new Float32Array(2) as never, { elem: "f16" }))).message).toBe(
      "GK8005: array(data, { elem: \"f16\" }) takes a Uint16Array of f16 bits, got a Float32Array of length 2",
    );
  });

  it("refuse reads into, and writes from, the wrong kind of array, and writes that do not fit", async () => {
    const gpu = await cpu();
    const a = await gpu.zeros("f32", 4, { label: "a" });
    expect((await failure(a.read(new Float32Array(3) as never))).message).toBe("GK8005: read(into) of GPU array 'a' (f32[4]) takes a Float32Array of length 4, got a Float32Array of length 3");
    expect((await failure(a.write(new Int32Array(4) as never))).message).toBe("GK8005: write() to GPU array 'a' (f32[4]) takes a Float32Array, got a Int32Array of length 4");
    expect((await failure(a.write(new Float32Array(2), 3))).message).toBe("GK8005: write() of 2 elements at offset 3 does not fit GPU array 'a' (f32[4])");
    expect((await failure(gpu.zeros("f8" as never, 2))).code).toBe("GK8005");
    expect((await failure(gpu.zeros("toString" as never, 2))).code).toBe("GK8005");
    expect((await failure(gpu.zeros("f32", -1))).message).toContain("non-negative integer");
    expect((await failure(gpu.array([1, 2] as never))).message).toContain("array() takes a TypedArray");
  });

  it("say so, naming the array, when used after free() (GK8016) or after their device closed (GK8017)", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const p = await gpu.array(new Int32Array(4), { label: "counts" });
    p.free();
    p.free(); // a second free does nothing
    expect(p.freed).toBe(true);
    expect((await failure(p.read())).message).toBe("GK8016: GPU array 'counts' (i32[4]) was used after free() (read); make a new array");
    const e = await failure(mod.add_one({ grid: 1, block: 4 }, { n: 4, p }));
    expect(e.message).toBe("GK8016: GPU array 'counts' (i32[4]) was used after free() (argument 'p' of add_one); make a new array");
    {
      using scoped = await gpu.zeros("i32", 1);
      expect(scoped.freed).toBe(false);
      var escaped = scoped; // eslint-disable-line no-var
    }
    expect(escaped.freed).toBe(true);
    const q = await gpu.zeros("f32", 2);
    await gpu.close();
    expect((await failure(q.read())).message).toBe("GK8017: a GPU array (f32[2]) can no longer be used (read): the CPU simulator, which it belongs to, was closed; its contents are gone, make it again");
    expect((await failure(gpu.zeros("f32", 1))).message).toBe("GK8017: the CPU simulator was closed (zeros()); open a device again");
  });
});

describe("launches with GPU arrays on the simulator", () => {
  it("queue and return at once; reads see the results; outputs are the arrays themselves", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const x = await gpu.array(Float32Array.from([1, 2, 3, 4]));
    const y = await gpu.array(Float32Array.from([1, 1, 1, 1]));
    const out = await gpu.zeros("f32", 4, { label: "out" });
    const r = await mod.saxpy({ grid: 1, block: 256 }, { n: 4, alpha: 2.5, x, y, out });
    expect(r.out).toBe(out);
    expect(await out.read()).toEqual(Float32Array.from([3.5, 6, 8.5, 11]));
    // Host arrays and GPU arrays in one launch: the host output is updated in place.
    const hostOut = new Float32Array(4);
    await mod.saxpy({ grid: 1, block: 256 }, { n: 4, alpha: 1, x, y: Float32Array.from([0, 0, 0, 1]), out: hostOut });
    expect(hostOut).toEqual(Float32Array.from([1, 2, 3, 5]));
  });

  it("run in order on a queue, with kernel times delivered at the next wait", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const p = await gpu.array(new Int32Array([0, 10, 20]));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) await mod.add_one({ grid: 1, block: 32, kernelTime: (ms) => times.push(ms) }, { n: 3, p });
    expect(times).toEqual([]);
    await mod.sync();
    expect(times).toHaveLength(5);
    expect(times.every((t) => t >= 0)).toBe(true);
    expect(await p.read()).toEqual(new Int32Array([5, 15, 25]));
  });

  it("share arrays between modules of one device, and refuse arrays of another device or element type", async () => {
    const gpu = await cpu();
    const a = await gpu.compileSource(SRC);
    const b = await gpu.compileSource("device_kernel twice(n: i32, p: global<i32>) { const i = globalId.x; if (i < n) { p[i] = p[i] * 2; } }");
    const p = await gpu.array(new Int32Array([1, 2]), { label: "p" });
    await a.add_one({ grid: 1, block: 2 }, { n: 2, p });
    await b.twice({ grid: 1, block: 2 }, { n: 2, p });
    expect(await p.read()).toEqual(new Int32Array([4, 6]));
    const other = await cpu();
    const foreign = await other.zeros("i32", 2, { label: "foreign" });
    expect((await failure(a.add_one({ grid: 1, block: 2 }, { n: 2, p: foreign }))).message).toBe(
      "GK8005: add_one: parameter 'p' (global<i32>) was given GPU array 'foreign' (i32[2]) of the CPU simulator, but the kernel runs on the CPU simulator: an array can be passed only to kernels compiled for its device (gpu.compile(...))",
    );
    const f = await gpu.zeros("f32", 2, { label: "floats" });
    expect((await failure(a.add_one({ grid: 1, block: 2 }, { n: 2, p: f }))).message).toBe(`GK8005: add_one: parameter 'p' (global<i32>) takes a GpuArray<"i32"> or a Int32Array, got GpuArray<"f32">[2] 'floats'`);
  });

  it("refuse a written array that is also another argument (the aliasing rule)", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const x = await gpu.array(Float32Array.from([1, 2]), { label: "x" });
    const e = await failure(mod.saxpy({ grid: 1, block: 2 }, { n: 2, alpha: 1, x, y: x, out: x }));
    expect(e.message).toBe(
      "GK8005: saxpy: arguments 'out' (written by the kernel) and 'x' share memory (they are the same GPU array: GPU array 'x' (f32[2])); an array a kernel writes may share memory with no other argument of its launch: pass another GPU array, or views that do not overlap",
    );
    // Reading the same array twice is fine.
    const out = await gpu.zeros("f32", 2);
    await mod.saxpy({ grid: 1, block: 2 }, { n: 2, alpha: 1, x, y: x, out });
    expect(await out.read()).toEqual(Float32Array.from([2, 4]));
  });

  it("report a failed launch at the next wait, skip what was queued after it, and go on afterwards", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const p = await gpu.zeros("i32", 4);
    await mod.add_one({ grid: 1, block: 4 }, { n: 4, p });
    await mod.oob({ grid: 1, block: 1 }, { p }); // resolves: queued
    await mod.add_one({ grid: 1, block: 4 }, { n: 4, p }); // after the failure: not run
    const e = await mod.sync().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SimError);
    expect((e as SimError).message).toContain("out-of-bounds");
    await mod.sync(); // reported once
    expect(await p.read()).toEqual(new Int32Array([1, 1, 1, 1]));
    await mod.add_one({ grid: 1, block: 4 }, { n: 4, p });
    expect(await p.read()).toEqual(new Int32Array([2, 2, 2, 2]));
  });

  it("keep queues apart: a failure on one is reported by its own wait", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const q1 = await gpu.queue();
    const q2 = await gpu.queue();
    const a = await gpu.zeros("i32", 2);
    const b = await gpu.zeros("i32", 2);
    await mod.oob({ grid: 1, block: 1, queue: q1 }, { p: a });
    await mod.add_one({ grid: 1, block: 2, queue: q2 }, { n: 2, p: b });
    await q2.sync();
    expect(await b.read()).toEqual(new Int32Array([1, 1]));
    await expect(q1.sync()).rejects.toBeInstanceOf(SimError);
    const other = await cpu();
    const e = await failure(mod.add_one({ grid: 1, block: 2, queue: await other.queue() }, { n: 2, p: b }));
    expect(e.message).toBe("GK8005: add_one: the queue belongs to another device (the CPU simulator), not the CPU simulator");
  });

  it("gives host memory figures and plain host arrays on the simulator", async () => {
    const gpu = await cpu();
    const m = await gpu.memory();
    expect(m.total).toBeGreaterThan(0);
    expect(m.free).toBeLessThanOrEqual(m.total);
    const h = gpu.hostArray("f64", 8);
    expect(h).toBeInstanceOf(Float64Array);
    expect(h).toHaveLength(8);
  });

  it("names a wrong element type or length of hostArray() (GK8005), and memory the simulator cannot allocate (GK8018)", async () => {
    const gpu = await cpu();
    const types = "bool, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, f16, bf16";
    expect((await failure(() => gpu.hostArray("nope" as never, 4))).message).toBe(`GK8005: hostArray() takes an element type (${types}), got string nope`);
    expect((await failure(() => gpu.hostArray("constructor" as never, 4))).message).toBe(`GK8005: hostArray() takes an element type (${types}), got string constructor`);
    for (const n of [-1, 1.5, 2 ** 53, "4"]) expect((await failure(() => gpu.hostArray("f32", n as never))).message).toMatch(/^GK8005: hostArray\(\) takes a length that is a non-negative integer, got /);
    const e = await failure(gpu.zeros("f64", 2 ** 40));
    expect(e.code).toBe("GK8018");
    expect(e.message).toBe("GK8018: a GPU array (f64[1099511627776]): the CPU simulator cannot allocate 8796093022208 bytes");
  });

  it("is what compile() gives a module of its own, closed with it", async () => {
    const { compileSource } = await import("../../../src/index.js");
    const mod = await compileSource(SRC, { device: "cpu" });
    const p = await mod.gpu.array(new Int32Array(2));
    await mod.add_one({ grid: 1, block: 2 }, { n: 2, p });
    expect(await p.read()).toEqual(new Int32Array([1, 1]));
    expect(p).toBeInstanceOf(GpuArray);
    await mod.close();
    expect((await failure(p.read())).code).toBe("GK8017");
  });
});

/**
 * GPU arrays' views, their arrays of vectors and structs, and fill() and copyFrom() (gpuArray.ts,
 * arrayElems.ts, device.ts) on the simulator. test/runtime/device/fake-gpu.test.ts runs the
 * device side of the same on the fake driver in both isolations, test/gpu/device.test.ts on a GPU.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GkRuntimeError, openDevice, type GpuDevice } from "../../../src/index.js";

const SRC = `
struct P { pos: f32x3; n: i32; }
device_kernel add_one(n: i32, p: global<i32>) {
  const i = globalId.x;
  if (i < n) { p[i] = p[i] + 1; }
}
device_kernel copy(n: i32, x: readonly global<i32>, out: global<i32>) {
  const i = globalId.x;
  if (i < n) { out[i] = x[i]; }
}
device_kernel grow(vs: global<f32x4>, ps: global<P>) {
  const i = globalId.x;
  vs[i] = vs[i] * 2.0;
  ps[i].pos = vs[i].xyz;
  ps[i].n += 1;
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

describe("views of GPU arrays", () => {
  it("share the array's memory: reads, writes, fills, copies and kernels see and change its elements", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const a = await gpu.array(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]), { label: "a" });
    const v = a.view(2, 4);
    expect(v).toMatchObject({ elem: "i32", length: 4, byteLength: 16, offset: 2, base: a });
    expect(v.describe()).toBe("elements 2 to 5 of GPU array 'a' (i32[8])");
    expect(String(v)).toBe(`GpuArray<"i32">[4] (a view of GpuArray<"i32">[8] 'a' from element 2)`);
    expect(await v.read()).toEqual(Int32Array.from([2, 3, 4, 5]));
    await v.write(Int32Array.from([20, 30]), 1);
    await mod.add_one({ grid: 1, block: 4 }, { n: 4, p: v });
    expect(await a.read()).toEqual(Int32Array.from([0, 1, 3, 21, 31, 6, 6, 7]));
    await v.view(3).fill(-1); // a view of a view: element 5 of a
    expect(v.view(3)).toMatchObject({ offset: 5, base: a });
    const out = await gpu.zeros("i32", 8);
    await mod.copy({ grid: 1, block: 4 }, { n: 4, x: a.view(4), out: out.view(0, 4) });
    expect(await out.read()).toEqual(Int32Array.from([31, -1, 6, 7, 0, 0, 0, 0]));
    expect(a.view(8)).toMatchObject({ length: 0 }); // an empty view at the end
    expect(a.view(8).describe()).toBe("no elements (a view at element 8) of GPU array 'a' (i32[8])");
  });

  it("refuse a range past the end, naming the argument, and are unusable once their array is freed", async () => {
    const gpu = await cpu();
    const a = await gpu.zeros("f32", 8, { label: "a" });
    expect((await failure(() => a.view(6, 3))).message).toBe("GK8005: view(offset, length) of GPU array 'a' (f32[8]): offset 6 and length 3 reach element 8, past its last (7)");
    expect((await failure(() => a.view(-1))).message).toBe("GK8005: view(offset, length) of GPU array 'a' (f32[8]): offset takes an integer from 0 to 8, got number -1");
    expect((await failure(() => a.view(9))).message).toBe("GK8005: view(offset, length) of GPU array 'a' (f32[8]): offset takes an integer from 0 to 8, got number 9");
    expect((await failure(() => a.view("2" as never))).message).toBe("GK8005: view(offset, length) of GPU array 'a' (f32[8]): offset takes an integer from 0 to 8, got string 2");
    expect((await failure(() => a.view(1, 2.5))).message).toBe("GK8005: view(offset, length) of GPU array 'a' (f32[8]): length takes a non-negative integer, got number 2.5");
    expect((await failure(() => a.view(1, 2).view(1, 2))).message).toBe("GK8005: view(offset, length) of elements 1 to 2 of GPU array 'a' (f32[8]): offset 1 and length 2 reach element 2, past its last (1)");
    const v = a.view(2, 2);
    const w = a.view(4, 2);
    w.free(); // frees no memory: only the view is done with
    expect((await failure(w.read())).message).toBe("GK8016: elements 4 to 5 of GPU array 'a' (f32[8]) was used after free() (read); make a new array");
    expect(await a.read()).toEqual(new Float32Array(8));
    a.free();
    expect(v.freed).toBe(true);
    expect((await failure(v.read())).message).toBe("GK8016: elements 2 to 3 of GPU array 'a' (f32[8]) was used, after the array it views was freed (read); make a new array");
    expect((await failure(() => v.view(0, 1))).code).toBe("GK8016");
  });

  it("may be arguments of one launch where they do not overlap, and are refused where a written one overlaps another", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const a = await gpu.array(Int32Array.from([1, 2, 3, 4, 5, 6]), { label: "a" });
    await mod.copy({ grid: 1, block: 3 }, { n: 3, x: a.view(0, 3), out: a.view(3, 3) });
    expect(await a.read()).toEqual(Int32Array.from([1, 2, 3, 1, 2, 3]));
    const e = await failure(mod.copy({ grid: 1, block: 3 }, { n: 3, x: a.view(0, 4), out: a.view(3, 3) }));
    expect(e.message).toBe(
      "GK8005: copy: arguments 'out' (written by the kernel) and 'x' share memory (elements 3 to 5 of GPU array 'a' (i32[6]) and elements 0 to 3 of GPU array 'a' (i32[6]) overlap); an array a kernel writes may share memory with no other argument of its launch: pass another GPU array, or views that do not overlap",
    );
    expect((await failure(mod.copy({ grid: 1, block: 3 }, { n: 3, x: a, out: a.view(5, 1) }))).code).toBe("GK8005");
  });
});

describe("fill() and copyFrom()", () => {
  it("fill with values wider than 32 bits and of every width, exactly", async () => {
    const gpu = await cpu();
    const d = await gpu.zeros("f64", 5);
    await d.fill(Math.PI, 1, 4);
    expect(await d.read()).toEqual(Float64Array.from([0, Math.PI, Math.PI, Math.PI, 0]));
    const i = await gpu.zeros("i64", 3);
    await i.fill(-(2n ** 63n));
    expect(await i.read()).toEqual(BigInt64Array.from([-(2n ** 63n), -(2n ** 63n), -(2n ** 63n)]));
    const b = await gpu.zeros("bool", 3);
    await b.fill(true, 1);
    expect(await b.read()).toEqual(Uint8Array.from([0, 1, 1]));
    const bf = await gpu.zeros("bf16", 2);
    await bf.fill(1.0);
    expect([...(await bf.read())]).toEqual([0x3f80, 0x3f80]);
  });

  it("copy between overlapping ranges of one array as if through a temporary (memmove), either way", async () => {
    const gpu = await cpu();
    const a = await gpu.array(Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]));
    await a.copyFrom(a, { srcOffset: 0, offset: 2, length: 5 });
    expect(await a.read()).toEqual(Int32Array.from([0, 1, 0, 1, 2, 3, 4, 7]));
    await a.view(1).copyFrom(a.view(3, 4));
    expect(await a.read()).toEqual(Int32Array.from([0, 1, 2, 3, 4, 3, 4, 7]));
    await a.copyFrom(a.view(4, 4));
    expect(await a.read()).toEqual(Int32Array.from([4, 3, 4, 7, 4, 3, 4, 7]));
  });

  it("run after the launches queued before them, and a failed launch's queue skips them until its wait reports it", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(`${SRC}\ndevice_kernel oob(p: global<i32>) { p[globalId.x + 100] = 1; }\n`);
    const p = await gpu.zeros("i32", 4);
    await mod.add_one({ grid: 1, block: 4 }, { n: 4, p });
    const q = await gpu.zeros("i32", 4);
    await q.copyFrom(p);
    await p.fill(9);
    expect(await q.read()).toEqual(Int32Array.from([1, 1, 1, 1]));
    await mod.oob({ grid: 1, block: 1 }, { p });
    await q.fill(5);
    await expect(q.read()).rejects.toThrow(/^GK8001: out-of-bounds write/);
    expect(await q.read()).toEqual(Int32Array.from([1, 1, 1, 1]));
  });
});

describe("GPU arrays of vectors and structs", () => {
  it("are made by zeros() of every vector type and of a struct type, read as their lanes or as objects", async () => {
    const gpu = await cpu();
    const v = await gpu.zeros("f32x3", 2, { label: "v" });
    expect(v).toMatchObject({ elem: "f32x3", length: 2, byteLength: 32 });
    expect(v.describe()).toBe("GPU array 'v' (f32x3[2])");
    expect(await v.read()).toEqual(new Float32Array(8));
    const sizes: Record<string, number> = {};
    for (const t of ["boolx2", "boolx3", "boolx4", "i32x3", "u32x2", "i64x4", "u64x3", "f32x2", "f64x3", "f16x2", "bf16x2"] as const) sizes[t] = (await gpu.zeros(t, 1)).byteLength;
    expect(sizes).toEqual({ boolx2: 2, boolx3: 4, boolx4: 4, i32x3: 16, u32x2: 8, i64x4: 32, u64x3: 32, f32x2: 8, f64x3: 32, f16x2: 4, bf16x2: 4 });
    const mod = await gpu.compileSource(SRC);
    const P = mod.structs.P!;
    const ps = await gpu.zeros(P, 2, { label: "ps" });
    expect(ps).toMatchObject({ length: 2, byteLength: 2 * P.size });
    expect(ps.describe()).toBe("GPU array 'ps' (P[2])");
    expect(String(ps)).toBe("GpuArray<P>[2] 'ps'");
    expect(await ps.read()).toEqual([{ pos: [0, 0, 0], n: 0 }, { pos: [0, 0, 0], n: 0 }]);
    expect((await ps.read(new Uint8Array(2 * P.size))).byteLength).toBe(2 * P.size);
    expect((await failure(gpu.zeros("f32x5" as never, 1))).message).toBe(
      "GK8005: zeros() takes an element type: a scalar type (bool, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, f16, bf16), a vector type (f32x4, i32x2, ...) or a struct type (mod.structs.Name); got string f32x5",
    );
    expect((await failure(gpu.zeros("u8x4" as never, 1))).code).toBe("GK8005");
    const fromLanes = await gpu.array(Float32Array.from([1, 2, 3, 0, 4, 5, 6, 0]), { elem: "f32x3", label: "lanes" });
    expect(fromLanes).toMatchObject({ elem: "f32x3", length: 2, byteLength: 32 });
    expect([...(await fromLanes.read())]).toEqual([1, 2, 3, 0, 4, 5, 6, 0]);
    expect((await failure(gpu.array(new Float32Array(6), { elem: "f32x4" }))).message).toBe('GK8005: array(data, { elem: "f32x4" }) takes a Float32Array of 4·n lanes, got a Float32Array of length 6');
    expect((await failure(gpu.array(new Int32Array(4) as never, { elem: "f32x4" }))).message).toBe('GK8005: array(data, { elem: "f32x4" }) takes a Float32Array of 4·n lanes, got a Int32Array of length 4');
  });

  it("are filled with a vector's lanes or a struct's object, written and copied, and taken by kernels", async () => {
    const gpu = await cpu();
    const mod = await gpu.compileSource(SRC);
    const P = mod.structs.P!;
    const vs = await gpu.zeros("f32x4", 3, { label: "vs" });
    await vs.fill([1, 2, 3, 4]);
    await vs.view(2).write(Float32Array.from([5, 6, 7, 8]));
    const ps = await gpu.zeros(P, 3, { label: "ps" });
    await ps.fill({ pos: [0, 0, 0], n: 10 });
    await ps.write([{ pos: [1, 1, 1], n: 1 }], 2);
    await mod.grow({ grid: 1, block: 3 }, { vs, ps });
    expect([...(await vs.read())]).toEqual([2, 4, 6, 8, 2, 4, 6, 8, 10, 12, 14, 16]);
    expect(await ps.read()).toEqual([{ pos: [2, 4, 6], n: 11 }, { pos: [2, 4, 6], n: 11 }, { pos: [10, 12, 14], n: 2 }]);
    const copy = await gpu.zeros(P, 1);
    await copy.copyFrom(ps, { srcOffset: 2 });
    expect(await copy.read()).toEqual([{ pos: [10, 12, 14], n: 2 }]);
    expect((await failure(vs.fill([1, 2, 3] as never))).message).toBe("GK8005: fill() of GPU array 'vs' (f32x4[3]) takes an array of 4 numbers (f32x4), got an array of 3 elements");
    expect((await failure(ps.fill({ pos: [0, 0, 0] } as never))).message).toBe("GK8005: fill() of GPU array 'ps' (P[3]), at .n, takes a value (the field is missing), got undefined");
    expect((await failure(vs.write(new Float32Array(6)))).message).toBe("GK8005: write() to GPU array 'vs' (f32x4[3]) takes whole f32x4 elements (4 lanes each), got a Float32Array of length 6");
    expect((await failure(ps.write(new Uint8Array(P.size + 1)))).message).toBe(`GK8005: write() to GPU array 'ps' (P[3]) takes P objects, or the bytes of a whole number of them (${P.size} each), got a Uint8Array of length ${P.size + 1}`);
    expect((await failure(copy.copyFrom(vs as never))).message).toBe("GK8005: copyFrom(): GPU array 'vs' (f32x4[3]) does not hold P elements like a GPU array (P[1])");
    const wrong = await failure(mod.grow({ grid: 1, block: 3 }, { vs: await gpu.zeros("i32x4", 3), ps }));
    expect(wrong.message).toBe(`GK8005: grow: parameter 'vs' (global<f32x4>) takes a GpuArray<"f32x4">, or a GpuArray<"f32"> of 4·n lanes, got GpuArray<"i32x4">[3]`);
  });
});

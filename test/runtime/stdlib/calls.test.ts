// The standard library's host calls (src/runtime/stdlib/calls.ts) on the simulator: results against plain JS, GPU arrays
// in and out, temporaries reused across calls, and a clear GK8005 for every bad argument.
import { afterAll, describe, expect, it } from "vitest";
import { openDevice, type GpuDevice } from "../../../src/runtime/device/device.js";
import { stdlib } from "../../../src/runtime/stdlib/calls.js";
import { GkRuntimeError } from "../../../src/runtime/errors.js";

let device: Promise<GpuDevice> | undefined;
const sim = () => (device ??= openDevice({ device: "cpu" }));
afterAll(async () => {
  if (device) await (await device).close();
});

/** Expects `p` to reject with GK8005 and a message containing `part`. */
async function refused(p: Promise<unknown>, part: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(GkRuntimeError);
  expect((e as GkRuntimeError).message).toContain("GK8005");
  expect((e as GkRuntimeError).message).toContain(part);
}

describe("stdlib(gpu)", () => {
  it("is one Stdlib per device", async () => {
    const gpu = await sim();
    expect(stdlib(gpu)).toBe(stdlib(gpu));
    expect(stdlib(gpu).gpu).toBe(gpu);
  });

  it("sum, min, max and reduce return scalars of the element type, again and again (the counter is reset by the kernel)", async () => {
    const gpu = await sim();
    const x = await gpu.array(Float32Array.from({ length: 3001 }, (_, i) => (i % 97) - 40));
    for (let round = 0; round < 2; round++) {
      expect(await stdlib(gpu).sum(x)).toBe(Array.from(await x.read()).reduce((a, b) => a + b, 0));
      expect(await stdlib(gpu).min(x)).toBe(-40);
      expect(await stdlib(gpu).max(x)).toBe(56);
    }
    const big = await gpu.array(BigInt64Array.from([5n, -(2n ** 62n), 7n]));
    expect(await stdlib(gpu).sum(big)).toBe(12n - 2n ** 62n);
    const bits = await gpu.array(Uint32Array.from([0xf0f0, 0x0ff0, 0x00ff]));
    expect(await stdlib(gpu).reduce(bits, "xor")).toBe(0xf0f0 ^ 0x0ff0 ^ 0x00ff);
    expect(await stdlib(gpu).reduce(bits, "and")).toBe(0xf0f0 & 0x0ff0 & 0x00ff);
    expect(await stdlib(gpu).sum(await gpu.zeros("i32", 0))).toBe(0);
    expect(await stdlib(gpu).argmin(x)).toBe(0);
    expect(await stdlib(gpu).argmax(x)).toBe(96);
    expect(await stdlib(gpu).argmax(await gpu.zeros("u32", 0))).toBe(-1);
    expect(await stdlib(gpu).min(await gpu.zeros("f64", 0))).toBe(Infinity);
  });

  it("scan: inclusive and exclusive, a new array, the input untouched", async () => {
    const gpu = await sim();
    const data = Int32Array.from({ length: 5000 }, (_, i) => (i * 31) % 11 - 5);
    const x = await gpu.array(data);
    const inc = await (await stdlib(gpu).scan(x)).read();
    const exc = await (await stdlib(gpu).scan(x, { exclusive: true })).read();
    const mx = await (await stdlib(gpu).scan(x, { op: "max" })).read();
    let s = 0, m = -Infinity;
    for (let i = 0; i < data.length; i++) {
      expect(exc[i]).toBe(s);
      s += data[i]!;
      m = Math.max(m, data[i]!);
      expect(inc[i]).toBe(s);
      expect(mx[i]).toBe(m);
    }
    expect(await x.read()).toEqual(data);
    const into = await gpu.zeros("i32", data.length);
    expect(await stdlib(gpu).scan(x, { out: into })).toBe(into);
    expect(await into.read()).toEqual(inc);
    // 64-bit types take scan (flags, aggregates and prefixes), 32-bit ones scanPacked (one word a tile).
    const wide = await (await stdlib(gpu).scan(await gpu.array(BigInt64Array.from(data, BigInt)))).read();
    expect([...wide]).toEqual([...inc].map(BigInt));
    const halves = await (await stdlib(gpu).scan(await gpu.array(Float32Array.from(data, (v) => v / 2)), { exclusive: true })).read();
    expect([...halves]).toEqual([...exc].map((v) => v / 2));
    await refused(stdlib(gpu).scan(x, { out: x }), "scan(): out (a GPU array (i32[5000])) is also an input");
    await refused(stdlib(gpu).scan(x, { out: await gpu.zeros("i32", 3) }), "scan(): out must hold 5000 elements");
    await refused(stdlib(gpu).scan(x, { out: await gpu.zeros("f32", 5000) }), "scan(): out: a GPU array (f32[5000]) has elements of f32; it takes i32");
  });

  it("scan: calls made at once, before their kernels are built, still launch in call order (each tile is its ticket minus the ticket's value before its launch)", async () => {
    // A device of its own, so that no instance is built yet: the exclusive and max scans' builds race the plain one's.
    const gpu = await openDevice({ device: "cpu" });
    try {
      const data = Int32Array.from({ length: 3000 }, (_, i) => (i * 7) % 13 - 6);
      const x = await gpu.array(data);
      const std = stdlib(gpu);
      const [inc, exc, mx] = await Promise.all([std.scan(x), std.scan(x, { exclusive: true }), std.scan(x, { op: "max" })]);
      let s = 0, m = -Infinity;
      const want = { inc: [] as number[], exc: [] as number[], mx: [] as number[] };
      for (const v of data) {
        want.exc.push(s);
        want.inc.push((s += v));
        want.mx.push((m = Math.max(m, v)));
      }
      expect([...(await inc.read())]).toEqual(want.inc);
      expect([...(await exc.read())]).toEqual(want.exc);
      expect([...(await mx.read())]).toEqual(want.mx);
    } finally {
      await gpu.close();
    }
  });

  it("histogram, transpose, matmul, random and segmentedReduce", async () => {
    const gpu = await sim();
    const x = await gpu.array(Float32Array.from([0, 0.5, 0.99, 1, 2, -1, NaN, 0.25]));
    expect([...(await (await stdlib(gpu).histogram(x, { bins: 4, lo: 0, hi: 1 })).read())]).toEqual([1, 1, 1, 2]);
    const counts = await gpu.array(Uint32Array.from([9, 9, 9, 9]));
    await stdlib(gpu).histogram(x, { bins: 4, lo: 0, hi: 1, out: counts });
    expect([...(await counts.read())]).toEqual([1, 1, 1, 2]);
    const m = await gpu.array(Int32Array.from([1, 2, 3, 4, 5, 6]));
    expect([...(await (await stdlib(gpu).transpose(m, 2, 3)).read())]).toEqual([1, 4, 2, 5, 3, 6]);
    const a = await gpu.array(Float64Array.from([1, 2, 3, 4, 5, 6])), b = await gpu.array(Float64Array.from([7, 8, 9, 10, 11, 12]));
    expect([...(await (await stdlib(gpu).matmul(a, b, 2, 2, 3)).read())]).toEqual([58, 64, 139, 154]);
    const r1 = await (await stdlib(gpu).random(1000, { seed: 42n })).read();
    const r2 = await (await stdlib(gpu).random(1000, { seed: 42 })).read();
    const r3 = await (await stdlib(gpu).random(1000, { seed: 42, stream: 1 })).read();
    expect(r1).toEqual(r2);
    expect(r1).not.toEqual(r3);
    expect(r1.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = r1.reduce((p, v) => p + v, 0) / r1.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
    const z = await (await stdlib(gpu).random(2000, { seed: 3, dist: "normal", elem: "f64" })).read();
    expect(Math.abs(z.reduce((p, v) => p + v, 0) / z.length)).toBeLessThan(0.1);
    const seg = await stdlib(gpu).segmentedReduce(await gpu.array(Uint32Array.from([1, 2, 3, 4, 5])), await gpu.array(Int32Array.from([0, 2, 2, 5])));
    expect([...(await seg.read())]).toEqual([3, 0, 12]);
  });

  it("refuses bad arguments with GK8005, naming the call and the array", async () => {
    const gpu = await sim();
    const f = await gpu.array(Float32Array.from([1, 2]), { label: "f" });
    await refused(stdlib(gpu).reduce(f, "and"), "reduce(): 'and' works on integer arrays; GPU array 'f' (f32[2]) holds floats");
    await refused(stdlib(gpu).reduce(f, "mul" as never), "reduce(): op must be one of sum, min, max, and, or, xor");
    await refused(stdlib(gpu).sort(await gpu.array(Uint16Array.from([1, 2]), { label: "h" }) as never), "sort(): GPU array 'h' (u16[2]) has elements of u16; it takes i32, u32, i64, u64, f32, f64");
    await refused(stdlib(gpu).sort(f, { values: await gpu.array(Float32Array.from([1]), { label: "v" }) }), "sort(): the values (GPU array 'v' (f32[1])) must be as many as the keys");
    await refused(stdlib(gpu).histogram(f, { bins: 0, lo: 0, hi: 1 }), "histogram(): bins must be a positive integer");
    await refused(stdlib(gpu).histogram(f, { bins: 4, lo: 1, hi: 1 }), "histogram(): lo and hi must be finite numbers with lo < hi");
    await refused(stdlib(gpu).transpose(f, 3, 1), "transpose(): 3 x 1 is 3 elements, but GPU array 'f' (f32[2]) holds 2");
    await refused(stdlib(gpu).matmul(f, f, 1, 1, 3), "matmul(): A is m x k = 1 x 3");
    await refused(stdlib(gpu).random(-1), "random(): n must be a non-negative integer");
    await refused(stdlib(gpu).random(4, { seed: -1 }), "random(): seed must be");
    await refused(stdlib(gpu).sum([1, 2] as never), "reduce(): it takes a GPU array");
    const other = await openDevice({ device: "cpu" });
    await refused(stdlib(other).sum(f), "belongs to the CPU simulator, not to the CPU simulator");
    await other.close();
    f.free();
    await expect(stdlib(gpu).sum(f)).rejects.toThrow(/GK8016/);
  });
});

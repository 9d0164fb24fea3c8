/**
 * GPU arrays' views, arrays of every vector type and of structs, and fill() and copyFrom() on
 * the device (launcher/device.cpp: cuMemsetD8/D16/D32, or an upload and doubling copies; cuMemcpyDtoDAsync)
 * on a real GPU, in both isolations, each result against the simulator's. Skipped, with a
 * one-line reason each, where there is no GPU, no nvcc or (for in-process) no addon.
 * test/runtime/device/gpuArray.test.ts runs the same API on the simulator, fake-gpu.test.ts on
 * the fake driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDevice, type GpuArray, type GpuDevice, type Isolation, type LoadedModule, type VectorName } from "../../src/index.js";
import { ensureAddon } from "../runtime/launcher/helpers.js";
import { findNvcc, gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
const nvcc = gpu.ok ? await findNvcc() : undefined;
const base = !gpu.ok ? gpu.reason : nvcc === undefined ? "nvcc not found" : undefined;
let addonWhy: string | undefined;
if (!base) {
  try {
    await ensureAddon();
  } catch (e) {
    addonWhy = e instanceof Error ? e.message : String(e);
  }
}
const skipOf = (i: Isolation) => base ?? (i === "in-process" ? addonWhy : undefined);
for (const i of ["in-process", "process"] as const) if (skipOf(i)) console.warn(`test/gpu/gpuArray.test.ts (${i}) skipped: ${skipOf(i)}`);

const SRC = `
struct P { pos: f32x3; n: i32; alive: bool; }
device_kernel add_one(n: i32, p: global<i32>) { const i = globalId.x; if (i < n) { p[i] = p[i] + 1; } }
device_kernel saxpy(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  if (i < n) { out[i] = alpha * x[i] + y[i]; }
}
device_kernel grow(n: i32, vs: global<f32x4>, ps: global<P>) {
  const i = globalId.x;
  if (i < n) { vs[i] = vs[i] * 2.0; ps[i].pos = vs[i].xyz; ps[i].n += 1; }
}
`;

/** Every vector type gk has, with a value whose lanes differ (so that no fill is one memset). */
const VECTORS: readonly [VectorName, readonly (number | bigint | boolean)[]][] = [
  ...(["i32", "u32", "f32", "f64"] as const).flatMap((t) => ([2, 3, 4] as const).map((n): [VectorName, number[]] => [`${t}x${n}`, [3, 1, 4, 1].slice(0, n).map((x, k) => x + k)])),
  ...(["i64", "u64"] as const).flatMap((t) => ([2, 3, 4] as const).map((n): [VectorName, bigint[]] => [`${t}x${n}`, [2n ** 40n + 3n, 7n, 2n ** 33n, 1n].slice(0, n)])),
  ...([2, 3, 4] as const).map((n): [VectorName, boolean[]] => [`boolx${n}`, [true, false, true, true].slice(0, n)]),
  ["f16x2", [1.5, -2]],
  ["bf16x2", [0.25, 3]],
];

for (const isolation of ["in-process", "process"] as const) {
  const skip = skipOf(isolation);
  describe.skipIf(skip !== undefined)(skip ? `GPU arrays on the device, ${isolation} (skipped: ${skip})` : `GPU arrays on the device, ${isolation}, on ${gpu.reason}`, () => {
    let dev: GpuDevice;
    let cpu: GpuDevice;
    let mod: LoadedModule;
    let sim: LoadedModule;
    beforeAll(async () => {
      dev = await openDevice({ device: "cuda", isolation });
      cpu = await openDevice({ device: "cpu" });
      mod = await dev.compileSource(SRC);
      sim = await cpu.compileSource(SRC);
    });
    afterAll(async () => {
      await dev?.close();
      await cpu?.close();
    });

    /** `run` on the GPU and on the simulator; both results. */
    const both = async <T>(run: (d: GpuDevice, m: LoadedModule) => Promise<T>): Promise<[T, T]> => [await run(dev, mod), await run(cpu, sim)];

    it("fills arrays of every vector type and of structs exactly, as the simulator does", async () => {
      for (const [t, value] of VECTORS) {
        const [g, s] = await both(async (d) => {
          const a = await d.zeros(t, 1000);
          await a.fill(value as never, 3, 997);
          return [...(await a.read())];
        });
        expect(g, t).toEqual(s);
      }
      const [g, s] = await both(async (d, m) => {
        const a = await d.zeros(m.structs.P!, 1000);
        await a.fill({ pos: [1, 2, 3], n: -5, alive: true }, 1);
        return a.read();
      });
      expect(g).toEqual(s);
      expect(g[0]).toEqual({ pos: [0, 0, 0], n: 0, alive: false });
      expect(g[999]).toEqual({ pos: [1, 2, 3], n: -5, alive: true });
    });

    it("fills 2^25 f64 (an upload and 12 doubling copies) and 2^28 bytes exactly", async () => {
      const big = await dev.zeros("f64", 2 ** 25);
      await big.fill(Math.PI, 1);
      const back = await big.read();
      expect(back[0]).toBe(0);
      let wrong = 0;
      for (let i = 1; i < back.length; i++) if (back[i] !== Math.PI) wrong++;
      expect(wrong).toBe(0);
      big.free();
      const bytes = await dev.zeros("u8", 2 ** 28);
      await bytes.fill(0xa5);
      expect((await bytes.read()).every((b) => b === 0xa5)).toBe(true);
      bytes.free();
    });

    it("copies on the device, overlapping ranges as memmove, in order with launches on every queue", async () => {
      const n = 2 ** 22;
      const p = await dev.array(Int32Array.from({ length: n }, (_, i) => i));
      const q = await dev.queue();
      await mod.add_one({ grid: n / 256, block: 256, queue: q }, { n, p }); // on another queue
      const c = await dev.zeros("i32", n);
      await c.copyFrom(p); // queue 0: after q's launch
      await p.copyFrom(p, { srcOffset: 0, offset: 1, length: n - 1 }); // shift up by one
      await c.view(1).copyFrom(c, { length: n - 1 }); // the same, through a view
      await mod.add_one({ grid: n / 256, block: 256 }, { n, p: c });
      const [pb, cb] = [await p.read(), await c.read()];
      expect(pb[0]).toBe(1);
      expect(cb[0]).toBe(2);
      let wrong = 0;
      for (let i = 1; i < n; i++) if (pb[i] !== i || cb[i] !== i + 1) wrong++;
      expect(wrong).toBe(0);
      await p.copyFrom(p.view(1)); // shift down by one
      const down = await p.read();
      expect([down[0], down[1], down[n - 2], down[n - 1]]).toEqual([1, 2, n - 1, n - 1]);
    });

    it("passes views and arrays of vectors and structs to kernels, as the simulator does", async () => {
      const [g, s] = await both(async (d, m) => {
        const x = await d.array(Float32Array.from({ length: 256 }, (_, i) => i));
        const out = await d.zeros("f32", 256);
        await m.saxpy({ grid: 1, block: 64 }, { n: 64, alpha: 2, x: x.view(16, 64), y: x.view(128, 64), out: out.view(192) });
        const vs: GpuArray<"f32x4"> = await d.zeros("f32x4", 64);
        await vs.fill([1, 2, 3, 4]);
        const ps = await d.zeros(m.structs.P!, 64);
        await m.grow({ grid: 1, block: 32 }, { n: 32, vs: vs.view(16, 32), ps: ps.view(32) });
        return { out: [...(await out.read())], vs: [...(await vs.read())], ps: await ps.read() };
      });
      expect(g).toEqual(s);
      expect(g.out[192]).toBe(2 * 16 + 128);
      expect(g.ps[32]).toEqual({ pos: [2, 4, 6], n: 1, alive: false });
    });
  });
}

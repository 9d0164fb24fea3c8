/**
 * The standard library's host calls (stdlib(gpu)) on a real GPU against the simulator, on the
 * same inputs: bit for bit where spec/stdlib.md says the result is reproducible (integer
 * results, f32 sum/min/max — both run the same grid, so the same order —, sort, histogram,
 * transpose, uniform random numbers), within rounding where it is not (a float scan's
 * look-back order, normal random numbers through log/cos/sin, SGEMM with FMA contraction).
 * Skipped, with a one-line reason, where there is no GPU.
 *
 *   npx vitest run --project gpu test/gpu/stdlib.test.ts
 */
import { afterAll, describe, expect, it } from "vitest";
import { openDevice, type GpuDevice } from "../../src/runtime/device/device.js";
import { stdlib } from "../../src/runtime/stdlib/calls.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/stdlib.test.ts skipped: ${gpu.reason}`);

let both: Promise<{ cuda: GpuDevice; cpu: GpuDevice }> | undefined;
const devices = () => (both ??= Promise.all([openDevice({ device: "cuda" }), openDevice({ device: "cpu" })]).then(([cuda, cpu]) => ({ cuda, cpu })));
afterAll(async () => {
  if (both) for (const d of Object.values(await both)) await d.close();
});

/** Runs `call` on the GPU and the simulator with the same inputs; returns both results read back. */
async function onBoth<T>(call: (d: GpuDevice) => Promise<T>): Promise<[T, T]> {
  const { cuda, cpu } = await devices();
  return [await call(cuda), await call(cpu)];
}

const N = 50_003;
const hash = (i: number) => Math.imul(i ^ (i >>> 13), 2654435761) >>> 0;
const f32 = Float32Array.from({ length: N }, (_, i) => (hash(i) >>> 8) / 2 ** 24);
const i32 = Int32Array.from({ length: N }, (_, i) => (hash(i) % 2001) - 1000);
const u32 = Uint32Array.from({ length: N }, (_, i) => hash(i));

describe.skipIf(!gpu.ok)(gpu.ok ? `stdlib(gpu) on ${gpu.reason} against the simulator` : `stdlib(gpu) on a GPU (skipped: ${gpu.reason})`, () => {
  it("sum, min, max, reduce: the same bits", { timeout: 600_000 }, async () => {
    for (const [data, ops] of [[f32, ["sum", "min", "max"]], [i32, ["sum", "min", "max", "xor"]], [Float64Array.from(f32), ["sum"]], [BigInt64Array.from(i32, BigInt), ["sum", "max"]]] as const) {
      for (const op of ops) {
        const [g, c] = await onBoth(async (d) => stdlib(d).reduce(await d.array(data as Float32Array), op as "sum"));
        expect(g, `${data.constructor.name} ${op}`).toBe(c);
      }
      for (const which of ["argmin", "argmax"] as const) {
        const [g, c] = await onBoth(async (d) => stdlib(d)[which](await d.array(data as Float32Array)));
        expect(g, `${data.constructor.name} ${which}`).toBe(c);
      }
    }
    // The reduce kernel itself on grids the host call does not take at this size: 3 blocks (each
    // thread's run long enough for the loads issued four at a time) and 300 blocks of 32 (more
    // partial results than the last block loads at once).
    for (const [grid, block] of [[3, 256], [300, 32]] as const) {
      const [g, c] = await onBoth(async (d) => {
        const m = await stdlib(d).module();
        const [x, out, partial, counter] = [await d.array(f32), await d.zeros("f32", 1), await d.zeros("f32", grid), await d.zeros("u32", 1)];
        await m.kernel("reduce", { T: "f32", OP: 0, BLOCK: block })({ grid, block }, { n: N, x, out, partial, counter });
        return (await out.read())[0];
      });
      expect(g, `reduce<f32, SUM, ${block}> on ${grid} blocks`).toBe(c);
    }
  });

  it("scan: integers the same bits, f32 within rounding", { timeout: 600_000 }, async () => {
    for (const exclusive of [false, true]) {
      const [gi, ci] = await onBoth(async (d) => (await stdlib(d).scan(await d.array(i32), { exclusive })).read());
      expect(gi).toEqual(ci);
      const [gm, cm] = await onBoth(async (d) => (await stdlib(d).scan(await d.array(u32), { op: "max" })).read());
      expect(gm).toEqual(cm);
    }
    const [gf, cf] = await onBoth(async (d) => (await stdlib(d).scan(await d.array(f32))).read());
    for (let i = 0; i < N; i += 997) expect(Math.abs(gf[i]! - cf[i]!)).toBeLessThanOrEqual(1e-5 * Math.abs(cf[i]!) + 1e-3);
  });

  it("scan at 2^20 and 2^24 elements (the larger tiles, thousands of them in flight): i32 the bits of a plain JS scan, f32 within rounding of an f64 one", { timeout: 600_000 }, async () => {
    const { cuda } = await devices();
    for (const n of [1 << 20, 1 << 24]) {
      const xi = Int32Array.from({ length: n }, (_, i) => (hash(i) % 2001) - 1000);
      const xf = Float32Array.from({ length: n }, (_, i) => (hash(i) >>> 8) / 2 ** 24);
      for (const exclusive of [false, true]) {
        const gi = await (await stdlib(cuda).scan(await cuda.array(xi), { exclusive })).read();
        let acc = 0, bad = -1;
        for (let i = 0; i < n && bad < 0; i++) {
          const next = (acc + xi[i]!) | 0;
          if (gi[i] !== (exclusive ? acc : next)) bad = i;
          acc = next;
        }
        expect(bad, `i32 n ${n} exclusive ${exclusive}: first wrong element`).toBe(-1);
      }
      const gf = await (await stdlib(cuda).scan(await cuda.array(xf))).read();
      let sum = 0, bad = -1;
      for (let i = 0; i < n && bad < 0; i++) {
        sum += xf[i]!;
        if (!(Math.abs(gf[i]! - sum) <= 1e-5 * sum + 1e-3)) bad = i;
      }
      expect(bad, `f32 n ${n}: first element off by more than rounding`).toBe(-1);
    }
  });

  it("scan: calls made at once, before their kernels are built, launch in call order", { timeout: 600_000 }, async () => {
    // A device of its own: no instance loaded yet, so each call's first launch waits for its build.
    const fresh = await openDevice({ device: "cuda" });
    try {
      const x = await fresh.array(u32);
      const std = stdlib(fresh);
      const [inc, mn, ex] = await Promise.all([std.scan(x, { op: "xor" }), std.scan(x, { op: "min" }), std.scan(x, { op: "or", exclusive: true })]);
      let a = 0, m = 0xffffffff, o = 0;
      const [gi, gm, ge] = [await inc.read(), await mn.read(), await ex.read()];
      for (let i = 0; i < N; i++) {
        expect(ge[i], `or, exclusive, element ${i}`).toBe(o);
        a = (a ^ u32[i]!) >>> 0;
        m = Math.min(m, u32[i]!);
        o = (o | u32[i]!) >>> 0;
        expect(gi[i], `xor, element ${i}`).toBe(a);
        expect(gm[i], `min, element ${i}`).toBe(m);
      }
    } finally {
      await fresh.close();
    }
  });

  it("sort with values, histogram, transpose, segmentedReduce: the same bits", { timeout: 600_000 }, async () => {
    const [gs, cs] = await onBoth(async (d) => {
      const r = await stdlib(d).sort(await d.array(i32), { values: await d.array(u32) });
      return [await r.keys.read(), await r.values!.read()] as const;
    });
    expect(gs[0]).toEqual(cs[0]);
    expect(gs[1]).toEqual(cs[1]);
    // f32 keys with -0, infinities and NaNs of either sign: the same bits.
    const fk = Float32Array.from(f32, (v, i) => (i % 97 === 0 ? [-0, 0, Infinity, -Infinity, NaN, -NaN][i % 6]! : v - 0.5));
    const [gf, cf] = await onBoth(async (d) => {
      const r = await stdlib(d).sort(await d.array(fk), { values: await d.array(u32) });
      return [new Uint32Array((await r.keys.read()).buffer), await r.values!.read()] as const;
    });
    expect(gf[0]).toEqual(cf[0]);
    expect(gf[1]).toEqual(cf[1]);
    const [gh, ch] = await onBoth(async (d) => (await stdlib(d).histogram(await d.array(f32), { bins: 256, lo: 0, hi: 1 })).read());
    expect(gh).toEqual(ch);
    const [gb, cb] = await onBoth(async (d) => (await stdlib(d).histogram(await d.array(f32), { bins: 10_000, lo: 0.25, hi: 0.75 })).read());
    expect(gb).toEqual(cb);
    const [gt, ct] = await onBoth(async (d) => (await stdlib(d).transpose(await d.array(f32.subarray(0, 100 * 417)), 100, 417)).read());
    expect(gt).toEqual(ct);
    const offsets = Int32Array.from([0, 5, 5, 1000, 45_000, N]);
    const [gg, cg] = await onBoth(async (d) => (await stdlib(d).segmentedReduce(await d.array(i32), await d.array(offsets), "max")).read());
    expect(gg).toEqual(cg);
  });

  it("random: uniform the same bits; normal within a few ulps", { timeout: 600_000 }, async () => {
    for (const elem of ["f32", "f64"] as const) {
      const [gu, cu] = await onBoth(async (d) => (await stdlib(d).random(N, { seed: 123456789n, stream: 3, elem })).read());
      expect(gu).toEqual(cu);
      const [gn, cn] = await onBoth(async (d) => (await stdlib(d).random(N, { seed: 5, dist: "normal", elem })).read());
      const tol = elem === "f32" ? 1e-5 : 1e-13;
      for (let i = 0; i < N; i++) if (Math.abs(gn[i]! - cn[i]!) > tol * Math.max(1, Math.abs(cn[i]!))) expect.fail(`${elem} normal ${i}: ${gn[i]} vs ${cn[i]}`);
    }
  });

  it("user operators (function parameters): warp and block reduce and scan, the same bits", { timeout: 600_000 }, async () => {
    const source = `import { warpReduceBy, blockReduceBy } from "gk/std/reduce";
import { blockInclusiveScanBy } from "gk/std/scan";
device_fn bigger(a: i32, b: i32): i32 { return abs(b) > abs(a) ? b : a; }
device_fn maximum<T: numeric>(a: T, b: T): T { return a > b ? a : b; }
device_kernel userOps(x: readonly global<i32>, wr: global<i32>, br: global<i32>, bs: global<i32>, mx: global<f32>) {
  shared scratch: i32[32];
  shared fscratch: f32[32];
  const v = x[globalId.x];
  wr[globalId.x] = warpReduceBy<i32, bigger>(v);
  br[globalId.x] = blockReduceBy<i32, bigger>(v, scratch);
  bs[globalId.x] = blockInclusiveScanBy<i32, bigger>(v, scratch);
  mx[globalId.x] = blockReduceBy<f32, maximum>(f32(v), fscratch);
}
`;
    const n = 4096;
    const x = Int32Array.from({ length: n }, (_, i) => (hash(i) % 81) - 40);
    const [g, c] = await onBoth(async (d) => {
      const mod = await d.compileSource(source, { filename: "/tmp/user-ops.gk" });
      const r = await mod.userOps!({ grid: n / 256, block: 256 }, { x, wr: new Int32Array(n), br: new Int32Array(n), bs: new Int32Array(n), mx: new Float32Array(n) });
      return [r.wr, r.br, r.bs, r.mx];
    });
    g.forEach((a, i) => expect(a, `output ${i}`).toEqual(c[i]));
  });

  it("matmul: sgemmT (after A's transpose) and the tiled kernel within rounding (the GPU fuses multiply-adds)", { timeout: 600_000 }, async () => {
    for (const [m, n, k] of [[256, 128, 64], [37, 53, 71]] as const) {
      const A = f32.subarray(0, m * k), B = f32.subarray(1000, 1000 + k * n);
      const [g, c] = await onBoth(async (d) => (await stdlib(d).matmul(await d.array(A), await d.array(B), m, n, k)).read());
      for (let i = 0; i < m * n; i++) expect(Math.abs(g[i]! - c[i]!)).toBeLessThanOrEqual(1e-5 * k);
    }
  });
});

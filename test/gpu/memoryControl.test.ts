/**
 * The memory and control features on a real GPU, against the simulator (and plain
 * TypeScript where the simulator would be slow). Skipped, with the reason, where no GPU can
 * be used.
 *
 * - dynamic shared memory past 48 KiB (the launcher opts in) up to the 227 KiB limit, and
 *   the same GK8010 from the GPU and the simulator one byte past it; fixed-size shared arrays
 *   past 48 KiB, which lie in the dynamic shared memory;
 * - constant arrays: each launch's contents, also when they change and change back (the
 *   launcher copies only changed contents), in two modules with a constant of one name;
 *   copies made when the launch is made (queued, or sharing memory with a written array);
 * - the decoupled look-back scan (fences, release/acquire, volatile) on 2^22 elements;
 * - every fast builtin over a dense sweep of each region where its bound holds, within
 *   that region's tolerance, and fastDiv by divisors above 2^126 exactly;
 * - @flushToZero on subnormals through every kind of f32 operation, bit for bit;
 * - matchAny/matchAll in whole and partial warps, 1-D and 2-D blocks;
 * - the spec/ok programs of these features, launch by launch;
 * - a kernel named CUDAkernel2DCT is found in the cubin under that name.
 */
import { afterAll, describe, expect, it } from "vitest";
import { compile, compileSource, GkRuntimeError, openDevice, type Isolation } from "../../src/index.js";
import type { AnyTypedArray } from "../../src/ir/values.js";
import type { Runner } from "../../src/runtime/runner.js";
import { checkProgram, CpuGpuComparer, type ArgsInput, type LaunchShape } from "../../src/testing/cpuGpu.js";
import type { Tolerance } from "../../src/testing/compare.js";
import { FAST_USES } from "../../src/testing/gen/fast.js";
import { gpuAvailable } from "./gpu-available.js";
import { specLaunchesBothWays } from "./spec-launches.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/memoryControl.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const comparer = new CpuGpuComparer({ kernelTimeoutMs: 60_000 });
const runners: Runner[] = [];
afterAll(async () => {
  await comparer.close();
  for (const r of runners) await r.close();
});

/** The simulator and the GPU agree on every array the kernel writes (bit for bit, --fmad=false, unless a tolerance says otherwise). */
async function same(source: string, kernel: string, launch: LaunchShape, args: ArgsInput, tolerance?: Readonly<Record<string, Tolerance>>): Promise<void> {
  const r = await comparer.compare(checkProgram(source, `${kernel}.gk`), kernel, launch, args, { fmad: false, ...(tolerance ? { tolerance } : {}) });
  expect(r.ok, r.message).toBe(true);
}

/** A deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

describe.skipIf(!gpu.ok)(title("memory and control features"), () => {
  describe("dynamic shared memory", () => {
    const source = `
device_kernel big(n: i32, x: readonly global<f32>, out: global<f32>) {
  shared buf: f32[];
  shared wide: f64[];
  const t = threadIdx.x;
  for (let i = t; i < n; i += blockDim.x) {
    buf[i] = x[i] * 2.0;
  }
  if (t < 64) {
    wide[t] = f64(t) * 0.5;
  }
  barrier();
  let s = 0.0;
  for (let k = 0; k < 16; k++) {
    s += buf[(t * 7 + k * 131) % n];
  }
  out[blockIdx.x * blockDim.x + t] = s + f32(wide[t % 64]);
}
`;
    const run = (n: number) => same(source, "big", { grid: [3], block: [256], shared: { buf: n, wide: 64 } }, { n, x: Float32Array.from({ length: n }, (_, i) => (i % 97) - 48.5), out: new Float32Array(768) });

    it("runs past 48 KiB per block (the launcher opts in) up to the 227 KiB limit", { timeout: 300_000 }, async () => {
      for (const n of [1000, 12_288, 16_384, 40_000, 57_000]) await run(n);
    });

    it("refuses one element past the limit, with the simulator's words", async () => {
      const over = { grid: 1, block: 256, shared: { buf: 58_000, wide: 64 } };
      const args = { n: 58_000, x: new Float32Array(58_000), out: new Float32Array(256) };
      const messages: string[] = [];
      for (const device of ["cuda", "cpu"] as const) {
        const mod = await compileSource(source, { device });
        const e = await mod.launch("big", over, args).catch((x: unknown) => x);
        await mod.close();
        expect(e).toBeInstanceOf(GkRuntimeError);
        expect((e as GkRuntimeError).code).toBe("GK8010");
        messages.push((e as GkRuntimeError).diagnostic.message);
      }
      expect(messages[0]).toBe(messages[1]);
    });
  });

  describe("fixed-size shared arrays past 48 KiB", () => {
    it("run from the dynamic shared memory (120 KiB fixed and a dynamic array after them), as on the simulator", { timeout: 120_000 }, async () => {
      const source = `
device_fn put(t: shared f32[120][256], r: i32, v: f32) {
  t[r][threadIdx.x] = v;
}
device_kernel lifted(x: readonly global<f32>, out: global<f32>) {
  shared flag: u8[5];
  shared tile: f32[120][256];
  shared tail: f32[];
  const t = threadIdx.x;
  for (let r = 0; r < 120; r++) {
    put(tile, r, x[(blockIdx.x * 120 + r) * 256 + t]);
  }
  tail[t] = f32(t);
  if (t < 5) {
    flag[t] = u8(t + 1);
  }
  barrier();
  let s = 0.0;
  for (let r = 0; r < 120; r++) {
    s += tile[119 - r][255 - t] * f32(r + 1);
  }
  out[blockIdx.x * 256 + t] = s + tail[255 - t] + f32(flag[t % 5]);
}
`;
      await same(source, "lifted", { grid: [4], block: [256], shared: { tail: 256 } }, { x: Float32Array.from({ length: 4 * 120 * 256 }, (_, i) => (i % 89) * 0.125), out: new Float32Array(1024) });
    });
  });

  describe("constant arrays", () => {
    const source = `
constant TAPS: f32[4];
constant OFFS: i32[2];
device_fn tap(i: i32): f32 {
  return TAPS[i & 3];
}
device_kernel k(out: global<f32>) {
  const t = threadIdx.x;
  out[t] = tap(t) * f32(OFFS[t & 1]);
}
device_kernel offsets(out: global<i32>) {
  out[threadIdx.x] = OFFS[threadIdx.x & 1];
}
`;
    it("hold each launch's contents, when they change and when they change back", async () => {
      const mod = await compileSource(source, { device: "cuda" });
      expect(mod.device).toBe("cuda");
      const sets = [[1, 2, 3, 4], [1, 2, 3, 4], [-1, 0.5, 8, 16], [1, 2, 3, 4]];
      for (const [i, taps] of sets.entries()) {
        const offs = [i + 1, -(i + 2)];
        const out = new Float32Array(8);
        await mod.launch("k", { grid: 1, block: 8 }, { out, TAPS: taps, OFFS: offs });
        expect([...out]).toEqual(Array.from({ length: 8 }, (_, t) => Math.fround(taps[t & 3]! * offs[t & 1]!)));
        const o = new Int32Array(2);
        await mod.launch("offsets", { grid: 1, block: 2 }, { out: o, OFFS: offs });
        expect([...o]).toEqual(offs);
      }
      // Another module whose constant has the same name keeps its own contents.
      const other = await compileSource(source.replace("out[t] = tap(t)", "out[t] = 10.0 * tap(t)"), { device: "cuda" });
      const a = new Float32Array(8);
      const b = new Float32Array(8);
      await other.launch("k", { grid: 1, block: 8 }, { out: a, TAPS: [1, 1, 1, 1], OFFS: [1, 1] });
      await mod.launch("k", { grid: 1, block: 8 }, { out: b, TAPS: [2, 2, 2, 2], OFFS: [1, 1] });
      expect([...a]).toEqual(new Array(8).fill(10));
      expect([...b]).toEqual(new Array(8).fill(2));
      await other.close();
      await mod.close();
    });

    it.each(["in-process", "process"] as Isolation[])("are copies made when the launch is made, as the simulator's (isolation %s)", async (isolation) => {
      const copySrc = "constant C: f32[4];\ndevice_kernel w(o: global<f32>) { o[0] = 5.0; o[1] = C[0]; }";
      for (const device of ["cuda", "cpu"] as const) {
        const dev = await openDevice(device === "cuda" ? { device, isolation } : { device });
        const mod = await compileSource(copySrc, { device: dev });
        // A constant sharing memory with the array the kernel writes: its contents at the launch.
        const o = Float32Array.of(1, 1, 1, 1);
        await mod.launch("w", { grid: 1, block: 1 }, { o, C: o });
        expect([...o], device).toEqual([5, 1, 1, 1]);
        // A queued launch reads the constants it was queued with.
        const g = await dev.zeros("f32", 4);
        const taps = Float32Array.of(1, 2, 3, 4);
        const queued = mod.launch("w", { grid: 1, block: 1 }, { o: g, C: taps });
        taps[0] = 99;
        await queued;
        await dev.sync();
        expect([...(await g.read())], device).toEqual([5, 1, 0, 0]);
        await dev.close();
      }
    });
  });

  describe.each(["in-process", "process"] as Isolation[])("constants and dynamic shared memory of queued launches, isolation %s", (isolation) => {
    const source = `
constant W: f32[4];
device_kernel scaled<N: i32>(x: readonly global<f32>, out: global<f32>) {
  shared buf: f32[];
  shared fixed: f32[N];
  const t = threadIdx.x;
  fixed[t % N] = W[t % 4];
  buf[t] = x[globalId.x];
  barrier();
  out[globalId.x] = buf[blockDim.x - 1 - t] * fixed[t % N];
}
`;
    it("each queued launch reads the constants it was given, in blocks sized per launch", { timeout: 120_000 }, async () => {
      const dev = await openDevice({ device: "cuda", isolation });
      try {
        const mod = await dev.compileSource(source);
        const block = 256;
        const n = 4 * block;
        const x = await dev.array(Float32Array.from({ length: n }, (_, i) => i));
        const outs = await Promise.all([0, 1, 2].map(() => dev.zeros("f32", n)));
        const ws = [[1, 2, 3, 4], [-1, 0.5, 8, 16], [1, 2, 3, 4]];
        const k = mod.scaled!.with({ N: 4 });
        for (const [i, w] of ws.entries()) await k({ grid: 4, block, shared: { buf: block } }, { x, out: outs[i]!, W: w });
        for (const [i, w] of ws.entries()) {
          const expected = Float32Array.from({ length: n }, (_, g) => {
            const t = g % block;
            return Math.fround((g - t + block - 1 - t) * w[t % 4]!);
          });
          expect(await outs[i]!.read()).toEqual(expected);
        }
      } finally {
        await dev.close();
      }
    });
  });

  describe("the decoupled look-back scan", () => {
    it("scans 2^22 elements in 16384 blocks, five times, exactly", { timeout: 300_000 }, async () => {
      const mod = await compile("examples/lookback_scan.gk", { device: "cuda" });
      const n = 1 << 22;
      const tiles = n / 256;
      const next = random(12345);
      const x = Uint32Array.from({ length: n }, () => Math.floor(next() * 2 ** 32));
      const want = new Uint32Array(n);
      let s = 0;
      for (let i = 0; i < n; i++) want[i] = s = (s + x[i]!) >>> 0;
      for (let rep = 0; rep < 5; rep++) {
        const y = new Uint32Array(n);
        const zeros = () => new Uint32Array(tiles);
        await mod.launch("scan", { grid: tiles, block: 256 }, { n, x, y, status: zeros(), aggregates: zeros(), prefixes: zeros(), ticket: new Uint32Array(1) });
        const first = y.findIndex((v, i) => v !== want[i]);
        expect(first, `run ${rep + 1}: y[${first}] = ${y[first]}, want ${want[first]}`).toBe(-1);
      }
      await mod.close();
    });
  });

  describe("fast builtins", () => {
    const N = 1 << 16;
    const uses = FAST_USES.map((u, i) => ({ ...u, kernel: `f${i}_${u.fn}` }));
    const source = uses
      .map((u) => {
        const call = u.bounds.length === 1 ? `${u.fn}(x[i])` : `${u.fn}(x[i], y[i])`;
        return `device_kernel ${u.kernel}(n: i32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {\n  const i = globalId.x;\n  if (i < n) {\n    out[i] = ${call};\n  }\n}\n`;
      })
      .join("\n");
    /** N operands across [lo, hi]: both ends, evenly spread, and spread in magnitude where the range spans many octaves. */
    const sweep = ([lo, hi]: readonly [number, number], seed: number) => {
      const next = random(seed);
      const logScale = lo > 0 && hi / lo > 1e3 ? [Math.log(lo), Math.log(hi)] : lo < 0 && hi < 0 && lo / hi > 1e3 ? [Math.log(-hi), Math.log(-lo)] : undefined;
      return Float32Array.from({ length: N }, (_, k) => {
        if (k === 0) return lo;
        if (k === 1) return hi;
        if (logScale && k % 2 === 0) {
          const m = Math.exp(logScale[0]! + next() * (logScale[1]! - logScale[0]!));
          return Math.min(hi, Math.max(lo, lo < 0 ? -m : m));
        }
        return Math.min(hi, Math.max(lo, Math.fround(lo + ((k - 2) / (N - 3)) * (hi - lo))));
      });
    };
    for (const [i, u] of uses.entries()) {
      const within = u.tolerance ? `within ${JSON.stringify(u.tolerance)}` : "exactly";
      it(`${u.fn} over ${u.bounds.map(([lo, hi]) => `[${lo}, ${hi}]`).join(" x ")}, ${within}`, { timeout: 120_000 }, async () => {
        const x = sweep(u.bounds[0]!, 2 * i + 1);
        const y = u.bounds[1] ? sweep(u.bounds[1], 2 * i + 2) : new Float32Array(N);
        await same(source, u.kernel, { grid: [N / 256], block: [256] }, { n: N, x, y, out: new Float32Array(N) }, u.tolerance ? { out: u.tolerance } : undefined);
      });
    }
  });

  describe("@flushToZero", () => {
    const source = `
@flushToZero;
device_kernel ftz(x: readonly global<f32>, y: readonly global<f32>, d: readonly global<f64>, out: global<f32>, wide: global<f64>, ints: global<i32>, flags: global<bool>) {
  const i = globalId.x;
  const a = x[i];
  const b = y[i];
  const o = i * 16;
  out[o] = a + b;
  out[o + 1] = a - b;
  out[o + 2] = a * b;
  out[o + 3] = a / b;
  out[o + 4] = -a;
  out[o + 5] = abs(a);
  out[o + 6] = min(a, b);
  out[o + 7] = max(a, b);
  out[o + 8] = sqrt(abs(a));
  out[o + 9] = fma(a, b, a);
  out[o + 10] = floor(a);
  out[o + 11] = a * 1.0;
  out[o + 12] = f32(d[i]);
  out[o + 13] = a;
  out[o + 14] = copysign(a, b);
  out[o + 15] = f32(f64(a));
  wide[i] = f64(a);
  ints[i] = i32(a * 1.0e38);
  flags[i * 3] = a == 0.0;
  flags[i * 3 + 1] = a < b;
  flags[i * 3 + 2] = bool(a);
}
`;
    it("flushes f32 subnormals in and out of every operation as the simulator does, bit for bit", { timeout: 120_000 }, async () => {
      const n = 4096;
      const next = random(99);
      const pick = () => {
        const r = next();
        const sub = (next() - 0.5) * 2 * 1.1754943508222875e-38;
        return r < 0.4 ? Math.fround(sub) : r < 0.5 ? (next() < 0.5 ? 0 : -0) : r < 0.6 ? Math.fround(1.1754943508222875e-38 * (1 + next())) : Math.fround((next() - 0.5) * 8);
      };
      const x = Float32Array.from({ length: n }, pick);
      const y = Float32Array.from({ length: n }, pick);
      const d = Float64Array.from({ length: n }, () => (next() - 0.5) * 2.4e-38);
      await same(source, "ftz", { grid: [n / 128], block: [128] }, { x, y, d, out: new Float32Array(16 * n), wide: new Float64Array(n), ints: new Int32Array(n), flags: new Uint8Array(3 * n) });
    });
  });

  describe("warp match", () => {
    const source = `
device_kernel match(keys: readonly global<u32>, wide: readonly global<i64>, any: global<u32>, anyWide: global<u32>, all: global<bool>) {
  const t = (threadIdx.y * blockDim.x + threadIdx.x) + blockIdx.x * blockDim.x * blockDim.y;
  any[t] = matchAny(keys[t]);
  anyWide[t] = matchAny(wide[t]);
  all[t * 2] = matchAll(keys[t] / 4);
  all[t * 2 + 1] = matchAll(i32(wide[t] & 1));
}
`;
    it("gives the masks and agreement of whole and partial warps", { timeout: 120_000 }, async () => {
      const next = random(7);
      for (const block of [[1], [7], [31], [32], [33], [45], [64], [96], [100], [5, 7], [16, 3]]) {
        const threads = block.reduce((a, b) => a * b, 1) * 2;
        const keys = Uint32Array.from({ length: threads }, () => Math.floor(next() * 3));
        const wide = BigInt64Array.from({ length: threads }, () => BigInt(Math.floor(next() * 3)) << 33n);
        await same(source, "match", { grid: [2], block }, { keys, wide, any: new Uint32Array(threads), anyWide: new Uint32Array(threads), all: new Uint8Array(2 * threads) });
      }
    });
  });

  describe("spec/ok programs of these features, launch by launch", () => {
    const programs: [string, number | undefined][] = [
      ["dynamic_shared.gk", undefined], ["constant_memory.gk", undefined], ["references_views.gk", undefined], ["memory_order.gk", undefined],
      ["unroll.gk", undefined], ["warp_match.gk", undefined], ["flush_to_zero.gk", undefined], ["atomic_views.gk", undefined],
      // Fast builtins: within their bounds (14 ulp of the largest output at most), here 1e-5 of the largest output.
      ["fast_math.gk", 1e-5],
    ];
    for (const [file, rel] of programs) {
      it(`${file}: the GPU computes what the simulator computes`, { timeout: 120_000 }, async () => {
        const { pairs } = await specLaunchesBothWays(file, runners);
        for (const { want, got } of pairs) {
          expect(got.device).toBe("cuda");
          for (const [name, w] of want.outputs) expect(differs(w.data, got.outputs.get(name)!.data, rel), `${file}: ${name}`).toBeUndefined();
        }
      });
    }
  });

  it("a kernel named CUDAkernel2DCT runs under that name", async () => {
    const mod = await compileSource("device_kernel CUDAkernel2DCT(out: global<i32>) { out[threadIdx.x] = i32(threadIdx.x) * 3; }", { device: "cuda" });
    const out = new Int32Array(4);
    await mod.launch("CUDAkernel2DCT", { grid: 1, block: 4 }, { out });
    expect([...out]).toEqual([0, 3, 6, 9]);
    await mod.close();
  });
});

/** Bit for bit (rel undefined), or floats within rel of the largest magnitude (NaN equal to NaN). */
function differs(a: AnyTypedArray, b: AnyTypedArray, rel: number | undefined): string | undefined {
  const hex = (x: AnyTypedArray) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString("hex");
  if (rel === undefined || !(a instanceof Float32Array || a instanceof Float64Array)) return hex(a) === hex(b) ? undefined : "outputs differ";
  let scale = 0;
  for (const x of a) scale = Math.max(scale, Math.abs(x));
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = (b as Float32Array)[i]!;
    if (!(Number.isNaN(x) && Number.isNaN(y)) && Math.abs(x - y) > rel * scale) return `element ${i}: simulator ${x}, GPU ${y}`;
  }
  return undefined;
}

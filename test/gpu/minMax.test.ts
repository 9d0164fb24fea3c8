/**
 * Float min and max on a real GPU against the simulator, bit for bit (every NaN equals every
 * NaN): the CUDA backend emits them as fminf/fmin alone (PTX min.f32/min.f64, one FMNMX),
 * trusting PTX's definition to be gk's (src/codegen/cuda/mathBuiltins.ts). Every pair of a set
 * of hard values (signed zeros, NaNs with payloads and of either sign, a signaling NaN,
 * subnormals, the normal extremes, infinities) through min, max, clamp, a zero constant of
 * either sign, and atomicMin/atomicMax (their CAS loops), in f32, f32 under @flushToZero, f64,
 * f16 and bf16. The GPU's bits for the pairs of NaNs are printed (gk leaves them open).
 * Skipped, with a one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { float32ToBf16, float32ToF16 } from "../../src/runtime/halfArrays.js";
import { CpuGpuComparer } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/minMax.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const comparer = new CpuGpuComparer({ kernelTimeoutMs: 60_000 });
afterAll(() => comparer.close());

/** The f32 values, as bits: zeros, NaNs (quiet, payloads, negative, signaling), subnormals, normal extremes, infinities, ordinary numbers. */
const F32_BITS = [
  0x00000000, 0x80000000, 0x7fc00000, 0xffc00000, 0x7fc00123, 0xffc54321, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
  0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x3f800000, 0xbfc00000,
];
/** The same kinds of f64 value, as bits. */
const F64_BITS = [
  0x0000000000000000n, 0x8000000000000000n, 0x7ff8000000000000n, 0xfff8000000000000n, 0x7ff8000000000123n, 0x7ff0000000000001n, 0x0000000000000001n,
  0x8000000000000001n, 0x000fffffffffffffn, 0x0010000000000000n, 0x7fefffffffffffffn, 0x7ff0000000000000n, 0xfff0000000000000n, 0x3ff0000000000000n, 0xbff8000000000000n,
];

/** Every ordered pair (a, b) of the values: a's and b's bits, one pair per thread. */
function pairs<T>(values: readonly T[]): { a: T[]; b: T[] } {
  const a: T[] = [];
  const b: T[] = [];
  for (const x of values) for (const y of values) a.push(x), b.push(y);
  return { a, b };
}

/** The probe for element type `t`: min, max, clamp, constant zeros, atomicMin and atomicMax of each pair. */
function probe(t: string, option = ""): string {
  return `${option}
device_kernel probe(n: i32, a: readonly global<${t}>, b: readonly global<${t}>, lo: global<${t}>, hi: global<${t}>, cl: global<${t}>, z: global<${t}>, amin: global<${t}>, amax: global<${t}>) {
  const i = globalId.x;
  if (i < n) {
    lo[i] = min(a[i], b[i]);
    hi[i] = max(a[i], b[i]);
    cl[i] = clamp(a[i], b[i], ${t}(1.0));
    z[4 * i] = min(a[i], ${t}(0.0));
    z[4 * i + 1] = min(a[i], ${t}(-0.0));
    z[4 * i + 2] = max(a[i], ${t}(0.0));
    z[4 * i + 3] = max(a[i], ${t}(-0.0));
    amin[i] = a[i];
    amax[i] = a[i];
    atomicMin(amin, i, b[i]);
    atomicMax(amax, i, b[i]);
  }
}
`;
}

/** Output arrays for n pairs. */
function outputs<A>(make: (length: number) => A, n: number) {
  return { lo: make(n), hi: make(n), cl: make(n), z: make(4 * n), amin: make(n), amax: make(n) };
}

const hex = (v: number | bigint, digits: number) => `0x${v.toString(16).padStart(digits, "0")}`;

describe.skipIf(!gpu.ok)(title("float min and max"), () => {
  for (const ftz of [false, true]) {
    it(`f32${ftz ? " under @flushToZero" : ""}: the GPU computes what the simulator computes`, async () => {
      const { a, b } = pairs(F32_BITS);
      const n = a.length;
      const f = (bits: number[]) => new Float32Array(Uint32Array.from(bits).buffer);
      const r = await comparer.compare(probe("f32", ftz ? "@flushToZero;" : ""), "probe", { grid: [Math.ceil(n / 128)], block: [128] }, { n, a: f(a), b: f(b), ...outputs((k) => new Float32Array(k), n) });
      expect(r.ok, r.message).toBe(true);
      const lo = new Uint32Array((r.gpu.get("lo") as Float32Array).buffer);
      const hi = new Uint32Array((r.gpu.get("hi") as Float32Array).buffer);
      const nan = (x: number) => (x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff) !== 0;
      const seen = a.flatMap((x, i) => (nan(x) && nan(b[i]!) ? [`min(${hex(x, 8)}, ${hex(b[i]!, 8)}) = ${hex(lo[i]!, 8)}, max = ${hex(hi[i]!, 8)}`] : []));
      console.log(`f32${ftz ? " ftz" : ""} NaN pairs on the GPU:\n  ${[...new Set(seen)].join("\n  ")}`);
    });
  }

  it("f64: the GPU computes what the simulator computes", async () => {
    const { a, b } = pairs(F64_BITS);
    const n = a.length;
    const f = (bits: bigint[]) => new Float64Array(BigUint64Array.from(bits).buffer);
    const r = await comparer.compare(probe("f64"), "probe", { grid: [Math.ceil(n / 128)], block: [128] }, { n, a: f(a), b: f(b), ...outputs((k) => new Float64Array(k), n) });
    expect(r.ok, r.message).toBe(true);
    const lo = new BigUint64Array((r.gpu.get("lo") as Float64Array).buffer);
    const nan = (x: bigint) => (x & 0x7ff0000000000000n) === 0x7ff0000000000000n && (x & 0xfffffffffffffn) !== 0n;
    const seen = a.flatMap((x, i) => (nan(x) && nan(b[i]!) ? [`min(${hex(x, 16)}, ${hex(b[i]!, 16)}) = ${hex(lo[i]!, 16)}`] : []));
    console.log(`f64 NaN pairs on the GPU:\n  ${[...new Set(seen)].join("\n  ")}`);
  });

  for (const [t, encode] of [["f16", float32ToF16], ["bf16", float32ToBf16]] as const) {
    it(`${t} (through f32): the GPU computes what the simulator computes`, async () => {
      const values = [0, -0, NaN, 1, -1.5, Infinity, -Infinity, 6e-8, -6e-8, 1e-40, -1e-40, 65504, -65504];
      const { a, b } = pairs(values);
      const n = a.length;
      const r = await comparer.compare(probe(t), "probe", { grid: [Math.ceil(n / 128)], block: [128] }, { n, a: encode(a), b: encode(b), ...outputs((k) => new Uint16Array(k), n) });
      expect(r.ok, r.message).toBe(true);
    });
  }
});

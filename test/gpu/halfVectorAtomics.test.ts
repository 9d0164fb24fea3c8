/**
 * atomicAdd on f16x2 and bf16x2 (one PTX atom.add.noftz.f16x2 / .bf16x2 each) on a real GPU
 * against the simulator, bit for bit. Every result is independent of the order in which the
 * GPU applies the atomics, as it must be for the comparison to mean anything:
 *
 * - contended sums of small integers whose partial sums are all exact (at most 2048 per f16
 *   lane, 256 per bf16 lane), in global memory, in a shared array and in a row of a 2-D shared
 *   array, from many blocks and warps;
 * - slots that one thread alone updates, with values that round (ties, subnormals, overflow,
 *   signed zeros, NaN-free): the rounding itself is compared, and the old vector returned.
 *
 * Skipped, with a one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { float32ToBf16, float32ToF16 } from "../../src/runtime/halfArrays.js";
import { CpuGpuComparer } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/halfVectorAtomics.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const comparer = new CpuGpuComparer({ kernelTimeoutMs: 60_000 });
afterAll(() => comparer.close());

const BLOCKS = 16;
const THREADS = 256;
const N = BLOCKS * THREADS;

const SOURCE = `device_kernel vec_atomics(h: global<f16x2>, b: global<bf16x2>, hv: readonly global<f16x2>, bv: readonly global<bf16x2>, own: global<f16x2>, bown: global<bf16x2>, old: global<f16x2>, bold: global<bf16x2>) {
  shared sh: f16x2[2][8];
  shared sb: bf16x2[64];
  const t = threadIdx.x;
  const g = globalId.x;
  if (t < 16) {
    sh[t / 8][t % 8] = f16x2(0.0, -0.0);
  }
  if (t < 64) {
    sb[t] = bf16x2(0.0, -0.0);
  }
  barrier();
  // Contended: ${N} threads over 8 f16 slots (512 adds of 1 and -4 each: sums to 512 and -2048,
  // every partial sum exact) and 32 bf16 slots (128 adds of 1 and -2: 128 and -256).
  atomicAdd(h, g % 8, f16x2(1.0, -4.0));
  atomicAdd(b, g % 32, bf16x2(1.0, -2.0));
  // Shared: 256 threads over a row of 8 (32 adds each) and 64 slots (4 adds each).
  atomicAdd(sh[1], t % 8, f16x2(2.0, 0.5));
  atomicAdd(sb, t % 64, bf16x2(-3.0, 0.25));
  // Alone: each thread adds its own values to its own slot, whose start it also reads.
  old[g] = atomicAdd(own, g, hv[g]);
  bold[g] = atomicAdd(bown, g, bv[g]);
  barrier();
  if (t < 8) {
    h[8 + blockIdx.x * 8 + t] = sh[1][t];
  }
  if (t < 64) {
    b[32 + blockIdx.x * 64 + t] = sb[t];
  }
}
`;

/** Hard half values (as f32, rounded by the conversion): ties at 1, subnormals, the extremes, signed zeros, +Infinity; no NaN and no -Infinity, so no sum is a NaN (whose bits gk leaves open). */
const HARD = [0, -0, 1, -1, 2 ** -11, 3 * 2 ** -11, 2 ** -8, 3 * 2 ** -8, 2 ** -24, -(2 ** -24), 2 ** -133, 65504, 16, 32, -65504, 3.3895313892515355e38, 1e38, 0.1, -0.3, 1000.5, Infinity];

/** `n` pairs from HARD, a deterministic walk over every pair. */
function pairs(n: number, salt: number): number[] {
  return Array.from({ length: 2 * n }, (_, i) => HARD[(i * 7 + salt * (i >> 1) + (i >> 5)) % HARD.length]!);
}

describe.skipIf(!gpu.ok)(title("atomicAdd on f16x2 and bf16x2"), () => {
  it("agrees with the simulator bit for bit: contended exact sums in global memory, a shared array and a shared row; rounding on slots a thread updates alone, and the old vectors", { timeout: 120_000 }, async () => {
    const args = {
      h: new Uint16Array(2 * (8 + BLOCKS * 8)),
      b: new Uint16Array(2 * (32 + BLOCKS * 64)),
      hv: float32ToF16(pairs(N, 1)),
      bv: float32ToBf16(pairs(N, 2)),
      own: float32ToF16(pairs(N, 3)),
      bown: float32ToBf16(pairs(N, 4)),
      old: new Uint16Array(2 * N),
      bold: new Uint16Array(2 * N),
    };
    const r = await comparer.compare(SOURCE, "vec_atomics", { grid: BLOCKS, block: THREADS }, args);
    expect(r.ok, r.message).toBe(true);
    // The sums are what the comment says (the simulator's side; the GPU's agrees bit for bit).
    const h = Array.from(r.cpu.get("h")!.slice(0, 16));
    expect(h).toEqual(Array.from(float32ToF16(Array.from({ length: 8 }, () => [512, -2048]).flat())));
  });
});

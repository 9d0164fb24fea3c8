/**
 * The tensor-core builtins on the GPU against the simulator, bit for bit, for every shape and
 * type (spec/language.md, Tensor cores): spec/ok/tensor_cores.gk's kernels over 256 warps (one
 * tile each) of inputs drawn as bench/tensorcore's probe drew them (exponents narrow, mixed,
 * wide; subnormals and zeros; accumulators far above the products; one column of A scaled up)
 * and what the probe left out: inf and NaN operands, results past f32's and f16's range,
 * tf32 operands with their low 13 bits set, zero results (their sign), and every byte value.
 * NaN equals NaN (compare.ts); every other bit counts. And ldmatrix, every variant. Skipped, with the reason, without a GPU.
 *
 *   npx vitest run --project gpu test/gpu/mma.test.ts
 */
import { afterAll, describe, expect, it } from "vitest";
import { CpuGpuComparer, checkProgram } from "../../src/testing/cpuGpu.js";
import { readFileSync } from "node:fs";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/mma.test.ts skipped: ${gpu.reason}`);

const comparer = gpu.ok ? new CpuGpuComparer() : undefined;
afterAll(async () => comparer?.close());

const program = checkProgram(readFileSync("spec/ok/tensor_cores.gk", "utf8"), "spec/ok/tensor_cores.gk");
const WARPS = 256;
const LANES = WARPS * 32;

/** A small seeded generator (xorshift32), so a failure replays. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
}

interface Draw { lo: number; hi: number; zeros: number; special: number }

/** Bits of a float format: exponent field in [lo, hi] (0 is subnormal), a share of zeros, a share of inf/NaN. */
function floatBits(r: () => number, ebits: number, mbits: number, d: Draw): number {
  const sign = r() < 0.5 ? 2 ** (ebits + mbits) : 0;
  const u = r();
  if (u < d.special) return sign + (2 ** ebits - 1) * 2 ** mbits + (r() < 0.5 ? 0 : 1 + Math.floor(r() * (2 ** mbits - 1)));
  if (u < d.special + d.zeros) return sign;
  const e = d.lo + Math.floor(r() * (d.hi - d.lo + 1));
  return sign + e * 2 ** mbits + Math.floor(r() * 2 ** mbits);
}

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const asF32 = (b: number) => ((u32[0] = b >>> 0), f32[0]!);

/** The input sets, as exponent ranges around each format's bias for inputs and accumulators. */
const SETS: Record<string, { input: Draw; acc: Draw }> = {
  narrow: { input: { lo: -2, hi: 2, zeros: 0.02, special: 0 }, acc: { lo: -3, hi: 3, zeros: 0.02, special: 0 } },
  mixed: { input: { lo: -6, hi: 6, zeros: 0.05, special: 0 }, acc: { lo: -14, hi: 14, zeros: 0.05, special: 0 } },
  wide: { input: { lo: -14, hi: 15, zeros: 0.05, special: 0 }, acc: { lo: -30, hi: 30, zeros: 0.05, special: 0 } },
  sub: { input: { lo: -15, hi: -10, zeros: 0.2, special: 0 }, acc: { lo: -126, hi: -120, zeros: 0.2, special: 0 } },
  czero: { input: { lo: -4, hi: 4, zeros: 0.5, special: 0 }, acc: { lo: 0, hi: 0, zeros: 1, special: 0 } },
  special: { input: { lo: -4, hi: 4, zeros: 0.1, special: 0.01 }, acc: { lo: -8, hi: 8, zeros: 0.1, special: 0.02 } },
  huge: { input: { lo: 100, hi: 127, zeros: 0, special: 0 }, acc: { lo: 120, hi: 127, zeros: 0, special: 0 } },
};

/** An exponent draw relative to a format's bias, clamped to its finite range (field 0: subnormal). */
function field(d: Draw, bias: number, max: number): Draw {
  const clamp = (e: number) => Math.max(0, Math.min(max, e + bias));
  return { ...d, lo: clamp(d.lo), hi: clamp(d.hi) };
}

const half = (r: () => number, d: Draw) => floatBits(r, 5, 10, field(d, 15, 30));
const brain = (r: () => number, d: Draw) => floatBits(r, 8, 7, field(d, 127, 254));
const single = (r: () => number, d: Draw) => floatBits(r, 8, 23, field(d, 127, 254));
const pairs = (n: number, f: () => number) => Uint32Array.from({ length: n }, () => (f() + f() * 65536) >>> 0);

const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

describe.skipIf(!gpu.ok)(title("mma, GPU against the simulator, bit for bit"), () => {
  const compare = async (kernel: string, args: Record<string, unknown>) => {
    const r = await comparer!.compare(program, kernel, { grid: WARPS, block: 32 }, args as never);
    expect(r.ok, r.message).toBe(true);
  };

  for (const [name, set] of Object.entries(SETS)) {
    it(`m16n8k16 f16 and bf16 -> f32, f16 -> f16: set ${name}`, async () => {
      const r = rng(name.length * 7919 + 1);
      for (const [inputs, acc] of [[half, single], [brain, single]] as const) {
        // halves: A and B are f16 pairs for mma_m16n8k16_f16 and, reinterpreted, bf16 pairs for bf16 in the same kernel.
        const A = pairs(LANES * 4, () => inputs(r, set.input)), B = pairs(LANES * 2, () => inputs(r, set.input));
        const C = Float32Array.from({ length: LANES * 4 }, () => asF32(acc(r, set.acc)));
        const H = pairs(LANES * 2, () => half(r, { ...set.acc, lo: Math.max(set.acc.lo, -14), hi: Math.min(set.acc.hi, 15) }));
        await compare("halves", { A, B, C, D: new Float32Array(LANES * 4), H });
      }
    });

    it(`m16n8k8 tf32 -> f32: set ${name}`, async () => {
      const r = rng(name.length * 104729 + 3);
      const A = Float32Array.from({ length: LANES * 4 }, () => asF32(single(r, set.input)));
      const B = Float32Array.from({ length: LANES * 2 }, () => asF32(single(r, set.input)));
      const D = Float32Array.from({ length: LANES * 4 }, () => asF32(single(r, set.acc)));
      await compare("tf32", { A, B, D });
    });
  }

  it("ldmatrix x1, x2, x4, with and without .trans (one warp, every word random)", async () => {
    const r = rng(777);
    const src = Uint32Array.from({ length: 256 }, () => Math.floor(r() * 2 ** 32) >>> 0);
    const res = await comparer!.compare(program, "loads", { grid: 1, block: 32 }, { src, out: new Uint32Array(256), out2: new Uint32Array(128), out1: new Uint32Array(64) } as never);
    expect(res.ok, res.message).toBe(true);
  });

  it("m16n8k32 s8 and u8 -> i32: every byte value", async () => {
    const r = rng(12345);
    const word = () => (Math.floor(r() * 2 ** 32)) >>> 0;
    const A = Uint32Array.from({ length: LANES * 4 }, word), B = Uint32Array.from({ length: LANES * 2 }, word);
    await compare("bytes", { A, B, D: new Int32Array(LANES * 4) });
  });
});

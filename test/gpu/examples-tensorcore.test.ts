/**
 * The tensor-core examples on the GPU: examples/hgemm.gk (hgemm_f16, hgemm_bf16) and seven shapes
 * of bench/hgemm_tiles.gk (four with shared memory past 48 KB) against the simulator, bit for bit (cp.async, ldmatrix and mma are
 * exact in gk); examples/flash_attention.gk's 8 kernels against f64 attention with the
 * simulator test's bounds (exp2 is within its documented ulps of the simulator's, so P's
 * halves may differ by one rounding), every element written. Skipped, with the reason, without
 * a GPU.
 *
 *   vitest run --project gpu test/gpu/examples-tensorcore.test.ts
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "../../src/ir/halves.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { CpuGpuComparer, checkProgram } from "../../src/testing/cpuGpu.js";
import { attentionReference, randomHalfBits, relativeError } from "../runtime/sim/attentionReference.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/examples-tensorcore.test.ts skipped: ${gpu.reason}`);

const comparer = gpu.ok ? new CpuGpuComparer() : undefined;
afterAll(async () => comparer?.close());

const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);
const words = (h: Uint16Array) => new Uint32Array(h.buffer, h.byteOffset, h.length / 2);

describe.skipIf(!gpu.ok)(title("HGEMM examples, GPU against the simulator"), () => {
  it("examples/hgemm.gk and bench/hgemm_tiles.gk, f16 and bf16, bit for bit", { timeout: 600_000 }, async () => {
    const M = 256, N = 512, K = 128;
    const example = checkProgram(readFileSync("examples/hgemm.gk", "utf8"), resolve("examples/hgemm.gk"));
    const tilesText = readFileSync("bench/hgemm_tiles.gk", "utf8");
    // The third, fourth, sixth and seventh pass 48 KB of shared memory (64, 128, 96 and 96 KB): gk lifts them into dynamic
    // shared memory. The last three are hgemmDb, its fragments double-buffered in registers, a tile's copies at its first
    // k16 step (before its mmas; after them, with the mmas serpentine, as CUTLASS) and spread over 4 steps.
    const instances = ["hgemm<false, 128, 256, 64, 32, 2, 8>", "hgemm<true, 128, 128, 32, 16, 4, 8>", "hgemm<true, 128, 128, 64, 32, 4, 8>", "hgemm<false, 128, 128, 64, 64, 4, 8>", "hgemmDb<true, 128, 128, 64, 32, 3, 8, 1, 0>", "hgemmDb<false, 128, 256, 64, 32, 4, 8, 1, 2>", "hgemmDb<true, 128, 128, 64, 64, 3, 8, 4, 0>"];
    const tiles = checkProgram(tilesText, resolve("bench/hgemm_tiles.gk"), instances);
    const cases = [
      [example, "hgemm_f16", [N / 128, M / 256], 256, false],
      [example, "hgemm_bf16", [N / 128, M / 256], 256, true],
      [tiles, instances[0]!, [N / 256, M / 128], 256, false],
      [tiles, instances[1]!, [N / 128, M / 128], 256, true],
      [tiles, instances[2]!, [N / 128, M / 128], 128, true],
      [tiles, instances[3]!, [N / 128, M / 128], 128, false],
      [tiles, instances[4]!, [N / 128, M / 128], 128, true],
      [tiles, instances[5]!, [N / 256, M / 128], 256, false],
      [tiles, instances[6]!, [N / 128, M / 128], 128, true],
    ] as const;
    for (const [program, kernel, grid, block, bf16] of cases) {
      const bits = bf16 ? bf16Bits : f16Bits;
      const A = randomHalfBits(M * K, grid[0] + 3, bits), B = randomHalfBits(N * K, block + 5, bits);
      const r = await comparer!.compare(program, kernel, { grid: [grid[0], grid[1]], block }, { M, N, K, A: words(A), B: words(B), C: new Float32Array(M * N) } as never);
      expect(r.ok, `${kernel}: ${r.message}`).toBe(true);
    }
  });
});

describe.skipIf(!gpu.ok)(title("examples/flash_attention.gk on the GPU against f64 attention"), () => {
  it("every kernel: f16 and bf16, head dim 64 and 128, causal and not", { timeout: 600_000 }, async () => {
    const d = await openDevice({ device: "cuda" });
    try {
      const mod = (await d.compileSource(readFileSync("examples/flash_attention.gk", "utf8"), { filename: resolve("examples/flash_attention.gk") })) as unknown as Record<string, (config: object, args: object) => Promise<{ O: Uint16Array }>>;
      const HEADS = 3, S = 256;
      for (const type of ["f16", "bf16"] as const) for (const D of [64, 128]) for (const causal of [false, true]) {
        const kernel = `flash_${type}_d${D}${causal ? "_causal" : ""}`;
        const [bits, value] = type === "f16" ? [f16Bits, fromF16Bits] : [bf16Bits, fromBf16Bits];
        const n = HEADS * S * D;
        const [q, k, v] = [1, 2, 3].map((i) => randomHalfBits(n, D * 7 + i + (causal ? 50 : 0), bits));
        const scale = 1 / Math.sqrt(D);
        const { O } = await mod[kernel]!({ grid: [S / (D === 64 && causal ? 64 : 128), HEADS], block: 128 }, { S, scale, Q: words(q!), K: words(k!), V: words(v!), O: new Uint16Array(n).fill(0x7fff) });
        const ref = attentionReference(Array.from(q!, value), Array.from(k!, value), Array.from(v!, value), HEADS, S, D, scale, causal);
        expect(relativeError(O, value, ref), kernel).toBeLessThan(type === "f16" ? 1e-3 : 8e-3);
      }
    } finally {
      await d.close();
    }
  });
});

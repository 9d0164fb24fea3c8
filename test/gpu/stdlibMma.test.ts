/**
 * gk/std/mma on the GPU against the simulator, bit for bit: mmaMatmul (copyTileAsync's cp.async
 * tiles, blockMma's ldmatrix and mma.sync) for f16 and bf16, a tile-sized and a ragged shape, and
 * 4096 × 4096 × 4096 on the GPU alone against a few elements the simulator's model computes
 * (test/stdlib/mmaReference.ts), with the time it took. Skipped, with the reason,
 * without a GPU.
 *
 *   npx vitest run --project gpu test/gpu/stdlibMma.test.ts
 */
import { afterAll, describe, expect, it } from "vitest";
import { CpuGpuComparer, checkProgram } from "../../src/testing/cpuGpu.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { fromF16Bits } from "../../src/ir/halves.js";
import { mmaElement } from "../../src/ir/tensorCore.js";
import { randomHalves } from "../stdlib/mmaReference.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/stdlibMma.test.ts skipped: ${gpu.reason}`);

const comparer = gpu.ok ? new CpuGpuComparer() : undefined;
afterAll(async () => comparer?.close());

const SOURCE = `import { mmaMatmul } from "gk/std/mma";\n`;
const words = (h: Uint16Array) => new Uint32Array(h.buffer, h.byteOffset, h.length / 2);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

describe.skipIf(!gpu.ok)(title("gk/std/mma, GPU against the simulator"), () => {
  it("mmaMatmul<128, 128> and <64, 64>, f16 and bf16, bit for bit", { timeout: 600_000 }, async () => {
    for (const [bm, bn, m, n, k, bf16] of [[128, 128, 256, 128, 64, false], [128, 128, 128, 256, 96, true], [64, 64, 100, 72, 40, false], [64, 64, 64, 64, 32, true]] as const) {
      const program = checkProgram(SOURCE, "mma.gk", [`mmaMatmul<${bm}, ${bn}>`]);
      const A = randomHalves(m * k, m + 3 * k, bf16), B = randomHalves(k * n, n + 5 * k, bf16);
      const grid: [number, number] = [Math.ceil(n / bn), Math.ceil(m / bm)];
      const r = await comparer!.compare(program, `mmaMatmul<${bm}, ${bn}>`, { grid, block: 32 * (bm / 64) * (bn / 32) }, { M: m, N: n, K: k, A: words(A), B: words(B), C: new Float32Array(m * n), isBf16: bf16 } as never);
      expect(r.ok, `${m} x ${n} x ${k}: ${r.message}`).toBe(true);
    }
  });

  it("mmaMatmul<128, 128> at 4096³, f16: sampled elements as the model gives them, and its time", { timeout: 600_000 }, async () => {
    const size = 4096;
    const d = await openDevice({ device: "cuda" });
    try {
      const mod = await d.compileSource(SOURCE, { filename: "/tmp/mma4096.gk" });
      const A = randomHalves(size * size, 1, false), B = randomHalves(size * size, 2, false);
      const a = await d.array(words(A)), b = await d.array(words(B)), c = await d.array(new Float32Array(size * size));
      const k = mod.mmaMatmul!.with({ BM: 128, BN: 128 });
      const launch = () => k({ grid: [size / 128, size / 128], block: 256 }, { M: size, N: size, K: size, A: a, B: b, C: c, isBf16: false });
      await launch();
      await d.sync();
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) await launch();
      await d.sync();
      const ms = (performance.now() - t0) / 10;
      console.log(`mmaMatmul<128, 128> f16 ${size}³: ${ms.toFixed(2)} ms per launch (10 queued, then a sync), ${((2 * size ** 3) / ms / 1e9).toFixed(1)} TFLOP/s`);
      const C = (await c.read()) as Float32Array;
      for (const [i, j] of [[0, 0], [17, 4095], [4095, 1234], [2048, 2049]] as const) {
        let acc = 0;
        for (let k0 = 0; k0 < size; k0 += 16) {
          const row = Array.from({ length: 16 }, (_, t) => fromF16Bits(A[i * size + k0 + t]!)), col = Array.from({ length: 16 }, (_, t) => fromF16Bits(B[(k0 + t) * size + j]!));
          acc = mmaElement(row, col, acc, "f16", "f32");
        }
        expect(C[i * size + j], `C[${i}][${j}]`).toBe(acc);
      }
    } finally {
      await d.close();
    }
  });
});

// gk/std/mma on the simulator: mmaMatmul (blockMma fed by copyTileAsync) against the tensor
// cores' arithmetic chained over k in steps of 16 (src/ir/tensorCore.ts), bit for bit, for f16 and
// bf16, tile-sized and ragged shapes (zero-filled tails); blockMma alone from tiles a kernel
// stores itself; the shapes it refuses; and, where nvcc is installed, mmaMatmul's instances
// built for sm_90 without a warning.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildModule } from "../../src/build/build.js";
import { nodeHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { findNvcc } from "../gpu/gpu-available.js";
import { fromF16Bits } from "../../src/ir/halves.js";
import { mmaElement } from "../../src/ir/tensorCore.js";
import { randomHalves, refMma } from "./mmaReference.js";
import { expectError } from "../helpers.js";
import { stdModule } from "./helpers.js";

const SOURCE = `import { mmaMatmul } from "gk/std/mma";\n`;

const words = (h: Uint16Array) => new Uint32Array(h.buffer, h.byteOffset, h.length / 2);

describe("gk/std/mma: mmaMatmul", () => {
  it("64 x 64 tiles, f16 and bf16, tile-sized and ragged (M any, N and K multiples of 8)", async () => {
    const mod = await stdModule(SOURCE);
    for (const [m, n, k, bf16] of [[64, 64, 32, false], [64, 128, 64, true], [50, 40, 24, false], [70, 72, 40, true]] as const) {
      const A = randomHalves(m * k, m + k, bf16), B = randomHalves(k * n, n * 7 + k, bf16);
      const grid: [number, number] = [Math.ceil(n / 64), Math.ceil(m / 64)];
      const r = await mod.mmaMatmul!.with({ BM: 64, BN: 64 })({ grid, block: 64 }, { M: m, N: n, K: k, A: words(A), B: words(B), C: new Float32Array(m * n), isBf16: bf16 });
      expect(r.C, `${m} x ${n} x ${k}${bf16 ? " bf16" : ""}`).toEqual(refMma(A, B, m, n, k, bf16));
    }
  });

  it("a 128 x 128 tile of 8 warps", async () => {
    const mod = await stdModule(SOURCE);
    const [m, n, k] = [128, 128, 32];
    const A = randomHalves(m * k, 5, false), B = randomHalves(k * n, 6, false);
    const r = await mod.mmaMatmul!.with({ BM: 128, BN: 128 })({ grid: [1, 1], block: 256 }, { M: m, N: n, K: k, A: words(A), B: words(B), C: new Float32Array(m * n), isBf16: false });
    expect(r.C).toEqual(refMma(A, B, m, n, k, false));
  });
});

describe("gk/std/mma: blockMma", () => {
  const KERNEL = `import { blockMma, storeWarpTile, warpTileRow, warpTileCol, WarpTile } from "gk/std/mma";
device_kernel one(A: readonly global<u32>, B: readonly global<u32>, C: global<f32>) {
  shared As: u32[1][64][12];
  shared Bs: u32[1][16][36];
  for (let i = threadIdx.x; i < 64 * 8; i += blockDim.x) { As[0][i / 8][i % 8] = A[i]; }
  for (let i = threadIdx.x; i < 16 * 32; i += blockDim.x) { Bs[0][i / 32][i % 32] = B[i]; }
  barrier();
  let acc: WarpTile;
  acc = blockMma(false, As, Bs, 0, acc);
  acc = blockMma(false, As, Bs, 0, acc);
  storeWarpTile(C, 64, 64, warpTileRow(64), warpTileCol(64), acc);
}
`;
  it("from tiles the kernel stores itself, two warps side by side, called twice", async () => {
    const mod = await stdModule(KERNEL);
    const A = randomHalves(64 * 16, 11, false), B = randomHalves(16 * 64, 12, false);
    const r = await mod.one!({ grid: 1, block: 64 }, { A: words(A), B: words(B), C: new Float32Array(64 * 64) });
    // Twice the same product: the second step's accumulator is the first's result.
    const dec = fromF16Bits;
    const want = new Float32Array(64 * 64);
    for (let i = 0; i < 64; i++)
      for (let j = 0; j < 64; j++) {
        const row = Array.from({ length: 16 }, (_, t) => dec(A[i * 16 + t]!)), col = Array.from({ length: 16 }, (_, t) => dec(B[t * 64 + j]!));
        want[i * 64 + j] = mmaElement(row, col, mmaElement(row, col, 0, "f16", "f32"), "f16", "f32");
      }
    expect(r.C).toEqual(want);
  });

  it("refuses tiles of a shape it does not take, naming the instance", () => {
    expectError(
      `import { blockMma, WarpTile } from "gk/std/mma";
device_kernel k(out: global<f32>) {
  shared As: u32[2][48][20];
  shared Bs: u32[2][32][36];
  let acc: WarpTile;
  acc = blockMma(false, As, Bs, 0, acc);
  out[0] = acc.c[0][0].x;
}
`,
      "GK3015 31:36 in blockMma<2, 48, 20, 32, 36>: an array size must be between 1 and 2147483647, but 'BM % 64 == 0 ? 1 : 0' is 0",
    );
  });
});

const nvcc = await findNvcc();

describe.skipIf(!nvcc)("gk/std/mma through nvcc", () => {
  it("builds mmaMatmul<128, 128> and <64, 64> for sm_90 without warnings", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "gk-mma-cuda-"));
    try {
      const file = path.join(dir, "instances.gk");
      await writeFile(
        file,
        `${SOURCE}launch mmaMatmul<128, 128>(M = 128, N = 128, K = 32, A = zeros(2048), B = zeros(2048), C = zeros(16384), isBf16 = false) grid(1, 1) block(256);
launch mmaMatmul<64, 64>(M = 64, N = 64, K = 32, A = zeros(1024), B = zeros(1024), C = zeros(4096), isBf16 = true) grid(1, 1) block(64);
`,
      );
      const fe = frontEnd(file, { host: nodeHost });
      expect(fe.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const warnings: string[] = [];
      const b = await buildModule(fe.ir!, fe.sources, { arch: "sm_90", cacheRoot: dir, onWarning: (w: unknown) => warnings.push(String(w)) });
      expect(warnings).toEqual([]);
      expect([...b.symbols.values()].sort()).toEqual(["mmaMatmul$128$128", "mmaMatmul$64$64"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

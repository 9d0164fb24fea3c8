/**
 * examples/hgemm.gk on the simulator: C = A × Bᵀ over 2×1 blocks of 256×128, f16 (hgemm_f16)
 * with K = 192 (three steps of 64, one past the three cp.async stages' two tiles ahead) and bf16
 * (hgemm_bf16) with K = 64 (one step, fewer than those two); and
 * bench/hgemm_tiles.gk, the same code with its tiling generic, in shapes the bench times (each
 * block size and stage count, BK 16, 32 and 64, grouped and plain block order, shared memory
 * past 48 KB), and its hgemmDb (fragments double-buffered in registers). Each against the
 * definition: each element is K/16 mma steps in k order, each step the measured tensor-core
 * arithmetic (src/ir/tensorCore.ts), its f32 result the next step's accumulator. Bit for bit,
 * every element.
 */
import { describe, expect, it } from "vitest";
import { fromBf16Bits, fromF16Bits } from "../../../src/ir/halves.js";
import { mmaElement } from "../../../src/ir/tensorCore.js";
import { readFileSync } from "node:fs";
import { example, gk, run, type Program } from "./helpers.js";

const p = example("hgemm");
const M = 256, N = 256;

/** Random halves' bits: values of either sign with exponents within ±4 (f16 field 11..19, bf16 123..131), some zeros. */
function halves(n: number, seed: number, bf16: boolean): Uint16Array {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), s >>> 8);
  return Uint16Array.from({ length: n }, () => {
    const r = next();
    if (r % 16 === 0) return 0;
    const sign = (r & 1) << 15;
    return bf16 ? sign | ((123 + (next() % 9)) << 7) | (next() & 0x7f) : sign | ((11 + (next() % 9)) << 10) | (next() & 0x3ff);
  });
}

/** C = A × Bᵀ by `kernel` of `p` on random halves, checked against chained mma steps. */
function check(p: Program, kernel: string, grid: [number, number], threads: number, isBf16: boolean, seed: number, K = 96) {
  const a = halves(M * K, seed, isBf16), b = halves(N * K, seed + 7, isBf16);
  const C = new Float32Array(M * N).fill(NaN);
  run(p, kernel, grid, [threads], [M, N, K, new Uint32Array(a.buffer), new Uint32Array(b.buffer), C]);
  const value = isBf16 ? fromBf16Bits : fromF16Bits;
  const av = Array.from(a, value), bv = Array.from(b, value);
  for (let r = 0; r < M; r++) for (let c = 0; c < N; c++) {
    let acc = 0;
    for (let k0 = 0; k0 < K; k0 += 16) acc = mmaElement(av.slice(r * K + k0, r * K + k0 + 16), bv.slice(c * K + k0, c * K + k0 + 16), acc, isBf16 ? "bf16" : "f16", "f32");
    if (!Object.is(C[r * N + c], acc)) expect(C[r * N + c], `C[${r}][${c}]`).toBe(acc);
  }
}

describe("examples/hgemm.gk", () => {
  for (const isBf16 of [false, true]) {
    it(`multiplies ${isBf16 ? "bf16" : "f16"} matrices as chained mma steps do, bit for bit`, () => {
      check(p, isBf16 ? "hgemm_bf16" : "hgemm_f16", [N / 128, M / 256], 256, isBf16, 1 + Number(isBf16), isBf16 ? 64 : 192);
    });
  }
});

describe("bench/hgemm_tiles.gk", () => {
  // [BM, BN, WN, BK, STAGES, GROUP], as bench/hgemm.mjs's VARIANTS write them; K = 96 (3 steps of
  // BK 32: fewer than 5 stages' 4 tiles in flight), 192 for BK 64. Those past 48 KB of shared
  // memory are lifted into dynamic shared memory on the GPU; the simulator has no such limit.
  const shapes = [[128, 256, 64, 32, 2, 8], [256, 128, 64, 32, 2, 1], [128, 128, 32, 16, 4, 8], [64, 128, 32, 32, 4, 8], [128, 128, 64, 32, 5, 8], [256, 128, 64, 32, 4, 8], [128, 128, 64, 64, 4, 8], [128, 128, 64, 64, 3, 8]] as const;
  const text = readFileSync("bench/hgemm_tiles.gk", "utf8");
  shapes.forEach((v, i) => {
    const isBf16 = i % 2 === 1;
    const instance = `hgemm<${isBf16}, ${v.join(", ")}>`;
    it(`${instance} multiplies as chained mma steps do, bit for bit`, () => {
      const threads = (v[0] / 64) * (v[1] / v[2]) * 32;
      const grid: [number, number] = [N / v[1], M / v[0]];
      const K = v[3] === 64 ? 192 : 96;
      const q = gk(`${text}\nlaunch ${instance}(M = ${M}, N = ${N}, K = ${K}, A = fill(${(M * K) / 2}, 0), B = fill(${(N * K) / 2}, 0), C = zeros(${M * N})) grid(${grid.join(", ")}) block(${threads});\n`);
      check(q, instance, grid, threads, isBf16, 11 + i, K);
    });
  });
  // hgemmDb, its fragments double-buffered in registers across k16 steps and tiles: two k16
  // steps a tile (BK 32) or four (64); K = 96 or 192 again, fewer tiles than stages in flight
  // for 5 stages; a tile's copies all at its first step, or spread over 2 or 4 steps.
  // The last two of each shape are SPREAD (the k16 steps a tile's copies are spread over) and
  // ORDER (0: copies first; 1: after the mmas, as CUTLASS; 2: that, the mmas serpentine).
  const dbShapes = [[128, 128, 64, 32, 3, 8, 1, 0], [128, 256, 64, 32, 4, 8, 2, 0], [128, 128, 64, 32, 4, 1, 1, 1], [128, 128, 64, 64, 3, 8, 4, 0], [256, 128, 64, 32, 5, 8, 1, 2], [128, 128, 64, 64, 3, 8, 3, 2]] as const;
  dbShapes.forEach((v, i) => {
    const isBf16 = i % 2 === 1;
    const instance = `hgemmDb<${isBf16}, ${v.join(", ")}>`;
    it(`${instance} multiplies as chained mma steps do, bit for bit`, () => {
      const threads = (v[0] / 64) * (v[1] / v[2]) * 32;
      const grid: [number, number] = [N / v[1], M / v[0]];
      const K = v[3] === 64 ? 192 : 96;
      const q = gk(`${text}\nlaunch ${instance}(M = ${M}, N = ${N}, K = ${K}, A = fill(${(M * K) / 2}, 0), B = fill(${(N * K) / 2}, 0), C = zeros(${M * N})) grid(${grid.join(", ")}) block(${threads});\n`);
      check(q, instance, grid, threads, isBf16, 31 + i, K);
    });
  });
});

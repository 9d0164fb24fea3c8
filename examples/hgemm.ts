// HGEMM on the tensor cores, C = A × Bᵀ, f16 (hgemm_f16) or bf16 (hgemm_bf16) in and f32
// accumulated: examples/hgemm.gk written in TypeScript (that file explains the tiling). A block
// computes a 256×128 tile of C, 64 of K at a time through three cp.async stages (144 KB) of
// swizzled shared rows; each of its 8 warps keeps a 64×64 part as 4×8 mma accumulators (f32x4)
// per lane, its fragments double-buffered in registers across k16 steps.
import {
  barrier, blockIdx, cpAsyncCommit, cpAsyncL2, cpAsyncWait, cpAsyncWaitAll, deviceFn, f32x4, gridDim, kernel, laneId, ldmatrix_x4, local, min, mma_m16n8k16_bf16, mma_m16n8k16_f16, shared, store2, threadIdx, u32, u32x2, u32x4, unroll,
  type bool, type f32, type Global, type i32, type ReadonlyGlobal, type Shared,
} from "gk";

const BM = 256;
const BN = 128;
const WN = 64; // columns of a warp's tile (its rows: 64)
const RW = 32; // words per shared row: 64 halves of K
const KS = RW / 8; // k16 steps (mma steps) a tile
const STAGES = 3;
const GROUP = 8;
const THREADS = 256; // (BM / 64) · (BN / WN) warps

// The word where word w (a multiple of 4) of tile row r lies: chunks swizzled by the row.
const swizzle = deviceFn((r: i32, w: i32): i32 => {
  return w ^ (r / (32 / RW) % (RW / 4) * 4);
});

// Starts the copies of one stage, A's BM rows and B's BN rows (64 halves of K from word k0 of
// each row), into stage st: this thread's copies go to rows r0, r0 + 32, ... at word col, from
// element ga + k0 of A (gb + k0 of B) and every `stride` elements on.
const loadTiles = deviceFn((As: Shared<u32, [typeof STAGES, typeof BM, typeof RW]>, Bs: Shared<u32, [typeof STAGES, typeof BN, typeof RW]>, st: i32, r0: i32, col: i32, A: ReadonlyGlobal<u32>, ga: i32, B: ReadonlyGlobal<u32>, gb: i32, stride: i32, k0: i32) => {
  unroll();
  for (let i = 0; i < BM * (RW / 4) / THREADS; i++) {
    cpAsyncL2(As[st]![r0 + i * (THREADS / (RW / 4))]!, col, A, ga + k0 + i * stride, 16);
  }
  unroll();
  for (let i = 0; i < BN * (RW / 4) / THREADS; i++) {
    cpAsyncL2(Bs[st]![r0 + i * (THREADS / (RW / 4))]!, col, B, gb + k0 + i * stride, 16);
  }
});

const gemm = deviceFn((isBf16: bool, M: i32, N: i32, K: i32, A: ReadonlyGlobal<u32>, B: ReadonlyGlobal<u32>, C: Global<f32>, As: Shared<u32, [typeof STAGES, typeof BM, typeof RW]>, Bs: Shared<u32, [typeof STAGES, typeof BN, typeof RW]>) => {
  const KW = K / 2;
  const steps = K / (2 * RW);
  // The block's tile, in groups of GROUP block rows over the grid.
  const bid = blockIdx.y * gridDim.x + blockIdx.x;
  const inGroup = GROUP * gridDim.x;
  const firstRow = bid / inGroup * GROUP;
  const rows = min(gridDim.y - firstRow, GROUP);
  const row0 = (firstRow + bid % inGroup % rows) * BM;
  const col0 = bid % inGroup / rows * BN;
  const warp = threadIdx.x / 32;
  const wRow = warp / (BN / WN) * 64;
  const wCol = warp % (BN / WN) * WN;
  const g = laneId / 4;
  const t = laneId % 4;
  // The row each lane names to ldmatrix_x4, and its swizzle (hgemm.gk says which).
  const aRow = laneId % 16;
  const aSw = swizzle(aRow, 0);
  const aWord = laneId / 16 * 4;
  const bRow = laneId % 8 + laneId / 16 * 8;
  const bSw = swizzle(bRow, 0);
  const bWord = laneId / 8 % 2 * 4;
  // This thread's copies: rows tr, tr + 32, ... of a tile, at word tw of K (swizzled: tcol).
  const tr = threadIdx.x / (RW / 4);
  const tw = threadIdx.x % (RW / 4) * 4;
  const tcol = swizzle(tr, tw);
  const ga = (row0 + tr) * KW + tw;
  const gb = (col0 + tr) * KW + tw;
  const stride = THREADS / (RW / 4) * KW;
  const acc = local(f32x4, 4, WN / 8);
  // The fragments of two k16 steps, double-buffered (hgemm.gk says how).
  const fa = local(u32x4, 2, 4);
  const fb = local(u32x2, 2, WN / 8);
  unroll();
  for (let s = 0; s < STAGES - 1; s++) {
    if (s < steps) {
      loadTiles(As, Bs, s, tr, tcol, A, ga, B, gb, stride, s * RW);
    }
    cpAsyncCommit();
  }
  cpAsyncWait(STAGES - 2); // all but the newest STAGES - 2 groups: step 0's tiles are here
  barrier();
  unroll();
  for (let m = 0; m < 4; m++) {
    fa[0]![m] = ldmatrix_x4(As[0]![wRow + m * 16 + aRow]!, aWord ^ aSw);
  }
  unroll();
  for (let n = 0; n < WN / 8; n += 2) {
    const b = ldmatrix_x4(Bs[0]![wCol + n * 8 + bRow]!, bWord ^ bSw);
    fb[0]![n] = b.xy!;
    fb[0]![n + 1] = b.zw!;
  }
  for (let s = 0; s < steps; s++) {
    const st = s % STAGES;
    unroll();
    for (let j = 0; j < KS; j++) {
      if (j == 0) {
        // Step s + STAGES - 1's copies, into the stage step s - 1 read.
        const ahead = s + STAGES - 1;
        if (ahead < steps) {
          loadTiles(As, Bs, ahead % STAGES, tr, tcol, A, ga, B, gb, stride, ahead * RW);
        }
        cpAsyncCommit();
      }
      // The next k16 step's fragments: of this tile, or at its last step, of the next one.
      let nst = st;
      if (j == KS - 1) {
        cpAsyncWait(STAGES - 2);
        barrier();
        nst = (s + 1) % STAGES;
      }
      const nk = (j + 1) % KS * 8;
      if (j < KS - 1 || s + 1 < steps) {
        unroll();
        for (let m = 0; m < 4; m++) {
          fa[(j + 1) % 2]![m] = ldmatrix_x4(As[nst]![wRow + m * 16 + aRow]!, (nk + aWord) ^ aSw);
        }
        unroll();
        for (let n = 0; n < WN / 8; n += 2) {
          const b = ldmatrix_x4(Bs[nst]![wCol + n * 8 + bRow]!, (nk + bWord) ^ bSw);
          fb[(j + 1) % 2]![n] = b.xy!;
          fb[(j + 1) % 2]![n + 1] = b.zw!;
        }
      }
      unroll();
      for (let m = 0; m < 4; m++) {
        unroll();
        for (let n = 0; n < WN / 8; n++) {
          if (isBf16) {
            acc[m]![n] = mma_m16n8k16_bf16(fa[j % 2]![m]!, fb[j % 2]![n]!, acc[m]![n]!);
          } else {
            acc[m]![n] = mma_m16n8k16_f16(fa[j % 2]![m]!, fb[j % 2]![n]!, acc[m]![n]!);
          }
        }
      }
    }
  }
  cpAsyncWaitAll();
  unroll();
  for (let m = 0; m < 4; m++) {
    unroll();
    for (let n = 0; n < WN / 8; n++) {
      const r = row0 + wRow + m * 16 + g;
      const c = col0 + wCol + n * 8 + 2 * t;
      store2(C, r * N + c, acc[m]![n]!.xy!);
      store2(C, (r + 8) * N + c, acc[m]![n]!.zw!);
    }
  }
});

export const hgemm_f16 = kernel((M: i32, N: i32, K: i32, A: ReadonlyGlobal<u32>, B: ReadonlyGlobal<u32>, C: Global<f32>) => {
  const As = shared(u32, STAGES, BM, RW);
  const Bs = shared(u32, STAGES, BN, RW);
  gemm(false, M, N, K, A, B, C, As, Bs);
});

export const hgemm_bf16 = kernel((M: i32, N: i32, K: i32, A: ReadonlyGlobal<u32>, B: ReadonlyGlobal<u32>, C: Global<f32>) => {
  const As = shared(u32, STAGES, BM, RW);
  const Bs = shared(u32, STAGES, BN, RW);
  gemm(true, M, N, K, A, B, C, As, Bs);
});

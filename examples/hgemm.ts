// HGEMM on the tensor cores, C = A × Bᵀ, f16 or bf16 in and f32 accumulated:
// examples/hgemm.gk written in TypeScript (that file explains the tiling). A block computes a
// 128×128 tile of C, 32 of K at a time through two stages of shared memory; each of its 8 warps
// keeps a 64×32 part as 4×4 mma accumulators (f32x4) per lane.
import {
  barrier, blockIdx, deviceFn, f32x4, kernel, laneId, ldmatrix_x4, load4, local, mma_m16n8k16_bf16, mma_m16n8k16_f16, shared, store2, store4, threadIdx, u32, u32x2, u32x4, unroll,
  type bool, type f32, type Global, type i32, type ReadonlyGlobal,
} from "gk";

const BM = 128;
const BN = 128;
const BKW = 16; // 32 halves of K, as words
const ROW = 20; // words per shared row: 16 + 4 of padding

const mma = deviceFn((isBf16: bool, a: u32x4, b: u32x2, c: f32x4): f32x4 => {
  if (isBf16) {
    return mma_m16n8k16_bf16(a, b, c);
  }
  return mma_m16n8k16_f16(a, b, c);
});

export const hgemm = kernel((M: i32, N: i32, K: i32, A: ReadonlyGlobal<u32>, B: ReadonlyGlobal<u32>, C: Global<f32>, isBf16: bool) => {
  const As = shared(u32, 2, BM, ROW);
  const Bs = shared(u32, 2, BN, ROW);
  const KW = K / 2;
  const row0 = blockIdx.y * BM;
  const col0 = blockIdx.x * BN;
  const warp = threadIdx.x / 32;
  const g = laneId / 4;
  const t = laneId % 4;
  const wRow = warp / 4 * 64;
  const wCol = warp % 4 * 32;
  // The row each lane names to ldmatrix_x4: A's four 8×8 matrices, or two B fragments' (hgemm.gk says which).
  const aRow = laneId % 16;
  const aWord = laneId / 16 * 4;
  const bRow = laneId % 8 + laneId / 16 * 8;
  const bWord = laneId / 8 % 2 * 4;
  // The two u32x4 of each tile this thread loads: rows lr and lr + 64, words lc..lc+3.
  const lr = threadIdx.x / 4;
  const lc = threadIdx.x % 4 * 4;
  const acc = local(f32x4, 4, 4);
  let a0 = load4(A, (row0 + lr) * KW + lc);
  let a1 = load4(A, (row0 + lr + 64) * KW + lc);
  let b0 = load4(B, (col0 + lr) * KW + lc);
  let b1 = load4(B, (col0 + lr + 64) * KW + lc);
  let stage = 0;
  store4(As[0]![lr]!, lc, a0);
  store4(As[0]![lr + 64]!, lc, a1);
  store4(Bs[0]![lr]!, lc, b0);
  store4(Bs[0]![lr + 64]!, lc, b1);
  barrier();
  for (let k0 = 0; k0 < KW; k0 += BKW) {
    const more = k0 + BKW < KW;
    if (more) {
      a0 = load4(A, (row0 + lr) * KW + k0 + BKW + lc);
      a1 = load4(A, (row0 + lr + 64) * KW + k0 + BKW + lc);
      b0 = load4(B, (col0 + lr) * KW + k0 + BKW + lc);
      b1 = load4(B, (col0 + lr + 64) * KW + k0 + BKW + lc);
    }
    unroll();
    for (let kk = 0; kk < BKW; kk += 8) {
      const fa = local(u32x4, 4);
      const fb = local(u32x2, 4);
      unroll();
      for (let m = 0; m < 4; m++) {
        fa[m] = ldmatrix_x4(As[stage]![wRow + m * 16 + aRow]!, kk + aWord);
      }
      unroll();
      for (let n = 0; n < 4; n += 2) {
        const b = ldmatrix_x4(Bs[stage]![wCol + n * 8 + bRow]!, kk + bWord);
        fb[n] = b.xy!;
        fb[n + 1] = b.zw!;
      }
      unroll();
      for (let m = 0; m < 4; m++) {
        unroll();
        for (let n = 0; n < 4; n++) {
          acc[m]![n] = mma(isBf16, fa[m]!, fb[n]!, acc[m]![n]!);
        }
      }
    }
    if (more) {
      const next = 1 - stage;
      store4(As[next]![lr]!, lc, a0);
      store4(As[next]![lr + 64]!, lc, a1);
      store4(Bs[next]![lr]!, lc, b0);
      store4(Bs[next]![lr + 64]!, lc, b1);
      stage = next;
    }
    barrier();
  }
  for (let m = 0; m < 4; m++) {
    for (let n = 0; n < 4; n++) {
      const r = row0 + wRow + m * 16 + g;
      const c = col0 + wCol + n * 8 + 2 * t;
      store2(C, r * N + c, acc[m]![n]!.xy!);
      store2(C, (r + 8) * N + c, acc[m]![n]!.zw!);
    }
  }
});

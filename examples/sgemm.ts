// SGEMM, C = A × B for row-major M×K, K×N and M×N matrices of f32, register-tiled with vector
// loads: examples/sgemm.gk written in TypeScript (that file explains the tiling). A block
// computes a 128×128 tile of C, 8 columns of A and rows of B at a time, through two stages of
// shared memory; each thread keeps an 8×8 sub-tile of C as 8×2 f32x4 vectors in registers.
import { barrier, blockIdx, f32, f32x4, kernel, load4, local, shared, store4, threadIdx, type Global, type i32, type ReadonlyGlobal } from "gk";

const BM = 128;
const BN = 128;
const BK = 8;

export const sgemm = kernel((M: i32, N: i32, K: i32, A: ReadonlyGlobal<f32>, B: ReadonlyGlobal<f32>, C: Global<f32>) => {
  const As = shared(f32, 2, BK, BM);
  const Bs = shared(f32, 2, BK, BN);
  const tx = threadIdx.x % 16;
  const ty = threadIdx.x / 16;
  const row0 = blockIdx.y * BM;
  const col0 = blockIdx.x * BN;
  // The f32x4 of each tile this thread loads: A's row aRow, columns aCol..aCol+3; B's row bRow, columns bCol..bCol+3.
  const aRow = threadIdx.x / 2;
  const aCol = threadIdx.x % 2 * 4;
  const bRow = threadIdx.x / 32;
  const bCol = threadIdx.x % 32 * 4;
  const acc = local(f32x4, 8, 2);
  let a = load4(A, (row0 + aRow) * K + aCol);
  let b = load4(B, bRow * N + col0 + bCol);
  let stage = 0;
  As[0]![aCol]![aRow] = a.x!;
  As[0]![aCol + 1]![aRow] = a.y!;
  As[0]![aCol + 2]![aRow] = a.z!;
  As[0]![aCol + 3]![aRow] = a.w!;
  store4(Bs[0]![bRow]!, bCol, b);
  barrier();
  for (let k0 = 0; k0 < K; k0 += BK) {
    const more = k0 + BK < K;
    if (more) {
      a = load4(A, (row0 + aRow) * K + k0 + BK + aCol);
      b = load4(B, (k0 + BK + bRow) * N + col0 + bCol);
    }
    for (let k = 0; k < BK; k++) {
      const a0 = load4(As[stage]![k]!, ty * 4);
      const a1 = load4(As[stage]![k]!, 64 + ty * 4);
      const b0 = load4(Bs[stage]![k]!, tx * 4);
      const b1 = load4(Bs[stage]![k]!, 64 + tx * 4);
      const ra = local(f32, [a0.x!, a0.y!, a0.z!, a0.w!, a1.x!, a1.y!, a1.z!, a1.w!]);
      for (let m = 0; m < 8; m++) {
        acc[m]![0]! += ra[m]! * b0;
        acc[m]![1]! += ra[m]! * b1;
      }
    }
    if (more) {
      const next = 1 - stage;
      As[next]![aCol]![aRow] = a.x!;
      As[next]![aCol + 1]![aRow] = a.y!;
      As[next]![aCol + 2]![aRow] = a.z!;
      As[next]![aCol + 3]![aRow] = a.w!;
      store4(Bs[next]![bRow]!, bCol, b);
      stage = next;
    }
    barrier();
  }
  for (let m = 0; m < 8; m++) {
    const row = row0 + (m < 4 ? ty * 4 + m : 60 + ty * 4 + m);
    store4(C, row * N + col0 + tx * 4, acc[m]![0]!);
    store4(C, row * N + col0 + 64 + tx * 4, acc[m]![1]!);
  }
});

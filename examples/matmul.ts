// C = A * B for row-major M x K and K x N matrices, through 16 x 16 tiles in shared memory:
// examples/matmul.gk written in TypeScript.
import { barrier, blockIdx, f32, kernel, shared, threadIdx, type Global, type i32, type ReadonlyGlobal } from "gk";

const TILE = 16;

export const matmul = kernel((A: ReadonlyGlobal<f32>, B: ReadonlyGlobal<f32>, C: Global<f32>,
                              M: i32, N: i32, K: i32) => {
  const tA = shared(f32, TILE, TILE);
  const tB = shared(f32, TILE, TILE);
  const row = blockIdx.y * TILE + threadIdx.y;
  const col = blockIdx.x * TILE + threadIdx.x;
  let sum = 0.0;
  for (let t = 0; t < (K + TILE - 1) / TILE; t += 1) {
    tA[threadIdx.y]![threadIdx.x] = row < M && t * TILE + threadIdx.x < K ? A[row * K + t * TILE + threadIdx.x]! : 0.0;
    tB[threadIdx.y]![threadIdx.x] = col < N && t * TILE + threadIdx.y < K ? B[(t * TILE + threadIdx.y) * N + col]! : 0.0;
    barrier();
    for (let k = 0; k < TILE; k += 1) {
      sum += tA[threadIdx.y]![k]! * tB[k]![threadIdx.x]!;
    }
    barrier();
  }
  if (row < M && col < N) {
    C[row * N + col] = sum;
  }
});

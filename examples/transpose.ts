// out = transpose(in) for a rows x cols matrix: examples/transpose.gk written in TypeScript,
// through a shared tile padded by one column so that reading a tile column does not hit one
// shared-memory bank 32 times.
import { barrier, blockIdx, f32, kernel, shared, threadIdx, type Global, type i32, type ReadonlyGlobal } from "gk";

const TILE = 32;
const ROWS_PER_PASS = 8;

export const transpose = kernel((rows: i32, cols: i32, input: ReadonlyGlobal<f32>, output: Global<f32>) => {
  const tile = shared(f32, TILE, TILE + 1);
  const x = blockIdx.x * TILE + threadIdx.x;
  const y0 = blockIdx.y * TILE + threadIdx.y;
  for (let j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (x < cols && y0 + j < rows) {
      tile[threadIdx.y + j]![threadIdx.x] = input[(y0 + j) * cols + x]!;
    }
  }
  barrier();
  const tx = blockIdx.y * TILE + threadIdx.x;
  const ty0 = blockIdx.x * TILE + threadIdx.y;
  for (let j = 0; j < TILE; j += ROWS_PER_PASS) {
    if (tx < rows && ty0 + j < cols) {
      output[(ty0 + j) * rows + tx] = tile[threadIdx.x]![threadIdx.y + j]!;
    }
  }
});

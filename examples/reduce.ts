// Sum of an array: examples/reduce.gk written in TypeScript. Each block reduces its part in
// shared memory (a tree of halving steps with a barrier between them), then one atomic per
// block adds it to the total.
import { atomicAdd, barrier, blockIdx, f32, globalId, kernel, shared, threadIdx, type Global, type i32, type ReadonlyGlobal } from "gk";

const BLOCK = 256;

export const block_sum = kernel((n: i32, x: ReadonlyGlobal<f32>, partial: Global<f32>, total: Global<f32>) => {
  const buf = shared(f32, BLOCK);
  const tid = threadIdx.x;
  const i = globalId.x;
  buf[tid] = i < n ? x[i]! : 0.0;
  barrier();
  for (let stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      buf[tid] += buf[tid + stride]!;
    }
    barrier();
  }
  if (tid == 0) {
    partial[blockIdx.x] = buf[0]!;
    atomicAdd(total, 0, buf[0]!);
  }
});

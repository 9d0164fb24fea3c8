// A 16-bin histogram of bytes: examples/histogram.gk written in TypeScript. Each block counts
// into shared memory with atomics, then merges its counts into the global histogram.
import { atomicAdd, barrier, blockDim, globalId, gridDim, kernel, shared, threadIdx, u32, type Global, type i32, type ReadonlyGlobal } from "gk";

const BINS = 16;

export const histogram = kernel((n: i32, data: ReadonlyGlobal<u32>, hist: Global<u32>) => {
  const local_hist = shared(u32, BINS);
  const tid = threadIdx.x;
  if (tid < BINS) {
    local_hist[tid] = 0;
  }
  barrier();
  for (let i = globalId.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(local_hist, data[i]! % BINS, 1);
  }
  barrier();
  if (tid < BINS) {
    atomicAdd(hist, tid, local_hist[tid]!);
  }
});

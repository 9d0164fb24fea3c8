// Sum of an array with warp shuffles: examples/warp_reduce.gk written in TypeScript. Each warp
// adds its 32 values with shflDown (no shared memory, no barrier), one shared slot per warp
// keeps the warp's sum, and after one barrier the first warp adds those slots the same way.
// Blocks are whole warps (a multiple of 32 threads): a thread past the end brings 0.
import {
  atomicAdd, barrier, blockDim, blockIdx, deviceFn, f32, globalId, kernel, laneId, shared, shflDown, threadIdx, warpSize,
  type Global, type i32, type ReadonlyGlobal,
} from "gk";

const MAX_WARPS = 1024 / warpSize;

// After the steps, lane 0 holds the sum of the warp's 32 values.
const warp_sum = deviceFn((v: f32): f32 => {
  let s = v;
  for (let offset = warpSize / 2; offset > 0; offset /= 2) {
    s += shflDown(s, offset);
  }
  return s;
});

export const block_sum = kernel((n: i32, x: ReadonlyGlobal<f32>, partial: Global<f32>, total: Global<f32>) => {
  const sums = shared(f32, MAX_WARPS);
  const i = globalId.x;
  const warp = threadIdx.x / warpSize;
  const s = warp_sum(i < n ? x[i]! : 0.0);
  if (laneId == 0) {
    sums[warp] = s;
  }
  barrier();
  if (warp == 0) {
    const warps = blockDim.x / warpSize;
    const b = warp_sum(laneId < warps ? sums[laneId]! : 0.0);
    if (laneId == 0) {
      partial[blockIdx.x] = b;
      atomicAdd(total, 0, b);
    }
  }
});

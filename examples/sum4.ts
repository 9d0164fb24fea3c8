// Sum of an array with vector loads: examples/sum4.gk written in TypeScript. Each thread adds
// f32x4 vectors into two vector accumulators, then their lanes (`a.x!`: TypeScript types a
// lane as possibly undefined, gk reads `e!` as `e`); warps add with shflDown, blocks with one
// atomicAdd.
import { atomicAdd, barrier, blockDim, deviceFn, f32, f32x4, globalId, gridDim, kernel, laneId, load4, shared, shflDown, threadIdx, warpSize, type Global, type i32, type ReadonlyGlobal } from "gk";

const MAX_WARPS = 1024 / warpSize;

const warp_sum = deviceFn((v: f32): f32 => {
  let s = v;
  for (let offset = warpSize / 2; offset > 0; offset /= 2) {
    s += shflDown(s, offset);
  }
  return s;
});

export const sum4 = kernel((n: i32, x: ReadonlyGlobal<f32>, total: Global<f32>) => {
  const sums = shared(f32, MAX_WARPS);
  const stride = gridDim.x * blockDim.x * 4;
  let i = globalId.x * 4;
  let a = f32x4(0.0);
  let b = f32x4(0.0);
  for (; i + stride + 4 <= n; i += 2 * stride) {
    a += load4(x, i);
    b += load4(x, i + stride);
  }
  for (; i + 4 <= n; i += stride) {
    a += load4(x, i);
  }
  a += b;
  let s = (a.x! + a.y!) + (a.z! + a.w!);
  for (let j = i; j < n; j++) {
    s += x[j]!;
  }
  const warp = threadIdx.x / warpSize;
  s = warp_sum(s);
  if (laneId == 0) {
    sums[warp] = s;
  }
  barrier();
  if (warp == 0) {
    const warps = blockDim.x / warpSize;
    const block = warp_sum(laneId < warps ? sums[laneId]! : 0.0);
    if (laneId == 0) {
      atomicAdd(total, 0, block);
    }
  }
});

// Sum of an array: examples/reduce_dynamic.gk written in TypeScript. The shared buffer is a
// dynamic shared array (dynamicShared(f32)), one element per thread, whose length each launch
// gives ({ shared: { buf: 256 } }), so one kernel serves every block size.
import { atomicAdd, barrier, blockDim, blockIdx, dynamicShared, f32, globalId, kernel, threadIdx, type Global, type i32, type ReadonlyGlobal } from "gk";

export const block_sum = kernel((n: i32, x: ReadonlyGlobal<f32>, partial: Global<f32>, total: Global<f32>) => {
  const buf = dynamicShared(f32);
  const tid = threadIdx.x;
  const i = globalId.x;
  buf[tid] = i < n ? x[i]! : 0.0;
  barrier();
  for (let stride = blockDim.x / 2; stride > 0; stride >>= 1) {
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

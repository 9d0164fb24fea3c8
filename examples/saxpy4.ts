// saxpy with vector loads: examples/saxpy4.gk written in TypeScript. load4 and store4 read
// and write 16 bytes at a time; `alpha * v` multiplies every lane of v by alpha (vector types
// are their lanes' host type to TypeScript, so its operators type-check; gk types them).
import { blockDim, blockIdx, globalId, kernel, load4, store4, threadIdx, type f32, type Global, type i32, type ReadonlyGlobal } from "gk";

export const saxpy4 = kernel((n: i32, alpha: f32, x: ReadonlyGlobal<f32>, y: ReadonlyGlobal<f32>, out: Global<f32>) => {
  const i = globalId.x * 4;
  if (i + 4 <= n) {
    store4(out, i, alpha * load4(x, i) + load4(y, i));
  } else {
    for (let j = i; j < n; j++) {
      out[j] = alpha * x[j]! + y[j]!;
    }
  }
});

// The same with two vectors per thread, a block's worth apart: more loads in flight per thread, half the threads.
export const saxpy8 = kernel((n: i32, alpha: f32, x: ReadonlyGlobal<f32>, y: ReadonlyGlobal<f32>, out: Global<f32>) => {
  const first = (blockIdx.x * blockDim.x * 2 + threadIdx.x) * 4;
  for (let k = 0; k < 2; k++) {
    const i = first + k * blockDim.x * 4;
    if (i + 4 <= n) {
      store4(out, i, alpha * load4(x, i) + load4(y, i));
    } else {
      for (let j = i; j < n; j++) {
        out[j] = alpha * x[j]! + y[j]!;
      }
    }
  }
});

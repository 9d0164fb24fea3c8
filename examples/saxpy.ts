// saxpy: out = alpha * x + y, one element per thread: examples/saxpy.gk written in TypeScript.
import { kernel, globalId, type f32, type Global, type i32, type ReadonlyGlobal } from "gk";

export const saxpy = kernel((n: i32, alpha: f32, x: ReadonlyGlobal<f32>,
                             y: ReadonlyGlobal<f32>, out: Global<f32>) => {
  const i = globalId.x;
  if (i < n) {
    out[i] = alpha * x[i]! + y[i]!;
  }
});

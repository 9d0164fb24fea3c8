// A kernel calls device functions (deviceFn), gk's builtins and conversions, not host code.
import { kernel, globalId, type f32, type Global } from "gk";

function halve(v: number): number {
  return v / 2;
}

export const k = kernel((out: Global<f32>) => {
  out[globalId.x] = halve(out[globalId.x]);
});

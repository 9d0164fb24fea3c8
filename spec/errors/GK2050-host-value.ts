// A kernel runs on the device, which has none of the host's values: pass `scale` as a parameter.
import { kernel, globalId, type f32, type Global } from "gk";

let scale = 2.5;

export const k = kernel((out: Global<f32>) => {
  out[globalId.x] = scale;
});
scale = 3;

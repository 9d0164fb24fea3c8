// A kernel written in TypeScript may use only what a .gk kernel can say: here, a string.
import { kernel, type f32, type Global } from "gk";

export const k = kernel((out: Global<f32>) => {
  const label = "first";
  out[0] = 1.0;
});

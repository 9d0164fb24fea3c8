// One Jacobi step of the 2-D heat equation on a W x H grid: examples/stencil.gk written in
// TypeScript. Each interior point becomes the average of its four neighbours; boundary
// points are copied.
import { globalId, kernel, type f32, type Global, type i32, type ReadonlyGlobal } from "gk";

export const stencil = kernel((W: i32, H: i32, src: ReadonlyGlobal<f32>, dst: Global<f32>) => {
  const x = globalId.x;
  const y = globalId.y;
  if (x >= W || y >= H) {
    return;
  }
  const i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    dst[i] = src[i]!;
  } else {
    dst[i] = 0.25 * (src[i - 1]! + src[i + 1]! + src[i - W]! + src[i + W]!);
  }
});

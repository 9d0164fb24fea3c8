// A separable convolution of an image, examples/convolution.gk written in TypeScript: a 17-tap filter along the rows, then along the
// columns. The taps are constant memory, filled by each launch (constant TAPS), which every
// thread of the GPU reads at once through its constant cache; the loops over the taps and
// over a thread's outputs are unrolled (@unroll), so that each tap is one fused multiply-add
// with its operand straight from the constant bank. Each block loads a tile of the image
// and the apron around it (RADIUS wide) into shared memory first.
//
// The image is w x h floats, row-major; w must be a multiple of ROW_STEPS * ROW_X (128), h a
// multiple of ROW_Y for the rows pass, and of COL_STEPS * COL_Y (64) for the columns pass.
import { barrier, blockIdx, constant, f32, kernel, shared, table, threadIdx, unroll, type Global, type i32, type ReadonlyGlobal } from "gk";

const RADIUS = 8;
const TAPS = constant(f32, 2 * RADIUS + 1);

// A binomial filter, normalized: a default for TAPS (a launch may give any other).
const BINOMIAL = table(f32, [
  0.0000152587890625, 0.000244140625, 0.0018310546875, 0.008544921875, 0.02777099609375, 0.066650390625,
  0.1221923828125, 0.174560546875, 0.196380615234375, 0.174560546875, 0.1221923828125, 0.066650390625,
  0.02777099609375, 0.008544921875, 0.0018310546875, 0.000244140625, 0.0000152587890625,
]);

// Rows: a block of ROW_X x ROW_Y threads computes ROW_STEPS outputs per thread, ROW_X apart.
const ROW_X = 16;
const ROW_Y = 4;
const ROW_STEPS = 8;
const ROW_HALO = 1;

export const convolveRows = kernel((w: i32, src: ReadonlyGlobal<f32>, dst: Global<f32>) => {
  const tile = shared(f32, ROW_Y, (ROW_STEPS + 2 * ROW_HALO) * ROW_X);
  const tx = threadIdx.x;
  const ty = threadIdx.y;
  const x0 = (blockIdx.x * ROW_STEPS - ROW_HALO) * ROW_X + tx;
  const row = (blockIdx.y * ROW_Y + ty) * w;
  unroll();
  for (let s = 0; s < ROW_STEPS + 2 * ROW_HALO; s++) {
    const x = x0 + s * ROW_X;
    tile[ty]![tx + s * ROW_X] = x >= 0 && x < w ? src[row + x]! : 0.0;
  }
  barrier();
  unroll();
  for (let s = ROW_HALO; s < ROW_HALO + ROW_STEPS; s++) {
    let sum = 0.0;
    unroll();
    for (let k = -RADIUS; k <= RADIUS; k++) {
      sum += TAPS[RADIUS - k]! * tile[ty]![tx + s * ROW_X + k]!;
    }
    dst[row + x0 + s * ROW_X] = sum;
  }
});

// Columns: a block of COL_X x COL_Y threads computes COL_STEPS outputs per thread, COL_Y
// rows apart; the tile is stored column by column, one float of padding per column.
const COL_X = 16;
const COL_Y = 8;
const COL_STEPS = 8;
const COL_HALO = 1;

export const convolveColumns = kernel((w: i32, h: i32, src: ReadonlyGlobal<f32>, dst: Global<f32>) => {
  const tile = shared(f32, COL_X, (COL_STEPS + 2 * COL_HALO) * COL_Y + 1);
  const tx = threadIdx.x;
  const ty = threadIdx.y;
  const x = blockIdx.x * COL_X + tx;
  const y0 = (blockIdx.y * COL_STEPS - COL_HALO) * COL_Y + ty;
  unroll();
  for (let s = 0; s < COL_STEPS + 2 * COL_HALO; s++) {
    const y = y0 + s * COL_Y;
    tile[tx]![ty + s * COL_Y] = y >= 0 && y < h ? src[y * w + x]! : 0.0;
  }
  barrier();
  unroll();
  for (let s = COL_HALO; s < COL_HALO + COL_STEPS; s++) {
    let sum = 0.0;
    unroll();
    for (let k = -RADIUS; k <= RADIUS; k++) {
      sum += TAPS[RADIUS - k]! * tile[tx]![ty + s * COL_Y + k]!;
    }
    dst[(y0 + s * COL_Y) * w + x] = sum;
  }
});

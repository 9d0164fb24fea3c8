// Hand-written CUDA for the same algorithms as examples/*.gk, in the usual C++ style
// (plain int arithmetic), so bench/kernels.mjs can show what gk's generated code costs or
// saves against them, measured side by side on one GPU.

extern "C" __global__ void ref_saxpy(int n, float alpha, const float* __restrict__ x, const float* __restrict__ y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * x[i] + y[i];
}

#define TILE 16
extern "C" __global__ void ref_matmul(const float* __restrict__ A, const float* __restrict__ B, float* C, int M, int N, int K) {
  __shared__ float tA[TILE][TILE];
  __shared__ float tB[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
    tA[threadIdx.y][threadIdx.x] = row < M && t * TILE + threadIdx.x < K ? A[row * K + t * TILE + threadIdx.x] : 0.0f;
    tB[threadIdx.y][threadIdx.x] = col < N && t * TILE + threadIdx.y < K ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += tA[threadIdx.y][k] * tB[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

#define BLOCK 256
extern "C" __global__ void ref_block_sum(int n, const float* __restrict__ x, float* partial, float* total) {
  __shared__ float buf[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[tid] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) buf[tid] += buf[tid + stride];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = buf[0];
    atomicAdd(total, buf[0]);
  }
}

// Sum by warp shuffles: each warp reduces its 32 values, lane 0 of each warp stores the
// warp's sum in shared memory, and the first warp reduces those (blockDim.x a multiple of 32).
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void ref_warp_sum(int n, const float* __restrict__ x, float* partial, float* total) {
  __shared__ float sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float s = warp_sum(i < n ? x[i] : 0.0f);
  if (lane == 0) sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    float b = warp_sum(lane < (int)(blockDim.x >> 5) ? sums[lane] : 0.0f);
    if (lane == 0) {
      partial[blockIdx.x] = b;
      atomicAdd(total, b);
    }
  }
}

#define TILE_T 32
#define ROWS 8
extern "C" __global__ void ref_transpose(int rows, int cols, const float* __restrict__ input, float* output) {
  __shared__ float tile[TILE_T][TILE_T + 1];
  int x = blockIdx.x * TILE_T + threadIdx.x;
  int y0 = blockIdx.y * TILE_T + threadIdx.y;
  for (int j = 0; j < TILE_T; j += ROWS)
    if (x < cols && y0 + j < rows) tile[threadIdx.y + j][threadIdx.x] = input[(y0 + j) * cols + x];
  __syncthreads();
  int tx = blockIdx.y * TILE_T + threadIdx.x;
  int ty0 = blockIdx.x * TILE_T + threadIdx.y;
  for (int j = 0; j < TILE_T; j += ROWS)
    if (tx < rows && ty0 + j < cols) output[(ty0 + j) * rows + tx] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void ref_stencil(int W, int H, const float* __restrict__ src, float* dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) dst[i] = src[i];
  else dst[i] = 0.25f * (src[i - 1] + src[i + 1] + src[i - W] + src[i + W]);
}

#define BINS 16
extern "C" __global__ void ref_histogram(int n, const unsigned int* __restrict__ data, unsigned int* hist) {
  __shared__ unsigned int local_hist[BINS];
  int tid = threadIdx.x;
  if (tid < BINS) local_hist[tid] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local_hist[data[i] % BINS], 1u);
  __syncthreads();
  if (tid < BINS) atomicAdd(&hist[tid], local_hist[tid]);
}

// A separable convolution with a 17-tap filter in constant memory, rows then columns:
// each block stages its tile and the apron in shared memory, each thread computes several
// outputs, and the tap loops are unrolled so each tap is a multiply-add with its operand
// from the constant bank.
#define RADIUS 8
__constant__ float c_taps[2 * RADIUS + 1];

#define ROW_X 16
#define ROW_Y 4
#define ROW_STEPS 8
#define ROW_HALO 1
extern "C" __global__ void ref_convolve_rows(int w, const float* __restrict__ src, float* __restrict__ dst) {
  __shared__ float tile[ROW_Y][(ROW_STEPS + 2 * ROW_HALO) * ROW_X];
  const int x0 = (blockIdx.x * ROW_STEPS - ROW_HALO) * ROW_X + threadIdx.x;
  const int row = (blockIdx.y * ROW_Y + threadIdx.y) * w;
#pragma unroll
  for (int s = 0; s < ROW_STEPS + 2 * ROW_HALO; s++) {
    const int x = x0 + s * ROW_X;
    tile[threadIdx.y][threadIdx.x + s * ROW_X] = x >= 0 && x < w ? src[row + x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int s = ROW_HALO; s < ROW_HALO + ROW_STEPS; s++) {
    float sum = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; k++) sum += c_taps[RADIUS - k] * tile[threadIdx.y][threadIdx.x + s * ROW_X + k];
    dst[row + x0 + s * ROW_X] = sum;
  }
}

#define COL_X 16
#define COL_Y 8
#define COL_STEPS 8
#define COL_HALO 1
extern "C" __global__ void ref_convolve_columns(int w, int h, const float* __restrict__ src, float* __restrict__ dst) {
  __shared__ float tile[COL_X][(COL_STEPS + 2 * COL_HALO) * COL_Y + 1];
  const int x = blockIdx.x * COL_X + threadIdx.x;
  const int y0 = (blockIdx.y * COL_STEPS - COL_HALO) * COL_Y + threadIdx.y;
#pragma unroll
  for (int s = 0; s < COL_STEPS + 2 * COL_HALO; s++) {
    const int y = y0 + s * COL_Y;
    tile[threadIdx.x][threadIdx.y + s * COL_Y] = y >= 0 && y < h ? src[y * w + x] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int s = COL_HALO; s < COL_HALO + COL_STEPS; s++) {
    float sum = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; k++) sum += c_taps[RADIUS - k] * tile[threadIdx.x][threadIdx.y + s * COL_Y + k];
    dst[(y0 + s * COL_Y) * w + x] = sum;
  }
}

// European options by the Black-Scholes formula with CUDA's fast intrinsics (__expf,
// __logf, __fdividef), one option per thread in a grid-stride loop; the normal CDF by the
// Abramowitz-Stegun polynomial.
__device__ __forceinline__ float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  const float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
  const float tail = RSQRT2PI * __expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0.0f ? 1.0f - tail : tail;
}

extern "C" __global__ void ref_black_scholes(int n, const float* __restrict__ price, const float* __restrict__ strike, const float* __restrict__ years,
                                             float r, float v, float* __restrict__ call, float* __restrict__ put) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float s = price[i], x = strike[i], t = years[i];
    const float sqrtT = sqrtf(t);
    const float d1 = __fdividef(__logf(__fdividef(s, x)) + (r + 0.5f * v * v) * t, v * sqrtT);
    const float d2 = d1 - v * sqrtT;
    const float cndD1 = cnd(d1), cndD2 = cnd(d2);
    const float expRT = __expf(-r * t);
    call[i] = s * cndD1 - x * expRT * cndD2;
    put[i] = x * expRT * (1.0f - cndD2) - s * (1.0f - cndD1);
  }
}

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

// Hand-written kernels for test/gpu/launcher.test.ts, compiled with nvcc to a cubin and to PTX.
#include <cstdint>

extern "C" __global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

// Every scalar type in, each written to its own one-element array: the values must come back bit for bit.
extern "C" __global__ void roundtrip(bool b, int32_t i, uint32_t u, int64_t l, uint64_t ul, float f, double d,
                                     bool* ob, int32_t* oi, uint32_t* ou, int64_t* ol, uint64_t* oul, float* of,
                                     double* od) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *ob = b;
    *oi = i;
    *ou = u;
    *ol = l;
    *oul = ul;
    *of = f;
    *od = d;
  }
}

// Array copies through the GPU, one per element type.
#define COPY(T, NAME)                                                              \
  extern "C" __global__ void copy_##NAME(int n, const T* in, T* out) {            \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                 \
    if (i < n) out[i] = in[i];                                                     \
  }
COPY(bool, bool)
COPY(int32_t, i32)
COPY(uint32_t, u32)
COPY(int64_t, i64)
COPY(uint64_t, u64)
COPY(float, f32)
COPY(double, f64)

extern "C" __global__ void add_one(int n, int* p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

// Writes 256 GiB past its allocation: CUDA_ERROR_ILLEGAL_ADDRESS.
extern "C" __global__ void oob(float* p) {
  volatile float* far = p + (size_t(1) << 36);
  far[threadIdx.x] = 1.0f;
}

// At most 128 threads per block: a launch with more fails in cuLaunchKernel.
extern "C" __global__ void __launch_bounds__(128) bounded(float* p) {
  p[threadIdx.x] = 1.0f;
}

// Dynamic shared memory: fills `count` floats, then reports the last one.
extern "C" __global__ void use_shared(int count, float* out) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < count; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[count - 1];
}

// Busy for `cycles` clock cycles (bounded, so a test that times it out never leaves it running for long).
extern "C" __global__ void spin(long long cycles, int* done) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (threadIdx.x == 0) *done = 1;
}

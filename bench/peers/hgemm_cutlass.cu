// CUTLASS 2.x's Ampere GEMM (mma.sync m16n8k16 through cutlass::gemm::device::Gemm with
// arch::OpClassTensorOp, arch::Sm80, cp.async multistage main loop), the best-known mma.sync GEMM,
// as the peer that says what mma.sync reaches on this GPU beside gk's examples/hgemm.gk (issue 22).
// The problem is gk's: C (f32, M x N, row-major) = A (M x K, row-major) x B^T with B given N x K
// (CUTLASS: A RowMajor, B ColumnMajor K x N, C RowMajor; the "TN" GEMM), f16 or bf16 in, f32
// accumulated, alpha 1, beta 0 (C is not read). Each configuration of CONFIGS below is compiled
// in its own translation unit (-DHGEMM_CUTLASS_CONFIG=i) with both input types; the driver (no
// HGEMM_CUTLASS_CONFIG) is both a C API, which bench/peers/hgemm_peers.py loads with ctypes to
// time CUTLASS on PyTorch's tensors in the same rounds as gk and cuBLAS, and a program:
//
//   hgemm_cutlass [--sizes 4096,8192] [--reps N]   times every configuration on its own random
//       inputs (uniform in [-1, 1)), CUDA events around N back-to-back launches after 3 warm-ups,
//       the median of 5 rounds; checks every C against the f64 product on every 61st row (the
//       error relative to the sum of |a| |b|, below 1e-4, as hgemm_peers.py); prints JSON
//   hgemm_cutlass --profile CFG f16|bf16 M          three launches of one configuration (for ncu)
//
// Build (CUTLASS is not part of gk: take include/ of a CUTLASS checkout, e.g. with `git archive
// HEAD include | tar -x -C /tmp/cutlass`; nothing of it is committed here; measured with commit
// 7107b05). One object a configuration, in parallel (53 s on 2 cores with nvcc 13.0):
//   CUT=/tmp/cutlass/include; F="-O3 -std=c++17 -arch=sm_90 -I$CUT --expt-relaxed-constexpr -Xcompiler -fPIC"
//   for i in $(seq 0 10); do nvcc $F -DHGEMM_CUTLASS_CONFIG=$i -c hgemm_cutlass.cu -o cfg$i.o & done
//   nvcc $F -c hgemm_cutlass.cu -o driver.o; wait
//   nvcc -arch=sm_90 -o hgemm_cutlass cfg*.o driver.o
//   nvcc -arch=sm_90 -shared -o hgemm_cutlass.so cfg*.o driver.o
// and put both where the bench looks (`HGEMM_CUTLASS`, default .gpubatch/hgemm_cutlass.so).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// [index, BM, BN, BK, WM, WN, WK, stages]: threadblock tile, warp tile, cp.async stages (the
// shapes CUTLASS's profiler instantiates for sm80 f16 with 64 x 64 warp tiles; 0 is its default).
#define HGEMM_CUTLASS_CONFIGS(X)      \
  X(0, 128, 256, 32, 64, 64, 32, 3)   \
  X(1, 256, 128, 32, 64, 64, 32, 3)   \
  X(2, 128, 256, 32, 64, 64, 32, 4)   \
  X(3, 256, 128, 32, 64, 64, 32, 4)   \
  X(4, 128, 128, 32, 64, 64, 32, 4)   \
  X(5, 128, 128, 32, 64, 64, 32, 5)   \
  X(6, 128, 128, 64, 64, 64, 64, 3)   \
  X(7, 128, 128, 64, 64, 64, 64, 4)   \
  X(8, 128, 256, 64, 64, 64, 64, 3)   \
  X(9, 256, 128, 64, 64, 64, 64, 3)   \
  X(10, 256, 128, 64, 64, 64, 64, 4)

/** A configuration's launch on `stream` (an error string, or null) and its kernel's resources. */
struct HgemmCutlassInfo { int regs, shared, threads, localBytes; };
#define HGEMM_CUTLASS_DECLARE(i, ...)                                                                                          \
  const char* hgemmCutlassRun##i(bool bf16, int m, int n, int k, const void* A, const void* B, float* C, cudaStream_t stream); \
  HgemmCutlassInfo hgemmCutlassInfo##i(bool bf16);
HGEMM_CUTLASS_CONFIGS(HGEMM_CUTLASS_DECLARE)

#ifdef HGEMM_CUTLASS_CONFIG
// ---- one configuration: its two instances (f16, bf16) -------------------------------------
#include <cutlass/cutlass.h>
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/epilogue/thread/linear_combination.h>

template <typename T, int BM, int BN, int BK, int WM, int WN, int WK, int S>
struct CutlassGemm {
  using Gemm = cutlass::gemm::device::Gemm<
      T, cutlass::layout::RowMajor, T, cutlass::layout::ColumnMajor, float, cutlass::layout::RowMajor, float,
      cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, cutlass::gemm::GemmShape<BM, BN, BK>,
      cutlass::gemm::GemmShape<WM, WN, WK>, cutlass::gemm::GemmShape<16, 8, 16>,
      cutlass::epilogue::thread::LinearCombination<float, 128 / cutlass::sizeof_bits<float>::value, float, float>,
      cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, S, 8, 8>;

  static const char* run(int m, int n, int k, const void* A, const void* B, float* C, cudaStream_t stream) {
    typename Gemm::Arguments args({m, n, k}, {static_cast<T const*>(A), k}, {static_cast<T const*>(B), k}, {C, n}, {C, n}, {1.0f, 0.0f});
    if (Gemm::can_implement(args) != cutlass::Status::kSuccess) return "CUTLASS cannot implement this problem";
    Gemm op;
    cutlass::Status s = op.initialize(args, nullptr, stream);
    if (s != cutlass::Status::kSuccess) return cutlassGetStatusString(s);
    s = op.run(stream);
    if (s != cutlass::Status::kSuccess) return cudaGetErrorString(cudaGetLastError());
    return nullptr;
  }

  static HgemmCutlassInfo info() {
    cudaFuncAttributes a{};
    cudaFuncGetAttributes(&a, cutlass::Kernel<typename Gemm::GemmKernel>);
    return {a.numRegs, int(sizeof(typename Gemm::GemmKernel::SharedStorage)), int(Gemm::GemmKernel::kThreadCount), int(a.localSizeBytes)};
  }
};

// The row of CONFIGS this unit is compiled for (the preprocessor cannot pick a row of a list;
// a specialization per row and the one used can).
#define HGEMM_CUTLASS_PICK(i, BM, BN, BK, WM, WN, WK, S) \
  template <> struct HgemmCutlassRow<i> { static constexpr int v[7] = {BM, BN, BK, WM, WN, WK, S}; };
template <int I> struct HgemmCutlassRow;
HGEMM_CUTLASS_CONFIGS(HGEMM_CUTLASS_PICK)
using Row = HgemmCutlassRow<HGEMM_CUTLASS_CONFIG>;
template <typename T>
using This = CutlassGemm<T, Row::v[0], Row::v[1], Row::v[2], Row::v[3], Row::v[4], Row::v[5], Row::v[6]>;
#define HGEMM_CUTLASS_CAT2(a, b) a##b
#define HGEMM_CUTLASS_CAT(a, b) HGEMM_CUTLASS_CAT2(a, b)
const char* HGEMM_CUTLASS_CAT(hgemmCutlassRun, HGEMM_CUTLASS_CONFIG)(bool bf16, int m, int n, int k, const void* A, const void* B, float* C, cudaStream_t stream) {
  return bf16 ? This<cutlass::bfloat16_t>::run(m, n, k, A, B, C, stream) : This<cutlass::half_t>::run(m, n, k, A, B, C, stream);
}
HgemmCutlassInfo HGEMM_CUTLASS_CAT(hgemmCutlassInfo, HGEMM_CUTLASS_CONFIG)(bool bf16) {
  return bf16 ? This<cutlass::bfloat16_t>::info() : This<cutlass::half_t>::info();
}

#else
// ---- the driver: the configurations' table, the C API and the program ---------------------
struct HgemmCutlassConfig {
  int shape[7];
  const char* (*run)(bool, int, int, int, const void*, const void*, float*, cudaStream_t);
  HgemmCutlassInfo (*info)(bool);
};
#define HGEMM_CUTLASS_ROW(i, BM, BN, BK, WM, WN, WK, S) {{BM, BN, BK, WM, WN, WK, S}, hgemmCutlassRun##i, hgemmCutlassInfo##i},
static const HgemmCutlassConfig CONFIGS[] = {HGEMM_CUTLASS_CONFIGS(HGEMM_CUTLASS_ROW)};
static const int COUNT = sizeof(CONFIGS) / sizeof(CONFIGS[0]);

static std::string configName(int i) {
  const int* s = CONFIGS[i].shape;
  char b[96];
  snprintf(b, sizeof b, "CUTLASS sm80 %dx%dx%d w%dx%dx%d s%d", s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
  return b;
}

extern "C" {
/** The number of configurations. */
int hgemm_cutlass_count() { return COUNT; }
/** Configuration i's name ("CUTLASS sm80 BMxBNxBK wWMxWNxWK sS"), valid until the next call. */
const char* hgemm_cutlass_name(int i) {
  static std::string s;
  s = i >= 0 && i < COUNT ? configName(i) : std::string();
  return s.c_str();
}
/** Launches configuration i on `stream`; null, or why it could not. */
const char* hgemm_cutlass_run(int i, int bf16, int m, int n, int k, const void* A, const void* B, float* C, void* stream) {
  if (i < 0 || i >= COUNT) return "no such CUTLASS configuration";
  return CONFIGS[i].run(bf16 != 0, m, n, k, A, B, C, static_cast<cudaStream_t>(stream));
}
/** Configuration i's kernel: registers a thread, shared bytes, threads a block, local (spill) bytes. */
void hgemm_cutlass_info(int i, int bf16, int* out) {
  HgemmCutlassInfo r = CONFIGS[i].info(bf16 != 0);
  out[0] = r.regs, out[1] = r.shared, out[2] = r.threads, out[3] = r.localBytes;
}
}

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "hgemm_cutlass: %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

/** Uniform in [-1, 1) from a hash of the index and seed, rounded to the input type. */
template <typename T>
__global__ void fillRandom(T* x, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ (unsigned(i >> 32) + seed) * 40503u;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13, h *= 3266489917u, h ^= h >> 16;
    float u = float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    if constexpr (std::is_same<T, __half>::value) x[i] = __float2half_rn(u);
    else x[i] = __float2bfloat16_rn(u);
  }
}

/** Row r = 61 j of C against the f64 product: |c - exact| / sum |a||b|, the largest of the row's, as bits. */
template <typename T>
__global__ void checkRows(const T* A, const T* B, const float* C, int m, int n, int k, unsigned long long* worst) {
  int row = 61 * blockIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  double exact = 0, scale = 0;
  for (int p = 0; p < k; p++) {
    double a = double(float(A[size_t(row) * k + p])), b = double(float(B[size_t(col) * k + p]));
    exact += a * b, scale += fabs(a * b);
  }
  double c = C[size_t(row) * n + col];
  double err = c != c ? 1e300 : fabs(c - exact) / fmax(scale, 1e-300);
  atomicMax(worst, (unsigned long long)__double_as_longlong(err));  // non-negative doubles order as their bits
}

template <typename T>
static void fillAll(void* A, void* B, size_t count) {
  fillRandom<T><<<1024, 256>>>(static_cast<T*>(A), count, 1u);
  fillRandom<T><<<1024, 256>>>(static_cast<T*>(B), count, 2u);
}

template <typename T>
static double checkC(const void* A, const void* B, const float* C, int m, unsigned long long* worst) {
  CHECK(cudaMemset(worst, 0, sizeof *worst));
  checkRows<T><<<dim3(m / 256, (m + 60) / 61), 256>>>(static_cast<const T*>(A), static_cast<const T*>(B), C, m, m, m, worst);
  unsigned long long bits;
  CHECK(cudaMemcpy(&bits, worst, sizeof bits, cudaMemcpyDeviceToHost));
  double err;
  memcpy(&err, &bits, sizeof err);
  return err;
}

int main(int argc, char** argv) {
  std::vector<int> sizes = {4096, 8192};
  int reps = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--sizes") && a + 1 < argc) {
      sizes.clear();
      for (char* t = strtok(argv[++a], ","); t; t = strtok(nullptr, ",")) sizes.push_back(atoi(t));
    } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
      reps = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--profile") && a + 3 < argc) {
      int i = atoi(argv[a + 1]), m = atoi(argv[a + 3]);
      bool bf16 = !strcmp(argv[a + 2], "bf16");
      void *A, *B;
      float* C;
      CHECK(cudaMalloc(&A, size_t(m) * m * 2));
      CHECK(cudaMalloc(&B, size_t(m) * m * 2));
      CHECK(cudaMalloc(&C, size_t(m) * m * 4));
      bf16 ? fillAll<__nv_bfloat16>(A, B, size_t(m) * m) : fillAll<__half>(A, B, size_t(m) * m);
      for (int r = 0; r < 3; r++) {
        const char* e = hgemm_cutlass_run(i, bf16, m, m, m, A, B, C, nullptr);
        if (e) { fprintf(stderr, "hgemm_cutlass: %s: %s\n", configName(i).c_str(), e); return 1; }
      }
      CHECK(cudaDeviceSynchronize());
      return 0;
    } else {
      fprintf(stderr, "usage: hgemm_cutlass [--sizes 4096,8192] [--reps N] | --profile CFG f16|bf16 M\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  unsigned long long* worst;
  CHECK(cudaMalloc(&worst, sizeof *worst));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  printf("{\"device\": \"%s\", \"configs\": [", prop.name);
  for (int i = 0; i < COUNT; i++) {
    HgemmCutlassInfo f = CONFIGS[i].info(false);
    printf("%s{\"name\": \"%s\", \"regs\": %d, \"shared\": %d, \"threads\": %d, \"local\": %d}", i ? ", " : "", configName(i).c_str(), f.regs, f.shared, f.threads, f.localBytes);
  }
  printf("], \"cases\": [");
  bool firstCase = true;
  for (int m : sizes) for (int bf16 = 0; bf16 < 2; bf16++) {
    size_t count = size_t(m) * m;
    void *A, *B;
    float* C;
    CHECK(cudaMalloc(&A, count * 2));
    CHECK(cudaMalloc(&B, count * 2));
    CHECK(cudaMalloc(&C, count * 4));
    bf16 ? fillAll<__nv_bfloat16>(A, B, count) : fillAll<__half>(A, B, count);
    int n = reps > 0 ? reps : (m <= 4096 ? 20 : 5);
    printf("%s{\"name\": \"%s %d\", \"m\": %d, \"variants\": [", firstCase ? "" : ", ", bf16 ? "bf16" : "f16", m, m);
    firstCase = false;
    for (int i = 0; i < COUNT; i++) {
      std::vector<float> rounds;
      const char* e = nullptr;
      for (int r = 0; r < 3 && !e; r++) e = hgemm_cutlass_run(i, bf16, m, m, m, A, B, C, nullptr);
      for (int round = 0; round < 5 && !e; round++) {
        CHECK(cudaEventRecord(t0));
        for (int r = 0; r < n && !e; r++) e = hgemm_cutlass_run(i, bf16, m, m, m, A, B, C, nullptr);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        rounds.push_back(ms / n);
      }
      printf("%s{\"name\": \"%s\"", i ? ", " : "", configName(i).c_str());
      if (e) {
        printf(", \"error\": \"%s\"}", e);
        continue;
      }
      std::sort(rounds.begin(), rounds.end());
      double ms = rounds[rounds.size() / 2];
      CHECK(cudaMemset(C, 0xff, count * 4));  // NaN: a C the kernel does not write fails the check
      e = hgemm_cutlass_run(i, bf16, m, m, m, A, B, C, nullptr);
      double err = bf16 ? checkC<__nv_bfloat16>(A, B, C, m, worst) : checkC<__half>(A, B, C, m, worst);
      printf(", \"ms\": %.5f, \"tflops\": %.1f, \"max_rel_err\": %.3e, \"ok\": %s}", ms, 2.0 * m * m * double(m) / (ms * 1e-3) / 1e12, err, !e && err < 1e-4 ? "true" : "false");
      fflush(stdout);
    }
    printf("]}");
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
  }
  printf("]}\n");
  return 0;
}
#endif

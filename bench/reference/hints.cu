// The "before" of issue 21, item 7 (bench/hints.mjs): bench/hints/minmax.gk's maxBuiltin as gk
// emitted it until gk's min and max became fminf/fmaxf alone: each through a helper that
// orders -0 below +0 by hand (an equality test, the OR or AND of the bits, a select) around
// fminf/fmaxf.
static __device__ __forceinline__ float gk_min_f32(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) | __float_as_int(b)) : fminf(a, b); }
static __device__ __forceinline__ float gk_max_f32(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) & __float_as_int(b)) : fmaxf(a, b); }

extern "C" __global__ void ref_max_helper(int n, const float* x, float* __restrict__ out) {
  const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    float v = x[i];
    float m = -__int_as_float(0x7f800000);
    for (int k = 0; k < 256; k = k + 1) {
      v = v * 1.0001f - 0.25f;
      v = gk_min_f32(gk_max_f32(v, -4.0f), 4.0f);
      m = gk_max_f32(m, v);
    }
    out[i] = m;
  }
}

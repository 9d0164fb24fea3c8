"""The reference point for gk's launch costs, measured in the same run: a CuPy RawKernel
saxpy (one element per thread), its launch time asynchronously and with a sync after
each launch, and its bandwidth at each size. Prints one JSON object on stdout."""
import json
import sys
import time

import cupy as cp

SRC = r"""
extern "C" __global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
"""


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [1 << 10, 1 << 20, 1 << 26]
    k = cp.RawKernel(SRC, "saxpy")
    rows = []
    for n in sizes:
        x = cp.arange(n, dtype=cp.float32)
        y = cp.ones(n, dtype=cp.float32)
        out = cp.empty(n, dtype=cp.float32)
        grid = ((n + 255) // 256,)
        args = (cp.int32(n), cp.float32(2.5), x, y, out)
        for _ in range(10):
            k(grid, (256,), args)
        cp.cuda.Device().synchronize()
        reps = 200 if n <= (1 << 20) else 50
        t0 = time.perf_counter()
        for _ in range(reps):
            k(grid, (256,), args)
        t1 = time.perf_counter()
        cp.cuda.Device().synchronize()
        t2 = time.perf_counter()
        async_us = (t1 - t0) / reps * 1e6
        sync = []
        for _ in range(reps):
            s = time.perf_counter()
            k(grid, (256,), args)
            cp.cuda.Device().synchronize()
            sync.append((time.perf_counter() - s) * 1e6)
        sync.sort()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(reps):
            k(grid, (256,), args)
        end.record()
        end.synchronize()
        kernel_ms = cp.cuda.get_elapsed_time(start, end) / reps
        rows.append({
            "n": n,
            "async_launch_us": async_us,
            "sync_launch_us_median": sync[len(sync) // 2],
            "kernel_ms": kernel_ms,
            "gbps": 12 * n / (kernel_ms * 1e-3) / 1e9,
        })
    print(json.dumps({"cupy": cp.__version__, "rows": rows}))


if __name__ == "__main__":
    main()

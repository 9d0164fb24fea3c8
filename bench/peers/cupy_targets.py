"""CuPy's side of gk's launch targets (bench/launch_targets.mjs), measured in the same run:
a saxpy RawKernel launch with a sync (1K elements) and without (queue only); 256 MB copies
host->device and device->host from ordinary (pageable) and page-locked (pinned) memory; and
500 steps of the 2-D Jacobi stencil of examples/stencil.gk on 4096^2 f32, ping-ponging
between two arrays. Prints one JSON object on stdout."""
import json
import statistics
import time

import cupy as cp
import numpy as np

SAXPY = r"""
extern "C" __global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
"""

# The same algorithm as examples/stencil.gk.
STENCIL = r"""
extern "C" __global__ void stencil(int W, int H, const float* src, float* dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) dst[i] = src[i];
  else dst[i] = 0.25f * (src[i - 1] + src[i + 1] + src[i - W] + src[i + W]);
}
"""


def sync():
    cp.cuda.Device().synchronize()


def launches():
    k = cp.RawKernel(SAXPY, "saxpy")
    n = 1024
    x = cp.arange(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    out = cp.empty(n, dtype=cp.float32)
    args = (cp.int32(n), cp.float32(2.5), x, y, out)
    for _ in range(100):
        k((4,), (256,), args)
    sync()
    trips = []
    for _ in range(1000):
        t = time.perf_counter()
        k((4,), (256,), args)
        sync()
        trips.append((time.perf_counter() - t) * 1e6)
    for _ in range(5000):
        k((4,), (256,), args)
    sync()
    # The median of 10 batches of 500 queued launches, a wait between batches, as
    # bench/launch_targets.mjs measures gk.
    batches = []
    for _ in range(10):
        t = time.perf_counter()
        for _ in range(500):
            k((4,), (256,), args)
        batches.append((time.perf_counter() - t) / 500 * 1e6)
        sync()
    return {"round_trip_us": statistics.median(trips), "async_launch_us": statistics.median(batches)}


def transfers():
    nbytes = 256 << 20
    n = nbytes // 4
    d = cp.empty(n, dtype=cp.float32)
    pageable = np.ones(n, dtype=np.float32)
    mem = cp.cuda.alloc_pinned_memory(nbytes)
    pinned = np.frombuffer(mem, np.float32, n)
    pinned[:] = 1
    out = {}
    for name, host in (("pageable", pageable), ("pinned", pinned)):
        for direction in ("h2d", "d2h"):
            times = []
            for _ in range(6):
                sync()
                t = time.perf_counter()
                if direction == "h2d":
                    d.set(host)
                else:
                    d.get(out=host)
                sync()
                times.append(time.perf_counter() - t)
            out[f"{direction}_{name}_gbps"] = nbytes / statistics.median(times[1:]) / 1e9
    return out


def stencil():
    k = cp.RawKernel(STENCIL, "stencil")
    side = 4096
    a = cp.asarray(np.random.default_rng(1).random(side * side, dtype=np.float32))
    b = cp.zeros(side * side, dtype=cp.float32)
    grid, block = (side // 16, side // 16), (16, 16)
    for _ in range(10):
        k(grid, block, (cp.int32(side), cp.int32(side), a, b))
        a, b = b, a
    sync()
    t = time.perf_counter()
    for _ in range(500):
        k(grid, block, (cp.int32(side), cp.int32(side), a, b))
        a, b = b, a
    sync()
    return {"stencil_500_ms": (time.perf_counter() - t) * 1e3}


def main():
    result = {"cupy": cp.__version__}
    result.update(launches())
    result.update(transfers())
    result.update(stencil())
    print(json.dumps(result))


if __name__ == "__main__":
    main()

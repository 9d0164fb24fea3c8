"""CuPy's side of bench/arrays.mjs, measured in the same run: fill and device-to-device copy of
1 GiB arrays (f32, f64, and n x 4 f32 as f32x4, with equal and with different lanes), each the
median of 5 rounds of 10 back-to-back operations timed with CUDA events. Prints one JSON object
on stdout: milliseconds per operation by case name."""
import json
import statistics

import cupy as cp

BYTES = 1 << 30


def timed(op, reps=10, rounds=5):
    op()
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    out = []
    for _ in range(rounds):
        start.record()
        for _ in range(reps):
            op()
        stop.record()
        stop.synchronize()
        out.append(cp.cuda.get_elapsed_time(start, stop) / reps)
    return statistics.median(out)


def main():
    f32 = cp.zeros(BYTES // 4, dtype=cp.float32)
    f64 = cp.zeros(BYTES // 8, dtype=cp.float64)
    quads = cp.zeros((BYTES // 16, 4), dtype=cp.float32)
    lanes = cp.array([1, 2, 3, 4], dtype=cp.float32)
    same = cp.array([7, 7, 7, 7], dtype=cp.float32)
    other = cp.zeros(BYTES // 4, dtype=cp.float32)
    res = {
        "fill f32": timed(lambda: f32.fill(3.0)),
        "fill f64": timed(lambda: f64.fill(3.141592653589793)),
        "fill f32x4, equal lanes": timed(lambda: quads.__setitem__(slice(None), same)),
        "fill f32x4, different lanes": timed(lambda: quads.__setitem__(slice(None), lanes)),
        "copy f32": timed(lambda: cp.copyto(other, f32)),
        "copy f32, overlapping (shift by one)": timed(lambda: f32.__setitem__(slice(1, None), f32[:-1].copy())),
    }
    print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "ms": res}))


main()

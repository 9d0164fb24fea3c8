"""The peers of gk's standard library (bench/stdlib.mjs), timed on one GPU: each operation
runs `reps` times back to back between two CUDA events, after 5 warm-ups, in ROUNDS rounds,
and the median round's milliseconds per operation is kept. Prints one JSON object on stdout:
{ peer name: { size: ms } }. Sizes are element counts; transpose takes a square of that many
elements, matmul a side (m = n = k). With "only": [names], just those peers.

  python3 bench/peers/stdlib_peers.py '{"sizes": [65536, 1048576, 67108864], "sides": [256, 1024, 4096]}'
"""
import json
import math
import sys

import numpy as np
import torch

try:
    import cupy as cp
except Exception:  # cupy is optional: its rows are left out
    cp = None

ROUNDS = 5


def timed(fn, reps):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(ROUNDS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) / reps)
    return float(np.median(out))


def reps_for(n):
    return 200 if n <= 1 << 16 else 50 if n <= 1 << 20 else 10


def main():
    job = json.loads(sys.argv[1])
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    res = {}

    only = job.get("only")

    def put(name, size, ms_fn):
        if only is None or name in only:
            res.setdefault(name, {})[str(size)] = ms_fn()

    g = torch.Generator(device="cuda")
    g.manual_seed(1)
    for n in job["sizes"]:
        r = reps_for(n)
        x = torch.rand(n, device="cuda", generator=g)
        xi = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32, generator=g)
        y = torch.empty_like(x)
        put("torch copy_ f32", n, lambda: timed(lambda: y.copy_(x), r))
        put("torch.sum", n, lambda: timed(lambda: x.sum(), r))
        put("torch.max", n, lambda: timed(lambda: x.max(), r))
        put("torch.cumsum f32", n, lambda: timed(lambda: torch.cumsum(x, 0), r))
        put("torch.cumsum i32", n, lambda: timed(lambda: torch.cumsum(xi, 0, dtype=torch.int32), r))
        put("torch.sort i32", n, lambda: timed(lambda: torch.sort(xi), r))
        put("torch.histc 256", n, lambda: timed(lambda: torch.histc(x, bins=256, min=0, max=1), r))
        put("torch.rand", n, lambda: timed(lambda: torch.rand(n, device="cuda"), r))
        side = int(math.isqrt(n))
        m = x[: side * side].view(side, side)
        put("m.t().contiguous()", n, lambda: timed(lambda: m.t().contiguous(), r))
        if cp is not None:
            ku = cp.random.randint(0, 2**32, size=n, dtype=cp.uint64).astype(cp.uint32)
            put("cupy.sort u32", n, lambda: timed(lambda: cp.sort(ku), r))
        del x, xi, m, y
    for s in job["sides"]:
        a = torch.rand(s, s, device="cuda", generator=g)
        b = torch.rand(s, s, device="cuda", generator=g)
        put("torch.matmul (TF32 off)", s, lambda: timed(lambda: torch.matmul(a, b), 20 if s <= 1024 else 5))
    print(json.dumps({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "cupy": cp.__version__ if cp else None, "ms": res}))


main()

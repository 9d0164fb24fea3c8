"""gk's vector-load kernels against PyTorch, timed the same way in one process on one GPU
(bench/vectors.mjs writes the job): each gk kernel is loaded from its cached cubin with CuPy
and launched on PyTorch's tensors, on PyTorch's current stream; each side is timed with CUDA
events around `reps` back-to-back launches after 10 warm-ups, in alternating rounds, and the
median round is kept. Each gk result is also checked against PyTorch's. Prints one JSON
object on stdout.

  saxpy   out = alpha * x + y      torch.add(y, x, alpha=alpha, out=o)
  sum     total += sum(x)          x.sum()
  sgemm   C = A @ B                torch.matmul(A, B, out=C), torch.backends.cuda.matmul.allow_tf32 = False
"""
import json
import sys

import numpy as np
import torch
import cupy as cp

from torch_timing import pair, ptr

# Each side's launches before it is timed, in every round.
WARMUPS = 10


def main():
    job = json.load(open(sys.argv[1]))
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    stream = torch.cuda.current_stream()
    cstream = cp.cuda.ExternalStream(stream.cuda_stream)
    gen = torch.Generator(device=dev).manual_seed(1)
    out = {"torch": torch.__version__, "cupy": cp.__version__, "device": torch.cuda.get_device_name(), "cases": []}
    modules = {}
    for c in job["cases"]:
        if c["cubin"] not in modules:
            modules[c["cubin"]] = cp.RawModule(path=c["cubin"])
        fn = modules[c["cubin"]].get_function(c["kernel"])
        grid, block = tuple(c["grid"]), tuple(c["block"])

        def launch(*args):
            with cstream:
                fn(grid, block, args)

        row = {"name": c["name"]}
        if c["kind"] == "saxpy":
            n, a = c["n"], 2.5
            x = torch.rand(n, device=dev, generator=gen)
            y = torch.rand(n, device=dev, generator=gen)
            o, ref = torch.empty_like(x), torch.empty_like(x)
            args = (np.int32(n), np.float32(a), ptr(x), ptr(y), ptr(o))
            row["gk_ms"], row["torch_ms"] = pair(lambda: launch(*args), lambda: torch.add(y, x, alpha=a, out=ref), c["reps"], stream, WARMUPS)
            row["max_abs_diff"] = float((o - ref).abs().max())
            row["ok"] = bool(torch.allclose(o, ref, rtol=1e-6, atol=1e-6))
        elif c["kind"] == "sum":
            n = c["n"]
            x = torch.rand(n, device=dev, generator=gen)
            total = torch.zeros(1, device=dev)
            args = (np.int32(n), ptr(x), ptr(total))
            row["gk_ms"], row["torch_ms"] = pair(lambda: launch(*args), lambda: x.sum(), c["reps"], stream, WARMUPS)
            total.zero_()
            launch(*args)
            stream.synchronize()
            exact = float(x.double().sum())
            row["rel_err"] = abs(float(total) - exact) / exact
            row["torch_rel_err"] = abs(float(x.sum()) - exact) / exact
            row["ok"] = row["rel_err"] < 1e-5
        elif c["kind"] == "sgemm":
            m = c["m"]
            A = torch.rand(m, m, device=dev, generator=gen)
            B = torch.rand(m, m, device=dev, generator=gen)
            C, ref = torch.empty(m, m, device=dev), torch.empty(m, m, device=dev)
            args = (np.int32(m), np.int32(m), np.int32(m), ptr(A), ptr(B), ptr(C))
            row["gk_ms"], row["torch_ms"] = pair(lambda: launch(*args), lambda: torch.matmul(A, B, out=ref), c["reps"], stream, WARMUPS)
            rel = ((C - ref).abs() / ref.abs().clamp_min(1e-6)).max()
            row["max_rel_diff"] = float(rel)
            row["ok"] = row["max_rel_diff"] < 1e-4
        out["cases"].append(row)
    print(json.dumps(out))


main()

"""gk's HGEMM against torch.matmul (cuBLAS), timed the same way in one process on one GPU
(bench/hgemm.mjs writes the job): gk's kernel is loaded from its cached cubin with CuPy and
launched on PyTorch's tensors, on PyTorch's current stream; each side is timed with CUDA events
around `reps` back-to-back launches after 3 warm-ups, in alternating rounds, and the median
round is kept. Prints one JSON object on stdout.

  gk      C (f32, M x N) = A (M x K) x B^T, B given N x K, both f16 or bf16 (examples/hgemm.gk)
  torch   torch.matmul(A, B.t(), out=R), R in the input type (cuBLAS, f32 accumulation)

gk's C is checked against the product in f64 of the same inputs: the largest error relative to
the sum of |a| |b| of the element's products, below 1e-4 (K/16 mma steps, each within a few f32 ulp of that sum).
"""
import json
import sys

import numpy as np
import torch
import cupy as cp

from torch_timing import pair, ptr

# Each side's launches before it is timed, in every round.
WARMUPS = 3


def check(C, A, B):
    """Max over a sample of rows of |C - A B^T| / (|A| |B|^T), in f64."""
    rows = torch.arange(0, A.shape[0], 61, device=A.device)
    a, b = A[rows].double(), B.double()
    exact = a @ b.t()
    scale = a.abs() @ b.abs().t()
    return float(((C[rows].double() - exact).abs() / scale.clamp_min(1e-300)).max())


def main():
    job = json.load(open(sys.argv[1]))
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
        m = c["m"]
        dtype = torch.float16 if c["dtype"] == "f16" else torch.bfloat16
        A = (torch.rand(m, m, device=dev, generator=gen) * 2 - 1).to(dtype)
        B = (torch.rand(m, m, device=dev, generator=gen) * 2 - 1).to(dtype)
        C = torch.empty(m, m, device=dev, dtype=torch.float32)
        R = torch.empty(m, m, device=dev, dtype=dtype)
        args = (np.int32(m), np.int32(m), np.int32(m), ptr(A), ptr(B), ptr(C), np.bool_(c["dtype"] == "bf16"))

        def gk():
            with cstream:
                fn(grid, block, args)

        row = {"name": c["name"]}
        row["gk_ms"], row["torch_ms"] = pair(gk, lambda: torch.matmul(A, B.t(), out=R), c["reps"], stream, WARMUPS)
        C.zero_()
        gk()
        stream.synchronize()
        row["max_rel_err"] = check(C, A, B)
        row["torch_max_rel_err"] = check(R.float(), A, B)
        row["ok"] = row["max_rel_err"] < 1e-4
        out["cases"].append(row)
        del A, B, C, R
        torch.cuda.empty_cache()
    print(json.dumps(out))


main()

"""gk's HGEMM kernels against torch.matmul (cuBLAS), timed the same way in one process on one GPU
(bench/hgemm.mjs writes the job): each gk kernel is loaded from its cached cubin with CuPy and
launched on PyTorch's tensors, on PyTorch's current stream; each side is timed with CUDA events
around `reps` back-to-back launches after 3 warm-ups, in alternating rounds (cuBLAS and every
kernel, ROUNDS times), and the median round is kept. Each round takes them in its own order (a
shuffle seeded by the round), so that no kernel is always the one timed right after cuBLAS:
identical kernels (the same PTX), one timed right after cuBLAS in every round and one later,
differed by 4-8% at 8192 in two runs (2026-11-29; the same at 4096). Prints one JSON object on
stdout.

  gk      C (f32, M x N) = A (M x K) x B^T, B given N x K, both f16 or bf16; arguments
          (M, N, K, A, B, C)
  torch   torch.matmul(A, B.t(), out=R), R in the input type (cuBLAS, f32 accumulation)
  CUTLASS where the job names a build of hgemm_cutlass.cu's library ("cutlass"): each of its
          configurations (CUTLASS 2.x's sm80 mma.sync GEMM) on the same A, B and C as gk's,
          launched through ctypes on the same stream, timed and checked as a gk kernel is

Each gk C is poisoned (NaN) before its checked run, then checked against the product in f64 of
the same inputs: the largest error relative to the sum of |a| |b| of the element's products,
below 1e-4 (K/16 mma steps, each within a few f32 ulp of that sum); a NaN left fails.

  python3 hgemm_peers.py job.json                      times the job's mmaPeak kernels (the tensor
                                                       cores' rate without global memory), then
                                                       every case
  python3 hgemm_peers.py job.json --profile CASE KERN  for ncu: 2 warm-up launches of gk kernel
                                                       KERN and cuBLAS, then one of each
"""
import ctypes
import json
import sys

import numpy as np
import torch
import cupy as cp

from torch_timing import ROUNDS, ptr, timed


def check(C, A, B):
    """Max over a sample of rows of |C - A B^T| / (|A| |B|^T), in f64 (None where C has a NaN)."""
    rows = torch.arange(0, A.shape[0], 61, device=A.device)
    a, b = A[rows].double(), B.double()
    exact = a @ b.t()
    scale = a.abs() @ b.abs().t()
    err = (C[rows].double() - exact).abs() / scale.clamp_min(1e-300)
    if torch.isnan(err).any():
        return None
    return float(err.max())


def launcher(modules, v, m, A, B, C, cstream):
    if v["cubin"] not in modules:
        modules[v["cubin"]] = cp.RawModule(path=v["cubin"])
    fn = modules[v["cubin"]].get_function(v["kernel"])
    grid, block = tuple(v["grid"]), tuple(v["block"])
    args = (np.int32(m), np.int32(m), np.int32(m), ptr(A), ptr(B), ptr(C))
    # Shared arrays past 48 KB lie in dynamic shared memory (gk lifts them): the kernel opts in
    # to that much and every launch gives it.
    shared = v.get("shared", 0)
    if shared > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = shared

    def run():
        with cstream:
            fn(grid, block, args, shared_mem=shared)

    return run


def cutlass_library(path):
    """hgemm_cutlass.cu's C API from its shared library, and its configurations' names and kernels."""
    lib = ctypes.CDLL(path)
    lib.hgemm_cutlass_name.restype = ctypes.c_char_p
    lib.hgemm_cutlass_run.restype = ctypes.c_char_p
    lib.hgemm_cutlass_run.argtypes = [ctypes.c_int] * 5 + [ctypes.c_void_p] * 4
    configs = []
    for i in range(lib.hgemm_cutlass_count()):
        info = (ctypes.c_int * 4)()
        lib.hgemm_cutlass_info(i, 0, info)
        configs.append({"name": lib.hgemm_cutlass_name(i).decode(), "regs": info[0], "shared": info[1], "threads": info[2], "local": info[3]})
    return lib, configs


def cutlass_launcher(lib, i, c, A, B, C, stream):
    m, bf16 = c["m"], int(c["dtype"] == "bf16")
    args = (i, bf16, m, m, m, A.data_ptr(), B.data_ptr(), C.data_ptr(), stream.cuda_stream)

    def run():
        err = lib.hgemm_cutlass_run(*args)
        if err is not None:
            raise RuntimeError(f"CUTLASS configuration {i}: {err.decode()}")

    return run


def peaks(jobs, modules, dev, gen, stream, cstream):
    """Milliseconds a launch of each mmaPeak kernel (args iters, X: 2048 words of random halves, C: a
    float a thread), the median of ROUNDS rounds of 3 launches after one warm-up."""
    X = ((torch.rand(4096, device=dev, generator=gen) * 2 - 1).to(torch.float16)).view(torch.int32)
    out = []
    for p in jobs:
        if p["cubin"] not in modules:
            modules[p["cubin"]] = cp.RawModule(path=p["cubin"])
        fn = modules[p["cubin"]].get_function(p["kernel"])
        C = torch.empty(p["grid"][0] * p["block"][0], device=dev, dtype=torch.float32)
        args = (np.int32(p["iters"]), ptr(X), ptr(C))

        def run():
            with cstream:
                fn(tuple(p["grid"]), tuple(p["block"]), args)

        out.append({"name": p["name"], "ms": float(np.median([timed(run, 3, stream, 1) for _ in range(ROUNDS)]))})
    return out


def inputs(c, dev, gen):
    m = c["m"]
    dtype = torch.float16 if c["dtype"] == "f16" else torch.bfloat16
    A = (torch.rand(m, m, device=dev, generator=gen) * 2 - 1).to(dtype)
    B = (torch.rand(m, m, device=dev, generator=gen) * 2 - 1).to(dtype)
    C = torch.empty(m, m, device=dev, dtype=torch.float32)
    R = torch.empty(m, m, device=dev, dtype=dtype)
    return A, B, C, R


def main():
    job = json.load(open(sys.argv[1]))
    dev = torch.device("cuda")
    stream = torch.cuda.current_stream()
    cstream = cp.cuda.ExternalStream(stream.cuda_stream)
    gen = torch.Generator(device=dev).manual_seed(1)
    modules = {}
    if len(sys.argv) > 2 and sys.argv[2] == "--profile":
        c = job["cases"][int(sys.argv[3])]
        A, B, C, R = inputs(c, dev, gen)
        gk = launcher(modules, c["variants"][int(sys.argv[4])], c["m"], A, B, C, cstream)
        for _ in range(3):
            gk()
            torch.matmul(A, B.t(), out=R)
        stream.synchronize()
        return
    out = {"torch": torch.__version__, "cupy": cp.__version__, "device": torch.cuda.get_device_name(), "peaks": peaks(job.get("peaks", []), modules, dev, gen, stream, cstream), "cases": []}
    lib, configs = None, []
    if job.get("cutlass"):
        # A CUTLASS library that does not load or launch leaves its rows out, saying why.
        try:
            lib, configs = cutlass_library(job["cutlass"])
            c = job["cases"][0]
            A, B, C, R = inputs(c, dev, gen)
            for i in range(len(configs)):
                cutlass_launcher(lib, i, c, A, B, C, stream)()
            stream.synchronize()
            del A, B, C, R
        except Exception as e:
            out["cutlass_error"] = str(e).split("\n")[0]
            lib, configs = None, []
    out["cutlass"] = configs
    for c in job["cases"]:
        A, B, C, R = inputs(c, dev, gen)
        peer = lambda: torch.matmul(A, B.t(), out=R)
        gks = [launcher(modules, v, c["m"], A, B, C, cstream) for v in c["variants"]]
        gks += [cutlass_launcher(lib, i, c, A, B, C, stream) for i in range(len(configs))]
        times = [[] for _ in gks]
        torch_times = []
        sides = [peer] + gks
        for r in range(ROUNDS):
            for i in np.random.default_rng(r).permutation(len(sides)):
                t = timed(sides[i], c["reps"], stream, 3)
                (torch_times if i == 0 else times[i - 1]).append(t)
        row = {"name": c["name"], "torch_ms": float(np.median(torch_times)), "torch_max_rel_err": check(R.float(), A, B), "variants": []}
        for v, gk, t in zip(c["variants"] + configs, gks, times):
            C.fill_(float("nan"))
            gk()
            stream.synchronize()
            err = check(C, A, B)
            row["variants"].append({"name": v["name"], "gk_ms": float(np.median(t)), "max_rel_err": err, "ok": err is not None and err < 1e-4})
        out["cases"].append(row)
        del A, B, C, R
        torch.cuda.empty_cache()
    print(json.dumps(out))


main()

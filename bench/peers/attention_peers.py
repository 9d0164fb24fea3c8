"""gk's flash-attention kernels (examples/flash_attention.gk) against PyTorch's
scaled_dot_product_attention, timed the same way in one process on one GPU (bench/attention.mjs
writes the job): each gk kernel is loaded from its cached cubin with CuPy and launched on
PyTorch's tensors, on PyTorch's current stream; both sides are timed with CUDA events around
`reps` back-to-back launches after 3 warm-ups, in alternating rounds, and the median round is
kept. Prints one JSON object on stdout.

  gk      O = softmax(Q K^T / sqrt(D)) V, Q K V O of shape (B, H, S, D), f16 or bf16; arguments
          (S, scale, Q, K, V, O), block 128, the grid the job gives; each case may time several
          gk kernels (the example's, and bench/attention_tiles.gk's tilings)
  torch   scaled_dot_product_attention(Q, K, V, is_causal=causal): as PyTorch picks its
          backend ("sdpa"; cuDNN's on the H200), and each backend forced through
          torch.nn.attention.sdpa_kernel: "fa2" (FLASH_ATTENTION, FlashAttention-2's sm80 code,
          mma.sync), "mem-efficient" (EFFICIENT_ATTENTION, CUTLASS's kernels, mma.sync) and
          "cudnn" (CUDNN_ATTENTION); a backend that refuses the case is reported with its
          error. The CUDA kernels each one launches are named (torch.profiler, one call).

gk's O is poisoned (NaN) before its checked run; every output is checked against the f64
attention of the same inputs over the first two heads: ||O - ref|| / ||ref||, below 2e-3 for
f16 and 1e-2 for bf16 (P and O are rounded to halves), and no NaN.

  python3 attention_peers.py job.json                 times every case
  python3 attention_peers.py job.json --profile CASE [I]  for ncu: 2 warm-up launches of the
                                                          case's gk kernel I (0: the first) and
                                                          SDPA, then one of each
  python3 attention_peers.py job.json --profile-all CASE I,J,..  for ncu --profile-from-start
                                                          off: warm-ups of gk kernels I, J, ..
                                                          and of every backend, then one launch
                                                          of each between cudaProfilerStart and
                                                          cudaProfilerStop
"""
import json
import math
import sys

import numpy as np
import torch
import torch.nn.functional as F
import cupy as cp
from torch.nn.attention import SDPBackend, sdpa_kernel

from torch_timing import ROUNDS, ptr, timed

# The peers: (name, the backend forced, or None for PyTorch's own choice).
BACKENDS = [("sdpa", None), ("fa2", SDPBackend.FLASH_ATTENTION), ("mem-efficient", SDPBackend.EFFICIENT_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)]


def reference(q, k, v, causal):
    q, k, v = (x[:1, :2].double() for x in (q, k, v))
    s = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def rel_err(o, ref):
    o = o[:1, :2].double()
    if torch.isnan(o).any():
        return None
    return float((o - ref).norm() / ref.norm())


def setup(c, dev, gen, modules, cstream):
    b, h, s, d = c["shape"]
    dtype = torch.float16 if c["dtype"] == "f16" else torch.bfloat16
    q, k, v = ((torch.randn(b, h, s, d, device=dev, generator=gen)).to(dtype) for _ in range(3))
    o = torch.empty(b, h, s, d, device=dev, dtype=dtype)
    args = (np.int32(s), np.float32(1 / math.sqrt(d)), ptr(q), ptr(k), ptr(v), ptr(o))
    gks = []
    for var in c["variants"]:
        if var["cubin"] not in modules:
            modules[var["cubin"]] = cp.RawModule(path=var["cubin"])
        fn = modules[var["cubin"]].get_function(var["kernel"])
        gks.append(launcher(fn, tuple(var["grid"]), args, cstream, var.get("shared", 0)))
    return q, k, v, o, gks, lambda: F.scaled_dot_product_attention(q, k, v, is_causal=c["causal"])


def forced(backend, fn):
    """fn, run with SDPA restricted to `backend` (None: PyTorch's choice)."""
    if backend is None:
        return fn

    def run():
        with sdpa_kernel([backend]):
            return fn()

    return run


def usable(backend, fn):
    """None where fn runs under `backend`, or the first line of its error."""
    try:
        forced(backend, fn)()
        torch.cuda.synchronize()
        return None
    except RuntimeError as e:
        return str(e).strip().split("\n")[0][:200]


def kernels(fn):
    """The names of the CUDA kernels one call of fn launches (torch.profiler)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    names = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in names:
            names.append(e.name)
    return names


def launcher(fn, grid, args, cstream, shared):
    # Shared arrays past 48 KB lie in dynamic shared memory (gk lifts them): the kernel opts in
    # to that much and every launch gives it.
    if shared > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = shared

    def run():
        with cstream:
            fn(grid, (128, 1, 1), args, shared_mem=shared)

    return run


def main():
    job = json.load(open(sys.argv[1]))
    dev = torch.device("cuda")
    stream = torch.cuda.current_stream()
    cstream = cp.cuda.ExternalStream(stream.cuda_stream)
    gen = torch.Generator(device=dev).manual_seed(1)
    modules = {}
    if len(sys.argv) > 2 and sys.argv[2] == "--profile":
        _, _, _, _, gks, peer = setup(job["cases"][int(sys.argv[3])], dev, gen, modules, cstream)
        gk = gks[int(sys.argv[4]) if len(sys.argv) > 4 else 0]
        for _ in range(3):
            gk()
            peer()
        stream.synchronize()
        return
    if len(sys.argv) > 2 and sys.argv[2] == "--profile-all":
        _, _, _, _, gks, peer = setup(job["cases"][int(sys.argv[3])], dev, gen, modules, cstream)
        runs = [gks[int(i)] for i in sys.argv[4].split(",")]
        runs += [forced(backend, peer) for _, backend in BACKENDS[1:] if usable(backend, peer) is None]
        for _ in range(2):
            for run in runs:
                run()
        stream.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        for run in runs:
            run()
        stream.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
        return
    out = {"torch": torch.__version__, "cupy": cp.__version__, "device": torch.cuda.get_device_name(), "cases": []}
    for c in job["cases"]:
        q, k, v, o, gks, peer = setup(c, dev, gen, modules, cstream)
        ref = reference(q, k, v, c["causal"])
        bound = 2e-3 if c["dtype"] == "f16" else 1e-2
        peers = [(name, backend, usable(backend, peer)) for name, backend in BACKENDS]
        times = [[] for _ in gks]
        p = {name: [] for name, _, error in peers if error is None}
        for _ in range(ROUNDS):
            for name, backend, error in peers:
                if error is None:
                    # The backend is forced around the timed calls, not in each (no Python in the loop).
                    if backend is None:
                        p[name].append(timed(peer, c["reps"], stream, 3))
                    else:
                        with sdpa_kernel([backend]):
                            p[name].append(timed(peer, c["reps"], stream, 3))
            for i, gk in enumerate(gks):
                times[i].append(timed(gk, c["reps"], stream, 3))
        row = {"name": c["name"], "torch_ms": float(np.median(p["sdpa"])), "peers": {}, "variants": []}
        for name, backend, error in peers:
            if error is not None:
                row["peers"][name] = {"error": error}
                continue
            run = forced(backend, peer)
            err = rel_err(run(), ref)
            row["peers"][name] = {"ms": float(np.median(p[name])), "rel_err": err, "ok": err is not None and err < bound}
        row["torch_rel_err"] = row["peers"]["sdpa"]["rel_err"]
        for var, gk, t in zip(c["variants"], gks, times):
            o.fill_(float("nan"))
            gk()
            stream.synchronize()
            err = rel_err(o, ref)
            row["variants"].append({"name": var["name"], "gk_ms": float(np.median(t)), "rel_err": err, "ok": err is not None and err < bound})
        out["cases"].append(row)
        del q, k, v, o, ref
        torch.cuda.empty_cache()
    # The kernels each backend launches, named after all the timing (the profiler stays out of it).
    for c, row in zip(job["cases"], out["cases"]):
        b, h, s, d = c["shape"]
        dtype = torch.float16 if c["dtype"] == "f16" else torch.bfloat16
        q, k, v = (torch.randn(b, h, s, d, device=dev, generator=gen).to(dtype) for _ in range(3))
        for name, backend in BACKENDS:
            if "error" not in row["peers"][name]:
                row["peers"][name]["kernels"] = kernels(forced(backend, lambda: F.scaled_dot_product_attention(q, k, v, is_causal=c["causal"])))
        del q, k, v
    print(json.dumps(out))


main()

"""Timing a gk kernel and its PyTorch peer the same way, shared by the peers that launch gk's
cubins on PyTorch's tensors (torch_vectors.py, hgemm_peers.py): each side runs `warmups` times,
then `reps` times back to back between two CUDA events on one stream; `pair` alternates the two
sides for ROUNDS rounds and keeps each side's median round, in milliseconds per launch.
"""
import numpy as np
import torch

ROUNDS = 5


def timed(fn, reps, stream, warmups):
    """Milliseconds per call of `fn` over `reps` back-to-back calls on `stream`, after `warmups` calls."""
    for _ in range(warmups):
        fn()
    stream.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(stream)
    for _ in range(reps):
        fn()
    end.record(stream)
    end.synchronize()
    return start.elapsed_time(end) / reps


def pair(gk, peer, reps, stream, warmups):
    """Median over alternating rounds of the gk kernel's and the peer's milliseconds per launch."""
    g, p = [], []
    for _ in range(ROUNDS):
        g.append(timed(gk, reps, stream, warmups))
        p.append(timed(peer, reps, stream, warmups))
    return float(np.median(g)), float(np.median(p))


def ptr(t):
    """A tensor's device address, as a kernel's pointer argument through CuPy."""
    return np.uint64(t.data_ptr())

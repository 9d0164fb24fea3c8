"""Issue 23's laboratory: bench/issue23_lab.cu's variants of the scan and the reduction, built
with NVRTC through CuPy and timed beside torch.cumsum / torch.sum / torch.max / a device copy in
one process (CUDA events around REPS back-to-back launches, the median of ROUNDS rounds, as
bench/peers/stdlib_peers.py times the peers). Every output is checked (the scan against an f64
or int64 cumsum, the reductions against torch's) except the variants that leave a part out on
purpose (no look-back, copy only), marked "-". Also records the scan's timeline (globaltimer at
each tile's phase boundaries) and summarizes it. Writes lab.json and timeline.npy into $OUT
(else bench/results/).

  python3 bench/issue23_lab.py [scan] [reduce] [timeline]      (all three without arguments)
  python3 bench/issue23_lab.py scan2 timeline2                 (batch 4: status words a line apart, with the rest)
  python3 bench/issue23_lab.py ncu                             (one launch of each, for ncu -k)
"""
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", os.path.join(HERE, "results"))
os.makedirs(OUT, exist_ok=True)
N = int(os.environ.get("LAB_N", 1 << 26))  # LAB_N: a smaller size, to try the script
ROUNDS = 5
REPS = 10
SMS = torch.cuda.get_device_properties(0).multi_processor_count
args = sys.argv[1:] or ["scan", "reduce", "timeline"]
results = {"device": torch.cuda.get_device_name(0), "sms": SMS, "rows": []}


def save():
    with open(os.path.join(OUT, "lab.json"), "w") as f:
        json.dump(results, f, indent=1)


def row(**r):
    results["rows"].append(r)
    print("  " + " | ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()), flush=True)
    save()


def timed(fn, reps=REPS, event=lambda: cp.cuda.Event(), elapsed=cp.cuda.get_elapsed_time):
    """Ms per call of fn: the median of ROUNDS rounds of reps calls between two events (CuPy's; torch's for the peers)."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(ROUNDS):
        s = event()
        e = event()
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        e.synchronize()
        out.append(elapsed(s, e) / reps)
    return float(np.median(out))


def timed_torch(fn, reps=REPS):
    return timed(fn, reps, lambda: torch.cuda.Event(enable_timing=True), lambda s, e: s.elapsed_time(e))


# (name, template arguments, what it checks)
SCAN = []
CT = {"f32": "float", "i32": "int"}


def sv(elem, block=512, items=32, minb=2, mode=0, lh=0, sh=0, spread=1, backoff=0, ticket=1, tl=0):
    return f"scanv<{CT[elem]},{block},{items},{minb},{mode},{lh},{sh},{spread},{backoff},{ticket},{tl}>"


def sp(elem, block, items, minb, lh=0, sh=0, kind="scanPipe"):
    return f"{kind}<{CT[elem]},{block},{items},{minb},{lh},{sh}>"


def p2(elem, block, items, minb, lh=0, sh=0, ahead=0):
    return ("pipe", block, items, minb, f"scanPipe2<{CT[elem]},{block},{items},{minb},{lh},{sh},{ahead}>")


for elem in ["f32", "i32"]:
    SCAN += [
        (elem, "base 512x32 m2 (scanPacked's twin)", sv(elem), True),
        (elem, "no look-back", sv(elem, mode=1), False),
        (elem, "copy through registers", sv(elem, mode=2), False),
        (elem, "aggregate first", sv(elem, mode=3), True),
        (elem, "pipe2 512x16 m2", p2(elem, 512, 16, 2), True),
        (elem, "pipe 512x16 m2", ("pipe", 512, 16, 2, sp(elem, 512, 16, 2)), True),
    ]
SCAN += [
    ("f32", "loads .cs", sv("f32", lh=1), True),
    ("f32", "loads .nc L2::256B", sv("f32", lh=2), True),
    ("f32", "loads L2::256B", sv("f32", lh=3), True),
    ("f32", "stores .cs", sv("f32", sh=1), True),
    ("f32", "loads .nc L2::256B + stores .cs", sv("f32", lh=2, sh=1), True),
    ("f32", "status word a line each", sv("f32", spread=16), True),
    ("f32", "poll backoff 100 ns", sv("f32", backoff=100), True),
    ("f32", "tile = blockIdx.x", sv("f32", ticket=0), True),
    ("f32", "1024x32 m1", sv("f32", block=1024, minb=1), True),
    ("f32", "256x32 m4", sv("f32", block=256, minb=4), True),
    ("f32", "512x16 m4", sv("f32", items=16, minb=4), True),
    ("f32", "copy through registers, loads .nc L2::256B", sv("f32", mode=2, lh=2), False),
    ("f32", "copy through registers 256x32 m4", sv("f32", mode=2, block=256, minb=4), False),
    ("f32", "no look-back, loads .nc L2::256B + stores .cs", sv("f32", mode=1, lh=2, sh=1), False),
    ("f32", "pipe2 ahead 512x16 m2", p2("f32", 512, 16, 2, ahead=1), True),
    ("i32", "pipe2 ahead 512x16 m2", p2("i32", 512, 16, 2, ahead=1), True),
    ("f32", "pipe2 ahead 256x16 m4", p2("f32", 256, 16, 4, ahead=1), True),
    ("f32", "pipe2 ahead 512x12 m2", p2("f32", 512, 12, 2, ahead=1), True),
    ("f32", "pipe2 256x16 m4", p2("f32", 256, 16, 4), True),
    ("f32", "pipe2 512x12 m2", p2("f32", 512, 12, 2), True),
    ("f32", "pipe2 1024x16 m1", p2("f32", 1024, 16, 1), True),
    ("f32", "pipe2 512x8 m4", p2("f32", 512, 8, 4), True),
    ("f32", "pipe2 512x16 m2 loads .nc L2::256B", p2("f32", 512, 16, 2, lh=2), True),
    ("f32", "pipe2 512x16 m2 stores .cs", p2("f32", 512, 16, 2, sh=1), True),
    ("f32", "pipe2 512x16 m2 loads .nc L2::256B + stores .cs", p2("f32", 512, 16, 2, lh=2, sh=1), True),
    ("f32", "pipe 256x16 m4", ("pipe", 256, 16, 4, sp("f32", 256, 16, 4)), True),
    ("f32", "pipe 1024x16 m1", ("pipe", 1024, 16, 1, sp("f32", 1024, 16, 1)), True),
    ("f32", "pipe 512x8 m4", ("pipe", 512, 8, 4, sp("f32", 512, 8, 4)), True),
    ("f32", "pipe 512x16 m2 loads .nc L2::256B", ("pipe", 512, 16, 2, sp("f32", 512, 16, 2, lh=2)), True),
    ("f32", "pipe 512x16 m2 stores .cs", ("pipe", 512, 16, 2, sp("f32", 512, 16, 2, sh=1)), True),
]
TIMELINE = [("f32", "timeline base", sv("f32", tl=1)), ("f32", "timeline no look-back", sv("f32", mode=1, tl=1))]
# Batch 4 ("scan2", "timeline2"): the status words a line apart (batch 3's finding) with the other
# changes that measured faster alone, and spreads between.
SCAN2 = [
    ("f32", "base 512x32 m2", sv("f32"), True),
    ("f32", "spread 16", sv("f32", spread=16), True),
    ("i32", "spread 16", sv("i32", spread=16), True),
    ("f32", "spread 4", sv("f32", spread=4), True),
    ("f32", "spread 8", sv("f32", spread=8), True),
    ("f32", "spread 32", sv("f32", spread=32), True),
    ("f32", "spread 16, 1024x32 m1", sv("f32", spread=16, block=1024, minb=1), True),
    ("f32", "spread 16, loads .nc L2::256B + stores .cs", sv("f32", spread=16, lh=2, sh=1), True),
    ("f32", "spread 16, loads .cs", sv("f32", spread=16, lh=1), True),
    ("f32", "spread 16, stores .cs", sv("f32", spread=16, sh=1), True),
    ("f32", "spread 16, aggregate first", sv("f32", spread=16, mode=3), True),
    ("f32", "spread 16, backoff 100 ns", sv("f32", spread=16, backoff=100), True),
    ("f32", "spread 16, tile = blockIdx.x", sv("f32", spread=16, ticket=0), True),
    ("f32", "spread 16, 256x32 m4", sv("f32", spread=16, block=256, minb=4), True),
    ("f32", "spread 16, 512x16 m4", sv("f32", spread=16, items=16, minb=4), True),
    ("f32", "spread 16, 1024x32 m1, loads .nc L2::256B + stores .cs", sv("f32", spread=16, block=1024, minb=1, lh=2, sh=1), True),
]
TIMELINE2 = [("f32", "timeline spread 16", sv("f32", spread=16, tl=1))]

RED = []
for op in [0, 2]:
    RED += [(op, 256, 2048, 1, 0, 0, "library (256 x 2048 blocks)")]
for op in [0, 2]:
    for block, per_sm in [(256, 8), (512, 4), (1024, 2), (512, 2)]:
        for unroll in [1, 4, 8]:
            RED.append((op, block, per_sm * SMS, unroll, 0, 1, f"{block} x {per_sm}/SM u{unroll}"))
for op in [0]:
    for lh in [1, 2, 3]:
        RED.append((op, 512, 4 * SMS, 4, lh, 1, f"512 x 4/SM u4 LH{lh}"))
        RED.append((op, 256, 8 * SMS, 8, lh, 1, f"256 x 8/SM u8 LH{lh}"))
    RED.append((op, 256, 2048, 4, 0, 1, "256 x 2048 blocks u4 fold1"))
    RED.append((op, 256, 2048, 1, 0, 1, "256 x 2048 blocks fold1"))
    RED.append((op, 256, 16 * SMS, 4, 0, 1, "256 x 16/SM (two waves) u4"))


def rname(op, block, unroll, lh, fold):
    return f"reducev<float,{op},{block},{unroll},{lh},{fold}>"


# Persistent kernels last: a run cut short (a hang) keeps the others.
SCAN.sort(key=lambda v: isinstance(v[2], tuple))
names = set()
if "scan" in args:
    names |= {t if isinstance(t, str) else t[4] for (_, _, t, *_r) in SCAN}
if "timeline" in args:
    names |= {t for (_, _, t) in TIMELINE}
if "scan2" in args:
    names |= {t for (_, _, t, _c) in SCAN2}
if "timeline2" in args:
    names |= {t for (_, _, t) in TIMELINE2}
if "reduce" in args:
    names |= {rname(op, b, u, lh, fo) for (op, b, g, u, lh, fo, _) in RED}
if "ncu" in args:
    names |= {sv("f32"), rname(0, 256, 1, 0, 0), p2("f32", 512, 16, 2)[4]}
names = sorted(names)
def declaration(nm):
    """The explicit instantiation of kernel nm (its template arguments spelled out)."""
    T = "int" if "<int" in nm else "float"
    if nm.startswith("scanv"):
        return f"template __global__ void {nm}(int, const {T}*, {T}*, u64*, u32*, u32, u32, u64*);"
    if nm.startswith("scanPipe"):
        return f"template __global__ void {nm}(int, const {T}*, {T}*, u64*, u32*, u32, u32, int);"
    return f"template __global__ void {nm}(int, const float*, float*, float*, u32*);"


def mangled_prefix(nm):
    """The Itanium mangling of nm up to its parameter list: _Z5scanvIfLi512E...E."""
    base, targs = nm[: nm.index("<")], nm[nm.index("<") + 1 : -1].split(",")
    enc = "".join("f" if a == "float" else "i" if a == "int" else f"Li{a}E" for a in targs)
    return f"_Z{len(base)}{base}I{enc}E"


# Built with nvcc -O3 (as gk builds its kernels) into a cubin that CuPy loads.
t0 = time.time()
build = os.path.join(OUT, "lab-build")
os.makedirs(build, exist_ok=True)
with open(os.path.join(build, "inst.cu"), "w") as f:
    f.write(f'#include "{os.path.join(HERE, "issue23_lab.cu")}"\n' + "\n".join(declaration(nm) for nm in names) + "\n")
cubin = os.path.join(build, "lab.cubin")
subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", cubin, os.path.join(build, "inst.cu")], check=True, stdout=open(os.path.join(build, "ptxas.txt"), "w"), stderr=subprocess.STDOUT)
symbols = re.findall(rb"_Z[0-9A-Za-z_]+", open(cubin, "rb").read())
mod = cp.RawModule(path=cubin)
fns = {}
for nm in names:
    pre = mangled_prefix(nm).encode()
    hit = sorted({s for s in symbols if s.startswith(pre)}, key=len)
    if not hit:
        raise SystemExit(f"no symbol for {nm} ({pre})")
    fns[nm] = mod.get_function(hit[0].decode())
print(f"built {len(names)} kernels in {time.time() - t0:.1f} s", flush=True)
results["build_s"] = time.time() - t0

g = torch.Generator(device="cuda")
g.manual_seed(1)
data = {
    "f32": torch.rand(N, device="cuda", generator=g),
    "i32": torch.randint(-1000, 1000, (N,), device="cuda", dtype=torch.int32, generator=g),
}
ys = {e: torch.empty_like(data[e]) for e in data}
refs = {}
words = cp.zeros(N // 2048 * 16 + 64, dtype=cp.uint64)
ticket = cp.zeros(1, dtype=cp.uint32)
state = {"epoch": 0, "issued": 0}
tl = cp.zeros(N // 2048 * 8, dtype=cp.uint64)


def cpv(t):
    return cp.from_dlpack(t)


def launcher(elem, tmpl):
    x, y = cpv(data[elem]), cpv(ys[elem])
    if isinstance(tmpl, tuple):
        _, block, items, minb, nm = tmpl
        tiles = N // (block * items)
        grid = SMS * minb
        f = fns[nm]

        def go():
            state["epoch"] = (state["epoch"] % (2**30 - 2)) + 1
            base = state["issued"]
            state["issued"] = (base + tiles + grid) % 2**32
            f((grid,), (block,), (np.int32(N), x, y, words, ticket, np.uint32(state["epoch"]), np.uint32(base), np.int32(tiles)))
        return go
    parts = tmpl[tmpl.index("<") + 1:-1].split(",")
    block, items, drawn = int(parts[1]), int(parts[2]), int(parts[9])
    tiles = N // (block * items)
    f = fns[tmpl]

    def go():
        state["epoch"] = (state["epoch"] % (2**30 - 2)) + 1
        base = state["issued"]
        state["issued"] = (base + tiles * drawn) % 2**32
        f((tiles,), (block,), (np.int32(N), x, y, words, ticket, np.uint32(state["epoch"]), np.uint32(base), tl))
    return go


def check_scan(elem):
    if elem not in refs:
        x = data[elem]
        refs[elem] = torch.cumsum(x.double(), 0) if elem == "f32" else torch.cumsum(x.long(), 0).to(torch.int32)
    ref, y = refs[elem], ys[elem]
    if elem == "f32":
        tol = 1e-5 * float(ref[-1].abs())
        bad = (y.double() - ref).abs() > tol
    else:
        bad = y != ref
    cnt = int(bad.sum())
    return "ok" if cnt == 0 else f"{cnt} wrong, first {int(bad.nonzero()[0])}"


def peers_scan():
    for elem in ["f32", "i32"]:
        x = data[elem]
        kw = {} if elem == "f32" else {"dtype": torch.int32}
        row(part="scan", elem=elem, variant="torch.cumsum", ms=timed_torch(lambda: torch.cumsum(x, 0, **kw)), check="peer")
    y = torch.empty_like(data["f32"])
    row(part="scan", elem="f32", variant="torch copy_", ms=timed_torch(lambda: y.copy_(data["f32"])), check="peer")


def run_scan(variants):
    peers_scan()
    for elem, what, tmpl, checked in variants:
        try:
            go = launcher(elem, tmpl)
            ms = timed(go)
            ys[elem].fill_(-7)
            go()
            torch.cuda.synchronize()
            chk = check_scan(elem) if checked else "-"
            row(part="scan", elem=elem, variant=what, ms=ms, gbs=8 * N / ms / 1e6, check=chk)
        except Exception as e:  # a variant that fails is a row, not the end of the run
            row(part="scan", elem=elem, variant=what, ms=float("nan"), check=f"failed: {str(e)[:200]}")
    peers_scan()


def run_reduce():
    x = data["f32"]
    row(part="reduce", variant="torch.sum", ms=timed_torch(lambda: x.sum()), check="peer")
    row(part="reduce", variant="torch.max", ms=timed_torch(lambda: x.max()), check="peer")
    want = {0: float(x.double().sum()), 2: float(x.max())}
    xc = cpv(x)
    partial = cp.zeros(1 << 16, dtype=cp.float32)
    counter = cp.zeros(1, dtype=cp.uint32)
    out = cp.zeros(1, dtype=cp.float32)
    for op, block, grid, unroll, lh, fold, what in RED:
        f = fns[rname(op, block, unroll, lh, fold)]

        def go():
            f((grid,), (block,), (np.int32(N), xc, out, partial, counter))
        try:
            ms = timed(go)
            out.fill(-7)
            go()
            got = float(out.get()[0])
            ok = abs(got - want[op]) <= 1e-5 * abs(want[op]) if op == 0 else got == want[op]
            row(part="reduce", variant=("sum " if op == 0 else "max ") + what, ms=ms, gbs=4 * N / ms / 1e6, check="ok" if ok else f"{got} (expected {want[op]})")
        except Exception as e:
            row(part="reduce", variant=what, ms=float("nan"), check=f"failed: {str(e)[:200]}")
    row(part="reduce", variant="torch.sum", ms=timed_torch(lambda: x.sum()), check="peer")
    row(part="reduce", variant="torch.max", ms=timed_torch(lambda: x.max()), check="peer")


def summarize(name, a):
    """Percentiles of the phases of each tile (microseconds) and how many tiles were in each phase over time."""
    sm = (a[:, 0] >> 48).astype(np.int64)
    polls = ((a[:, 0] >> 16) & 0xFFFFFFFF).astype(np.int64)
    windows = (a[:, 0] & 0xFFFF).astype(np.int64)
    t = a[:, 1:7].astype(np.int64)
    t -= t[:, 0].min()
    us = t / 1000.0
    tk = (a[:, 7].astype(np.int64) - a[:, 1:7].astype(np.int64)[:, 0].min()) / 1000.0
    phases = {
        "start->ticket": tk - us[:, 0],
        "start->own warp loaded+scanned": us[:, 1] - us[:, 0],
        "->all warps (barrier 1)": us[:, 2] - us[:, 1],
        "->look-back done (warp 0)": us[:, 3] - us[:, 2],
        "->bases out (barrier 2)": us[:, 4] - us[:, 3],
        "->stores issued (thread 0)": us[:, 5] - us[:, 4],
        "whole tile": us[:, 5] - us[:, 0],
    }
    summ = {"name": name, "kernel_span_us": float(us[:, 5].max()), "phases_us": {}, "polls": {}, "windows": {}}
    for k, v in phases.items():
        summ["phases_us"][k] = {p: float(np.percentile(v, p)) for p in [10, 50, 90, 99]} | {"mean": float(v.mean())}
    summ["polls"] = {p: float(np.percentile(polls, p)) for p in [50, 90, 99]} | {"mean": float(polls.mean()), "max": int(polls.max())}
    summ["windows"] = {p: float(np.percentile(windows, p)) for p in [50, 90, 99]} | {"mean": float(windows.mean())}
    # Tiles in each phase, sampled every microsecond over the middle of the run.
    span = us[:, 5].max()
    grid = np.arange(0, span, 1.0)
    inphase = {}
    for i, k in enumerate(["loading", "barrier1", "lookback", "barrier2", "storing"]):
        lo, hi = us[:, i], us[:, i + 1]
        inphase[k] = [int(((lo <= s) & (s < hi)).sum()) for s in grid]
    mid = slice(len(grid) // 5, 4 * len(grid) // 5)
    summ["mean_tiles_in_phase_mid"] = {k: float(np.mean(v[mid])) for k, v in inphase.items()}
    summ["tiles_in_phase_per_us"] = inphase
    # Gaps on each SM between a tile's end and the next tile's start there (the launch of a new block).
    gaps = []
    for s in np.unique(sm):
        idx = np.where(sm == s)[0]
        st, en = np.sort(us[idx, 0]), np.sort(us[idx, 5])
        gaps += list(st[2:] - en[:-2]) if len(st) > 2 else []
    summ["sm_refill_gap_us"] = {p: float(np.percentile(gaps, p)) for p in [10, 50, 90]} if gaps else {}
    # The frontier: when tile b's look-back finished, against b (the published prefixes' speed).
    order = np.argsort(np.arange(len(a)))
    fin = us[order, 3]
    summ["lookback_done_us_at_tile"] = {str(b): float(fin[b]) for b in range(0, len(a), max(1, len(a) // 16))}
    starts = np.sort(us[:, 0])
    summ["start_us_at_rank"] = {str(r): float(starts[r]) for r in range(0, len(a), max(1, len(a) // 16))}
    diffs = np.diff(np.unique(a[:, 1:7].ravel()))
    summ["globaltimer_min_step_ns"] = int(diffs[diffs > 0].min()) if (diffs > 0).any() else None
    return summ


def run_timeline(variants):
    for elem, what, tmpl in variants:
        go = launcher(elem, tmpl)
        for _ in range(3):
            go()
        torch.cuda.synchronize()
        tl.fill(0)
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        go()
        e.record()
        e.synchronize()
        a = tl.get().reshape(-1, 8)[: N // (512 * 32)]
        np.save(os.path.join(OUT, f"timeline-{what.replace(' ', '_')}.npy"), a)
        summ = summarize(what, a)
        summ["event_ms"] = cp.cuda.get_elapsed_time(s, e)
        results.setdefault("timelines", []).append(summ)
        short = {k: v for k, v in summ.items() if k not in ("tiles_in_phase_per_us",)}
        print(json.dumps(short, indent=1), flush=True)
        save()


if "ncu" in args:
    # One launch of each, for: ncu -k regex:'scanv|DeviceScanKernel|reducev|reduce_kernel' ...
    launcher("f32", sv("f32"))()
    torch.cumsum(data["f32"], 0)
    xc = cpv(data["f32"])
    partial = cp.zeros(1 << 16, dtype=cp.float32)
    counter = cp.zeros(1, dtype=cp.uint32)
    out = cp.zeros(1, dtype=cp.float32)
    fns[rname(0, 256, 1, 0, 0)]((2048,), (256,), (np.int32(N), xc, out, partial, counter))
    data["f32"].sum()
    data["f32"].max()
    torch.cuda.synchronize()
    launcher("f32", p2("f32", 512, 16, 2))()
    torch.cuda.synchronize()
    sys.exit(0)
if "timeline" in args:
    run_timeline(TIMELINE)
if "timeline2" in args:
    run_timeline(TIMELINE2)
if "reduce" in args:
    run_reduce()
if "scan2" in args:
    run_scan(SCAN2)
if "scan" in args:
    run_scan(SCAN)
save()
print("done", flush=True)

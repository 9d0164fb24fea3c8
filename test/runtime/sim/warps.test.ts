/**
 * Warp operations on the simulator: what each computes (warps of 32 consecutive threads in
 * linear order, partial last warps, lane operands modulo 32), inside device functions and
 * loops, next to barriers; and the errors it reports (GK8014 warp divergence, GK8015 a
 * shuffle from a lane that does not exist). test/differential/warp-edge-cases.ts checks the
 * same operations against the spec's words and, on a GPU, against the GPU.
 */
import { describe, expect, it } from "vitest";
import { compileKernel } from "../../../src/runtime/sim/index.js";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`device_fn total(v: i32): i32 {
  return v + shflXor(v, 16);
}

device_kernel diverged(out: global<i32>) {
  if (laneId < 16) {
    out[threadIdx.x] = shflDown(threadIdx.x, 1);
  }
}

device_kernel exited(out: global<i32>) {
  if (threadIdx.x == 3) {
    return;
  }
  out[threadIdx.x] = total(threadIdx.x);
}

device_kernel missing(out: global<i32>) {
  out[threadIdx.x] = shflXor(threadIdx.x, 1);
}

device_kernel mixed(out: global<i32>) {
  if (threadIdx.x == 0) {
    barrier();
  } else {
    out[threadIdx.x] = shfl(1, 0);
  }
}

device_kernel shadow(out: global<i32>) {
  const laneId = 7;
  shared s: i32[warpSize];
  s[threadIdx.x % warpSize] = laneId;
  syncWarp();
  out[threadIdx.x] = s[0] + warpSize;
}

device_kernel scan(data: global<i32>) {
  shared warp_totals: i32[32];
  const t = threadIdx.x;
  let v = data[globalId.x];
  for (let d = 1; d < warpSize; d *= 2) {
    const o = shflUp(v, d);
    if (laneId >= d) {
      v += o;
    }
  }
  if (laneId == warpSize - 1) {
    warp_totals[t / warpSize] = v;
  }
  barrier();
  for (let w = 0; w < t / warpSize; w++) {
    v += warp_totals[w];
  }
  data[globalId.x] = v;
}

device_kernel lanes(out: global<i32>, votes: global<u32>) {
  const t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[t] = laneId;
  votes[t] = ballot(threadIdx.y == 1);
}
`);

const err = (f: () => unknown) => simErrorOf(p.sources, f);
const iota = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe("warp operations", () => {
  it("an inclusive scan by shflUp inside each warp, then across warps through shared memory", () => {
    const data = iota(200).map((x) => (x * 7) % 11);
    const want = data.slice();
    for (let b = 0; b < 2; b++) for (let t = 1; t < 100; t++) want[b * 100 + t] += want[b * 100 + t - 1]!;
    run(p, "scan", [2], [100], [data]);
    expect([...data]).toEqual([...want]);
  });

  it("numbers lanes by the linear thread index in the block (x fastest), in 3-D blocks too", () => {
    const out = new Int32Array(3 * 7 * 2);
    const votes = new Uint32Array(42);
    run(p, "lanes", [1], [3, 7, 2], [out, votes]);
    expect([...out]).toEqual([...iota(42)].map((t) => t % 32));
    // Thread t = x + 3y + 21z. Warp 0 (t 0..31) has y == 1 at lanes 3, 4, 5 (z == 0) and 24, 25, 26 (z == 1); warp 1 (t 32..41, z == 1, y >= 2) at none.
    const warp0 = [3, 4, 5, 24, 25, 26].reduce((m, l) => m | (1 << l), 0) >>> 0;
    expect([...votes]).toEqual([...Array(32).fill(warp0), ...Array(10).fill(0)]);
  });

  it("lets declarations shadow laneId, and warpSize size arrays", () => {
    const out = new Int32Array(40);
    run(p, "shadow", [1], [40], [out]);
    expect([...out]).toEqual(Array(40).fill(39));
  });

  it("runs kernels with warp operations on generators", () => {
    const k = compileKernel(p.ir, "scan");
    expect(k.usesWarpOps).toBe(true);
    expect(k.barrierPath).toBe("generators");
    expect(compileKernel(p.ir, "exited").usesWarpOps).toBe(true); // through total()
  });
});

describe("warp errors", () => {
  it("a warp operation that only some threads of the warp reach (GK8014)", () => {
    expect(err(() => run(p, "diverged", [1], [32], [new Int32Array(32)]))).toBe(
      "GK8014 7:24 threads of warp 0 of block (0,0,0) diverged: lane 0 (thread (0,0,0)) waits at shflDown() at line 7, but lane 16 (thread (16,0,0)) ended without reaching it (kernel 'diverged')",
    );
  });

  it("names the call that led to the warp operation when a thread of the warp returned early", () => {
    expect(err(() => run(p, "exited", [1], [32], [new Int32Array(32)]))).toBe(
      "GK8014 2:14 threads of warp 0 of block (0,0,0) diverged: lane 0 (thread (0,0,0)) waits at shflXor() at line 2 via the call of total at line 15, but lane 3 (thread (3,0,0)) ended without reaching it (kernel 'exited')",
    );
  });

  it("a thread of the warp at a barrier while the others wait at a shuffle", () => {
    expect(err(() => run(p, "mixed", [1], [32], [new Int32Array(32)]))).toBe(
      "GK8014 26:24 threads of warp 0 of block (0,0,0) diverged: lane 1 (thread (1,0,0)) waits at shfl() at line 26, but lane 0 (thread (0,0,0)) waits at barrier() at line 24 (kernel 'mixed')",
    );
  });

  it("a shuffle from a lane the partial last warp does not have (GK8015)", () => {
    expect(err(() => run(p, "missing", [1], [45], [new Int32Array(45)]))).toBe(
      "GK8015 19:22 shflXor() in lane 12 (thread (44,0,0)) of warp 1 of block (0,0,0) reads lane 13, which does not exist: the block has 45 threads, so warp 1 has lanes 0 to 12 (kernel 'missing')",
    );
    const out = new Int32Array(64);
    run(p, "missing", [1], [64], [out]);
    expect([...out]).toEqual([...iota(64)].map((t) => t ^ 1));
  });
});

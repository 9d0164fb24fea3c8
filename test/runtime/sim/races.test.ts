/**
 * The race detector (src/runtime/sim/races.ts, SimOptions.checkRaces; spec/memory-model.md):
 * each classic race is reported (GK8040) with both accesses' lines, threads and blocks, and its
 * corrected version (a barrier, an atomic, a syncWarp(), a release and an acquire) runs clean.
 */
import { describe, expect, it } from "vitest";
import { frontEnd } from "../../../src/pipeline.js";
import { simulateLaunch } from "../../../src/runtime/sim/launch.js";
import { compileKernel } from "../../../src/runtime/sim/index.js";
import { gk, run, simErrorOf } from "./helpers.js";
import { readdirSync, readFileSync } from "node:fs";

const races = { checkRaces: true } as const;
const f32s = (n: number, f: (i: number) => number = (i) => i) => Float32Array.from({ length: n }, (_, i) => f(i));

// The kernels, one racy and one corrected version of each case; bench/racecheck.mjs runs them under compute-sanitizer.
const p = gk(readFileSync("test/runtime/sim/fixtures/races.gk", "utf8"));

const race = (kernel: string, grid: number, block: number, args: Parameters<typeof run>[4]) =>
  simErrorOf(p.sources, () => run(p, kernel, [grid], [block], args, races));

describe("data races (GK8040)", () => {
  it("a reduction missing the barrier in its loop: both accesses, lines and columns, threads and blocks", () => {
    expect(race("reduce_racy", 1, 64, [f32s(64), f32s(1)])).toBe(
      "GK8040 8:18 data race on shared s[1]: thread (1,0,0) of block (0,0,0) writes it at line 8, column 18, and thread (0,0,0) of block (0,0,0) read it at line 8, column 26, with no barrier() between them (kernel 'reduce_racy')",
    );
    const out = f32s(1);
    run(p, "reduce_ok", [1], [64], [f32s(64), out], races);
    expect(out[0]).toBe(2016);
  });
  it("a histogram without atomics, and with them", () => {
    const data = Int32Array.from([1, 2, 1, 3]);
    expect(race("histogram_racy", 1, 4, [data, new Int32Array(4)])).toBe(
      "GK8040 25:3 data race on global bins[1]: thread (2,0,0) of block (0,0,0) reads it at line 25, column 3, and thread (0,0,0) of block (0,0,0) wrote it at line 25, column 3, with no barrier() between them and no release/acquire ordering them (kernel 'histogram_racy')",
    );
    const bins = new Int32Array(4);
    run(p, "histogram_ok", [2], [4], [Int32Array.from([1, 2, 1, 3, 0, 0, 1, 3]), bins], races);
    expect([...bins]).toEqual([2, 3, 1, 2]);
  });
  it("atomics on a view of a shared row (histogram256's sub-histograms): a plain read of the row before the barrier races with them", () => {
    const q = gk(`device_fn bump(h: view<u32>, b: i32) {
  atomicAdd(h, b, 1);
}
device_kernel sub_racy(out: global<u32>) {
  shared hist: u32[2][8];
  if (threadIdx.x < 16) {
    hist[threadIdx.x / 8][threadIdx.x % 8] = 0;
  }
  barrier();
  bump(hist[threadIdx.x / 32], 3);
  out[threadIdx.x] = hist[0][3];
}
device_kernel sub_ok(out: global<u32>) {
  shared hist: u32[2][8];
  if (threadIdx.x < 16) {
    hist[threadIdx.x / 8][threadIdx.x % 8] = 0;
  }
  barrier();
  bump(hist[threadIdx.x / 32], 3);
  barrier();
  out[threadIdx.x] = hist[0][3] + hist[1][3];
}
`);
    expect(simErrorOf(q.sources, () => run(q, "sub_racy", [1], [64], [new Uint32Array(64)], races))).toBe(
      "GK8040 2:3 data race on shared hist[0][3]: thread (1,0,0) of block (0,0,0) applies atomicAdd to it at line 2, column 3, and thread (0,0,0) of block (0,0,0) read it at line 11, column 22, with no barrier() between them (kernel 'sub_racy')",
    );
    const out = new Uint32Array(64);
    run(q, "sub_ok", [1], [64], [out], races);
    expect(out[0]).toBe(64);
  });
  it("a stencil reading its neighbour's shared element before the barrier, and after it", () => {
    expect(race("stencil_racy", 1, 64, [f32s(64), f32s(64)])).toMatch(
      /^GK8040 35:44 data race on shared tile\[0\]: thread \(1,0,0\) of block \(0,0,0\) reads it at line 35, column 44, and thread \(0,0,0\) of block \(0,0,0\) wrote it at line 34, column 3, with no barrier\(\) between them/,
    );
    const out = f32s(128);
    run(p, "stencil_ok", [2], [64], [f32s(128, (i) => i * i), out], races);
    expect(out[5]).toBe(25 - 16);
  });
  it("a warp-synchronous reduction without syncWarp(), and with it", () => {
    expect(race("warp_racy", 1, 32, [f32s(32), f32s(1)])).toBe(
      "GK8040 50:18 data race on shared s[1]: thread (1,0,0) of block (0,0,0) writes it at line 50, column 18, and thread (0,0,0) of block (0,0,0) read it at line 50, column 26, with no barrier() between them (kernel 'warp_racy')",
    );
    const out = f32s(1);
    run(p, "warp_ok", [1], [32], [f32s(32), out], races);
    expect(out[0]).toBe(496);
  });
  it("threads of different blocks: plain accesses race, atomics do not", () => {
    expect(race("blocks_racy", 2, 32, [new Int32Array(1)])).toMatch(
      /^GK8040 66:36 data race on global out\[0\]: thread \(0,0,0\) of block \(1,0,0\) reads it at line 66, column 36, and thread \(0,0,0\) of block \(0,0,0\) wrote it at line 66, column 27, and nothing orders them: threads of different blocks are ordered only by a release and an acquire/,
    );
    const out = new Int32Array(1);
    run(p, "blocks_ok", [4], [32], [out], races);
    expect(out[0]).toBe(6);
  });
  it("says when both writes stored the same value, which is still a race", () => {
    expect(race("same_value", 1, 2, [new Int32Array(1)])).toContain(
      "data race on global out[0]: thread (1,0,0) of block (0,0,0) writes it at line 72, column 3, and thread (0,0,0) of block (0,0,0) wrote it at line 72, column 3, with no barrier() between them and no release/acquire ordering them; both wrote the same value, which is still a race",
    );
  });
  it("a release and an acquire order blocks: storeRelease/loadAcquire, or fences around volatile accesses", () => {
    for (const k of ["handoff", "handoff_fenced"]) {
      const data = new Int32Array(1);
      run(p, k, [4], [32], [data, new Int32Array(4)], races);
      expect(data[0]).toBe(4);
    }
    // Without the fence after the volatile wait, or with a block's fence there, the flag acquires nothing.
    for (const k of ["handoff_unfenced", "handoff_block_fence"]) {
      expect(race(k, 2, 1, [new Int32Array(1), new Int32Array(2)])).toMatch(/^GK8040 \d+:\d+ data race on global data\[0\]: thread \(0,0,0\) of block \(1,0,0\) reads it/);
    }
  });
  it("follows shared scalars, views, references and arrays of vectors and structs too", () => {
    const q = gk(`struct P { a: i32, b: f32 }
device_kernel scalar(out: global<i32>) {
  shared x: i32;
  x = threadIdx.x;
  barrier();
  out[threadIdx.x] = x;
}
device_fn bump(v: view<i32>, r: inout i32) {
  v[0] += 1;
  r += 1;
}
device_kernel through_view(out: global<i32>) {
  bump(view(out, 1, 2), out[0]);
}
device_kernel through_ref(out: global<i32>) {
  bump(view(out, 2 + threadIdx.x, 1), out[0]);
}
device_kernel vectors(out: global<f32x2>, ps: global<P>) {
  out[0] = f32x2(1.0, 2.0);
  ps[1].a = 3;
}
`);
    const run1 = (k: string, args: Parameters<typeof run>[4]) => simErrorOf(q.sources, () => run(q, k, [1], [2], args, races));
    expect(run1("scalar", [new Int32Array(2)])).toMatch(/^GK8040 4:3 data race on shared x\[0\]: thread \(1,0,0\) of block \(0,0,0\) writes it at line 4, column 3, and thread \(0,0,0\)/);
    expect(run1("through_view", [new Int32Array(4)])).toMatch(/^GK8040 \d+:\d+ data race on global out\[1\]: thread \(1,0,0\) of block \(0,0,0\) reads it at line 9, column 3, and thread \(0,0,0\) of block \(0,0,0\) wrote it at line 9/);
    expect(run1("through_ref", [new Int32Array(4)])).toMatch(/^GK8040 10:3 data race on global out\[0\]: thread \(1,0,0\) of block \(0,0,0\) reads it at line 10, column 3, and thread \(0,0,0\) of block \(0,0,0\) wrote it at line 10, column 3/);
    expect(run1("vectors", [new Float32Array(2), new Uint8Array(16)])).toMatch(/^GK8040 19:3 data race on global out\[0\]: .* wrote it at line 19, column 3/);
  });
  it("a block's fence orders threads of its block", () => {
    const q = gk(`device_kernel k(data: global<i32>, flag: global<i32>) {
  if (threadIdx.x == 0) {
    data[0] = 5;
    threadfenceBlock();
    storeVolatile(flag, 0, 1);
  } else {
    while (loadVolatile(flag, 0) == 0) {}
    threadfenceBlock();
    data[threadIdx.x] = data[0];
  }
}
`);
    const data = new Int32Array(4);
    run(q, "k", [1], [4], [data, new Int32Array(1)], races);
    expect([...data]).toEqual([5, 5, 5, 5]);
  });
  it("costs nothing when off: the generated code has no trace of it, and keeps its path", () => {
    const off = compileKernel(p.ir, "stencil_ok", p.sources);
    const on = compileKernel(p.ir, "stencil_ok", p.sources, races);
    expect(off.source).not.toContain("$race");
    expect(off.barrierPath).toBe("regions");
    expect(on.source).toContain("$race.r(tile_");
    expect(on.barrierPath).toBe("generators");
  });
  it("is off by default: the racy kernels run (and print whatever the simulator's order gives)", () => {
    expect(() => run(p, "reduce_racy", [1], [64], [f32s(64), f32s(1)])).not.toThrow();
    expect(() => run(p, "blocks_racy", [2], [32], [new Int32Array(1)])).not.toThrow();
  });
});

describe("the examples are race-free", () => {
  for (const f of readdirSync("examples").filter((x) => x.endsWith(".gk"))) {
    it(f, () => {
      const r = frontEnd(`examples/${f}`);
      expect(r.ir).toBeDefined();
      for (const l of r.ir!.launches) simulateLaunch(r.ir!, l, r.sources, races);
    });
  }
});

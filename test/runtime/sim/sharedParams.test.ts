/**
 * Device functions that take a shared array of their caller's (`s: shared f32[N]`): called
 * from kernels on every path (fast, regions with the function inlined or called, generators),
 * with their reads of unwritten elements and out-of-bounds indices reported in the function.
 */
import { describe, expect, it } from "vitest";
import { compileKernel } from "../../../src/runtime/sim/index.js";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`const B = 64;

device_fn tree(s: shared f32[B], t: i32): f32 {
  for (let stride = B / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      s[t] += s[t + stride];
    }
    barrier();
  }
  return s[0];
}

device_fn bump(h: shared u32[2][4], i: i32) {
  atomicAdd(h[i % 2], i % 4, 1);
}

device_fn neighbour(s: shared i32[8], t: i32): i32 {
  return s[(t + 1) % 8];
}

device_kernel sum(x: readonly global<f32>, out: global<f32>, hist: global<u32>) {
  shared buf: f32[B];
  shared h: u32[2][4];
  const t = threadIdx.x;
  if (t < 8) {
    h[t / 4][t % 4] = 0;
  }
  buf[t] = x[blockIdx.x * B + t];
  barrier();
  bump(h, t);
  const total = tree(buf, t);
  if (t == 0) {
    out[blockIdx.x] = total;
  }
  barrier();
  if (t < 8) {
    hist[blockIdx.x * 8 + t] = h[t / 4][t % 4];
  }
}

device_kernel rotate(out: global<i32>) {
  shared s: i32[8];
  s[threadIdx.x] = threadIdx.x * 10;
  barrier();
  out[threadIdx.x] = neighbour(s, threadIdx.x);
}

device_kernel racy(out: global<i32>) {
  shared s: i32[8];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = neighbour(s, threadIdx.x);
}

device_kernel no_barrier(out: global<i32>) {
  shared s: i32[8];
  s[threadIdx.x] = 5;
  out[threadIdx.x] = neighbour(s, 7 - threadIdx.x - 1);
}
`);

const err = (f: () => unknown) => simErrorOf(p.sources, f);

describe("shared array parameters", () => {
  it("a barrier inside the function (inlined into regions) and an atomic on a 2-D shared parameter", () => {
    const x = Float32Array.from({ length: 128 }, (_, i) => i);
    const out = new Float32Array(2);
    const hist = new Uint32Array(16);
    run(p, "sum", [2], [64], [x, out, hist]);
    expect([...out]).toEqual([2016, 6112]);
    expect([...hist]).toEqual([16, 0, 16, 0, 0, 16, 0, 16, 16, 0, 16, 0, 0, 16, 0, 16]);
    expect(compileKernel(p.ir, "sum").barrierPath).toBe("regions");
  });

  it("the same on the generator path", () => {
    const x = Float32Array.from({ length: 64 }, (_, i) => 64 - i);
    const out = new Float32Array(1);
    run(p, "sum", [1], [64], [x, out, new Uint32Array(8)], { barrierPath: "generators" });
    expect([...out]).toEqual([2080]);
  });

  it("reads the caller's array, after its barrier", () => {
    const out = new Int32Array(8);
    run(p, "rotate", [1], [8], [out]);
    expect([...out]).toEqual([10, 20, 30, 40, 50, 60, 70, 0]);
  });

  it("a read in the function of an element no thread has written yet is reported there (GK8013)", () => {
    expect(err(() => run(p, "racy", [1], [8], [new Int32Array(8)]))).toBe(
      "GK8013 18:10 read of shared s[1] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (device_fn 'neighbour' called by kernel 'racy', thread (0,0,0), block (0,0,0))",
    );
  });

  it("runs on the fast path when the kernel has no barrier, and checks the function's reads there too", () => {
    expect(compileKernel(p.ir, "no_barrier").usesBarriers).toBe(false);
    expect(err(() => run(p, "no_barrier", [1], [8], [new Int32Array(8)]))).toMatch(/^GK8013 18:10 read of shared s\[7\] before any thread of block \(0,0,0\) wrote it/);
    const out = new Int32Array(8);
    run(p, "no_barrier", [1], [8], [out], { checkUninitializedShared: false });
    expect(out[6]).toBe(5);
  });
});

/** Instances of generic kernels and functions on the simulator: each computes with its own types and constants, and its errors name it. */
import { describe, expect, it } from "vitest";
import { gk, run, simErrorOf } from "./helpers.js";

const SRC = `device_fn at<T: f32 | i32 | u64, N: i32>(x: readonly global<T>, i: i32): T {
  return x[i + N];
}
device_kernel shift<T: f32 | i32 | u64, N: i32>(x: readonly global<T>, out: global<T>) {
  out[globalId.x] = at<T, N>(x, globalId.x) * T(2);
}
launch shift<i32, 1>(x = iota(5), out = zeros(4)) grid(1) block(4);
launch shift<f32, 0>(x = iota(4), out = zeros(4)) grid(1) block(4);
launch shift<u64, 3>(x = iota(4), out = zeros(4)) grid(1) block(4);
`;

describe("instances on the simulator", () => {
  it("compute with their own types and constants", () => {
    const p = gk(SRC);
    const out = new Int32Array(4);
    run(p, "shift<i32, 1>", [1], [4], [Int32Array.from([0, 1, 2, 3, 4]), out]);
    expect([...out]).toEqual([2, 4, 6, 8]);
    const f = new Float32Array(4);
    run(p, "shift<f32, 0>", [1], [4], [Float32Array.from([0.5, 1, 2, 3]), f]);
    expect([...f]).toEqual([1, 2, 4, 6]);
  });

  it("report errors naming the instances of the kernel and of the function", () => {
    const p = gk(SRC);
    const msg = simErrorOf(p.sources, () => run(p, "shift<u64, 3>", [1], [4], [BigUint64Array.from([0n, 1n, 2n, 3n]), new BigUint64Array(4)]));
    expect(msg).toBe("GK8001 2:10 out-of-bounds read x[4]: x has 4 elements (device_fn 'at<u64, 3>' called by kernel 'shift<u64, 3>', thread (1,0,0), block (0,0,0))");
  });
});

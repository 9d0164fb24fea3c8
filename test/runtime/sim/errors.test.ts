/** Every error the simulator reports: its code, the `.gk` line:col and the exact message. */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../src/diagnostics/format.js";
import type { Expr } from "../../../src/ir/nodes.js";
import { T } from "../../../src/ir/types.js";
import { compileKernel, runKernel, SimError } from "../../../src/runtime/sim/index.js";
import { DEFAULT_STEPS_PER_THREAD, launchBudget } from "../../../src/runtime/sim/kernel.js";
import { fnDef, globalParam, gk, load, moduleOf, run, simErrorOf, SPAN, store } from "./helpers.js";

const p = gk(`device_kernel k(n: i32, d: i32, x: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  out[i] = x[i + 1] + f32(n / d);
  out[i] += f32(n % d);
}

device_fn ratio(a: i32, b: u32): u32 {
  return u32(a) / b;
}

device_kernel arrays(out: global<u32>, d: u32) {
  shared s: f32[4][8];
  let loc: i32[4];
  loc[threadIdx.x] = 1;
  s[threadIdx.y][threadIdx.x * 2] = 1.0;
  out[0] = ratio(1, d);
}

device_kernel spin(out: global<u32>) {
  let j = 0;
  while (j >= 0) {
    j = j % 7 + 1;
  }
  out[0] = u32(j);
}

device_kernel unwritten(out: global<f32>, flag: bool, big: i64) {
  shared s: f32[16];
  s[threadIdx.x] = 1.0;
  out[threadIdx.x] = s[(threadIdx.x + 1) % 16];
}

device_kernel wide(out: global<i64>, big: global<i64>) {
  out[0] = out[big[0]];
}

device_kernel rem(n: u64, d: u64, out: global<u64>) {
  out[0] = n % d;
}
`);

const err = (f: () => unknown) => simErrorOf(p.sources, f);
const f32s = (n: number) => new Float32Array(n);

describe("out-of-bounds accesses (GK8001)", () => {
  it("reads of a global array name the index and the length", () => {
    expect(err(() => run(p, "k", [1], [4], [1, 1, f32s(4), f32s(4)]))).toBe(
      "GK8001 3:12 out-of-bounds read x[4]: x has 4 elements (kernel 'k', thread (3,0,0), block (0,0,0))",
    );
  });
  it("writes of a global array", () => {
    expect(err(() => run(p, "k", [2], [2], [1, 1, f32s(8), f32s(3)]))).toBe(
      "GK8001 3:3 out-of-bounds write out[3]: out has 3 elements (kernel 'k', thread (1,0,0), block (1,0,0))",
    );
  });
  it("64-bit indices, reported exactly", () => {
    const big = 1n << 62n;
    expect(err(() => run(p, "wide", [1], [1], [new BigInt64Array(1), new BigInt64Array([big])]))).toBe(
      `GK8001 34:12 out-of-bounds read out[${big}]: out has 1 element (kernel 'wide', thread (0,0,0), block (0,0,0))`,
    );
    expect(err(() => run(p, "wide", [1], [1], [new BigInt64Array(1), new BigInt64Array([-1n])]))).toBe(
      "GK8001 34:12 out-of-bounds read out[-1]: out has 1 element (kernel 'wide', thread (0,0,0), block (0,0,0))",
    );
  });
  it("local arrays, per dimension", () => {
    expect(err(() => run(p, "arrays", [1], [5, 1], [new Uint32Array(1), 1]))).toBe(
      "GK8001 14:3 out-of-bounds write loc[4]: loc is local i32[4], so the index must be in 0..3 (kernel 'arrays', thread (4,0,0), block (0,0,0))",
    );
  });
  it("shared arrays, naming the dimension that is out of range", () => {
    expect(err(() => run(p, "arrays", [1], [4, 5], [new Uint32Array(1), 1]))).toBe(
      "GK8001 15:3 out-of-bounds write s[4][0]: s is shared f32[4][8], so the first index must be in 0..3 (kernel 'arrays', thread (0,4,0), block (0,0,0))",
    );
  });
});

describe("integer division by zero (GK8003)", () => {
  it("quotes the division", () => {
    expect(err(() => run(p, "k", [1], [2], [1, 0, f32s(8), f32s(8)]))).toBe(
      "GK8003 3:27 integer division by zero in 'n / d' (i32) (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
  });
  it("and the remainder", () => {
    expect(err(() => run(p, "rem", [1], [1], [5n, 0n, new BigUint64Array(1)]))).toBe(
      "GK8003 38:12 integer remainder by zero in 'n % d' (u64) (kernel 'rem', thread (0,0,0), block (0,0,0))",
    );
  });
  it("names the device_fn it happened in", () => {
    expect(err(() => run(p, "arrays", [1], [2], [new Uint32Array(1), 0]))).toBe(
      "GK8003 8:10 integer division by zero in 'u32(a) / b' (u32) (device_fn 'ratio' called by kernel 'arrays', thread (0,0,0), block (0,0,0))",
    );
  });
  it("is not confused with a failure of the simulator itself", () => {
    let caught: unknown;
    try {
      run(p, "k", [1], [1], [1, 0, f32s(8), f32s(8)]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SimError);
    expect((caught as SimError).code).toBe("GK8003");
    expect((caught as SimError).cause).toBeUndefined();
  });
});

describe("step budget (GK8004)", () => {
  it("stops a loop that never ends, at the loop", () => {
    expect(err(() => run(p, "spin", [1], [1], [new Uint32Array(1)], { stepBudget: 1000 }))).toBe(
      "GK8004 21:3 step budget exceeded: more than 1000 loop iterations in this launch; does this loop ever end? (raise SimOptions.stepBudget if it should run longer) (kernel 'spin', thread (0,0,0), block (0,0,0))",
    );
  });
  it("counts loop back-edges of all threads of the launch", () => {
    const q = gk(`device_kernel k(n: i32, out: global<i32>) {
  for (let j = 0; j < n; j += 1) { out[globalId.x] += 1; }
}`);
    const r = run(q, "k", [2], [3], [10, new Int32Array(6)]);
    expect(r.steps).toBe(60);
    expect(r.threads).toBe(6);
    expect(() => run(q, "k", [2], [3], [10, new Int32Array(6)], { stepBudget: 59 })).toThrow(/GK8004/);
  });
  it("refuses at once a launch of more threads than the budget", () => {
    const q = gk(`device_kernel k(out: global<i32>) {\n  out[0] = 1;\n}`);
    expect(simErrorOf(q.sources, () => run(q, "k", [100000000], [1024], [new Int32Array(1)]))).toBe(
      "GK8004 1:1 this launch runs 102,400,000,000 threads, more than the simulator's step budget of 10,000,000,000 (every thread counts as a step): run it on a GPU, use a smaller grid, or raise the steps per thread (gkc run --steps-per-thread N, GK_STEPS_PER_THREAD, SimOptions.stepsPerThread) (kernel 'k')",
    );
    expect(run(q, "k", [4], [4], [new Int32Array(1)], { stepBudget: 16 }).threads).toBe(16);
  });
  it("scales with the launch: each thread may take stepsPerThread steps (10^6 by default), a launch of under 1000 threads 1000 times that", () => {
    const q = gk(`device_kernel k(n: i32, out: global<i32>) {
  for (let j = 0; j < n; j += 1) { out[0] += 1; }
}`);
    const k = (given?: number) => ({ stepBudget: undefined, stepsPerThread: given ?? DEFAULT_STEPS_PER_THREAD, stepsPerThreadGiven: given !== undefined });
    // 16384 threads of 70,000 iterations (1.1 * 10^9 steps) fit; by default a launch takes at most 10^10.
    expect(launchBudget(k(), 16384)).toBe(1e10);
    expect(launchBudget(k(), 1)).toBe(1e9);
    expect(launchBudget(k(), 4096)).toBe(4096e6);
    expect(launchBudget(k(1e6), 4096 * 4096)).toBe(4096 * 4096 * 1e6);
    expect(run(q, "k", [1], [10], [1000, new Int32Array(1)], { stepsPerThread: 100 }).steps).toBe(10_000);
    expect(simErrorOf(q.sources, () => run(q, "k", [2], [1024], [3, new Int32Array(1)], { stepsPerThread: 2 }))).toBe(
      "GK8004 2:3 step budget exceeded: more than 4,096 loop iterations in this launch (2 per thread, 2,048 threads); does this loop ever end? (if it should run longer: gkc run --steps-per-thread N, GK_STEPS_PER_THREAD=N, or openDevice({ sim: { stepsPerThread: N } })) (kernel 'k', thread (341,0,0), block (1,0,0))",
    );
  });
  it("counts the steps of device_fns too, exactly, on both paths", () => {
    const q = gk(`device_fn tri(n: i32): i32 {
  let s = 0;
  for (let j = 0; j < n; j += 1) { s += j; }
  return s;
}
device_kernel fast(n: i32, out: global<i32>) {
  for (let j = 0; j < 2; j += 1) { out[globalId.x] += tri(tri(n) - 40); }
}
device_kernel slow(n: i32, out: global<i32>) {
  for (let j = 0; j < 2; j += 1) { out[globalId.x] += tri(tri(n) - 40); barrier(); }
}`);
    // Per thread: 2 kernel iterations, each tri(10) = 45 (10 steps) then tri(5) = 10 (5 steps).
    for (const k of ["fast", "slow"]) {
      const out = new Int32Array(4);
      expect(run(q, k, [2], [2], [10, out]).steps).toBe(4 * (2 + 2 * 15));
      expect([...out]).toEqual([20, 20, 20, 20]);
      // The last step is the last thread's last kernel back-edge. The one before: on the fast
      // path, inside that thread's tri(); on the barrier path, where the threads of a block
      // take turns between barriers, the other thread's last kernel back-edge.
      expect(() => run(q, k, [2], [2], [10, out], { stepBudget: 4 * 32 - 1 })).toThrow(`(kernel '${k}', thread (1,0,0), block (1,0,0))`);
      const before = k === "fast" ? "(device_fn 'tri' called by kernel 'fast', thread (1,0,0)" : "(kernel 'slow', thread (0,0,0)";
      expect(() => run(q, k, [2], [2], [10, out], { stepBudget: 4 * 32 - 2 })).toThrow(`${before}, block (1,0,0))`);
      expect(run(q, k, [2], [2], [10, out], { stepBudget: 4 * 32 }).steps).toBe(128);
    }
  });
});

describe("uninitialized shared memory (GK8013)", () => {
  it("reports a read of shared memory that no thread of the block has written", () => {
    expect(err(() => run(p, "unwritten", [1], [16], [f32s(16), true, 1n]))).toBe(
      "GK8013 30:22 read of shared s[1] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (kernel 'unwritten', thread (0,0,0), block (0,0,0))",
    );
  });
  it("can be turned off: unwritten shared memory then reads as zero", () => {
    const out = f32s(16);
    run(p, "unwritten", [1], [16], [out, true, 1n], { checkUninitializedShared: false });
    expect([...out.slice(0, 3)]).toEqual([0, 0, 0]);
  });
});

describe("arguments and launch shapes (GK8005, GK8010, GK8009)", () => {
  it("names the parameter and the TypedArray it needs", () => {
    expect(err(() => run(p, "unwritten", [1], [16], [new Float64Array(16), true, 1n]))).toBe(
      "GK8005 27:25 argument 1 of kernel 'unwritten' ('out: global<f32>') must be a Float32Array, but it is a Float64Array of length 16",
    );
    expect(err(() => run(p, "unwritten", [1], [16], [[1, 2] as unknown as Float32Array, true, 1n]))).toBe(
      "GK8005 27:25 argument 1 of kernel 'unwritten' ('out: global<f32>') must be a Float32Array, but it is a plain array",
    );
  });
  it("checks the number of arguments", () => {
    expect(err(() => run(p, "unwritten", [1], [16], [f32s(16), true]))).toBe(
      "GK8005 27:1 kernel 'unwritten' takes 3 arguments (out: global<f32>, flag: bool, big: i64), but 2 were given",
    );
  });
  it("checks scalar types and ranges", () => {
    expect(err(() => run(p, "unwritten", [1], [16], [f32s(16), 1, 1n]))).toBe(
      "GK8005 27:43 argument 2 of kernel 'unwritten' ('flag: bool') must be a boolean, but it is 1",
    );
    expect(err(() => run(p, "unwritten", [1], [16], [f32s(16), true, 1.5]))).toBe(
      "GK8005 27:55 argument 3 of kernel 'unwritten' ('big: i64') must be a bigint (or a safe integer) from -9223372036854775808 to 9223372036854775807, but it is 1.5",
    );
    expect(err(() => run(p, "k", [1], [4], [2 ** 31, 1, f32s(4), f32s(4)]))).toBe(
      "GK8005 1:17 argument 1 of kernel 'k' ('n: i32') must be an integer from -2147483648 to 2147483647, but it is 2147483648",
    );
  });
  it("accepts safe integers for 64-bit parameters", () => {
    const out = f32s(16);
    run(p, "unwritten", [1], [16], [out, true, 5], { checkUninitializedShared: false });
  });
  it("refuses launch shapes a GPU refuses", () => {
    expect(err(() => run(p, "unwritten", [1], [2048], [f32s(16), true, 1n]))).toBe(
      "GK8010 27:1 invalid block for kernel 'unwritten': size x must be an integer from 1 to 1024, but it is 2048",
    );
    expect(err(() => run(p, "unwritten", [1], [64, 32], [f32s(16), true, 1n]))).toBe(
      "GK8010 27:1 invalid block for kernel 'unwritten': block (64,32,1) has 2048 threads; a block has at most 1024",
    );
    expect(err(() => run(p, "unwritten", [0], [16], [f32s(16), true, 1n]))).toBe(
      "GK8010 27:1 invalid grid for kernel 'unwritten': size x must be an integer from 1 to 2147483647, but it is 0",
    );
  });
  it("names the kernels there are when one is unknown", () => {
    expect(err(() => compileKernel(p.ir, "nope", p.sources))).toBe("GK8009 - no kernel 'nope' in test.gk (its kernels: k, arrays, spin, unwritten, wide, rem)");
  });
});

describe("diagnostics", () => {
  it("print with the .gk code frame and a note naming kernel, thread and block", () => {
    let d;
    try {
      run(p, "k", [1], [4], [1, 1, f32s(4), f32s(4)]);
    } catch (e) {
      d = (e as SimError).diagnostic;
    }
    const text = formatDiagnostic(d!, p.sources);
    expect(text.split("\n").slice(0, 4)).toEqual([
      "test.gk:3:12 - error GK8001: out-of-bounds read x[4]: x has 4 elements (kernel 'k', thread (3,0,0), block (0,0,0))",
      "",
      "3   out[i] = x[i + 1] + f32(n / d);",
      "             ~~~~~~~~",
    ]);
    expect(text).toContain("note: in kernel 'k', thread (3,0,0) of block (0,0,0) (test.gk:1:1)");
    expect(text).toContain("1 device_kernel k(n: i32, d: i32, x: readonly global<f32>, out: global<f32>) {");
  });
  it("a bug in the simulator is an internal error (GK9001), never a user error", () => {
    // IR no checker produces: a load typed i32 from an i64 array, so generated code mixes a bigint into i32 arithmetic.
    const big = globalParam("big", T.i64, true);
    const out = globalParam("out", T.i32);
    const zero: Expr = { kind: "const", type: T.i32, value: 0, span: SPAN };
    const lie: Expr = { kind: "load", type: T.i32, array: big, indices: [zero], path: [], vector: null, span: SPAN };
    const sum: Expr = { kind: "binary", type: T.i32, op: "add", left: lie, right: { kind: "const", type: T.i32, value: 1, span: SPAN }, span: SPAN };
    const m = moduleOf([fnDef("kernel", "k", [big, out], [store(out, zero, sum)])]);
    let caught: unknown;
    try {
      runKernel(compileKernel(m, "k"), { grid: [1], block: [1] }, [new BigInt64Array(1), new Int32Array(1)]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SimError);
    expect((caught as SimError).code).toBe("GK9001");
    expect((caught as SimError).message).toMatch(/^GK9001: internal error in the simulator \(a bug in gk; please report it with the kernel that caused it\): TypeError: /);
    expect((caught as SimError).cause).toBeInstanceOf(TypeError);
    expect((caught as SimError).diagnostic.notes[0]!.message).toBe("in kernel 'k', thread (0,0,0) of block (0,0,0)");
  });
  it("IR the code generator cannot handle is an internal error too", () => {
    const x = globalParam("x", T.f32);
    const bad: Expr = { kind: "const", type: T.i32, value: 1n, span: SPAN };
    const m = moduleOf([fnDef("kernel", "k", [x], [store(x, bad, { kind: "const", type: T.f32, value: 0, span: SPAN })])]);
    expect(() => compileKernel(m, "k")).toThrow(/^GK9001: internal error in the simulator .*i32 constant 1 is not a number/);
  });
});

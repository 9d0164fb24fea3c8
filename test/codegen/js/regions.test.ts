/**
 * The barrier path as regions (src/codegen/js/regions/): loops over a block's threads from
 * one barrier to the next, with the generator path as the fallback. `run` (helpers.ts) runs
 * every kernel with barriers on both and requires the same arrays, steps and errors; the
 * tests here add what the examples and the other tests do not reach: divergence at every
 * nesting level, device_fns with barriers in every place a call can be, locals of every
 * type across barriers, and the check of uninitialized shared memory.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileKernel, SimError, simulateLaunch, type Dim, type SimArg } from "../../../src/runtime/sim/index.js";
import { checkProgram } from "../../../src/testing/cpuGpu.js";
import { arbKernel, cloneArgs } from "../../../src/testing/gen/index.js";
import { example, gk, run, simErrorOf, type Program } from "../../runtime/sim/helpers.js";

const p = gk(`device_fn sync_get(data: global<i32>, i: i32): i32 {
  barrier();
  return data[i];
}

device_kernel loop_trips(out: global<i32>) {
  for (let i = 0; i < 2 + threadIdx.x / 2; i += 1) {
    out[threadIdx.x] += 1;
    barrier();
  }
}

device_kernel if_differs(out: global<i32>) {
  for (let r = 0; r < 2; r += 1) {
    if (r == 1 && threadIdx.y == 1) {
      barrier();
    }
    barrier();
  }
}

device_kernel early_in_loop(out: global<i32>) {
  for (let r = 0; r < 3; r += 1) {
    if (r == 1 && threadIdx.x == 2) {
      return;
    }
    out[threadIdx.x] += 1;
    barrier();
  }
}

device_kernel two_calls(data: global<i32>, out: global<i32>) {
  for (let r = 0; r < 2; r += 1) {
    if (r == 0 || threadIdx.x < 3) {
      out[threadIdx.x] += sync_get(data, threadIdx.x);
    } else {
      out[threadIdx.x] -= sync_get(data, threadIdx.x);
    }
  }
}

device_kernel skips(out: global<i32>) {
  for (let r = 0; r < 3; r += 1) {
    if (threadIdx.x == 1 && r == 1) {
      continue;
    }
    barrier();
  }
}

device_kernel leaves(out: global<i32>) {
  let r = 0;
  while (true) {
    if (r == threadIdx.x + 1) {
      break;
    }
    barrier();
    r += 1;
  }
  out[threadIdx.x] = r;
}

device_kernel uniform(out: global<i32>, n: i32) {
  shared s: i32[64];
  let acc = 0;
  let r = 0;
  do {
    s[threadIdx.x] = r * 10 + threadIdx.x;
    barrier();
    if (r % 2 == 0) {
      acc += s[(threadIdx.x + 1) % blockDim.x];
    } else {
      for (let k = 0; k < 2; k += 1) {
        if (k == 1) { continue; }
        acc -= s[(threadIdx.x + 2) % blockDim.x];
      }
    }
    barrier();
    r += 1;
    if (r == n) { break; }
  } while (true);
  out[threadIdx.x] = acc;
}
`);

const err = (f: () => unknown) => simErrorOf(p.sources, f);
const i32s = (n: number) => new Int32Array(n);

describe("barrier divergence at every nesting level (GK8002), as the generator path reports it", () => {
  it("a barrier in a loop whose trip count differs per thread", () => {
    expect(err(() => run(p, "loop_trips", [1], [4], [i32s(4)]))).toBe(
      "GK8002 9:5 thread (0,0,0) of block (0,0,0) exited while thread (2,0,0) waits at the barrier at line 9: every thread of a block must reach each barrier (kernel 'loop_trips')",
    );
  });

  it("a barrier in an if, inside a loop, that differs per thread", () => {
    expect(err(() => run(p, "if_differs", [1], [2, 2], [i32s(4)]))).toBe(
      "GK8002 18:5 threads of block (0,0,0) reached different barriers: thread (0,0,0) at line 18, thread (0,1,0) at line 16 (kernel 'if_differs')",
    );
  });

  it("a return before a barrier, in the second trip of a loop, in the second block", () => {
    const out = i32s(4);
    expect(err(() => run(p, "early_in_loop", [2], [4], [out]))).toBe(
      "GK8002 28:5 thread (2,0,0) of block (0,0,0) exited while thread (0,0,0) waits at the barrier at line 28: every thread of a block must reach each barrier (kernel 'early_in_loop')",
    );
    // Every thread ran until the round in which the error was found.
    expect([...out]).toEqual([2, 2, 1, 2]);
  });

  it("one barrier of a device_fn called from two places is two barriers", () => {
    expect(err(() => run(p, "two_calls", [1], [4], [i32s(4), i32s(4)]))).toBe(
      "GK8002 2:3 threads of block (0,0,0) reached different barriers: thread (0,0,0) at line 2 via the call of sync_get at line 35, thread (3,0,0) at line 2 via the call of sync_get at line 37 (kernel 'two_calls')",
    );
  });

  it("continue past a barrier, and break out of a loop with one", () => {
    expect(err(() => run(p, "skips", [1], [3], [i32s(3)]))).toBe(
      "GK8002 47:5 thread (1,0,0) of block (0,0,0) exited while thread (0,0,0) waits at the barrier at line 47: every thread of a block must reach each barrier (kernel 'skips')",
    );
    expect(err(() => run(p, "leaves", [1], [3], [i32s(3)]))).toBe(
      "GK8002 57:5 thread (0,0,0) of block (0,0,0) exited while thread (1,0,0) waits at the barrier at line 57: every thread of a block must reach each barrier (kernel 'leaves')",
    );
    const out = i32s(1);
    run(p, "leaves", [1], [1], [out]);
    expect([...out]).toEqual([1]);
  });

  it("none when every thread takes the same way through do-while, if, continue and break", () => {
    const out = i32s(8);
    run(p, "uniform", [1], [8], [out, 4]);
    // Rounds 0 and 2 add s[t+1] = 10r + t+1, rounds 1 and 3 subtract s[t+2] = 10r + t+2 (mod 8).
    const want = [0, 1, 2, 3, 4, 5, 6, 7].map((t) => (t + 1) % 8 - (10 + ((t + 2) % 8)) + (20 + ((t + 1) % 8)) - (30 + ((t + 2) % 8)));
    expect([...out]).toEqual(want);
  });
});

const q = gk(`device_fn sync_add(a: global<i32>, i: i32, v: i32): i32 {
  a[i] += v;
  barrier();
  return a[(i + 1) % blockDim.x];
}

device_fn sync_less(a: global<i32>, i: i32, n: i32): bool {
  barrier();
  return i < n;
}

device_fn third(a: global<i32>, i: i32): i32 {
  for (let k = 0; k < 10; k += 1) {
    const x = sync_add(a, i, k);
    if (k == 2) {
      return x * 100 + k;
    }
  }
  return -1;
}

device_kernel calls(a: global<i32>, out: global<i32>, count: global<i32>, n: i32) {
  const t = threadIdx.x;
  out[t] = atomicAdd(count, 0, 1) * 1000 + sync_add(a, t, 1) * 10 + atomicAdd(count, 1, 1);
  let i = 0;
  for (let j = 0; sync_less(a, j, n); j += 1) { i += 1; }
  while (sync_less(a, i, 2 * n)) { i += 1; }
  do { i += 1; } while (sync_less(a, i, 3 * n));
  if (sync_less(a, t, 2)) { out[t + 4] = i; } else { out[t + 4] = -i; }
  out[t + 8] = third(a, t);
  out[t + 12] = sync_add(a, t, 0) > 0 ? 1 : 2;
}

device_fn sync_read(src: global<f32>, i: i32): f32 {
  barrier();
  return src[i];
}

device_kernel past_end(x: global<f32>, out: global<f32>) {
  out[threadIdx.x] = sync_read(x, threadIdx.x + 1);
}

device_kernel kinds(fl: global<f32>, db: global<f64>, i6: global<i64>, u6: global<u64>, u3: global<u32>, bo: global<bool>, n: i32) {
  const t = threadIdx.x;
  let a = fl[t];
  let b = db[t];
  let c = i6[t];
  let d = u6[t];
  let e = u3[t];
  let f = bo[t];
  let arr: i64[3];
  arr[t % 3] = c;
  n = n + t;
  barrier();
  fl[t] = a;
  db[t] = b;
  i6[t] = c + arr[t % 3];
  u6[t] = d;
  u3[t] = e + u32(n);
  bo[t] = !f;
}

device_kernel sentinels(out: global<f32>, wide: global<i64>, ints: global<i32>) {
  shared f: f32[4];
  shared w: i64[4];
  shared q: i32[4];
  shared u: u32[4];
  const t = threadIdx.x;
  f[t] = out[t];
  w[t] = wide[t];
  q[t] = ints[t];
  u[t] = 0;
  atomicExch(u, t, 2863311530);
  barrier();
  out[t] = f[(t + 1) % 4];
  wide[t] = w[(t + 1) % 4];
  ints[t] = q[(t + 1) % 4] + i32(u[(t + 1) % 4] % 7);
}

device_kernel unwritten_bool(out: global<bool>) {
  shared b: bool[8];
  if (threadIdx.x < 4) { b[threadIdx.x] = true; }
  barrier();
  out[threadIdx.x] = b[7 - threadIdx.x];
}

device_kernel padded(out: global<f32>) {
  shared tile: f32[4][5];
  tile[threadIdx.y][threadIdx.x] = f32(threadIdx.x);
  barrier();
  out[threadIdx.y * 4 + threadIdx.x] = tile[threadIdx.x][threadIdx.y + threadIdx.x / 3];
}

device_kernel lazy_or(data: global<i32>, out: global<i32>) {
  if (threadIdx.x > 100 || sync_add(data, 0, 0) > 0) { out[threadIdx.x] = 1; }
}

device_kernel lazy_and(data: global<i32>, out: global<i32>) {
  const ok = threadIdx.x < 100 && sync_add(data, 0, 0) > 0;
  out[threadIdx.x] = ok ? 1 : 0;
}

device_kernel lazy_select(data: global<i32>, out: global<i32>) {
  out[threadIdx.x] = threadIdx.x > 100 ? 0 : sync_add(data, threadIdx.x, 1);
}
`);

describe("device_fns that reach a barrier, inlined at each call", () => {
  it("in expressions, conditions of every loop and if, ?: and nested calls that return from a loop", () => {
    const a = Int32Array.from([1, 2, 3, 4]);
    const out = i32s(16);
    const count = i32s(2);
    run(q, "calls", [1], [4], [a, out, count, 3]);
    // The first atomicAdd runs before sync_add's barrier, the second after it: thread t gets t, then 4 + t.
    // sync_add adds 1 to a[t] before its barrier and reads a[t + 1] after it: 3, 4, 5, 2.
    expect([...out.slice(0, 4)]).toEqual([30, 1041, 2052, 3023]);
    // for: j = 0..2 (i = 3); while: i = 3..5 (i = 6); do-while: i = 7, 8 (i = 9).
    expect([...out.slice(4, 8)]).toEqual([9, 9, -9, -9]);
    // third adds 0, 1, 2 to a[t] (then 2 + t + 3) and returns a[t + 1] after the third call's barrier.
    expect([...out.slice(8, 12)]).toEqual([602, 702, 802, 502]);
    expect([...out.slice(12)]).toEqual([1, 1, 1, 1]);
    expect([...count]).toEqual([4, 4]);
    expect(compileKernel(q.ir, "calls").barrierPath).toBe("regions");
  });

  it("errors in the inlined body name the device_fn and its parameter", () => {
    expect(simErrorOf(q.sources, () => run(q, "past_end", [1], [4], [new Float32Array(4), new Float32Array(4)]))).toBe(
      "GK8001 36:10 out-of-bounds read src[4]: src has 4 elements (device_fn 'sync_read' called by kernel 'past_end', thread (3,0,0), block (0,0,0))",
    );
  });

  it("the step budget stops the same thread at the same step, inside an inlined loop too", () => {
    const args = () => [Int32Array.from([1, 2, 3, 4]), i32s(16), i32s(2), 3] as const;
    for (const budget of [5, 13, 26, 39]) {
      const e = simErrorOf(q.sources, () => run(q, "calls", [1], [4], [...args()], { stepBudget: budget }));
      expect(e).toMatch(/^GK8004 /);
    }
    expect(run(q, "calls", [1], [4], [...args()], { stepBudget: 40 }).steps).toBe(40);
    // The loops before third's take 8 steps per thread; then each round of third's loop takes one per thread.
    expect(simErrorOf(q.sources, () => run(q, "calls", [1], [4], [...args()], { stepBudget: 26 }))).toBe(
      "GK8004 28:3 step budget exceeded: more than 26 loop iterations in this launch; does this loop ever end? (raise SimOptions.stepBudget if it should run longer) (kernel 'calls', thread (2,0,0), block (0,0,0))",
    );
    expect(simErrorOf(q.sources, () => run(q, "calls", [1], [4], [...args()], { stepBudget: 34 }))).toBe(
      "GK8004 13:3 step budget exceeded: more than 34 loop iterations in this launch; does this loop ever end? (raise SimOptions.stepBudget if it should run longer) (device_fn 'third' called by kernel 'calls', thread (2,0,0), block (0,0,0))",
    );
  });

  it("kernels whose regions would be too large run on the generator path", () => {
    // f1 calls f0 four times, f2 calls f1 four times...: 4^5 = 1024 barrier points once inlined.
    const levels = [1, 2, 3, 4, 5].map((l) => `device_fn f${l}(x: i32): i32 { return f${l - 1}(x) + f${l - 1}(x + 1) + f${l - 1}(x + 2) + f${l - 1}(x + 3); }`);
    const big = gk(`device_fn f0(x: i32): i32 { barrier(); return x; }
${levels.join("\n")}
device_kernel k(out: global<i32>) { out[threadIdx.x] = f5(threadIdx.x); }
device_kernel k3(out: global<i32>) { out[threadIdx.x] = f3(threadIdx.x); }`);
    expect(compileKernel(big.ir, "k").barrierPath).toBe("generators");
    expect(compileKernel(big.ir, "k3").barrierPath).toBe("regions");
    const out = i32s(2);
    run(big, "k", [1], [2], [out]);
    // f5(x) adds 4^5 values x + offsets; the offsets sum to 1024 * 7.5.
    expect([...out]).toEqual([7680, 8704]);
    run(big, "k3", [1], [2], [out]);
    expect([...out]).toEqual([288, 352]);
  });

  it("a call in an operand evaluated only sometimes runs on the generator path", () => {
    for (const k of ["lazy_or", "lazy_and", "lazy_select"]) {
      expect(compileKernel(q.ir, k).barrierPath).toBe("generators");
      expect(compileKernel(q.ir, k).source).toContain("function*");
    }
    const out = i32s(4);
    run(q, "lazy_select", [1], [4], [Int32Array.from([1, 2, 3, 4]), out]);
    expect([...out]).toEqual([3, 4, 5, 2]);
  });
});

describe("locals that live across barriers", () => {
  it("keep every type's values exactly: NaN, -0, 64-bit, bool, local arrays, assigned parameters", () => {
    const fl = Float32Array.from([NaN, -0, 3.5, -Infinity]);
    const db = Float64Array.from([-0, NaN, 1e300, 5e-324]);
    const i6 = BigInt64Array.from([-(1n << 62n), -1n, 0n, 7n]);
    const u6 = BigUint64Array.from([(1n << 64n) - 1n, 0n, 1n << 63n, 5n]);
    const u3 = Uint32Array.from([0xffffffff, 0, 7, 1]);
    const bo = Uint8Array.from([1, 0, 1, 0]);
    run(q, "kinds", [1], [4], [fl, db, i6, u6, u3, bo, 10]);
    expect(Array.from(fl, (x) => (Object.is(x, -0) ? "-0" : String(x)))).toEqual(["NaN", "-0", "3.5", "-Infinity"]);
    expect(Array.from(db, (x) => (Object.is(x, -0) ? "-0" : String(x)))).toEqual(["-0", "NaN", "1e+300", "5e-324"]);
    expect([...i6]).toEqual([-(1n << 63n), -2n, 0n, 14n]);
    expect([...u6]).toEqual([(1n << 64n) - 1n, 0n, 1n << 63n, 5n]);
    expect([...u3]).toEqual([9, 11, 19, 14]);
    expect([...bo]).toEqual([0, 1, 0, 1]);
  });
});

describe("uninitialized shared memory (GK8013)", () => {
  it("values equal to the sentinel of unwritten elements are values like any other", () => {
    const out = Float32Array.from([NaN, 1, 2, 3]);
    const wide = BigInt64Array.from([-6148914691236517206n, 1n, 2n, 3n]);
    const ints = Int32Array.from([-1431655766, 1, 2, 3]);
    run(q, "sentinels", [1], [4], [out, wide, ints]);
    expect(Array.from(out, String)).toEqual(["1", "2", "3", "NaN"]);
    expect([...wide]).toEqual([1n, 2n, 3n, -6148914691236517206n]);
    // 2863311530 % 7 = 2
    expect([...ints]).toEqual([3, 4, 5, -1431655764]);
  });

  it("is reported for bools, and for elements never written when others are", () => {
    expect(simErrorOf(q.sources, () => run(q, "unwritten_bool", [1], [8], [new Uint8Array(8)]))).toBe(
      "GK8013 84:22 read of shared b[7] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (kernel 'unwritten_bool', thread (0,0,0), block (0,0,0))",
    );
    expect(simErrorOf(q.sources, () => run(q, "padded", [1], [4, 4], [new Float32Array(16)]))).toBe(
      "GK8013 91:40 read of shared tile[3][4] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (kernel 'padded', thread (3,3,0), block (0,0,0))",
    );
    const out = new Float32Array(16);
    run(q, "padded", [1], [4, 4], [out], { checkUninitializedShared: false });
    expect(out[15]).toBe(0);
    expect(out[7]).toBe(2);
  });
});

describe("the examples", () => {
  const barrierKernels = [
    ["matmul", "matmul"],
    ["reduce", "block_sum"],
    ["transpose", "transpose"],
    ["histogram", "histogram"],
  ] as const;

  it("run on the region path, without generators", () => {
    for (const [file, kernel] of barrierKernels) {
      const k = compileKernel(example(file).ir, kernel);
      expect(k.barrierPath).toBe("regions");
      expect(k.source).not.toContain("function*");
    }
  });

  it("their launch statements give the same arrays on both barrier paths", () => {
    for (const [file] of barrierKernels) {
      const e = example(file);
      for (const l of e.ir.launches) {
        const [regions, generators] = (["regions", "generators"] as const).map((barrierPath) => simulateLaunch(e.ir, l, e.sources, { barrierPath }));
        expect(regions!.result.steps).toBe(generators!.result.steps);
        for (const [name, a] of regions!.outputs) expect(bytes(a)).toEqual(bytes(generators!.outputs.get(name)!));
      }
    }
  });
});

const bytes = (a: ArrayBufferView) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
const f32s = (n: number) => fc.array(fc.float({ min: -100, max: 100, noNaN: true }), { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));

/** Runs on both paths (helpers.ts, `run`); a SimError is an outcome like another, as long as both paths agree on it. */
function agree(p: Program, kernel: string, grid: Dim, block: Dim, args: readonly SimArg[]): void {
  try {
    run(p, kernel, grid, block, args);
  } catch (e) {
    if (!(e instanceof SimError)) throw e;
  }
}

describe("random block shapes and data: the region path computes what the generator path computes", () => {
  const block3 = (x: number, y: number, z: number) =>
    fc.tuple(fc.integer({ min: 1, max: x }), fc.integer({ min: 1, max: y }), fc.integer({ min: 1, max: z })).map((d) => d as unknown as Dim);

  it("matmul", () => {
    const p = example("matmul");
    const shape = fc.record({ M: fc.integer({ min: 1, max: 24 }), N: fc.integer({ min: 1, max: 24 }), K: fc.integer({ min: 1, max: 24 }), block: block3(17, 17, 2) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32s(s.M * s.K), f32s(s.K * s.N))), ([{ M, N, K, block }, A, B]) => {
        agree(p, "matmul", [Math.ceil(N / 16), Math.ceil(M / 16)], block, [A, B, new Float32Array(M * N), M, N, K]);
      }),
      { numRuns: 25 },
    );
  });

  it("reduce", () => {
    const p = example("reduce");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 700 }), grid: fc.integer({ min: 1, max: 3 }), block: block3(256, 2, 1) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32s(s.n))), ([{ n, grid, block }, x]) => {
        agree(p, "block_sum", [grid], block, [n, x, new Float32Array(grid), new Float32Array(1)]);
      }),
      { numRuns: 25 },
    );
  });

  it("transpose", () => {
    const p = example("transpose");
    const shape = fc.record({ rows: fc.integer({ min: 1, max: 48 }), cols: fc.integer({ min: 1, max: 48 }), block: block3(33, 9, 2) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32s(s.rows * s.cols))), ([{ rows, cols, block }, input]) => {
        agree(p, "transpose", [Math.ceil(cols / 32), Math.ceil(rows / 32)], block, [rows, cols, input, new Float32Array(rows * cols)]);
      }),
      { numRuns: 25 },
    );
  });
});

describe("random kernels with barriers (src/testing/gen): the region path computes what the generator path computes", () => {
  it("on random programs, shapes and data", () => {
    let regions = 0;
    fc.assert(
      fc.property(arbKernel({ maxBlockThreads: 64, maxBlocks: 3 }), (g) => {
        // A generic kernel runs as its instance (g.kernel, `k<S>`), which the check makes.
        const prog = checkProgram(g.source, "test.gk", g.kernel === g.name ? [] : [g.kernel]);
        if (compileKernel(prog.ir, g.kernel).barrierPath === "regions") regions++;
        agree(prog, g.kernel, g.grid as Dim, g.block as Dim, cloneArgs(g.args) as SimArg[]);
      }),
      { numRuns: 60 },
    );
    expect(regions).toBeGreaterThan(10);
  });
});

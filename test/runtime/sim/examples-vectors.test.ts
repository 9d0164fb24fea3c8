/**
 * The vector-load examples (examples/saxpy4.gk, sum4.gk, sgemm.gk): their `launch` statements
 * on the simulator, and random sizes, launch shapes and inputs, against plain TypeScript
 * references that add in the kernels' order, bit for bit (as examples.test.ts does for the
 * scalar examples; the GPU tests run the same cases against the GPU).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulateLaunch } from "../../../src/runtime/sim/index.js";
import { example, run, type Program } from "./helpers.js";

const f = Math.fround;
const F32_MIN_NORMAL = 2 ** -126;
/** An f32 atomicAdd in global memory flushes subnormal operands and results to zero of the same sign (spec/language.md). */
const ftz = (x: number) => (x !== 0 && Math.abs(x) < F32_MIN_NORMAL ? (x < 0 ? -0 : 0) : x);
const globalAtomicAdd = (old: number, v: number) => ftz(f(ftz(old) + ftz(v)));
const bits = (a: ArrayLike<number>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x)));

// ---------------------------------------------------------------- references

function saxpyRef(n: number, alpha: number, x: Float32Array, y: Float32Array, out: Float32Array): Float32Array {
  const r = out.slice();
  for (let i = 0; i < n; i++) r[i] = f(f(alpha * x[i]!) + y[i]!);
  return r;
}

/** Lane 0's value after warp_sum's steps: at offset 16, 8, ..., 1 each lane adds lane + offset's value (its own where that is past 31). */
function warpSumRef(lanes: Float32Array): number {
  let s = lanes.slice();
  for (let off = 16; off > 0; off >>= 1) s = s.map((v, l) => f(v + s[l + off < 32 ? l + off : l]!));
  return s[0]!;
}

/** One thread of sum4: two vector accumulators over the grid-stride loop, their lanes added, then the tail. */
function sum4Thread(n: number, x: Float32Array, gid: number, stride: number): number {
  const a = [0, 0, 0, 0];
  const b = [0, 0, 0, 0];
  const add = (acc: number[], at: number) => acc.forEach((v, k) => (acc[k] = f(v + x[at + k]!)));
  let i = gid * 4;
  for (; i + stride + 4 <= n; i += 2 * stride) {
    add(a, i);
    add(b, i + stride);
  }
  for (; i + 4 <= n; i += stride) add(a, i);
  a.forEach((v, k) => (a[k] = f(v + b[k]!)));
  let s = f(f(a[0]! + a[1]!) + f(a[2]! + a[3]!));
  for (let j = i; j < n; j++) s = f(s + x[j]!);
  return s;
}

/** examples/sum4.gk: each warp's sum of its threads', the first warp's sum of those, the blocks' sums added into total in block order. */
function sum4Ref(n: number, x: Float32Array, blocks: number, block: number): number {
  const stride = blocks * block * 4;
  let total = 0;
  for (let bk = 0; bk < blocks; bk++) {
    const warps = block / 32;
    const sums = new Float32Array(32);
    for (let w = 0; w < warps; w++) sums[w] = warpSumRef(Float32Array.from({ length: 32 }, (_, l) => sum4Thread(n, x, bk * block + w * 32 + l, stride)));
    total = globalAtomicAdd(total, warpSumRef(sums.map((v, l) => (l < warps ? v : 0))));
  }
  return total;
}

/** C = A × B with each element's products added in k order from 0 (every element is one accumulator lane of sgemm). */
function sgemmRef(A: Float32Array, B: Float32Array, M: number, N: number, K: number): Float32Array {
  const C = new Float32Array(M * N);
  for (let r = 0; r < M; r++) {
    for (let c = 0; c < N; c++) {
      let sum = 0;
      for (let k = 0; k < K; k++) sum = f(sum + f(A[r * K + k]! * B[k * N + c]!));
      C[r * N + c] = sum;
    }
  }
  return C;
}

// ---------------------------------------------------------------- the examples' own launches

function launch(p: Program, i: number) {
  return simulateLaunch(p.ir, p.ir.launches[i]!, p.sources);
}

describe("launch statements of the vector-load examples", () => {
  it("saxpy4 and saxpy8", () => {
    const p = example("saxpy4");
    for (const i of [0, 1]) expect([...launch(p, i).outputs.get("out")!]).toEqual([3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21, 23.5, 26]);
  });

  it("sum4", () => {
    const r = launch(example("sum4"), 0);
    expect([...r.outputs.get("total")!]).toEqual([499500]);
    expect([...r.outputs.get("total")!]).toEqual([sum4Ref(1000, r.args[1] as Float32Array, 2, 64)]);
  });

  it("sgemm", () => {
    const r = launch(example("sgemm"), 0);
    const [, , , A, B] = r.args as [number, number, number, Float32Array, Float32Array];
    expect(bits(r.outputs.get("C")!)).toEqual(bits(sgemmRef(A, B, 128, 128, 16)));
  });
});

// ---------------------------------------------------------------- properties

const f32 = fc.float({ min: -1000, max: 1000, noNaN: true });
const f32Array = (n: number) => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));

describe("the vector-load examples on random sizes, launch shapes and inputs", () => {
  for (const [kernel, perThread] of [["saxpy4", 4], ["saxpy8", 8]] as const) {
    it(kernel, () => {
      const p = example("saxpy4");
      const shape = fc.record({ n: fc.integer({ min: 0, max: 700 }), block: fc.integer({ min: 1, max: 128 }), extra: fc.integer({ min: 0, max: 2 }) });
      fc.assert(
        fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32, f32Array(s.n), f32Array(s.n))), ([s, alpha, x, y]) => {
          const out = new Float32Array(s.n + 5).fill(7);
          const want = saxpyRef(s.n, f(alpha), x, y, out);
          run(p, kernel, [Math.ceil(s.n / (perThread * s.block)) + s.extra || 1], [s.block], [s.n, alpha, x, y, out]);
          expect(bits(out)).toEqual(bits(want));
        }),
        { numRuns: 25 },
      );
    });
  }

  it("sum4", () => {
    const p = example("sum4");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 3000 }), warps: fc.integer({ min: 1, max: 8 }), blocks: fc.integer({ min: 1, max: 4 }) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.n))), ([s, x]) => {
        const total = new Float32Array(1);
        run(p, "sum4", [s.blocks], [32 * s.warps], [s.n, x, total]);
        expect(bits(total)).toEqual(bits([sum4Ref(s.n, x, s.blocks, 32 * s.warps)]));
      }),
      { numRuns: 15 },
    );
  });

  it("sgemm", () => {
    const p = example("sgemm");
    const dims = fc.record({ M: fc.constantFrom(128, 256), N: fc.constantFrom(128, 256), K: fc.constantFrom(8, 16, 24) });
    fc.assert(
      fc.property(dims.chain((d) => fc.tuple(fc.constant(d), f32Array(d.M * d.K), f32Array(d.K * d.N))), ([{ M, N, K }, A, B]) => {
        const C = new Float32Array(M * N);
        run(p, "sgemm", [N / 128, M / 128], [256], [M, N, K, A, B, C]);
        expect(bits(C)).toEqual(bits(sgemmRef(A, B, M, N, K)));
      }),
      { numRuns: 3 },
    );
  });
});

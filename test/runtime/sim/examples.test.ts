/**
 * Every example in examples/*.gk: its `launch` statements run on the simulator and match a
 * plain TypeScript reference, bit for bit; and under fast-check, random sizes, launch shapes
 * and inputs for each example kernel match the same reference. The start of the examples'
 * properties: the GPU tests run the same ones against the GPU.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulateLaunch, type SimArg } from "../../../src/runtime/sim/index.js";
import { example, run, simErrorOf, type Program } from "./helpers.js";

const f = Math.fround;
const F32_MIN_NORMAL = 2 ** -126;
/** An f32 atomicAdd in global memory flushes subnormal operands and results to zero of the same sign (spec/language.md). */
const ftz = (x: number) => (x !== 0 && Math.abs(x) < F32_MIN_NORMAL ? (x < 0 ? -0 : 0) : x);
const globalAtomicAdd = (old: number, v: number) => ftz(f(ftz(old) + ftz(v)));
const TILE = 16;

// ---------------------------------------------------------------- references

function saxpyRef(n: number, alpha: number, x: Float32Array, y: Float32Array, out: Float32Array): Float32Array {
  const r = out.slice();
  for (let i = 0; i < n; i++) r[i] = f(f(alpha * x[i]!) + y[i]!);
  return r;
}

/** The tiled kernel's order of f32 additions: k in tile order, padded products of 0 included. */
function matmulRef(A: Float32Array, B: Float32Array, M: number, N: number, K: number): Float32Array {
  const C = new Float32Array(M * N);
  const padded = Math.ceil(K / TILE) * TILE;
  for (let r = 0; r < M; r++) {
    for (let c = 0; c < N; c++) {
      let sum = 0;
      for (let k = 0; k < padded; k++) sum = f(sum + f(k < K ? A[r * K + k]! * B[k * N + c]! : 0));
      C[r * N + c] = sum;
    }
  }
  return C;
}

/** Tree reduction per block of 256, then the partial sums added into total in block order. */
function blockSumRef(n: number, x: Float32Array, blocks: number): { partial: Float32Array; total: number } {
  const partial = new Float32Array(blocks);
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const buf = Float32Array.from({ length: 256 }, (_, t) => (b * 256 + t < n ? x[b * 256 + t]! : 0));
    for (let stride = 128; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) buf[t] = f(buf[t]! + buf[t + stride]!);
    partial[b] = buf[0]!;
    total = globalAtomicAdd(total, buf[0]!);
  }
  return { partial, total };
}

type Elems = Float32Array | Float64Array | Int32Array;

/**
 * examples/reduce_generic.gk's block_sum<T, BLOCK>: the same tree per block as reduce.gk, in
 * T's arithmetic (`add`), over BLOCK threads; the blocks' sums added to total in block order.
 */
function genericBlockSumRef<A extends Elems>(n: number, x: A, blocks: number, block: number, add: (a: number, b: number) => number): { partial: A; total: number } {
  const make = (k: number) => new (x.constructor as new (k: number) => A)(k);
  const partial = make(blocks);
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const buf = make(block);
    for (let t = 0; t < block; t++) buf[t] = b * block + t < n ? x[b * block + t]! : 0;
    for (let stride = block / 2; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) buf[t] = add(buf[t]!, buf[t + stride]!);
    partial[b] = buf[0]!;
    total = add(total, buf[0]!);
  }
  return { partial, total };
}
const addF32 = (a: number, b: number) => f(a + b);
const addF64 = (a: number, b: number) => a + b;
const addI32 = (a: number, b: number) => (a + b) | 0;

/** Lane 0's value after warp_sum's steps: at offset 16, 8, ..., 1 each lane adds lane + offset's value (its own where that is past 31). */
function warpSumRef(lanes: Float32Array): number {
  let s = lanes.slice();
  for (let off = 16; off > 0; off >>= 1) s = s.map((v, l) => f(v + s[l + off < 32 ? l + off : l]!));
  return s[0]!;
}

/** examples/warp_reduce.gk: each warp's sum, then the first warp sums the warps' sums; blocks' sums added into total in block order. */
function warpReduceRef(n: number, x: Float32Array, blocks: number, block: number): { partial: Float32Array; total: number } {
  const partial = new Float32Array(blocks);
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const sums = new Float32Array(32);
    for (let w = 0; w < block / 32; w++) {
      sums[w] = warpSumRef(Float32Array.from({ length: 32 }, (_, l) => (b * block + w * 32 + l < n ? x[b * block + w * 32 + l]! : 0)));
    }
    partial[b] = warpSumRef(sums.map((v, l) => (l < block / 32 ? v : 0)));
    total = globalAtomicAdd(total, partial[b]!);
  }
  return { partial, total };
}

function histogramRef(n: number, data: Uint32Array): Uint32Array {
  const h = new Uint32Array(16);
  for (let i = 0; i < n; i++) h[data[i]! % 16]! += 1;
  return h;
}

function stencilRef(W: number, H: number, src: Float32Array, dst: Float32Array): Float32Array {
  const r = dst.slice();
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      r[i] = x === 0 || y === 0 || x === W - 1 || y === H - 1 ? src[i]! : f(0.25 * f(f(f(src[i - 1]! + src[i + 1]!) + src[i - W]!) + src[i + W]!));
    }
  }
  return r;
}

function transposeRef(rows: number, cols: number, input: Float32Array, output: Float32Array): Float32Array {
  const r = output.slice();
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) r[x * rows + y] = input[y * cols + x]!;
  return r;
}

// ---------------------------------------------------------------- the examples' own launches

function launchOf(p: Program, i = 0) {
  const l = p.ir.launches[i];
  if (!l) throw new Error("no launch statement");
  return simulateLaunch(p.ir, l, p.sources);
}

const bits = (a: ArrayLike<number>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x)));

describe("launch statements of examples/*.gk", () => {
  it("saxpy", () => {
    const r = launchOf(example("saxpy"));
    expect([...r.outputs.get("out")!]).toEqual([3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]);
    expect([...r.outputs.keys()]).toEqual(["out"]);
  });

  it("matmul", () => {
    const r = launchOf(example("matmul"));
    const [A, B] = r.args as [Float32Array, Float32Array];
    expect(bits(r.outputs.get("C")!)).toEqual(bits(matmulRef(A, B, 20, 18, 24)));
  });

  it("reduce", () => {
    const r = launchOf(example("reduce"));
    const ref = blockSumRef(1000, r.args[1] as Float32Array, 4);
    expect([...r.outputs.get("partial")!]).toEqual([...ref.partial]);
    expect([...r.outputs.get("total")!]).toEqual([499500]);
    expect([...r.outputs.keys()]).toEqual(["partial", "total"]);
  });

  it("reduce_generic: three instances of one generic kernel", () => {
    const p = example("reduce_generic");
    expect(p.ir.kernels.map((k) => k.name)).toEqual(["block_sum<f32, 256>", "block_sum<i32, 128>", "block_sum<f64, 512>"]);
    const instances: [number, number, number, (a: number, b: number) => number][] = [[256, 4, 0, addF32], [128, 8, 1, addI32], [512, 2, 2, addF64]];
    for (const [block, blocks, i, add] of instances) {
      const r = launchOf(p, i);
      const ref = genericBlockSumRef(1000, r.args[1] as Elems, blocks, block, add);
      expect(bits(r.outputs.get("partial")!)).toEqual(bits(ref.partial));
      expect(bits(r.outputs.get("total")!)).toEqual(bits([ref.total]));
    }
    expect([...launchOf(p, 0).outputs.get("total")!]).toEqual([499500]);
  });

  it("warp_reduce", () => {
    const r = launchOf(example("warp_reduce"));
    const ref = warpReduceRef(1000, r.args[1] as Float32Array, 4, 256);
    expect([...r.outputs.get("partial")!]).toEqual([...ref.partial]);
    expect([...r.outputs.get("total")!]).toEqual([499500]);
  });

  it("histogram", () => {
    const r = launchOf(example("histogram"));
    const data = r.args[1] as Uint32Array;
    expect([...r.outputs.get("hist")!]).toEqual([...histogramRef(4096, data)]);
    expect([...r.outputs.get("hist")!].reduce((a, b) => a + b)).toBe(4096);
  });

  it("stencil", () => {
    const r = launchOf(example("stencil"));
    const src = r.args[2] as Float32Array;
    expect(bits(r.outputs.get("dst")!)).toEqual(bits(stencilRef(12, 10, src, new Float32Array(120))));
  });

  it("transpose", () => {
    const r = launchOf(example("transpose"));
    const input = r.args[2] as Float32Array;
    expect([...r.outputs.get("output")!]).toEqual([...transposeRef(40, 70, input, new Float32Array(2800))]);
  });
});

// ---------------------------------------------------------------- properties

const f32 = fc.float({ min: -1000, max: 1000, noNaN: true });
const f32Array = (n: number) => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
const runs = { numRuns: 25 };

function check(p: Program, kernel: string, grid: number[], block: number[], args: SimArg[]): void {
  run(p, kernel, grid as [number, number], block as [number, number], args);
}

describe("example kernels on random sizes, launch shapes and inputs", () => {
  it("saxpy", () => {
    const p = example("saxpy");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 600 }), block: fc.integer({ min: 1, max: 256 }), extra: fc.integer({ min: 0, max: 2 }) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32, f32Array(s.n), f32Array(s.n))), ([s, alpha, x, y]) => {
        const out = new Float32Array(s.n + 3).fill(7);
        const want = saxpyRef(s.n, f(alpha), x, y, out);
        check(p, "saxpy", [Math.ceil(s.n / s.block) + s.extra || 1], [s.block], [s.n, alpha, x, y, out]);
        expect(bits(out)).toEqual(bits(want));
      }),
      runs,
    );
  });

  it("matmul", () => {
    const p = example("matmul");
    const dims = fc.record({ M: fc.integer({ min: 1, max: 40 }), N: fc.integer({ min: 1, max: 40 }), K: fc.integer({ min: 1, max: 40 }) });
    fc.assert(
      fc.property(dims.chain((d) => fc.tuple(fc.constant(d), f32Array(d.M * d.K), f32Array(d.K * d.N))), ([{ M, N, K }, A, B]) => {
        const C = new Float32Array(M * N);
        check(p, "matmul", [Math.ceil(N / TILE), Math.ceil(M / TILE)], [TILE, TILE], [A, B, C, M, N, K]);
        expect(bits(C)).toEqual(bits(matmulRef(A, B, M, N, K)));
      }),
      { numRuns: 15 },
    );
  });

  it("reduce", () => {
    const p = example("reduce");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 1500 }), extra: fc.integer({ min: 0, max: 1 }) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.n))), ([s, x]) => {
        const blocks = Math.ceil(s.n / 256) + s.extra || 1;
        const partial = new Float32Array(blocks);
        const total = new Float32Array(1);
        check(p, "block_sum", [blocks], [256], [s.n, x, partial, total]);
        const ref = blockSumRef(s.n, x, blocks);
        expect(bits(partial)).toEqual(bits(ref.partial));
        expect(bits(total)).toEqual(bits([ref.total]));
      }),
      runs,
    );
  });

  it("reduce_generic (block_sum<i32, 128> and block_sum<f64, 512>)", () => {
    const p = example("reduce_generic");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 1500 }), extra: fc.integer({ min: 0, max: 1 }) });
    const i32s = (n: number) => fc.array(fc.integer(), { minLength: n, maxLength: n }).map((a) => Int32Array.from(a));
    const f64s = (n: number) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }).map((a) => Float64Array.from(a));
    const cases: [string, number, (n: number) => fc.Arbitrary<Elems>, (a: number, b: number) => number][] = [
      ["block_sum<i32, 128>", 128, i32s, addI32],
      ["block_sum<f64, 512>", 512, f64s, addF64],
    ];
    for (const [kernel, block, values, add] of cases) {
      fc.assert(
        fc.property(shape.chain((s) => fc.tuple(fc.constant(s), values(s.n))), ([s, x]) => {
          const blocks = Math.ceil(s.n / block) + s.extra || 1;
          const make = (k: number) => new (x.constructor as new (k: number) => Elems)(k);
          const partial = make(blocks);
          const total = make(1);
          check(p, kernel, [blocks], [block], [s.n, x, partial, total]);
          const ref = genericBlockSumRef(s.n, x, blocks, block, add);
          expect(bits(partial)).toEqual(bits(ref.partial));
          expect(bits(total)).toEqual(bits([ref.total]));
        }),
        { numRuns: 10 },
      );
    }
  });

  it("warp_reduce", () => {
    const p = example("warp_reduce");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 1500 }), warps: fc.integer({ min: 1, max: 32 }), extra: fc.integer({ min: 0, max: 1 }) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.n))), ([s, x]) => {
        const block = 32 * s.warps;
        const blocks = Math.ceil(s.n / block) + s.extra || 1;
        const partial = new Float32Array(blocks);
        const total = new Float32Array(1);
        check(p, "block_sum", [blocks], [block], [s.n, x, partial, total]);
        const ref = warpReduceRef(s.n, x, blocks, block);
        expect(bits(partial)).toEqual(bits(ref.partial));
        expect(bits(total)).toEqual(bits([ref.total]));
      }),
      { numRuns: 15 },
    );
  });

  it("histogram", () => {
    const p = example("histogram");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 3000 }), grid: fc.integer({ min: 1, max: 6 }), block: fc.integer({ min: 16, max: 256 }) });
    const u32s = (n: number) => fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a));
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), u32s(s.n))), ([s, data]) => {
        const hist = new Uint32Array(16);
        check(p, "histogram", [s.grid], [s.block], [s.n, data, hist]);
        expect([...hist]).toEqual([...histogramRef(s.n, data)]);
      }),
      runs,
    );
  });

  it("histogram with blocks of fewer than 16 threads reads bins no thread cleared", () => {
    const p = example("histogram");
    expect(simErrorOf(p.sources, () => run(p, "histogram", [1], [8], [64, new Uint32Array(64).fill(9), new Uint32Array(16)]))).toBe(
      "GK8013 13:5 atomicAdd on shared local_hist[9] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this atomicAdd when another thread stores it (kernel 'histogram', thread (0,0,0), block (0,0,0))",
    );
  });

  it("stencil", () => {
    const p = example("stencil");
    const shape = fc.record({
      W: fc.integer({ min: 1, max: 40 }),
      H: fc.integer({ min: 1, max: 40 }),
      bx: fc.integer({ min: 1, max: 32 }),
      by: fc.integer({ min: 1, max: 32 }),
    });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.W * s.H))), ([{ W, H, bx, by }, src]) => {
        const dst = new Float32Array(W * H).fill(-1);
        const want = stencilRef(W, H, src, dst);
        check(p, "stencil", [Math.ceil(W / bx), Math.ceil(H / by)], [bx, by], [W, H, src, dst]);
        expect(bits(dst)).toEqual(bits(want));
      }),
      runs,
    );
  });

  it("transpose", () => {
    const p = example("transpose");
    const dims = fc.record({ rows: fc.integer({ min: 1, max: 80 }), cols: fc.integer({ min: 1, max: 80 }) });
    fc.assert(
      fc.property(dims.chain((d) => fc.tuple(fc.constant(d), f32Array(d.rows * d.cols))), ([{ rows, cols }, input]) => {
        const output = new Float32Array(rows * cols);
        check(p, "transpose", [Math.ceil(cols / 32), Math.ceil(rows / 32)], [32, 8], [rows, cols, input, output]);
        expect(bits(output)).toEqual(bits(transposeRef(rows, cols, input, new Float32Array(rows * cols))));
      }),
      { numRuns: 15 },
    );
  });
});

describe("throughput", () => {
  it("prints threads per second for saxpy 2^20 (fast path) and matmul 256x256 (barrier path)", () => {
    const saxpy = example("saxpy");
    const n = 1 << 20;
    const x = Float32Array.from({ length: n }, (_, i) => i);
    const y = new Float32Array(n).fill(1);
    const out = new Float32Array(n);
    let best = Infinity;
    for (let rep = 0; rep < 5; rep++) best = Math.min(best, run(saxpy, "saxpy", [n / 256], [256], [n, 2.5, x, y, out]).ms);
    expect(out[n - 1]).toBe(f(f(2.5 * (n - 1)) + 1));

    const mm = example("matmul");
    const N = 256;
    const A = Float32Array.from({ length: N * N }, (_, i) => (i % 7) - 3);
    const B = Float32Array.from({ length: N * N }, (_, i) => (i % 5) - 2);
    const C = new Float32Array(N * N);
    let bestMm = Infinity;
    for (let rep = 0; rep < 3; rep++) bestMm = Math.min(bestMm, run(mm, "matmul", [N / TILE, N / TILE], [TILE, TILE], [A, B, C, N, N, N]).ms);
    const rate = (threads: number, ms: number) => `${((threads / ms) * 1000).toExponential(2)} threads/s`;
    console.log(`simulator saxpy 2^20: ${best.toFixed(2)} ms, ${rate(n, best)} (fast path, best of 5)`);
    console.log(`simulator matmul 256x256, 16x16 tiles: ${bestMm.toFixed(1)} ms, ${rate(N * N, bestMm)} (barrier path, best of 3)`);
  });
});

/**
 * The example kernels' properties, parameterised over where they run.
 *
 * test/runtime/sim/examples.test.ts states each example's law against a plain TypeScript
 * reference, on the simulator, for random sizes, launch shapes and inputs. The cases here
 * draw from the same ranges; the law stated here is the other half: any runner (the GPU,
 * or the simulator on the unfolded IR) computes what the simulator computes, within the
 * tolerance below. Together: GPU = simulator = reference.
 *
 * Tolerances (spec/differential.md): with the default `fmad`, nvcc may contract `a * b + c`
 * into one fused multiply-add, which skips the rounding of the product: a result can move
 * by up to half an ulp of the product, and in a sum of K products, by that much per step.
 * Float atomics from several blocks add in any order on a GPU. The fast builtins (fastExp, ...)
 * are within their documented bounds of the simulator's accurate values. Everything else is exact.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import type { SourceMap } from "../../src/diagnostics/source.js";
import type { Module } from "../../src/ir/nodes.js";
import type { AnyTypedArray } from "../../src/ir/values.js";
import { frontEnd } from "../../src/pipeline.js";
import { compareArrays, describeMismatches, type Tolerance } from "../../src/testing/compare.js";
import type { ArgValue } from "../../src/testing/cpuGpu.js";
import type { LaunchExtras } from "../../src/runtime/device/launching.js";

export interface Program {
  readonly ir: Module;
  readonly sources: SourceMap;
}

export interface ExampleCase {
  readonly grid: readonly number[];
  readonly block: readonly number[];
  /** In parameter order. */
  readonly args: readonly ArgValue[];
  /** The constant arrays the kernel reads and the lengths of its dynamic shared arrays, where it has them. */
  readonly extras?: LaunchExtras;
}

export type Outputs = ReadonlyMap<string, AnyTypedArray>;

export interface ExampleProperty {
  readonly example: string;
  readonly kernel: string;
  readonly cases: fc.Arbitrary<ExampleCase>;
  readonly numRuns: number;
  /** Per written array, given the case and the simulator's outputs; none: bit for bit. */
  readonly tolerance: (c: ExampleCase, sim: Outputs, fmad: boolean) => Readonly<Record<string, Tolerance>>;
}

/** Runs a kernel of a program on a case: the arrays it may write, by name. */
export type Runner = (p: Program, kernel: string, c: ExampleCase) => Promise<Outputs>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** examples/<name>.gk checked; `after: "check"` stops before the IR passes (no constant folding). */
export function loadExample(name: string, after?: string): Program {
  const fe = frontEnd(path.join(ROOT, "examples", `${name}.gk`), after ? { after } : {});
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new Error(`examples/${name}.gk does not check`);
  return { ir: fe.ir, sources: fe.sources };
}

const TILE = 16;
/** Half an ulp of f32 at 1, as a factor: |RN(x) - x| <= EPS32 * |x|. */
const EPS32 = 2 ** -24;

const f32 = fc.float({ min: -1000, max: 1000, noNaN: true });
const f32s = (n: number) => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
const i32s = (n: number) => fc.array(fc.integer(), { minLength: n, maxLength: n }).map((a) => Int32Array.from(a));
const u32s = (n: number) => fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a));
const none = () => ({});

/** Per-block sums `partial` are exact; their atomicAdds into `total` may come in any order: an ulp per block. */
function blockTotals(_c: ExampleCase, sim: Outputs): Record<string, Tolerance> {
  const partial = sim.get("partial") as Float32Array;
  const magnitude = partial.reduce((a, v) => a + Math.abs(v), 0);
  return { total: { ulp: partial.length, abs: 2 * partial.length * EPS32 * magnitude } };
}

/** out = alpha * x + y: one possible contraction per element. */
function saxpyTolerance(c: ExampleCase, _sim: Outputs, fmad: boolean): Record<string, Tolerance> {
  if (!fmad) return {};
  const [, alpha, x, y] = c.args as [number, number, Float32Array, Float32Array];
  let worst = 0;
  x.forEach((xi, i) => (worst = Math.max(worst, Math.abs(alpha * xi) + Math.abs(y[i]!))));
  return { out: { ulp: 1, abs: 4 * EPS32 * worst } };
}

/** A sum of K products per element of C, each step maybe one contraction: errors add up along the sum. */
function matmulTolerance(A: Float32Array, B: Float32Array, M: number, N: number, K: number): Tolerance {
  let worst = 0;
  for (let r = 0; r < M; r++) {
    for (let col = 0; col < N; col++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += Math.abs(A[r * K + k]! * B[k * N + col]!);
      worst = Math.max(worst, s);
    }
  }
  return { ulp: 1, abs: 4 * (K + 1) * EPS32 * worst };
}

/** saxpy4 (four elements per thread) or saxpy8 (eight). */
function saxpyVector(kernel: "saxpy4" | "saxpy8", perThread: number): ExampleProperty {
  return {
    example: "saxpy4",
    kernel,
    numRuns: 25,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 700 }), block: fc.integer({ min: 1, max: 128 }), extra: fc.integer({ min: 0, max: 2 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32, f32s(s.n), f32s(s.n)))
      .map(([s, alpha, x, y]) => ({ grid: [Math.ceil(s.n / (perThread * s.block)) + s.extra || 1], block: [s.block], args: [s.n, alpha, x, y, new Float32Array(s.n + 5).fill(7)] })),
    tolerance: saxpyTolerance,
  };
}

/** 17 taps in [-1, 1]: the convolution's constant array TAPS. */
const taps = () => fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 17, maxLength: 17 }).map((a) => Float32Array.from(a));

const floats = (n: number, min: number, max: number) =>
  fc.array(fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true }), { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));

/**
 * Each output of the convolution is a sum of 17 products, each step of which nvcc may contract
 * (with fmad): half an ulp of the products' magnitude per step. `srcIndex` is the position of
 * the source image among the arguments.
 */
function convolutionTolerance(out: string, srcIndex: number) {
  return (c: ExampleCase, _sim: Outputs, fmad: boolean): Record<string, Tolerance> => {
    if (!fmad) return {};
    const src = c.args[srcIndex] as Float32Array;
    const t = c.extras!.constants[0] as Float32Array;
    const maxSrc = src.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    const sumTaps = t.reduce((a, v) => a + Math.abs(v), 0);
    return { [out]: { ulp: 1, abs: 4 * 18 * EPS32 * maxSrc * sumTaps } };
  };
}

/**
 * The GPU's fastExp, fastLog and fastDiv are within their documented bounds (spec/builtins.md)
 * of the simulator's accurate values. Carried through the formula: d1 and d2 move by at most
 * 2^-21.41 / (v sqrt(t)) from the logarithm and a few ulp of d from the divisions; the CDF by
 * at most 0.4 (the normal density's peak) times that, plus ~20 ulp of its tail from fastExp;
 * a price by the strike and the spot times those. 1e-5 of (spot + strike) holds all of it
 * with room; the same bound covers fmad's contractions.
 */
function blackScholesTolerance(c: ExampleCase): Record<string, Tolerance> {
  const [n, price, strike, years, , v] = c.args as [number, Float32Array, Float32Array, Float32Array, number, number];
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const spread = 1 / (v * Math.sqrt(years[i]!));
    worst = Math.max(worst, (price[i]! + strike[i]!) * (2e-6 + 2 ** -21.41 * spread));
  }
  const t = { ulp: 64, abs: 4 * worst };
  return { call: t, put: t };
}

export const EXAMPLE_PROPERTIES: readonly ExampleProperty[] = [
  {
    example: "saxpy",
    kernel: "saxpy",
    numRuns: 25,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 600 }), block: fc.integer({ min: 1, max: 256 }), extra: fc.integer({ min: 0, max: 2 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32, f32s(s.n), f32s(s.n)))
      .map(([s, alpha, x, y]) => ({ grid: [Math.ceil(s.n / s.block) + s.extra || 1], block: [s.block], args: [s.n, alpha, x, y, new Float32Array(s.n + 3).fill(7)] })),
    tolerance: saxpyTolerance,
  },
  saxpyVector("saxpy4", 4),
  saxpyVector("saxpy8", 8),
  {
    example: "sum4",
    kernel: "sum4",
    numRuns: 15,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 3000 }), warps: fc.integer({ min: 1, max: 8 }), blocks: fc.integer({ min: 1, max: 4 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.n)))
      .map(([s, x]) => ({ grid: [s.blocks], block: [32 * s.warps], args: [s.n, x, new Float32Array(1)] })),
    // Each block's sum is a fixed tree (exact); the blocks' atomicAdds to `total` come in any order.
    tolerance: (c): Record<string, Tolerance> => {
      const x = c.args[1] as Float32Array;
      const blocks = c.grid[0]!;
      return { total: { ulp: blocks, abs: 2 * blocks * EPS32 * x.reduce((a, v) => a + Math.abs(v), 0) } };
    },
  },
  {
    example: "sgemm",
    kernel: "sgemm",
    numRuns: 3,
    cases: fc
      .record({ M: fc.constantFrom(128, 256), N: fc.constantFrom(128, 256), K: fc.constantFrom(8, 16, 24) })
      .chain((d) => fc.tuple(fc.constant(d), f32s(d.M * d.K), f32s(d.K * d.N)))
      .map(([{ M, N, K }, A, B]) => ({ grid: [N / 128, M / 128], block: [256], args: [M, N, K, A, B, new Float32Array(M * N)] })),
    tolerance: (c, _sim, fmad): Record<string, Tolerance> => {
      if (!fmad) return {};
      const [M, N, K, A, B] = c.args as [number, number, number, Float32Array, Float32Array];
      return { C: matmulTolerance(A, B, M, N, K) };
    },
  },
  {
    example: "matmul",
    kernel: "matmul",
    numRuns: 15,
    cases: fc
      .record({ M: fc.integer({ min: 1, max: 40 }), N: fc.integer({ min: 1, max: 40 }), K: fc.integer({ min: 1, max: 40 }) })
      .chain((d) => fc.tuple(fc.constant(d), f32s(d.M * d.K), f32s(d.K * d.N)))
      .map(([{ M, N, K }, A, B]) => ({ grid: [Math.ceil(N / TILE), Math.ceil(M / TILE)], block: [TILE, TILE], args: [A, B, new Float32Array(M * N), M, N, K] })),
    tolerance: (c, _sim, fmad): Record<string, Tolerance> => {
      if (!fmad) return {};
      const [A, B, , M, N, K] = c.args as [Float32Array, Float32Array, Float32Array, number, number, number];
      return { C: matmulTolerance(A, B, M, N, K) };
    },
  },
  {
    example: "reduce",
    kernel: "block_sum",
    numRuns: 25,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 1500 }), extra: fc.integer({ min: 0, max: 1 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.n)))
      .map(([s, x]) => {
        const blocks = Math.ceil(s.n / 256) + s.extra || 1;
        return { grid: [blocks], block: [256], args: [s.n, x, new Float32Array(blocks), new Float32Array(1)] };
      }),
    // Partial sums are a fixed tree (exact); the blocks' atomicAdds to `total` come in any order.
    tolerance: blockTotals,
  },
  {
    example: "reduce_generic",
    kernel: "block_sum<f32, 256>",
    numRuns: 15,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 1500 }), extra: fc.integer({ min: 0, max: 1 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.n)))
      .map(([s, x]) => {
        const blocks = Math.ceil(s.n / 256) + s.extra || 1;
        return { grid: [blocks], block: [256], args: [s.n, x, new Float32Array(blocks), new Float32Array(1)] };
      }),
    tolerance: blockTotals,
  },
  {
    example: "reduce_generic",
    kernel: "block_sum<i32, 128>",
    numRuns: 15,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 1500 }), extra: fc.integer({ min: 0, max: 1 }) })
      .chain((s) => fc.tuple(fc.constant(s), i32s(s.n)))
      .map(([s, x]) => {
        const blocks = Math.ceil(s.n / 128) + s.extra || 1;
        return { grid: [blocks], block: [128], args: [s.n, x, new Int32Array(blocks), new Int32Array(1)] };
      }),
    // Integers wrap the same in any order of the atomics.
    tolerance: none,
  },
  {
    example: "warp_reduce",
    kernel: "block_sum",
    numRuns: 25,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 1500 }), warps: fc.integer({ min: 1, max: 32 }), extra: fc.integer({ min: 0, max: 1 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.n)))
      .map(([s, x]) => {
        const block = 32 * s.warps;
        const blocks = Math.ceil(s.n / block) + s.extra || 1;
        return { grid: [blocks], block: [block], args: [s.n, x, new Float32Array(blocks), new Float32Array(1)] };
      }),
    // The shuffle trees are exact; the blocks' atomicAdds to `total` come in any order.
    tolerance: blockTotals,
  },
  {
    example: "histogram",
    kernel: "histogram",
    numRuns: 25,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 3000 }), grid: fc.integer({ min: 1, max: 6 }), block: fc.integer({ min: 16, max: 256 }) })
      .chain((s) => fc.tuple(fc.constant(s), u32s(s.n)))
      .map(([s, data]) => ({ grid: [s.grid], block: [s.block], args: [s.n, data, new Uint32Array(16)] })),
    tolerance: none,
  },
  {
    example: "stencil",
    kernel: "stencil",
    numRuns: 25,
    cases: fc
      .record({ W: fc.integer({ min: 1, max: 40 }), H: fc.integer({ min: 1, max: 40 }), bx: fc.integer({ min: 1, max: 32 }), by: fc.integer({ min: 1, max: 32 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.W * s.H)))
      .map(([{ W, H, bx, by }, src]) => ({ grid: [Math.ceil(W / bx), Math.ceil(H / by)], block: [bx, by], args: [W, H, src, new Float32Array(W * H).fill(-1)] })),
    // 0.25 * (a + b + c + d): no product is added to anything, so nothing to contract.
    tolerance: none,
  },
  {
    example: "transpose",
    kernel: "transpose",
    numRuns: 15,
    cases: fc
      .record({ rows: fc.integer({ min: 1, max: 80 }), cols: fc.integer({ min: 1, max: 80 }) })
      .chain((d) => fc.tuple(fc.constant(d), f32s(d.rows * d.cols)))
      .map(([{ rows, cols }, input]) => ({ grid: [Math.ceil(cols / 32), Math.ceil(rows / 32)], block: [32, 8], args: [rows, cols, input, new Float32Array(rows * cols)] })),
    tolerance: none,
  },
  {
    example: "reduce_dynamic",
    kernel: "block_sum",
    numRuns: 20,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 1500 }), log2Block: fc.integer({ min: 0, max: 10 }), extra: fc.integer({ min: 0, max: 1 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.n)))
      .map(([s, x]) => {
        const block = 2 ** s.log2Block;
        const blocks = Math.ceil(s.n / block) + s.extra || 1;
        return { grid: [blocks], block: [block], args: [s.n, x, new Float32Array(blocks), new Float32Array(1)], extras: { constants: [], sharedLengths: [block] } };
      }),
    tolerance: blockTotals,
  },
  {
    example: "lookback_scan",
    kernel: "scan",
    numRuns: 15,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 3000 }), extra: fc.integer({ min: 0, max: 2 }) })
      .chain((s) => fc.tuple(fc.constant(s), u32s(s.n)))
      .map(([s, x]) => {
        const tiles = Math.ceil(s.n / 256) + s.extra || 1;
        const zeros = () => new Uint32Array(tiles);
        return { grid: [tiles], block: [256], args: [s.n, x, new Uint32Array(s.n), zeros(), zeros(), zeros(), new Uint32Array(1)] };
      }),
    // u32 sums wrap and are exact in any order; the tiles' order is their tickets'.
    tolerance: none,
  },
  {
    example: "convolution",
    kernel: "convolveRows",
    numRuns: 8,
    cases: fc
      .record({ wTiles: fc.integer({ min: 1, max: 2 }), hTiles: fc.integer({ min: 1, max: 6 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.wTiles * 128 * s.hTiles * 4), taps()))
      .map(([{ wTiles, hTiles }, src, t]) => {
        const w = wTiles * 128;
        return { grid: [wTiles, hTiles], block: [16, 4], args: [w, src, new Float32Array(src.length)], extras: { constants: [t], sharedLengths: [] } };
      }),
    tolerance: convolutionTolerance("dst", 1),
  },
  {
    example: "convolution",
    kernel: "convolveColumns",
    numRuns: 8,
    cases: fc
      .record({ wTiles: fc.integer({ min: 1, max: 4 }), hTiles: fc.integer({ min: 1, max: 2 }) })
      .chain((s) => fc.tuple(fc.constant(s), f32s(s.wTiles * 16 * s.hTiles * 64), taps()))
      .map(([{ wTiles, hTiles }, src, t]) => ({
        grid: [wTiles, hTiles],
        block: [16, 8],
        args: [wTiles * 16, hTiles * 64, src, new Float32Array(src.length)],
        extras: { constants: [t], sharedLengths: [] },
      })),
    tolerance: convolutionTolerance("dst", 2),
  },
  {
    example: "black_scholes",
    kernel: "blackScholes",
    numRuns: 20,
    cases: fc
      .record({ n: fc.integer({ min: 0, max: 700 }), grid: fc.integer({ min: 1, max: 3 }), block: fc.integer({ min: 1, max: 256 }) })
      .chain((s) =>
        fc.tuple(fc.constant(s), floats(s.n, 5, 30), floats(s.n, 1, 100), floats(s.n, 0.25, 10), fc.float({ min: 0, max: Math.fround(0.1), noNaN: true }), fc.float({ min: Math.fround(0.1), max: Math.fround(0.5), noNaN: true })),
      )
      .map(([s, price, strike, years, r, v]) => ({
        grid: [s.grid],
        block: [s.block],
        args: [s.n, price, strike, years, r, v, new Float32Array(s.n), new Float32Array(s.n)],
      })),
    tolerance: blackScholesTolerance,
  },
];

/**
 * The law for one example: on every case, `runner` writes what the simulator (`reference`)
 * writes, within the example's tolerance. Throws, through fast-check, with the shrunk case.
 */
export async function checkExampleProperty(p: ExampleProperty, reference: Runner, runner: Runner, fmad: boolean): Promise<void> {
  const program = loadExample(p.example);
  const fn = program.ir.kernels.find((k) => k.name === p.kernel)!;
  await fc.assert(
    fc.asyncProperty(p.cases, async (c) => {
      const want = await reference(program, p.kernel, c);
      const got = await runner(program, p.kernel, c);
      const tol = p.tolerance(c, want, fmad);
      const diffs = [...want].flatMap(([name, a]) => {
        const param = fn.params.find((q) => q.name === name)!;
        const elem = param.type.kind === "global" ? param.type.elem.name : "i32";
        return describeMismatches(compareArrays(name, elem, a, got.get(name)!, tol[name]), ["simulator", "runner"]);
      });
      if (diffs.length) throw new Error(`${p.example}: grid(${c.grid.join(", ")}) block(${c.block.join(", ")})\n${diffs.join("\n")}`);
    }),
    { numRuns: p.numRuns },
  );
}

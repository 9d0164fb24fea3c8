/**
 * The examples of the memory and control features (reduce_dynamic, lookback_scan,
 * convolution, black_scholes): their launch statements and, under fast-check, random sizes,
 * launch shapes and inputs on the simulator match a plain TypeScript reference bit for bit
 * (the fast builtins as the simulator computes them: the accurate function, rounded to f32).
 * test/differential/examples.ts holds the other half: the GPU computes what the simulator does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulateLaunch } from "../../../src/runtime/sim/index.js";
import { example, run, type Program } from "./helpers.js";

const f = Math.fround;
const F32_MIN_NORMAL = 2 ** -126;
/** An f32 atomicAdd in global memory flushes subnormal operands and results to zero of the same sign (spec/language.md). */
const ftz = (x: number) => (x !== 0 && Math.abs(x) < F32_MIN_NORMAL ? (x < 0 ? -0 : 0) : x);
const bits = (a: ArrayLike<number | bigint>) => Array.from(a, (x) => (Object.is(x, -0) ? "-0" : String(x)));
const f32Array = (n: number, min = -1000, max = 1000) => fc.array(fc.float({ min: f(min), max: f(max), noNaN: true }), { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));

function launchOf(p: Program, i = 0) {
  return simulateLaunch(p.ir, p.ir.launches[i]!, p.sources);
}

// ---------------------------------------------------------------- references

/** A tree reduction per block of `block` threads (a power of two), then the partial sums added into total in block order. */
function blockSumRef(n: number, x: Float32Array, blocks: number, block: number): { partial: Float32Array; total: number } {
  const partial = new Float32Array(blocks);
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const buf = Float32Array.from({ length: block }, (_, t) => (b * block + t < n ? x[b * block + t]! : 0));
    for (let stride = block >> 1; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) buf[t] = f(buf[t]! + buf[t + stride]!);
    partial[b] = buf[0]!;
    total = ftz(f(ftz(total) + ftz(buf[0]!)));
  }
  return { partial, total };
}

function inclusiveScanRef(x: Uint32Array): Uint32Array {
  const y = new Uint32Array(x.length);
  let s = 0;
  x.forEach((v, i) => (y[i] = s = (s + v) >>> 0));
  return y;
}

const RADIUS = 8;

/** One pass of the convolution: out[i] = sum over k = -8..8 of taps[8 - k] * in(i + k), in that order, 0 outside. */
function convolve(taps: Float32Array, at: (k: number) => number): number {
  let sum = 0;
  for (let k = -RADIUS; k <= RADIUS; k++) sum = f(sum + f(taps[RADIUS - k]! * at(k)));
  return sum;
}

function rowsRef(w: number, h: number, src: Float32Array, taps: Float32Array): Float32Array {
  const dst = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) dst[y * w + x] = convolve(taps, (k) => (x + k >= 0 && x + k < w ? src[y * w + x + k]! : 0));
  return dst;
}

function columnsRef(w: number, h: number, src: Float32Array, taps: Float32Array): Float32Array {
  const dst = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) dst[y * w + x] = convolve(taps, (k) => (y + k >= 0 && y + k < h ? src[(y + k) * w + x]! : 0));
  return dst;
}

/** black_scholes.gk operation by operation in f32; its fast builtins as the simulator computes them. */
function blackScholesRef(price: Float32Array, strike: Float32Array, years: Float32Array, r: number, v: number): { call: Float32Array; put: Float32Array } {
  const [A1, A2, A3, A4, A5, RSQRT2PI] = [0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429, 0.39894228040143267793994605993438].map(f);
  const exp = (x: number) => f(Math.exp(x));
  const div = (a: number, b: number) => f(a / b);
  const cnd = (d: number) => {
    const k = div(1, f(1 + f(f(0.2316419) * Math.abs(d))));
    const poly = f(k * f(A1! + f(k * f(A2! + f(k * f(A3! + f(k * f(A4! + f(k * A5!)))))))));
    const tail = f(f(RSQRT2PI! * exp(f(f(-0.5 * d) * d))) * poly);
    return d > 0 ? f(1 - tail) : tail;
  };
  const call = new Float32Array(price.length);
  const put = new Float32Array(price.length);
  const rf = f(r);
  const vf = f(v);
  for (let i = 0; i < price.length; i++) {
    const [s, x, t] = [price[i]!, strike[i]!, years[i]!];
    const sqrtT = f(Math.sqrt(t));
    const vSqrtT = f(vf * sqrtT);
    const d1 = div(f(f(Math.log(div(s, x))) + f(f(rf + f(f(0.5 * vf) * vf)) * t)), vSqrtT);
    const d2 = f(d1 - vSqrtT);
    const [c1, c2] = [cnd(d1), cnd(d2)];
    const expRT = exp(f(-rf * t));
    call[i] = f(f(s * c1) - f(f(x * expRT) * c2));
    put[i] = f(f(f(x * expRT) * f(1 - c2)) - f(s * f(1 - c1)));
  }
  return { call, put };
}

// ---------------------------------------------------------------- the launch statements

describe("launch statements of the memory and control examples", () => {
  it("reduce_dynamic: one kernel for blocks of 256 and of 64", () => {
    const p = example("reduce_dynamic");
    for (const [i, blocks, block] of [[0, 4, 256], [1, 16, 64]] as const) {
      const r = launchOf(p, i);
      const ref = blockSumRef(1000, r.args[1] as Float32Array, blocks, block);
      expect(bits(r.outputs.get("partial")!)).toEqual(bits(ref.partial));
      expect([...r.outputs.get("total")!]).toEqual([499500]);
    }
  });

  it("lookback_scan", () => {
    const r = launchOf(example("lookback_scan"));
    expect([...r.outputs.get("y")!]).toEqual([...inclusiveScanRef(r.args[1] as Uint32Array)]);
    expect([...r.outputs.get("status")!]).toEqual([2, 2, 2, 2]);
    expect([...r.outputs.get("ticket")!]).toEqual([4]);
  });

  it("convolution, rows and columns, with the binomial taps", () => {
    const p = example("convolution");
    const taps = Float32Array.from(p.ir.launches[0]!.constants[0]!.data.kind === "values" ? (p.ir.launches[0]!.constants[0]!.data.values as number[]) : []);
    expect(taps.length).toBe(17);
    const rows = launchOf(p, 0);
    expect(bits(rows.outputs.get("dst")!)).toEqual(bits(rowsRef(128, 8, rows.args[1] as Float32Array, taps)));
    const cols = launchOf(p, 1);
    expect(bits(cols.outputs.get("dst")!)).toEqual(bits(columnsRef(16, 64, cols.args[2] as Float32Array, taps)));
  });

  it("black_scholes", () => {
    const r = launchOf(example("black_scholes"));
    const [, price, strike, years] = r.args as [number, Float32Array, Float32Array, Float32Array];
    const ref = blackScholesRef(price, strike, years, 0.02, 0.3);
    expect(bits(r.outputs.get("call")!)).toEqual(bits(ref.call));
    expect(bits(r.outputs.get("put")!)).toEqual(bits(ref.put));
  });
});

// ---------------------------------------------------------------- properties

describe("memory and control examples on random sizes, launch shapes and inputs", () => {
  it("reduce_dynamic, for every power-of-two block size", () => {
    const p = example("reduce_dynamic");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 1500 }), log2Block: fc.integer({ min: 0, max: 10 }), extra: fc.integer({ min: 0, max: 1 }) });
    fc.assert(
      fc.property(shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.n))), ([s, x]) => {
        const block = 2 ** s.log2Block;
        const blocks = Math.ceil(s.n / block) + s.extra || 1;
        const partial = new Float32Array(blocks);
        const total = new Float32Array(1);
        run(p, "block_sum", [blocks], [block], [s.n, x, partial, total], undefined, { shared: [block] });
        const ref = blockSumRef(s.n, x, blocks, block);
        expect(bits(partial)).toEqual(bits(ref.partial));
        expect(bits(total)).toEqual(bits([ref.total]));
      }),
      { numRuns: 20 },
    );
  });

  it("lookback_scan", () => {
    const p = example("lookback_scan");
    const u32s = (n: number) => fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: n, maxLength: n }).map((a) => Uint32Array.from(a));
    fc.assert(
      fc.property(fc.record({ n: fc.integer({ min: 0, max: 3000 }), extra: fc.integer({ min: 0, max: 2 }) }).chain((s) => fc.tuple(fc.constant(s), u32s(s.n))), ([s, x]) => {
        const tiles = Math.ceil(s.n / 256) + s.extra || 1;
        const y = new Uint32Array(s.n);
        const [status, aggregates, prefixes, ticket] = [tiles, tiles, tiles, 1].map((k) => new Uint32Array(k));
        run(p, "scan", [tiles], [256], [s.n, x, y, status!, aggregates!, prefixes!, ticket!]);
        expect([...y]).toEqual([...inclusiveScanRef(x)]);
        expect([...status!]).toEqual(new Array(tiles).fill(2));
      }),
      { numRuns: 10 },
    );
  });

  it("convolution, rows and columns, with random taps", () => {
    const p = example("convolution");
    const taps = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 17, maxLength: 17 }).map((a) => Float32Array.from(a));
    fc.assert(
      fc.property(fc.record({ a: fc.integer({ min: 1, max: 2 }), b: fc.integer({ min: 1, max: 3 }) }).chain((s) => fc.tuple(fc.constant(s), taps, f32Array(s.a * 128 * s.b * 64))), ([{ a, b }, t, src]) => {
        const [w, h] = [a * 128, b * 64];
        const rows = new Float32Array(w * h);
        run(p, "convolveRows", [a, h / 4], [16, 4], [w, src, rows], undefined, { constants: [t] });
        expect(bits(rows)).toEqual(bits(rowsRef(w, h, src, t)));
        const cols = new Float32Array(w * h);
        run(p, "convolveColumns", [w / 16, b], [16, 8], [w, h, src, cols], undefined, { constants: [t] });
        expect(bits(cols)).toEqual(bits(columnsRef(w, h, src, t)));
      }),
      { numRuns: 4 },
    );
  });

  it("black_scholes", () => {
    const p = example("black_scholes");
    const shape = fc.record({ n: fc.integer({ min: 0, max: 700 }), grid: fc.integer({ min: 1, max: 3 }), block: fc.integer({ min: 1, max: 256 }) });
    fc.assert(
      fc.property(
        shape.chain((s) => fc.tuple(fc.constant(s), f32Array(s.n, 5, 30), f32Array(s.n, 1, 100), f32Array(s.n, 0.25, 10), fc.float({ min: 0, max: f(0.1), noNaN: true }), fc.float({ min: f(0.1), max: f(0.5), noNaN: true }))),
        ([s, price, strike, years, r, v]) => {
          const call = new Float32Array(s.n);
          const put = new Float32Array(s.n);
          run(p, "blackScholes", [s.grid], [s.block], [s.n, price, strike, years, r, v, call, put]);
          const ref = blackScholesRef(price, strike, years, r, v);
          expect(bits(call)).toEqual(bits(ref.call));
          expect(bits(put)).toEqual(bits(ref.put));
        },
      ),
      { numRuns: 20 },
    );
  });
});

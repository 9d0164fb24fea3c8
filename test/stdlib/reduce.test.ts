// gk/std/reduce on the simulator: warp, block and device-wide reductions against plain JS, under fast-check.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ARRAYS, OPS, refCombine, refIdentity, stdModule, type OpName } from "./helpers.js";

const SOURCE = `import { reduce, argReduce, warpReduce, blockReduce, blockSum } from "gk/std/reduce";
device_kernel warps<T: i32 | u32 | f32, OP: i32>(x: readonly global<T>, out: global<T>) {
  out[globalId.x] = warpReduce<T, OP>(x[globalId.x]);
}
device_kernel blocks<T: i32 | u32 | f32, OP: i32>(x: readonly global<T>, out: global<T>) {
  shared scratch: T[32];
  out[globalId.x] = blockReduce<T, OP>(x[globalId.x], scratch);
}
device_kernel sums(x: readonly global<f32>, out: global<f32>) {
  shared scratch: f32[32];
  out[globalId.x] = blockSum(x[globalId.x], scratch);
}
`;

type Elem = "i32" | "u32" | "f32";
const ELEMS: Elem[] = ["i32", "u32", "f32"];
/** Values whose f32 sums of a few thousand are exact, so any order gives the reference's bits. */
const value = (elem: Elem) => (elem === "u32" ? fc.integer({ min: 0, max: 1 << 20 }) : fc.integer({ min: -(1 << 20), max: 1 << 20 }));
const opsOf = (elem: Elem): OpName[] => (elem === "f32" ? ["SUM", "MIN", "MAX"] : ["SUM", "MIN", "MAX", "AND", "OR", "XOR"]);

describe("gk/std/reduce", () => {
  it("warpReduce and blockReduce give every thread its warp's / block's reduction", async () => {
    const mod = await stdModule(SOURCE);
    for (const elem of ELEMS) {
      for (const op of opsOf(elem)) {
        const f = refCombine(elem, op);
        const data = ARRAYS[elem].from({ length: 128 }, (_, i) => (i * 7919 + 13) % 1000 - (elem === "u32" ? 0 : 500));
        const w = await mod.warps!.with({ T: elem, OP: OPS[op] })({ grid: 2, block: 64 }, { x: data, out: new ARRAYS[elem](128) });
        const b = await mod.blocks!.with({ T: elem, OP: OPS[op] })({ grid: 2, block: 64 }, { x: data, out: new ARRAYS[elem](128) });
        for (let i = 0; i < 128; i++) {
          const warp = Math.floor(i / 32) * 32, block = Math.floor(i / 64) * 64;
          expect(w.out![i], `${elem} ${op} warp ${i}`).toBe(Array.from(data.subarray(warp, warp + 32)).reduce(f));
          expect(b.out![i], `${elem} ${op} block ${i}`).toBe(Array.from(data.subarray(block, block + 64)).reduce(f));
        }
      }
    }
    const s = await mod.sums!({ grid: 1, block: 96 }, { x: Float32Array.from({ length: 96 }, (_, i) => i), out: new Float32Array(96) });
    expect([...(s.out as Float32Array)]).toEqual(new Array(96).fill(95 * 48));
  });

  it("reduce<T, OP, BLOCK> reduces any length on any grid in one launch, and leaves its counter at 0", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ELEMS).chain((elem) =>
          fc.record({
            elem: fc.constant(elem),
            op: fc.constantFrom(...opsOf(elem)),
            data: fc.array(value(elem), { maxLength: 3000 }),
            // 300 blocks of 32: more partial results than the last block loads at once (8 a thread).
            grid: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(300)),
            block: fc.constantFrom(32, 64, 128),
          }),
        ),
        async ({ elem, op, data, grid, block }) => {
          const x = ARRAYS[elem].from(data);
          const r = await mod.reduce!.with({ T: elem, OP: OPS[op], BLOCK: block })(
            { grid, block },
            { n: x.length, x, out: new ARRAYS[elem](1), partial: new ARRAYS[elem](grid), counter: new Uint32Array(1) },
          );
          expect(r.out![0]).toBe(Array.from(x).reduce(refCombine(elem, op), refIdentity(elem, op)));
          expect(r.counter![0]).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("argReduce: the first smallest / largest element's index, NaNs never, -1 for none", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(NaN)), { maxLength: 2500 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        async (data, maximum, grid) => {
          const x = Float32Array.from(data);
          const r = await mod.argReduce!.with({ T: "f32", MAXIMUM: maximum, BLOCK: 64 })(
            { grid, block: 64 },
            { n: x.length, x, out: new Int32Array(1), partialV: new Float32Array(grid), partialI: new Int32Array(grid), counter: new Uint32Array(1) },
          );
          let best = -1;
          x.forEach((v, i) => {
            if (!Number.isNaN(v) && (best < 0 || (maximum ? v > x[best]! : v < x[best]!))) best = i;
          });
          expect(r.out![0]).toBe(best);
          expect(r.counter![0]).toBe(0);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("reduce of f64, i64 and u64", async () => {
    const mod = await stdModule(SOURCE);
    const r64 = await mod.reduce!.with({ T: "f64", OP: OPS.SUM, BLOCK: 64 })(
      { grid: 3, block: 64 },
      { n: 1001, x: Float64Array.from({ length: 1001 }, (_, i) => i / 4), out: new Float64Array(1), partial: new Float64Array(3), counter: new Uint32Array(1) },
    );
    expect(r64.out![0]).toBe((1000 * 1001) / 8);
    const big = BigInt64Array.from({ length: 999 }, (_, i) => BigInt(i) * 10n ** 12n - 5n * 10n ** 14n);
    const rmin = await mod.reduce!.with({ T: "i64", OP: OPS.MIN, BLOCK: 32 })(
      { grid: 2, block: 32 },
      { n: 999, x: big, out: new BigInt64Array(1), partial: new BigInt64Array(2), counter: new Uint32Array(1) },
    );
    expect(rmin.out![0]).toBe(-5n * 10n ** 14n);
    const rmax = await mod.reduce!.with({ T: "u64", OP: OPS.MAX, BLOCK: 32 })(
      { grid: 2, block: 32 },
      { n: 3, x: BigUint64Array.from([1n, 2n ** 63n + 5n, 7n]), out: new BigUint64Array(1), partial: new BigUint64Array(2), counter: new Uint32Array(1) },
    );
    expect(rmax.out![0]).toBe(2n ** 63n + 5n);
  });

  it("warpReduceBy, blockReduceBy, warpInclusiveScanBy and blockInclusiveScanBy take a user operator, in order", async () => {
    // bigger: the larger in magnitude, the earlier of a tie (-3 and 3): associative, not commutative, so the order shows.
    const mod = await stdModule(`import { warpReduceBy, blockReduceBy } from "gk/std/reduce";
import { warpInclusiveScanBy, blockInclusiveScanBy } from "gk/std/scan";
device_fn bigger(a: i32, b: i32): i32 { return abs(b) > abs(a) ? b : a; }
device_fn maximum<T: numeric>(a: T, b: T): T { return a > b ? a : b; }
device_kernel userOps(x: readonly global<i32>, wr: global<i32>, br: global<i32>, ws: global<i32>, bs: global<i32>, mx: global<f32>) {
  shared scratch: i32[32];
  shared fscratch: f32[32];
  const v = x[globalId.x];
  wr[globalId.x] = warpReduceBy<i32, bigger>(v);
  br[globalId.x] = blockReduceBy<i32, bigger>(v, scratch);
  ws[globalId.x] = warpInclusiveScanBy<i32, bigger>(v);
  bs[globalId.x] = blockInclusiveScanBy<i32, bigger>(v, scratch);
  mx[globalId.x] = blockReduceBy<f32, maximum>(f32(v), fscratch);
}
`);
    const bigger = (a: number, b: number) => (Math.abs(b) > Math.abs(a) ? b : a);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(32, 96, 256), fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 768, maxLength: 768 }), async (block, values) => {
        const x = Int32Array.from(values);
        const n = x.length;
        const r = await mod.userOps!({ grid: n / block, block }, { x, wr: new Int32Array(n), br: new Int32Array(n), ws: new Int32Array(n), bs: new Int32Array(n), mx: new Float32Array(n) });
        for (let i = 0; i < n; i++) {
          const warp = i - (i % 32), first = i - (i % block);
          expect(r.wr![i], `warp reduce ${i}`).toBe(Array.from(x.subarray(warp, warp + 32)).reduce(bigger));
          expect(r.br![i], `block reduce ${i}`).toBe(Array.from(x.subarray(first, first + block)).reduce(bigger));
          expect(r.ws![i], `warp scan ${i}`).toBe(Array.from(x.subarray(warp, i + 1)).reduce(bigger));
          expect(r.bs![i], `block scan ${i}`).toBe(Array.from(x.subarray(first, i + 1)).reduce(bigger));
          expect(r.mx![i], `block max ${i}`).toBe(Math.max(...x.subarray(first, first + block)));
        }
      }),
      { numRuns: 3 },
    );
  });
});

/**
 * The tensor-core builtins on the simulator, end to end: a kernel loads each lane's fragments,
 * calls `mma_...` and stores D. Tiles are scattered into fragments here by PTX's layout
 * formulas, written out again (not read from src/ir/tensorCore.ts), and every element of D is
 * compared with the measured model (bench/tensorcore/model.mjs) on the same bits. Then the
 * errors: a divergent call (GK8014) and a partial warp (GK8020).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module beside the probe, without declarations
import { FORMATS, mmaElement as modelElement } from "../../../bench/tensorcore/model.mjs";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`
device_kernel halfIn(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], C[laneId]);
}
device_kernel halfAcc(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<u32x2>, D: global<u32x2>) {
  D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], C[laneId]);
}
device_kernel brain(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k16_bf16(A[laneId], B[laneId], C[laneId]);
}
device_kernel tf32(A: readonly global<f32x4>, B: readonly global<f32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k8_tf32(A[laneId], B[laneId], C[laneId]);
}
device_kernel bytesS8(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<i32x4>, D: global<i32x4>) {
  D[laneId] = mma_m16n8k32_s8(A[laneId], B[laneId], C[laneId]);
}
device_kernel bytesU8(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<i32x4>, D: global<i32x4>) {
  D[laneId] = mma_m16n8k32_u8(A[laneId], B[laneId], C[laneId]);
}
device_kernel diverged(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  if (laneId < 31) {
    D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], C[laneId]);
  }
}
device_kernel branches(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  if (laneId % 2 == 0) {
    D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], C[laneId]);
  } else {
    D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], C[laneId]);
  }
}
device_kernel perWarp(A: readonly global<u32x4>, B: readonly global<u32x2>, C: readonly global<f32x4>, D: global<f32x4>) {
  const i = threadIdx.x;
  if (i / 32 == 1) {
    D[i] = mma_m16n8k16_bf16(A[i], B[i], C[i]);
  } else {
    D[i] = mma_m16n8k16_f16(A[i], B[i], C[i]);
  }
}
device_kernel loadDiverged(out: global<u32x4>) {
  shared tile: u32[32][4];
  tile[laneId][0] = 1; tile[laneId][1] = 2; tile[laneId][2] = 3; tile[laneId][3] = 4;
  syncWarp();
  if (tile[laneId][0] + u32(laneId) < 20) {
    out[laneId] = ldmatrix_x4(tile[laneId], 0);
  }
}
`);

// PTX's fragment layouts (groupID g = lane >> 2, threadID_in_group t = lane & 3), element by element.
const g = (lane: number) => lane >> 2, t = (lane: number) => lane & 3;
const C_AT = (lane: number, i: number) => [g(lane) + (i >= 2 ? 8 : 0), 2 * t(lane) + (i & 1)] as const;
const LAYOUT = {
  k16: { k: 16, a: (l: number, i: number) => [g(l) + (i === 2 || i === 3 || i === 6 || i === 7 ? 8 : 0), 2 * t(l) + (i & 1) + (i >= 4 ? 8 : 0)] as const, b: (l: number, i: number) => [2 * t(l) + (i & 1) + (i >= 2 ? 8 : 0), g(l)] as const, na: 8, nb: 4 },
  k8: { k: 8, a: (l: number, i: number) => [g(l) + (i % 2 === 1 ? 8 : 0), t(l) + (i >= 2 ? 4 : 0)] as const, b: (l: number, i: number) => [t(l) + (i === 1 ? 4 : 0), g(l)] as const, na: 4, nb: 2 },
  k32: { k: 32, a: (l: number, i: number) => [g(l) + ((i >> 2) % 2 === 1 ? 8 : 0), 4 * t(l) + (i & 3) + (i >= 8 ? 16 : 0)] as const, b: (l: number, i: number) => [4 * t(l) + (i & 3) + (i >= 4 ? 16 : 0), g(l)] as const, na: 16, nb: 8 },
};

type Layout = (typeof LAYOUT)[keyof typeof LAYOUT];

/** Tiles as element bits: A row-major 16×k, B row-major k×8, C row-major 16×8. */
interface Tiles { A: number[]; B: number[]; C: number[] }

/** Each lane's fragment elements, in register order. */
function scatter(layout: Layout, tiles: Tiles) {
  const { k } = layout;
  return Array.from({ length: 32 }, (_, l) => ({
    a: Array.from({ length: layout.na }, (_, i) => { const [r, c] = layout.a(l, i); return tiles.A[r * k + c]!; }),
    b: Array.from({ length: layout.nb }, (_, i) => { const [r, c] = layout.b(l, i); return tiles.B[r * 8 + c]!; }),
    c: Array.from({ length: 4 }, (_, i) => { const [r, c] = C_AT(l, i); return tiles.C[r * 8 + c]!; }),
  }));
}

/** Elements packed into 32-bit registers, low bits first: 2 halves or 4 bytes each. */
function pack(elems: number[], width: 16 | 8): number[] {
  const per = 32 / width, out: number[] = [];
  for (let r = 0; r < elems.length / per; r++) {
    let w = 0;
    for (let j = 0; j < per; j++) w += (elems[r * per + j]! & (2 ** width - 1)) * 2 ** (width * j);
    out.push(w >>> 0);
  }
  return out;
}

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const fromF32Bits = (b: number) => ((u32[0] = b >>> 0), f32[0]!);

/** Random bits of a format: sign, exponent field in [lo, hi], fraction; one in eight a zero. */
const floatBits = (ebits: number, mbits: number, lo: number, hi: number) =>
  fc.tuple(fc.boolean(), fc.integer({ min: lo, max: hi }), fc.integer({ min: 0, max: 2 ** mbits - 1 }), fc.integer({ min: 0, max: 7 })).map(([s, e, m, z]) => (z === 0 ? 0 : ((s ? 2 ** (ebits + mbits) : 0) + e * 2 ** mbits + m) >>> 0));

function tilesOf(k: number, input: fc.Arbitrary<number>, acc: fc.Arbitrary<number>): fc.Arbitrary<Tiles> {
  return fc.record({ A: fc.array(input, { minLength: 16 * k, maxLength: 16 * k }), B: fc.array(input, { minLength: k * 8, maxLength: k * 8 }), C: fc.array(acc, { minLength: 128, maxLength: 128 }) });
}

/** The model's D for the tiles, element (r, c), as the accumulator format's value. */
function expected(tiles: Tiles, k: number, r: number, c: number, input: string, acc: string): number {
  const a = Array.from({ length: k }, (_, j) => tiles.A[r * k + j]!), b = Array.from({ length: k }, (_, j) => tiles.B[j * 8 + c]!);
  const v: bigint = modelElement(a, b, tiles.C[r * 8 + c]!, input, acc);
  const scale = 2 ** -400;
  return Number(v) * scale; // the model's fixed point: exact here (few significant bits, within the double's range)
}

const RUNS = { numRuns: 12 };

describe("mma on the simulator, every shape, against the measured model", () => {
  const floatShape = (kernel: string, input: "f16" | "bf16", bits: fc.Arbitrary<number>) =>
    fc.assert(
      fc.property(tilesOf(16, bits, floatBits(8, 23, 110, 140)), (tiles) => {
        const lanes = scatter(LAYOUT.k16, tiles);
        const D = new Float32Array(128);
        run(p, kernel, [1], [32], [new Uint32Array(lanes.flatMap((x) => pack(x.a, 16))), new Uint32Array(lanes.flatMap((x) => pack(x.b, 16))), new Float32Array(lanes.flatMap((x) => x.c.map(fromF32Bits))), D]);
        for (let l = 0; l < 32; l++) for (let i = 0; i < 4; i++) {
          const [r, c] = C_AT(l, i);
          expect(D[l * 4 + i], `D[${r}][${c}]`).toBe(Math.fround(expected(tiles, 16, r, c, input, "f32")));
        }
      }),
      RUNS,
    );
  it("m16n8k16 f16 -> f32", () => floatShape("halfIn", "f16", floatBits(5, 10, 9, 21)));
  it("m16n8k16 bf16 -> f32", () => floatShape("brain", "bf16", floatBits(8, 7, 120, 134)));

  it("m16n8k16 f16 -> f16 (accumulators as f16 pairs)", () => {
    fc.assert(
      fc.property(tilesOf(16, floatBits(5, 10, 10, 18), floatBits(5, 10, 10, 20)), (tiles) => {
        const lanes = scatter(LAYOUT.k16, tiles);
        const D = new Uint32Array(64);
        run(p, "halfAcc", [1], [32], [new Uint32Array(lanes.flatMap((x) => pack(x.a, 16))), new Uint32Array(lanes.flatMap((x) => pack(x.b, 16))), new Uint32Array(lanes.flatMap((x) => pack(x.c, 16))), D]);
        for (let l = 0; l < 32; l++) for (let i = 0; i < 4; i++) {
          const [r, c] = C_AT(l, i);
          const bits = (D[l * 2 + (i >> 1)]! >>> (16 * (i & 1))) & 0xffff;
          const want: bigint | null = modelElement(Array.from({ length: 16 }, (_, j) => tiles.A[r * 16 + j]!), Array.from({ length: 16 }, (_, j) => tiles.B[j * 8 + c]!), tiles.C[r * 8 + c]!, "f16", "f16");
          const v = FORMATS.f16.decode(bits);
          expect(v.m << BigInt(v.e + 400), `D[${r}][${c}]`).toBe(want);
        }
      }),
      RUNS,
    );
  });

  it("m16n8k8 tf32 -> f32 (operands already tf32)", () => {
    fc.assert(
      fc.property(tilesOf(8, floatBits(8, 23, 117, 137).map((b) => (b & ~0x1fff) >>> 0), floatBits(8, 23, 110, 140)), (tiles) => {
        const lanes = scatter(LAYOUT.k8, tiles);
        const D = new Float32Array(128);
        run(p, "tf32", [1], [32], [new Float32Array(lanes.flatMap((x) => x.a.map(fromF32Bits))), new Float32Array(lanes.flatMap((x) => x.b.map(fromF32Bits))), new Float32Array(lanes.flatMap((x) => x.c.map(fromF32Bits))), D]);
        for (let l = 0; l < 32; l++) for (let i = 0; i < 4; i++) {
          const [r, c] = C_AT(l, i);
          expect(D[l * 4 + i], `D[${r}][${c}]`).toBe(Math.fround(expected(tiles, 8, r, c, "tf32", "f32")));
        }
      }),
      RUNS,
    );
  });

  for (const [kernel, signed] of [["bytesS8", true], ["bytesU8", false]] as const) {
    it(`m16n8k32 ${kernel} -> i32`, () => {
      fc.assert(
        fc.property(tilesOf(32, fc.integer({ min: 0, max: 255 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (tiles) => {
          const lanes = scatter(LAYOUT.k32, tiles);
          const D = new Int32Array(128);
          run(p, kernel, [1], [32], [new Uint32Array(lanes.flatMap((x) => pack(x.a, 8))), new Uint32Array(lanes.flatMap((x) => pack(x.b, 8))), new Int32Array(lanes.flatMap((x) => x.c)), D]);
          const val = (b: number) => (signed && b > 127 ? b - 256 : b);
          for (let l = 0; l < 32; l++) for (let i = 0; i < 4; i++) {
            const [r, c] = C_AT(l, i);
            let s = tiles.C[r * 8 + c]!;
            for (let j = 0; j < 32; j++) s += val(tiles.A[r * 32 + j]!) * val(tiles.B[j * 8 + c]!);
            expect(D[l * 4 + i], `D[${r}][${c}]`).toBe(s | 0);
          }
        }),
        RUNS,
      );
    });
  }
});

describe("mma's errors on the simulator", () => {
  const args = () => [new Uint32Array(128), new Uint32Array(64), new Float32Array(128), new Float32Array(128)];

  it("a call that not every lane reaches is warp divergence (GK8014)", () => {
    expect(simErrorOf(p.sources, () => run(p, "diverged", [1], [32], args()))).toMatch(/^GK8014 22:17 threads of warp 0 of block \(0,0,0\) diverged: lane 0 \(thread \(0,0,0\)\) waits at mma_m16n8k16_f16\(\) at line 22, but lane 31 \(thread \(31,0,0\)\) ended without reaching it/);
  });

  it("a condition that differs within the warp is divergence even when both branches call mma: they are two instructions (GK8014)", () => {
    expect(simErrorOf(p.sources, () => run(p, "branches", [1], [32], args()))).toMatch(/^GK8014 27:17 threads of warp 0 of block \(0,0,0\) diverged: lane 0 \(thread \(0,0,0\)\) waits at mma_m16n8k16_f16\(\) at line 27, but lane 1 \(thread \(1,0,0\)\) waits at mma_m16n8k16_f16\(\) at line 29/);
  });

  it("a condition uniform in each warp is not: each warp calls its own mma together", () => {
    const A = new Uint32Array(4 * 64).fill(0x3c003c00), B = new Uint32Array(2 * 64).fill(0x3c003c00), D = new Float32Array(4 * 64);
    run(p, "perWarp", [1], [64], [A, B, new Float32Array(4 * 64), D]);
    // f16 ones for warp 0: each element sums 16 products of 1; warp 1 reads them as bf16 (0x3c00 is 2^-7 * 1.5... as bf16 bits: 0.0078125).
    expect(D[0]).toBe(16);
    expect(D[4 * 32]).toBe(16 * 0.0078125 * 0.0078125);
  });

  it("so is an ldmatrix that not every lane reaches (GK8014)", () => {
    expect(simErrorOf(p.sources, () => run(p, "loadDiverged", [1], [32], [new Uint32Array(128)]))).toMatch(/^GK8014 45:19 threads of warp 0 of block \(0,0,0\) diverged: lane 0 \(thread \(0,0,0\)\) waits at ldmatrix_x4\(\) at line 45, but lane 19 \(thread \(19,0,0\)\) ended without reaching it/);
  });

  it("a warp of fewer than 32 threads cannot call it (GK8020)", () => {
    expect(simErrorOf(p.sources, () => run(p, "halfIn", [1], [48], [new Uint32Array(4 * 48), new Uint32Array(2 * 48), new Float32Array(4 * 48), new Float32Array(4 * 48)]))).toBe(
      "GK8020 3:15 mma_m16n8k16_f16() needs a whole warp of 32 threads, but warp 1 of block (0,0,0) has 16 (the block has 48 threads; kernel 'halfIn')",
    );
  });
});

/**
 * ldmatrix on the simulator (src/ir/ldmatrixBuiltins.ts), through spec/ok/tensor_cores.gk's
 * `loads` kernel: a shared 32×8-word tile of random halves, and each variant's words compared
 * with PTX's definition written out here element by element (lane l names row l mod 8 of
 * matrix l/8; receives row l/4, halves 2(l mod 4) and 2(l mod 4)+1 of each matrix, or the
 * transposed matrix's). Then what is refused: a global array (GK3005), a misaligned row
 * (GK8030), a row past the end (GK8001).
 */
import { describe, expect, it } from "vitest";
import { expectError } from "../../helpers.js";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`device_kernel loads(src: readonly global<u32>, out: global<u32x4>, out2: global<u32x2>, out1: global<u32>) {
  shared tile: u32[32][8];
  const l = laneId;
  for (let w = 0; w < 8; w++) {
    tile[l][w] = src[l * 8 + w];
  }
  syncWarp();
  out[l] = ldmatrix_x4(tile[l], 0);
  out[32 + l] = ldmatrix_x4_trans(tile[l], 4);
  out2[l] = ldmatrix_x2(tile[l % 16], 4);
  out2[32 + l] = ldmatrix_x2_trans(tile[l % 16], 0);
  out1[l] = ldmatrix_x1(tile[l % 8], 0);
  out1[32 + l] = ldmatrix_x1_trans(tile[l % 8], 4);
}
device_kernel misaligned(out: global<u32x4>) {
  shared tile: u32[32][8];
  tile[laneId][2] = 1;
  syncWarp();
  out[laneId] = ldmatrix_x4(tile[laneId], 2);
}
`);

describe("ldmatrix loads what PTX defines", () => {
  it("x1, x2, x4, with and without .trans", () => {
    let s = 99;
    const src = Uint32Array.from({ length: 256 }, () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s));
    const out = new Uint32Array(256), out2 = new Uint32Array(128), out1 = new Uint32Array(64);
    run(p, "loads", [1], [32], [src, out, out2, out1]);
    // Half h (0..7) of the 8-half row that lane `owner` names, starting at word `w0` of tile row `tileRow(owner)`.
    const half = (tileRow: number, w0: number, h: number) => (src[tileRow * 8 + w0 + (h >> 1)]! >>> (16 * (h & 1))) & 0xffff;
    const pairOf = (lo: number, hi: number) => (lo | (hi << 16)) >>> 0;
    for (let l = 0; l < 32; l++) {
      const g = l >> 2, t = l & 3;
      for (let j = 0; j < 4; j++) {
        // Matrix j's row r is named by lane 8j + r; for x4 that lane's tile row is itself.
        const owner = (r: number) => 8 * j + r;
        expect(out[l * 4 + j], `x4 lane ${l} reg ${j}`).toBe(pairOf(half(owner(g), 0, 2 * t), half(owner(g), 0, 2 * t + 1)));
        expect(out[128 + l * 4 + j], `x4.trans lane ${l} reg ${j}`).toBe(pairOf(half(owner(2 * t), 4, g), half(owner(2 * t + 1), 4, g)));
      }
      for (let j = 0; j < 2; j++) {
        const owner = (r: number) => (8 * j + r) % 16;
        expect(out2[l * 2 + j], `x2 lane ${l} reg ${j}`).toBe(pairOf(half(owner(g), 4, 2 * t), half(owner(g), 4, 2 * t + 1)));
        expect(out2[64 + l * 2 + j], `x2.trans lane ${l} reg ${j}`).toBe(pairOf(half(owner(2 * t), 0, g), half(owner(2 * t + 1), 0, g)));
      }
      expect(out1[l], `x1 lane ${l}`).toBe(pairOf(half(g, 0, 2 * t), half(g, 0, 2 * t + 1)));
      expect(out1[32 + l], `x1.trans lane ${l}`).toBe(pairOf(half(2 * t, 4, g), half(2 * t + 1, 4, g)));
    }
  });
});

describe("ldmatrix's errors", () => {
  it("reads shared memory only", () => {
    expectError(`device_kernel k(a: readonly global<u32>, out: global<u32x4>) {
  out[0] = ldmatrix_x4(a, 0);
}
`, "GK3005 2:24 ldmatrix_x4() reads a shared array of u32 (words of two 16-bit elements), but 'a' is global memory");
  });

  it("a row must be 16-byte aligned (GK8030)", () => {
    expect(simErrorOf(p.sources, () => run(p, "misaligned", [1], [32], [new Uint32Array(128)]))).toMatch(/^GK8030 /);
  });
});

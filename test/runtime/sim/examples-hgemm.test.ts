/**
 * examples/hgemm.gk on the simulator: C = A × Bᵀ over 2×2 blocks of 128×128, K = 96 (three
 * steps of the two shared-memory stages), f16 and bf16, against the definition: each element
 * is K/16 mma steps in k order, each step the measured tensor-core arithmetic
 * (src/ir/tensorCore.ts), its f32 result the next step's accumulator. Bit for bit.
 */
import { describe, expect, it } from "vitest";
import { fromBf16Bits, fromF16Bits } from "../../../src/ir/halves.js";
import { mmaElement } from "../../../src/ir/tensorCore.js";
import { example, run } from "./helpers.js";

const p = example("hgemm");
const M = 256, N = 256, K = 96;

/** Random halves' bits: values of either sign with exponents within ±4 (f16 field 11..19, bf16 123..131), some zeros. */
function halves(n: number, seed: number, bf16: boolean): Uint16Array {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), s >>> 8);
  return Uint16Array.from({ length: n }, () => {
    const r = next();
    if (r % 16 === 0) return 0;
    const sign = (r & 1) << 15;
    return bf16 ? sign | ((123 + (next() % 9)) << 7) | (next() & 0x7f) : sign | ((11 + (next() % 9)) << 10) | (next() & 0x3ff);
  });
}

describe("examples/hgemm.gk", () => {
  for (const isBf16 of [false, true]) {
    it(`multiplies ${isBf16 ? "bf16" : "f16"} matrices as chained mma steps do, bit for bit`, () => {
      const a = halves(M * K, 1 + Number(isBf16), isBf16), b = halves(N * K, 7 + Number(isBf16), isBf16);
      const C = new Float32Array(M * N);
      run(p, "hgemm", [N / 128, M / 128], [256], [M, N, K, new Uint32Array(a.buffer), new Uint32Array(b.buffer), C, isBf16]);
      const value = isBf16 ? fromBf16Bits : fromF16Bits;
      const av = Array.from(a, value), bv = Array.from(b, value);
      for (let r = 0; r < M; r += 5) for (let c = 0; c < N; c += 3) {
        let acc = 0;
        for (let k0 = 0; k0 < K; k0 += 16) acc = mmaElement(av.slice(r * K + k0, r * K + k0 + 16), bv.slice(c * K + k0, c * K + k0 + 16), acc, isBf16 ? "bf16" : "f16", "f32");
        expect(C[r * N + c], `C[${r}][${c}]`).toBe(acc);
      }
    });
  }
});

/** What gk/std/mma's tests compare with (test/stdlib/mma.test.ts, test/gpu/stdlibMma.test.ts): random halves, and C = A · B as the tensor cores compute it. */
import { fromBf16Bits, fromF16Bits } from "../../src/ir/halves.js";
import { mmaElement } from "../../src/ir/tensorCore.js";

/** Random halves as bits: values of either format in about [-2, 2], some exact small integers. */
export function randomHalves(len: number, seed: number, bf16: boolean): Uint16Array {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s);
  return Uint16Array.from({ length: len }, () => {
    const r = next();
    // sign, an exponent near 1.0's, and random fraction bits
    return bf16 ? ((r & 0x8000) | ((0x3e + ((r >>> 20) % 3)) << 7) | (r & 0x7f)) : ((r & 0x8000) | ((0xe + ((r >>> 20) % 3)) << 10) | (r & 0x3ff));
  });
}

/** C = A · B as the tensor cores compute it in steps of 16 along k (the last step's missing k zeros). */
export function refMma(a: Uint16Array, b: Uint16Array, m: number, n: number, k: number, bf16: boolean): Float32Array {
  const dec = bf16 ? fromBf16Bits : fromF16Bits;
  const c = new Float32Array(m * n);
  const row: number[] = new Array(16), col: number[] = new Array(16);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let k0 = 0; k0 < k; k0 += 16) {
        for (let t = 0; t < 16; t++) {
          row[t] = k0 + t < k ? dec(a[i * k + k0 + t]!) : 0;
          col[t] = k0 + t < k ? dec(b[(k0 + t) * n + j]!) : 0;
        }
        acc = mmaElement(row, col, acc, bf16 ? "bf16" : "f16", "f32");
      }
      c[i * n + j] = acc;
    }
  return c;
}

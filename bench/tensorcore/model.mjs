// The H200's tensor-core arithmetic for mma.sync (f16/bf16 m16n8k16, tf32 m16n8k8), as
// measured by mma_probe.cu, and a check of the model against a probe's dump, bit for bit.
//
//   nvcc -O2 -gencode=arch=compute_90,code=sm_90 -o mma_probe bench/tensorcore/mma_probe.cu
//   ./mma_probe OUTDIR                                   # on the GPU: writes OUTDIR/mma_*.bin
//   node bench/tensorcore/model.mjs OUTDIR/mma_f16_f32.bin [tiles per input set]
//
// The model (README.md beside this file): for one output element, the K exact products and
// the accumulator are aligned to the largest of their nominal exponents (a product's is the
// sum of its factors' exponent fields, the accumulator's its exponent field, a subnormal's
// exponent field counting as emin), each is truncated toward zero to the bits within 26 of
// that exponent (2^(E-25) and up), the truncated terms are summed exactly, and the sum is
// rounded once to the accumulator's format: toward zero for f32, to nearest even for f16.
import { readFileSync } from "node:fs";

const SCALE = 400n; // values as BigInt fixed point, value * 2^400: exact for every input here
const WIDTH = 26;

/** floor(log2 |x|) of a nonzero BigInt. */
function bitlen(x) {
  return (x < 0n ? -x : x).toString(2).length - 1;
}

/** A float's bits as { m, e } (value m * 2^e, m signed), or null for inf/NaN. */
function decode(bits, ebits, mbits) {
  const sign = (bits >>> (ebits + mbits)) & 1;
  const e = (bits >>> mbits) & ((1 << ebits) - 1);
  const m = bits & ((1 << mbits) - 1);
  const bias = (1 << (ebits - 1)) - 1;
  if (e === (1 << ebits) - 1) return null;
  const mm = BigInt(e === 0 ? m : m + (1 << mbits));
  return { m: sign ? -mm : mm, e: e === 0 ? 1 - bias - mbits : e - bias - mbits, field: e === 0 ? 1 - bias : e - bias };
}

export const FORMATS = {
  f16: { decode: (b) => decode(b & 0xffff, 5, 10), p: 11, emin: -24 },
  bf16: { decode: (b) => decode(b & 0xffff, 8, 7), p: 8, emin: -133 },
  tf32: { decode: (b) => decode((b >>> 13) & 0x7ffff, 8, 10), p: 11, emin: -136 },
  f32: { decode: (b) => decode(b >>> 0, 8, 23), p: 24, emin: -149 },
};

const fixed = (v) => v.m << (BigInt(v.e) + SCALE);

/** Rounds a fixed-point value to `p` significant bits, no finer than 2^emin: "rz" or "rn" (ties to even). */
function round(x, p, emin, mode) {
  if (x === 0n) return 0n;
  const q = Math.max(bitlen(x) - Number(SCALE) - (p - 1), emin);
  const G = BigInt(q) + SCALE;
  const ax = x < 0n ? -x : x;
  let t = ax >> G;
  if (mode === "rn") {
    const rem = ax - (t << G), half = 1n << (G - 1n);
    if (rem > half || (rem === half && (t & 1n) === 1n)) t += 1n;
  }
  return x < 0n ? -(t << G) : t << G;
}

/**
 * One element of D = A·B + C: `a`, `b` the K input pairs' bits, `c` the accumulator's bits;
 * `input` and `acc` name formats. The result as fixed point (null if an operand is inf/NaN).
 */
export function mmaElement(a, b, c, input, acc) {
  const fi = FORMATS[input], fa = FORMATS[acc];
  const cv = fa.decode(c);
  if (!cv) return null;
  const terms = [], exps = [];
  for (let k = 0; k < a.length; k++) {
    const x = fi.decode(a[k]), y = fi.decode(b[k]);
    if (!x || !y) return null;
    const prod = (x.m * y.m) << (BigInt(x.e + y.e) + SCALE);
    if (prod !== 0n) { terms.push(prod); exps.push(x.field + y.field + Number(SCALE)); }
  }
  const cx = fixed(cv);
  if (cx !== 0n) { terms.push(cx); exps.push(cv.field + Number(SCALE)); }
  if (!terms.length) return 0n;
  const g = BigInt(Math.max(...exps) - (WIDTH - 1));
  let sum = 0n;
  for (const t of terms) sum += g <= 0n ? t : t < 0n ? -((-t >> g) << g) : (t >> g) << g;
  return round(sum, fa.p, fa.emin, acc === "f16" ? "rn" : "rz");
}

/** Checks the model against a probe dump: prints the share of elements it gets bit for bit, per input set. */
function check(file, perSet) {
  const buf = readFileSync(file);
  const [kind, tiles, nsets, T] = new Uint32Array(buf.buffer, buf.byteOffset, 4);
  const [input, acc] = [["f16", "f32"], ["bf16", "f32"], ["f16", "f16"], ["tf32", "f32"]][kind];
  const K = kind === 3 ? 8 : 16, an = 16 * K, bn = 8 * K, wide = kind === 3;
  let off = buf.byteOffset + 16;
  const take = (n, bytes) => {
    const arr = bytes === 4 ? new Uint32Array(buf.buffer.slice(off, off + n * 4)) : new Uint16Array(buf.buffer.slice(off, off + n * 2));
    off += n * bytes;
    return arr;
  };
  const A = take(tiles * an, wide ? 4 : 2), B = take(tiles * bn, wide ? 4 : 2), C = take(tiles * 128, 4), D = take(tiles * 128, 4);
  const names = ["mixed", "narrow", "wide", "czero", "sub", "bigc"];
  let all = 0, ok = 0;
  for (let s = 0; s < nsets; s++) {
    let n = 0, good = 0;
    for (let t = s * T; t < s * T + Math.min(perSet, T); t++)
      for (let row = 0; row < 16; row++)
        for (let col = 0; col < 8; col++) {
          const a = [], b = [];
          for (let k = 0; k < K; k++) { a.push(A[t * an + row * K + k]); b.push(B[t * bn + k * 8 + col]); }
          const want = FORMATS[acc].decode(D[t * 128 + row * 8 + col]);
          const got = mmaElement(a, b, C[t * 128 + row * 8 + col], input, acc);
          if (got === null || !want) continue;
          n++;
          if (got === fixed(want)) good++;
        }
    console.log(`${input} -> ${acc}, set ${names[s] ?? s}: ${good} of ${n} elements bit for bit`);
    all += n; ok += good;
  }
  console.log(`${input} -> ${acc}: ${ok} of ${all} (${((100 * ok) / all).toFixed(3)}%)`);
}

if (import.meta.url === `file://${process.argv[1]}`) check(process.argv[2], Number(process.argv[3] ?? 1e9));

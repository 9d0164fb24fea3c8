/**
 * What examples/flash_attention.gk's tests (simulator and GPU) compare with: random halves, and
 * softmax(Q Kᵀ · scale) V computed in f64, head by head, from the same halves.
 */

/** n random halves' bits, from values uniform in [-2, 2) rounded by `bits`. */
export function randomHalfBits(n: number, seed: number, bits: (x: number) => number): Uint16Array {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), (s >>> 8) / 16777216);
  return Uint16Array.from({ length: n }, () => bits(4 * next() - 2));
}

/** softmax(Q Kᵀ · scale) V in f64 for `heads` heads of S rows of D, rows (heads · S) × D. */
export function attentionReference(q: readonly number[], k: readonly number[], v: readonly number[], heads: number, S: number, D: number, scale: number, causal: boolean): Float64Array {
  const out = new Float64Array(heads * S * D);
  for (let h = 0; h < heads; h++) for (let i = 0; i < S; i++) {
    const base = h * S * D;
    const keys = causal ? i + 1 : S;
    const e = new Float64Array(keys);
    let m = -Infinity;
    for (let j = 0; j < keys; j++) {
      let dot = 0;
      for (let d = 0; d < D; d++) dot += q[base + i * D + d]! * k[base + j * D + d]!;
      e[j] = dot * scale;
      m = Math.max(m, e[j]!);
    }
    let sum = 0;
    for (let j = 0; j < keys; j++) sum += e[j] = Math.exp(e[j]! - m);
    for (let d = 0; d < D; d++) {
      let o = 0;
      for (let j = 0; j < keys; j++) o += e[j]! * v[base + j * D + d]!;
      out[base + i * D + d] = o / sum;
    }
  }
  return out;
}

/** ‖o − ref‖ / ‖ref‖ over the values of O's half bits, NaN where an element is NaN (unwritten). */
export function relativeError(O: Uint16Array, value: (bits: number) => number, ref: Float64Array): number {
  let err = 0, norm = 0;
  O.forEach((b, i) => {
    err += (value(b) - ref[i]!) ** 2;
    norm += ref[i]! ** 2;
  });
  return Math.sqrt(err / norm);
}

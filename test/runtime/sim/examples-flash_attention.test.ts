/**
 * examples/flash_attention.gk on the simulator: every kernel (f16 and bf16, head dim 64 and
 * 128, causal and not) over 2 heads of 256 queries (blocks of 128, causal 64 at D = 64), four
 * key tiles of 64, on random halves, against softmax(Q Kᵀ · scale)
 * V computed in f64 from the same halves: ‖O − ref‖ / ‖ref‖ within the rounding of P and O to
 * halves, every element written; the same for bench/attention_tiles.gk's tilings, also with keys
 * that move the rows' maxima late (the deferred rescale). And
 * packHalves, two probabilities rounded to halves and packed in a u32, against the host's
 * rounding for every f16 value in [0, 1] (and values between them) and bf16 values over its
 * whole exponent range.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "../../../src/ir/halves.js";
import { attentionReference, randomHalfBits, relativeError } from "./attentionReference.js";
import { example, gk, run } from "./helpers.js";

const p = example("flash_attention");
const HEADS = 2;

describe("examples/flash_attention.gk", () => {
  for (const type of ["f16", "bf16"] as const) for (const D of [64, 128]) for (const causal of [false, true]) {
    const kernel = `flash_${type}_d${D}${causal ? "_causal" : ""}`;
    it(`${kernel} computes softmax(Q Kᵀ · scale) V`, () => {
      const [bits, value] = type === "f16" ? [f16Bits, fromF16Bits] : [bf16Bits, fromBf16Bits];
      const S = 256, BM = D === 64 && causal ? 64 : 128;
      const n = HEADS * S * D;
      const seed = D + (causal ? 1 : 0) + (type === "bf16" ? 2 : 0);
      const [q, k, v] = [1, 2, 3].map((i) => randomHalfBits(n, seed * 10 + i, bits));
      const O = new Uint16Array(n).fill(0x7fff); // NaN in both types: an element left unwritten fails
      const scale = 1 / Math.sqrt(D);
      run(p, kernel, [S / BM, HEADS], [128], [S, scale, ...[q, k, v].map((x) => new Uint32Array(x!.buffer)), O]);
      const ref = attentionReference(Array.from(q!, value), Array.from(k!, value), Array.from(v!, value), HEADS, S, D, scale, causal);
      O.forEach((b, i) => expect(Number.isNaN(value(b)), `O[${i}]`).toBe(false));
      // P and O rounded to halves: 2^-11 (f16) and 2^-8 (bf16) relative each, and the sums' f32.
      expect(relativeError(O, value, ref)).toBeLessThan(type === "f16" ? 1e-3 : 8e-3);
    });
  }
});

describe("bench/attention_tiles.gk", () => {
  // [BN, DW, MT, PIPE, qs] (qs: flashq, Q's tile in shared memory), f16 and bf16, causal and
  // not, four key tiles; "ramp": key row j scaled by 1 + j / 16, so that rows' maxima grow past
  // the threshold again and again (O rescaled late).
  const lib = readLib();
  const text = readFileSync("bench/attention_tiles.gk", "utf8").replace("../examples/lib/flash_attention.gk", "./lib.gk");
  const cases = [[64, 32, 2, 0], [64, 32, 2, 2], [32, 64, 1, 2], [64, 32, 2, 0, true], [32, 64, 2, 2, true], [32, 32, 2, 1], [64, 64, 1, 1], [64, 32, 2, 1, true], [64, 32, 2, 3], [64, 32, 1, 4], [32, 64, 2, 4, true], [64, 32, 2, 5]] as const;
  for (const [bn, dw, mt, pipe, qs] of cases) for (const type of ["f16", "bf16"] as const) for (const causal of [false, true]) for (const ramp of [false, true]) {
    const instance = `flash${qs ? "q" : ""}<${type}, ${type === "bf16"}, ${causal}, ${bn}, ${dw}, ${mt}, ${pipe}>`;
    it(`${instance}${ramp ? " (ramp)" : ""} computes softmax(Q Kᵀ · scale) V`, () => {
      const [bits, value] = type === "f16" ? [f16Bits, fromF16Bits] : [bf16Bits, fromBf16Bits];
      const S = 4 * bn, D = 2 * dw, n = HEADS * S * D;
      const [q, k, v] = [1, 2, 3].map((i) => randomHalfBits(n, bn + dw + mt + i + (causal ? 9 : 0) + pipe * 5, bits));
      if (ramp) k!.forEach((b, i) => (k![i] = bits(value(b) * (1 + (Math.floor(i / D) % S) / 16))));
      const O = new Uint16Array(n).fill(0x7fff);
      const scale = 1 / Math.sqrt(D);
      const grid = [S / (64 * mt), HEADS] as const;
      const p = gk(`${text}\nlaunch ${instance}(S = ${S}, scale = 0.125, Q = fill(${n / 2}, 0), K = fill(${n / 2}, 0), V = fill(${n / 2}, 0), O = zeros(${n})) grid(${grid.join(", ")}) block(128);\n`, { "lib.gk": lib });
      run(p, instance, [...grid], [128], [S, scale, ...[q, k, v].map((x) => new Uint32Array(x!.buffer)), O]);
      const ref = attentionReference(Array.from(q!, value), Array.from(k!, value), Array.from(v!, value), HEADS, S, D, scale, causal);
      O.forEach((b, i) => expect(Number.isNaN(value(b)), `O[${i}]`).toBe(false));
      expect(relativeError(O, value, ref)).toBeLessThan(type === "f16" ? 1e-3 : 8e-3);
    });
  }
});

describe("packHalves (examples/lib/flash_attention.gk)", () => {
  const q = gk(`import { packHalves } from "./lib.gk";
device_kernel pack(isBf16: bool, p: readonly global<f32>, out: global<u32>) {
  out[globalId.x] = packHalves(isBf16, p[2 * globalId.x], p[2 * globalId.x + 1]);
}
`, { "lib.gk": readLib() });
  const packed = (isBf16: boolean, ps: Float32Array) => {
    const out = new Uint32Array(ps.length / 2);
    run(q, "pack", [out.length / 32], [32], [isBf16, ps, out]);
    return out;
  };

  it("packs the bits of f16(a) and f16(b), a low, for every f16 in [0, 1] and values between them", () => {
    const ps = new Float32Array(64 * 961); // 2 · 15361 values, then zeros
    for (let b = 0; b <= 0x3c00; b++) ps[2 * b] = fromF16Bits(b), ps[2 * b + 1] = Math.fround(fromF16Bits(b) * 1.0003);
    packed(false, ps).forEach((w, i) => expect(w, `p = ${ps[2 * i]}, ${ps[2 * i + 1]}`).toBe((f16Bits(ps[2 * i]!) | (f16Bits(ps[2 * i + 1]!) << 16)) >>> 0));
  });

  it("packs the bits of bf16(a) and bf16(b) over bf16's exponent range", () => {
    const ps = new Float32Array(4096);
    let s = 5;
    for (let i = 0; i < ps.length; i++) ps[i] = Math.fround(2 ** (-140 * ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32)));
    ps[0] = 1, ps[1] = 0, ps[2] = 2 ** -24, ps[3] = Math.fround(2 ** -24 * 0.999), ps[4] = 2 ** -126, ps[5] = 2 ** -133;
    packed(true, ps).forEach((w, i) => expect(w, `p = ${ps[2 * i]}, ${ps[2 * i + 1]}`).toBe((bf16Bits(ps[2 * i]!) | (bf16Bits(ps[2 * i + 1]!) << 16)) >>> 0));
  });
});

function readLib(): string {
  return readFileSync("examples/lib/flash_attention.gk", "utf8");
}

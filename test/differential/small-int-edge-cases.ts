/**
 * Edge cases of the small integer types (i8 u8 i16 u16), with expected results computed here
 * from the spec's words (language.md: Conversions, Semantics of operations): every operator
 * wraps at the type's width, division rounds toward zero (MIN / -1 is MIN), shift counts are
 * taken modulo the width, conversions from floats truncate and saturate (NaN → 0), and
 * atomics, which the GPU does through atomicCAS (on the 32-bit word holding a byte, on the
 * element itself for 2 bytes), update only their own element while threads hit that element
 * and its neighbours at once.
 */
import type { EdgeCase } from "./edge-cases.js";
import { F16, roundDouble } from "./exact-floats.js";
import { float32ToBf16, float32ToF16 } from "../../src/runtime/halfArrays.js";

type Small = "i8" | "u8" | "i16" | "u16";
const SMALL: Record<Small, { bits: number; signed: boolean; array: Int8ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor | Uint16ArrayConstructor }> = {
  i8: { bits: 8, signed: true, array: Int8Array },
  u8: { bits: 8, signed: false, array: Uint8Array },
  i16: { bits: 16, signed: true, array: Int16Array },
  u16: { bits: 16, signed: false, array: Uint16Array },
};

const range = (t: Small): [number, number] => (SMALL[t].signed ? [-(2 ** (SMALL[t].bits - 1)), 2 ** (SMALL[t].bits - 1) - 1] : [0, 2 ** SMALL[t].bits - 1]);
const wrap = (t: Small, x: bigint) => Number(SMALL[t].signed ? BigInt.asIntN(SMALL[t].bits, x) : BigInt.asUintN(SMALL[t].bits, x));

/** float → small integer: truncate toward zero, saturate at the type's range, NaN → 0. */
function toSmall(v: number, t: Small): number {
  const [lo, hi] = range(t);
  if (Number.isNaN(v)) return 0;
  if (v >= hi) return hi;
  if (v <= lo) return lo;
  return Math.trunc(v) + 0;
}

// ---------------------------------------------------------------- conversions

const CAST_VALUES = [NaN, Infinity, -Infinity, -0, 0.5, -0.5, -0.99, 127.9, 128, -128.9, -129, 255.5, 256, -1, 32767.5, 32768, -32768.5, -32769, 65535.9, 65536, 1e10, -1e10, 65504];
const INT_VALUES = [0n, 127n, 128n, -129n, 255n, 256n, -1n, 32767n, 32768n, -32769n, 65535n, 65536n, -(1n << 63n), (1n << 63n) - 1n, 0x12345678n, -0x12345678n, 200n, -200n, 1n, 100000n, -100000n, 3n, 70000n];

const smallCasts: EdgeCase = (() => {
  const n = CAST_VALUES.length;
  const x = Float32Array.from(CAST_VALUES);
  const d = Float64Array.from(CAST_VALUES);
  const h = float32ToF16(CAST_VALUES);
  const halfValues = CAST_VALUES.map((v) => roundDouble(F16, v));
  const expect = (t: Small) =>
    Array.from({ length: n }, (_, k) => [toSmall(x[k]!, t), toSmall(d[k]!, t), toSmall(halfValues[k]!, t), wrap(t, INT_VALUES[k]!)]).flat();
  const outs = (["i8", "u8", "i16", "u16"] as const).map((t) => `  o${t}[4 * t] = ${t}(x[t]);\n  o${t}[4 * t + 1] = ${t}(d[t]);\n  o${t}[4 * t + 2] = ${t}(h[t]);\n  o${t}[4 * t + 3] = ${t}(w[t]);`);
  return {
    name: "conversions to i8 u8 i16 u16: from floats truncate, saturate and turn NaN into 0; from integers wrap",
    kernel: "smallcasts",
    source: `device_kernel smallcasts(n: i32, x: readonly global<f32>, d: readonly global<f64>, h: readonly global<f16>, w: readonly global<i64>,
                           oi8: global<i8>, ou8: global<u8>, oi16: global<i16>, ou16: global<u16>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
${outs.join("\n")}
}
`,
    grid: [1],
    block: [32],
    args: [n, x, d, h, BigInt64Array.from(INT_VALUES), new Int8Array(4 * n), new Uint8Array(4 * n), new Int16Array(4 * n), new Uint16Array(4 * n)],
    expected: { oi8: expect("i8"), ou8: expect("u8"), oi16: expect("i16"), ou16: expect("u16") },
    elems: { ou8: "u8", ou16: "u16" },
  };
})();

// ---------------------------------------------------------------- arithmetic

/** Pairs where the small types' arithmetic is interesting: MIN / -1, overflow, counts at and past the width. */
function pairs(t: Small): [number, number][] {
  const [lo, hi] = range(t);
  const w = SMALL[t].bits;
  const raw: [number, number][] = [
    [lo, -1], [lo, 1], [hi, -1], [-7, 2], [7, -2], [-7, -2], [5, w], [5, w + 1], [-5, 2 * w - 1], [-1, -1], [1, w - 1],
    [hi, hi], [lo, lo], [hi, 2], [100, 3], [lo + 1, -1], [3, 255], [-100, 100], [hi, lo],
  ];
  // An unsigned type reads a negative number as its wrapped bits.
  return raw.map(([a, b]) => [wrap(t, BigInt(a)), wrap(t, BigInt(b))]);
}

function smallArith(t: Small): EdgeCase {
  const ps = pairs(t);
  const w = BigInt(SMALL[t].bits);
  const wr = (x: bigint) => wrap(t, x);
  const out = ps.flatMap(([a, b]) => {
    const [x, y] = [BigInt(a), BigInt(b)];
    const c = BigInt.asUintN(32, y) % w; // the count modulo the width
    const bitsOfX = SMALL[t].signed ? BigInt.asUintN(SMALL[t].bits, x) : x;
    return [
      wr(x + y), wr(x - y), wr(x * y), y === 0n ? 0 : wr(x / y), y === 0n ? 0 : wr(x % y), wr(x << c), wr(x >> c), wr(bitsOfX >> c),
      wr(-x), wr(~x), wr(x < 0n ? -x : x), wr(x < y ? x : y), wr(x > y ? x : y), wr(x & y), wr(x | y), wr(x ^ y),
    ];
  });
  const flags = ps.flatMap(([a, b]) => [a < b, a <= b, a == b, a != b].map((f) => (f ? 1 : 0)));
  return {
    name: `${t}: every operator wraps at the width, MIN / -1 is MIN, shift counts are taken modulo ${SMALL[t].bits}`,
    kernel: `arith_${t}`,
    source: `device_kernel arith_${t}(n: i32, a: readonly global<${t}>, b: readonly global<${t}>, o: global<${t}>, f: global<bool>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  const x = a[t];
  const y = b[t];
  o[16 * t] = x + y;
  o[16 * t + 1] = x - y;
  o[16 * t + 2] = x * y;
  o[16 * t + 3] = y != 0 ? x / y : 0;
  o[16 * t + 4] = y != 0 ? x % y : 0;
  o[16 * t + 5] = x << y;
  o[16 * t + 6] = x >> y;
  o[16 * t + 7] = x >>> y;
  o[16 * t + 8] = -x;
  o[16 * t + 9] = ~x;
  o[16 * t + 10] = abs(x);
  o[16 * t + 11] = min(x, y);
  o[16 * t + 12] = max(x, y);
  o[16 * t + 13] = x & y;
  o[16 * t + 14] = x | y;
  o[16 * t + 15] = x ^ y;
  f[4 * t] = x < y;
  f[4 * t + 1] = x <= y;
  f[4 * t + 2] = x == y;
  f[4 * t + 3] = x != y;
}
`,
    grid: [1],
    block: [32],
    args: [ps.length, SMALL[t].array.from(ps.map((p) => p[0])), SMALL[t].array.from(ps.map((p) => p[1])), new SMALL[t].array(16 * ps.length), new Uint8Array(4 * ps.length)],
    expected: { o: out, f: flags },
    elems: { o: t },
  };
}

const smallDivZero: EdgeCase = {
  name: "i8 and u16 division and remainder by zero: 0 on the GPU, GK8003 in the simulator",
  kernel: "smalldivzero",
  source: `device_kernel smalldivzero(a: readonly global<i8>, b: readonly global<u16>, zero: readonly global<i32>, o8: global<i8>, o16: global<u16>) {
  const t = globalId.x;
  o8[2 * t] = a[t] / i8(zero[t]);
  o8[2 * t + 1] = a[t] % i8(zero[t]);
  o16[2 * t] = b[t] / u16(zero[t]);
  o16[2 * t + 1] = b[t] % u16(zero[t]);
}
`,
  grid: [1],
  block: [4],
  args: [Int8Array.from([7, -7, -128, 0]), Uint16Array.from([7, 65535, 1, 0]), new Int32Array(4), Int8Array.from({ length: 8 }, () => 99), Uint16Array.from({ length: 8 }, () => 99)],
  expected: { o8: Array(8).fill(0), o16: Array(8).fill(0) },
  elems: { o16: "u16" },
  simError: "GK8003",
};

// ---------------------------------------------------------------- atomics

const THREADS = 256;

/**
 * Contended atomics whose result does not depend on the order (add wraps; or, and, min, max),
 * on shared and global elements that share 32-bit words with their neighbours, and atomics on
 * each thread's own element (exch, CAS, sub) next to every other thread's.
 */
const smallAtomics: EdgeCase = (() => {
  const t = Array.from({ length: THREADS }, (_, k) => k);
  // Shared u8 counters: each of 8 gets 32 threads adding 9 → 288 mod 256.
  const s8 = Array.from({ length: 8 }, (_, i) => wrap("u8", BigInt(t.filter((k) => (k & 7) === i).length * 9)));
  // Shared i16 sums of -k for k with k & 3 == i (wrapping).
  const s16 = Array.from({ length: 4 }, (_, i) => wrap("i16", -BigInt(t.filter((k) => (k & 3) === i).reduce((a, k) => a + k * 300, 0))));
  // Global u16 or of 1 << (k >> 4) over k & 7 == i; i8 min and max of (k - 128) wrapped, over k & 7 == i.
  const ors = Array.from({ length: 8 }, (_, i) => t.filter((k) => (k & 7) === i).reduce((a, k) => a | (1 << (k >> 4)), 0));
  const mins = Array.from({ length: 8 }, (_, i) => Math.min(...t.filter((k) => (k & 7) === i).map((k) => wrap("i8", BigInt(k - 128)))));
  const maxs = Array.from({ length: 8 }, (_, i) => Math.max(...t.filter((k) => (k & 7) === i).map((k) => wrap("i8", BigInt(k - 128)))));
  // Own elements: exch to k, then CAS from k to 255 - k (succeeds), then CAS from 0 to 1 (succeeds only where 255 - k is 0).
  const own = t.map((k) => wrap("u8", BigInt(255 - k)));
  const olds = t.flatMap((k) => [wrap("u8", BigInt(k * 7)), k, wrap("u8", BigInt(255 - k))]);
  return {
    name: "atomics on u8, i16, u16 and i8 elements in shared and global memory, many threads on neighbouring bytes at once",
    kernel: "narrowatomics",
    source: `device_kernel narrowatomics(seed: readonly global<u8>, counts: global<u8>, sums: global<i16>, ors: global<u16>, mins: global<i8>, maxs: global<i8>,
                             own: global<u8>, olds: global<u8>) {
  shared s8: u8[8];
  shared s16: i16[4];
  const t = threadIdx.x;
  if (t < 8) {
    s8[t] = 0;
  }
  if (t < 4) {
    s16[t] = 0;
  }
  barrier();
  atomicAdd(s8, t & 7, 9);
  atomicSub(s16, t & 3, i16(t * 300));
  atomicOr(ors, t & 7, u16(1 << (t >> 4)));
  atomicMin(mins, t & 7, i8(t - 128));
  atomicMax(maxs, t & 7, i8(t - 128));
  olds[3 * t] = atomicExch(own, t, u8(t));
  olds[3 * t + 1] = atomicCAS(own, t, u8(t), 255 - u8(t));
  olds[3 * t + 2] = atomicCAS(own, t, seed[0], 1);
  barrier();
  if (t < 8) {
    counts[t] = s8[t];
  }
  if (t < 4) {
    sums[t] = s16[t];
  }
}
`,
    grid: [1],
    block: [THREADS],
    args: [
      Uint8Array.from([0]), new Uint8Array(8), new Int16Array(4), new Uint16Array(8), Int8Array.from({ length: 8 }, () => 127), Int8Array.from({ length: 8 }, () => -128),
      Uint8Array.from(t, (k) => k * 7), new Uint8Array(3 * THREADS),
    ],
    // Only thread 255 finds 0 in its element for the last CAS, and writes 1.
    expected: { counts: s8, sums: s16, ors, mins, maxs, own: own.map((v, k) => (k === 255 ? 1 : v)), olds },
    elems: { counts: "u8", ors: "u16", own: "u8", olds: "u8" },
  };
})();

/**
 * A thread's atomics on its own u8, u16 and f16 elements in a loop, each operand read from
 * the element itself: every read sees the atomic before it (k3708 and k4135 of the GPU
 * differential run, where nvcc read the array through the non-coherent cache and saw the value
 * from before the loop). Only CAS-loop atomics here: a native one (f16 atomicAdd) in the
 * kernel made nvcc keep the reads coherent and hid the defect.
 */
const ownAtomicReads: EdgeCase = (() => {
  const n = 64;
  const b0 = Array.from({ length: n }, (_, k) => 1000 * k + 0xde00);
  const bAfter = b0.map((v) => [0, 1].reduce((x) => (x + (x | 1)) % 65536, v));
  return {
    name: "atomics on a thread's own u8, u16 and f16 elements in a loop, their operands read from the element: each read sees the atomic before it",
    kernel: "ownatomicreads",
    source: `device_kernel ownatomicreads(a: global<u8>, b: global<u16>, h: global<f16>) {
  const t = globalId.x;
  for (let i = 0; i < 2; i++) {
    atomicXor(a, t, max(a[t], u8(8)));
    atomicAdd(b, t, b[t] | u16(1));
    atomicMax(h, t, h[t] + 1.0);
  }
}
`,
    grid: [2],
    block: [n / 2],
    args: [Uint8Array.from({ length: n }, () => 0xad), Uint16Array.from(b0), float32ToF16(Array.from({ length: n }, (_, k) => k + 1))],
    // a: 0xad ^ 0xad = 0, then 0 ^ max(0, 8) = 8; h grows by 1 twice (exact).
    expected: { a: Array(n).fill(8), b: bAfter, h: Array.from({ length: n }, (_, k) => k + 3) },
    elems: { a: "u8", b: "u16", h: "f16" },
  };
})();

/**
 * A loop whose bound reads the element that its body updates with a 2-byte atomic (behind a
 * `||`): the bound is read again on every iteration (seed 1 kernel 5915 of the GPU
 * differential run, where ptxas read it one iteration late and the loop ran once too often).
 */
const atomicBound: EdgeCase = (() => {
  const n = 64;
  const a0 = Array.from({ length: 4 * n }, (_, k) => wrap("i16", BigInt(-8531 + 7 * k)));
  const after = a0.map((v, k) => {
    if (k % 4 !== 2) return v;
    let x = v;
    for (let i = 0; i < Math.abs(x % 5); i++) x = wrap("i16", BigInt(x + 18));
    return x;
  });
  return {
    name: "a loop bound read from the element its body updates with an i16 atomic is read again on every iteration",
    kernel: "atomicbound",
    source: `device_kernel atomicbound(a: global<i16>, skip: readonly global<bool>, seen: global<bool>) {
  const o = globalId.x * 4;
  let s = false;
  for (let i = 0; i < i32(abs(a[o + 2] % 5)); i++) {
    s = skip[o] || atomicAdd(a, o + 2, i16(18)) < a[o + 3];
  }
  seen[globalId.x] = s;
}
`,
    grid: [2],
    block: [n / 2],
    args: [Int16Array.from(a0), new Uint8Array(4 * n), new Uint8Array(n)],
    expected: { a: after, seen: a0.filter((_, k) => k % 4 === 2).map((v, t) => (Math.abs(v % 5) > 0 && (after[4 * t + 2]! - 18 < a0[4 * t + 3]!) ? 1 : 0)) },
  };
})();

/**
 * atomicCAS on 2-byte elements (u16, f16, bf16; PTX atom.cas.b16), every thread on its own
 * element beside its neighbours' at once: it swaps only when the element equals the compare
 * value bit for bit (an f16 +0 is not -0), and returns the old value either way.
 */
const wideCas: EdgeCase = (() => {
  const n = 256;
  const t = Array.from({ length: n }, (_, k) => k);
  const u0 = t.map((k) => k * 3 + 1);
  const seed = 65535 - 255;
  return {
    name: "atomicCAS on u16, f16 and bf16 elements, many threads on neighbouring elements at once, compared bit for bit",
    kernel: "widecas",
    source: `device_kernel widecas(seed: readonly global<u16>, u: global<u16>, h: global<f16>, b: global<bf16>, olds: global<u16>, hold: global<f16>, bold: global<bf16>) {
  const t = globalId.x;
  olds[3 * t] = atomicExch(u, t, u16(t * 7));
  olds[3 * t + 1] = atomicCAS(u, t, u16(t * 7), 65535 - u16(t));
  olds[3 * t + 2] = atomicCAS(u, t, seed[0], 1);
  hold[2 * t] = atomicCAS(h, t, f16(-0.0), f16(2.0));
  hold[2 * t + 1] = atomicCAS(h, t, f16(0.0), f16(3.0));
  bold[t] = atomicCAS(b, t, bf16(t), bf16(-1.0));
}
`,
    grid: [2],
    block: [n / 2],
    args: [Uint16Array.from([seed]), Uint16Array.from(u0), float32ToF16(t.map((k) => (k % 2 ? -0 : 0))), float32ToBf16(t), new Uint16Array(3 * n), new Uint16Array(2 * n), new Uint16Array(n)],
    // Only thread 255 finds seed[0] (65535 - 255) in its element for the last CAS, and writes 1.
    // h: an odd thread's -0 becomes 2 (the first CAS), an even thread's +0 becomes 3 (the second).
    expected: {
      u: t.map((k) => (k === 255 ? 1 : 65535 - k)),
      olds: t.flatMap((k) => [u0[k]!, (k * 7) % 65536, 65535 - k]),
      h: t.map((k) => (k % 2 ? 2 : 3)),
      hold: t.flatMap((k) => (k % 2 ? [-0, 2] : [0, 0])),
      b: t.map(() => -1),
      bold: t,
    },
    elems: { u: "u16", olds: "u16", h: "f16", hold: "f16", b: "bf16", bold: "bf16" },
  };
})();

export const SMALL_INT_EDGE_CASES: readonly EdgeCase[] = [smallCasts, ...(["i8", "u8", "i16", "u16"] as const).map(smallArith), smallDivZero, smallAtomics, ownAtomicReads, atomicBound, wideCas];

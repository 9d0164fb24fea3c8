/**
 * Edge cases of f16 and bf16, with expected results computed from the spec's words by exact
 * big-integer rounding (exact-floats.ts): conversions rounded once to nearest even (where a
 * conversion through f32 would round twice, at the overflow threshold, into and out of the
 * subnormals), arithmetic rounded once (division included, which CUDA's own `__hdiv` does
 * not promise), fma and sqrt, NaN, ±Infinity and -0, comparisons, min and max, and atomics,
 * which keep subnormals.
 */
import type { EdgeCase } from "./edge-cases.js";
import { BF16, F16, ieeeFma, ieeeOp, exactFmod, exactSqrt, roundDouble, roundExact, type Fmt } from "./exact-floats.js";
import { float32ToBf16, float32ToF16 } from "../../src/runtime/halfArrays.js";

type Half = "f16" | "bf16";
const FMT: Record<Half, Fmt> = { f16: F16, bf16: BF16 };
const toBits = (t: Half, values: readonly number[]) => (t === "f16" ? float32ToF16(values) : float32ToBf16(values));
const round = (t: Half, v: number) => roundDouble(FMT[t], v);

// ---------------------------------------------------------------- conversions

/**
 * Doubles where rounding once and rounding twice (through f32) differ, ties to even, the
 * overflow threshold and the subnormals, for f16 and bf16.
 */
const DOUBLES = [
  1 + 2 ** -11 + 2 ** -40, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8 + 2 ** -40, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 65504, 65519.99, 65520, 65536,
  2 ** -24, 2 ** -25, 2 ** -25 + 2 ** -60, 3 * 2 ** -25, 2 ** -14 - 2 ** -25, 2 ** -133, 2 ** -134, 2 ** -134 + 2 ** -170, 3.3895313892515355e38,
  3.3961775292304e38, 3.4e38, -0, NaN, -Infinity, 0.1, -2049, 1e-8, 257, 259,
];
const LONGS = [2049n, 2051n, 2050n, -2049n, 65519n, 65520n, 257n, 259n, -259n, 16777217n, (1n << 40n) + (1n << 32n) + 1n, (1n << 63n) - 1n, -(1n << 63n), 0n, 1n, 255n, 4095n, 65535n, 33554431n, 9007199254740993n,
  -9007199254740993n, 123456789n, 100000n, -100000n, 7n, (1n << 62n) + (1n << 54n), 3n, 2n ** 53n + 2n ** 45n, 513n];
const N = DOUBLES.length;

const halfCasts: EdgeCase = (() => {
  const f32s = Float32Array.from(DOUBLES);
  const exactInt = (t: Half, v: bigint) => (v === 0n ? 0 : roundExact(FMT[t], v < 0n, v < 0n ? -v : v, 1n, 0));
  const expect = (t: Half, other: Half) =>
    Array.from({ length: N }, (_, k) => [round(t, DOUBLES[k]!), round(t, f32s[k]!), exactInt(t, LONGS[k]!), round(t, round(other, DOUBLES[k]!)), round(t, Number(BigInt.asIntN(32, LONGS[k]!)))]).flat();
  const back = Array.from({ length: N }, (_, k) => [round("f16", DOUBLES[k]!), round("bf16", DOUBLES[k]!)]).flat();
  return {
    name: "conversions to f16 and bf16 round once to nearest even: from f64, f32, i64, i32 and each other, at ties, overflow and subnormals; back to f32 exactly",
    kernel: "halfcasts",
    source: `device_kernel halfcasts(n: i32, d: readonly global<f64>, x: readonly global<f32>, l: readonly global<i64>, h: global<f16>, b: global<bf16>, f: global<f32>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  h[5 * t] = f16(d[t]);
  h[5 * t + 1] = f16(x[t]);
  h[5 * t + 2] = f16(l[t]);
  h[5 * t + 3] = f16(bf16(d[t]));
  h[5 * t + 4] = f16(i32(l[t]));
  b[5 * t] = bf16(d[t]);
  b[5 * t + 1] = bf16(x[t]);
  b[5 * t + 2] = bf16(l[t]);
  b[5 * t + 3] = bf16(f16(d[t]));
  b[5 * t + 4] = bf16(i32(l[t]));
  f[2 * t] = f32(f16(d[t]));
  f[2 * t + 1] = f32(bf16(d[t]));
}
`,
    grid: [1],
    block: [32],
    args: [N, Float64Array.from(DOUBLES), f32s, BigInt64Array.from(LONGS), new Uint16Array(5 * N), new Uint16Array(5 * N), new Float32Array(2 * N)],
    expected: { h: expect("f16", "bf16"), b: expect("bf16", "f16"), f: back },
    elems: { h: "f16", b: "bf16" },
  };
})();

// ---------------------------------------------------------------- arithmetic

/** Operand pairs: subnormals, overflow, cancellation, NaN, ±Infinity, -0, and quotients near ties. */
function halfPairs(t: Half): [number, number][] {
  const max = t === "f16" ? 65504 : 3.3895313892515355e38;
  const tiny = t === "f16" ? 2 ** -24 : 2 ** -133;
  const minNormal = t === "f16" ? 2 ** -14 : 2 ** -126;
  const raw: [number, number][] = [
    [max, max], [max, -max], [tiny, 0.5], [tiny, tiny], [minNormal, 0.5], [-minNormal, 3], [1, 3], [2, 3], [10, 7], [1, 10], [-0, 0], [-0, -0], [0, -1],
    [NaN, 1], [1, NaN], [Infinity, -Infinity], [Infinity, 0], [1, 0], [-1, 0], [0, 0], [1.5, 2.5], [255, 257], [1000, 0.001], [3.14159, 2.71828],
    [1 + 2 ** -7, 1 - 2 ** -8], [minNormal * 3, 0.25], [max, 0.5], [7, -2.5], [0.1, 0.2], [1e-3, 1e3],
  ];
  return raw.map(([a, b]) => [round(t, a), round(t, b)]);
}

const fmin = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a === b ? (Object.is(a, -0) || Object.is(b, -0) ? -0 : a) : a < b ? a : b);
const fmax = (a: number, b: number) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a === b ? (Object.is(a, 0) || Object.is(b, 0) ? 0 : a) : a > b ? a : b);

function halfArith(t: Half): EdgeCase {
  const ps = halfPairs(t);
  const f = FMT[t];
  const out = ps.flatMap(([a, b]) => [
    ieeeOp(f, "add", a, b), ieeeOp(f, "sub", a, b), ieeeOp(f, "mul", a, b), ieeeOp(f, "div", a, b), round(t, exactFmod(a, b)),
    ieeeFma(f, a, b, a), exactSqrt(f, Math.abs(a)), fmin(a, b), fmax(a, b), Math.abs(a), -b, round(t, Math.floor(a)),
  ]);
  const flags = ps.flatMap(([a, b]) => [a < b, a == b, a != b, a >= b, Number.isNaN(a), a === Infinity || a === -Infinity].map((x) => (x ? 1 : 0)));
  return {
    name: `${t}: + - * / % fma sqrt rounded once, min and max of ±0 and NaN, comparisons with NaN`,
    kernel: `arith_${t}`,
    source: `device_kernel arith_${t}(n: i32, a: readonly global<${t}>, b: readonly global<${t}>, o: global<${t}>, f: global<bool>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  const x = a[t];
  const y = b[t];
  o[12 * t] = x + y;
  o[12 * t + 1] = x - y;
  o[12 * t + 2] = x * y;
  o[12 * t + 3] = x / y;
  o[12 * t + 4] = x % y;
  o[12 * t + 5] = fma(x, y, x);
  o[12 * t + 6] = sqrt(abs(x));
  o[12 * t + 7] = min(x, y);
  o[12 * t + 8] = max(x, y);
  o[12 * t + 9] = abs(x);
  o[12 * t + 10] = -y;
  o[12 * t + 11] = floor(x);
  f[6 * t] = x < y;
  f[6 * t + 1] = x == y;
  f[6 * t + 2] = x != y;
  f[6 * t + 3] = x >= y;
  f[6 * t + 4] = isnan(x);
  f[6 * t + 5] = isinf(x);
}
`,
    grid: [1],
    block: [32],
    args: [ps.length, toBits(t, ps.map((p) => p[0])), toBits(t, ps.map((p) => p[1])), new Uint16Array(12 * ps.length), new Uint8Array(6 * ps.length)],
    expected: { o: out, f: flags },
    elems: { a: t, b: t, o: t },
  };
}

/** Random quotients of the whole range: the GPU's division must round once, as the simulator's. */
function halfDivision(t: Half): EdgeCase {
  const f = FMT[t];
  // A fixed pseudo-random walk over bit patterns (finite, nonzero divisors).
  const pairs: [number, number][] = [];
  let s = 12345;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) & 0x7fff;
  while (pairs.length < 256) {
    const a = fromBits16(t, next() | (pairs.length & 1 ? 0x8000 : 0));
    const b = fromBits16(t, next());
    if (Number.isFinite(a) && Number.isFinite(b) && b !== 0) pairs.push([a, b]);
  }
  return {
    name: `${t}: division of 256 random pairs rounds once`,
    kernel: `div_${t}`,
    source: `device_kernel div_${t}(a: readonly global<${t}>, b: readonly global<${t}>, q: global<${t}>) {
  const t = globalId.x;
  q[t] = a[t] / b[t];
}
`,
    grid: [1],
    block: [256],
    args: [toBits(t, pairs.map((p) => p[0])), toBits(t, pairs.map((p) => p[1])), new Uint16Array(256)],
    expected: { q: pairs.map(([a, b]) => ieeeOp(f, "div", a, b)) },
    elems: { q: t },
  };
}

/** The value of 16 bits of f16 or bf16, decoded here from the formats' definitions. */
function fromBits16(t: Half, bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const [eBits, fBits, bias] = t === "f16" ? [5, 10, 15] : [8, 7, 127];
  const e = (bits >> fBits) & ((1 << eBits) - 1);
  const frac = bits & ((1 << fBits) - 1);
  if (e === (1 << eBits) - 1) return frac ? NaN : sign * Infinity;
  return e === 0 ? sign * frac * 2 ** (1 - bias - fBits) : sign * (2 ** fBits + frac) * 2 ** (e - bias - fBits);
}

// ---------------------------------------------------------------- atomics

const halfAtomics: EdgeCase = (() => {
  const tinyH = 2 ** -24;
  const tinyB = 2 ** -133;
  // 64 threads add 1 to slot 0 (exact sums), the smallest subnormal to slot 1, and min/max over -0 and NaN on own slots.
  const mins = [-0, 0, NaN, 1];
  const others = [0, -0, 2, NaN];
  return {
    name: "f16 and bf16 atomics: contended sums of small integers, subnormals kept in global and shared memory, min and max of ±0 and NaN",
    kernel: "halfatomics",
    source: `device_kernel halfatomics(h: global<f16>, b: global<bf16>, hm: global<f16>, bm: global<bf16>, other: readonly global<f16>) {
  shared sh: f16[2];
  shared sb: bf16[2];
  const t = threadIdx.x;
  if (t == 0) {
    sh[0] = 0.0;
    sh[1] = 0.0;
    sb[0] = 0.0;
    sb[1] = 0.0;
  }
  barrier();
  atomicAdd(h, 0, 1.0);
  atomicAdd(b, 0, 1.0);
  atomicAdd(sh, 0, 1.0);
  atomicAdd(sb, 0, 1.0);
  if (t < 2) {
    atomicAdd(h, 1, f16(${tinyH}));
    atomicAdd(b, 1, bf16(${tinyB}));
    atomicAdd(sh, 1, f16(${tinyH}));
    atomicAdd(sb, 1, bf16(${tinyB}));
  }
  if (t < 4) {
    atomicMin(hm, t, other[t]);
    atomicMax(bm, t, bf16(other[t]));
    atomicSub(hm, 4 + t, 0.5);
  }
  barrier();
  if (t == 0) {
    h[2] = sh[0];
    h[3] = sh[1];
    b[2] = sb[0];
    b[3] = sb[1];
  }
}
`,
    grid: [1],
    block: [64],
    args: [new Uint16Array(4), new Uint16Array(4), float32ToF16([...mins, 1, 2, 3, 4]), float32ToBf16(mins), float32ToF16(others)],
    expected: {
      h: [64, 2 * tinyH, 64, 2 * tinyH],
      b: [64, 2 * tinyB, 64, 2 * tinyB],
      hm: [...mins.map((m, i) => fmin(m, others[i]!)), 0.5, 1.5, 2.5, 3.5],
      bm: mins.map((m, i) => fmax(m, others[i]!)),
    },
    elems: { h: "f16", b: "bf16", hm: "f16", bm: "bf16" },
  };
})();

/**
 * atomicAdd on f16x2 and bf16x2 (PTX atom.add.noftz.f16x2/.bf16x2), in global memory, a row of a
 * 2-D shared array and a shared array. Every result is independent of the order the GPU takes:
 * contended sums of small integers (exact in any order), two smallest subnormals (kept), and on
 * slots one thread alone updates, rounding to nearest even at ties, overflow to Infinity, -0 + -0
 * and 1 + -1 (+0), with the old vector returned.
 */
const halfVectorAtomics: EdgeCase = (() => {
  const tiny = { f16: 2 ** -24, bf16: 2 ** -133 };
  // Slots 2 and 3 start at these and thread 0 alone adds `add`; slots 0 and 1 start at 0.
  const ulpAtOne = { f16: 2 ** -10, bf16: 2 ** -7 };
  const start = (t: Half) => (t === "f16" ? [1, 1, 65504, -0] : [1, 1, -0, 1]);
  const add = (t: Half) => (t === "f16" ? [ulpAtOne.f16 / 2, 3 * ulpAtOne.f16 / 2, 16, -0] : [ulpAtOne.bf16 / 2, 3 * ulpAtOne.bf16 / 2, -0, -1]);
  const sums = (t: Half) => start(t).map((v, i) => round(t, v + add(t)[i]!));
  const init = (t: Half) => toBits(t, [0, 0, 0, 0, ...start(t), 0, 0, 0, 0]);
  const expected = (t: Half) => [64, -128, 2 * tiny[t], -2 * tiny[t], ...sums(t), 64, -128, 2 * tiny[t], -2 * tiny[t]];
  const lit = (t: Half, vs: readonly number[]) => `${t}x2(${vs.map((v) => (Object.is(v, -0) ? "-0.0" : String(v))).join(", ")})`;
  return {
    name: "f16x2 and bf16x2 atomicAdd in global and shared memory: contended sums of small integers, subnormals kept, ties to even, overflow, signed zeros, the old vector",
    kernel: "halfvecatomics",
    source: `device_kernel halfvecatomics(h: global<f16x2>, b: global<bf16x2>, oldh: global<f16x2>, oldb: global<bf16x2>) {
  shared sh: f16x2[2][2];
  shared sb: bf16x2[2];
  const t = threadIdx.x;
  if (t < 4) {
    sh[t / 2][t % 2] = f16x2(0.0, 0.0);
  }
  if (t < 2) {
    sb[t] = bf16x2(0.0, 0.0);
  }
  barrier();
  atomicAdd(h, 0, f16x2(1.0, -2.0));
  atomicAdd(b, 0, bf16x2(1.0, -2.0));
  atomicAdd(sh[1], 0, f16x2(1.0, -2.0));
  atomicAdd(sb, 0, bf16x2(1.0, -2.0));
  if (t < 2) {
    atomicAdd(h, 1, ${lit("f16", [tiny.f16, -tiny.f16])});
    atomicAdd(b, 1, ${lit("bf16", [tiny.bf16, -tiny.bf16])});
    atomicAdd(sh[1], 1, ${lit("f16", [tiny.f16, -tiny.f16])});
    atomicAdd(sb, 1, ${lit("bf16", [tiny.bf16, -tiny.bf16])});
  }
  if (t == 0) {
    oldh[0] = atomicAdd(h, 2, ${lit("f16", add("f16").slice(0, 2))});
    oldh[1] = atomicAdd(h, 3, ${lit("f16", add("f16").slice(2))});
    oldb[0] = atomicAdd(b, 2, ${lit("bf16", add("bf16").slice(0, 2))});
    oldb[1] = atomicAdd(b, 3, ${lit("bf16", add("bf16").slice(2))});
  }
  barrier();
  if (t == 0) {
    h[4] = sh[1][0];
    h[5] = sh[1][1];
    b[4] = sb[0];
    b[5] = sb[1];
  }
}
`,
    grid: [1],
    block: [64],
    args: [init("f16"), init("bf16"), new Uint16Array(4), new Uint16Array(4)],
    expected: { h: expected("f16"), b: expected("bf16"), oldh: start("f16"), oldb: start("bf16") },
    elems: { h: "f16", b: "bf16", oldh: "f16", oldb: "bf16" },
  };
})();

// ---------------------------------------------------------------- scalar arguments

/** Scalar parameters of 1 and 2 bytes between wider ones: the launcher passes each at its own size. */
const scalarArgs: EdgeCase = {
  name: "scalar arguments of i8, u8, i16, u16, f16 and bf16 between wider ones arrive exactly",
  kernel: "scalarargs",
  source: `device_kernel scalarargs(a: i8, x: f64, b: u8, h: f16, c: i16, y: i32, d: u16, g: bf16, z: bool, w: i64, o: global<f64>, hb: global<f16>, gb: global<bf16>) {
  o[0] = f64(a);
  o[1] = x;
  o[2] = f64(b);
  o[3] = f64(h);
  o[4] = f64(c);
  o[5] = f64(y);
  o[6] = f64(d);
  o[7] = f64(g);
  o[8] = z ? 1.0 : 0.0;
  o[9] = f64(w);
  hb[0] = h;
  gb[0] = g;
}
`,
  grid: [1],
  block: [1],
  args: [-128, -2.5, 255, round("f16", 0.1), -32768, 123456789, 65535, round("bf16", -3e38), true, -(1n << 62n), new Float64Array(10), new Uint16Array(1), new Uint16Array(1)],
  expected: {
    o: [-128, -2.5, 255, round("f16", 0.1), -32768, 123456789, 65535, round("bf16", -3e38), 1, -(2 ** 62)],
    hb: [round("f16", 0.1)],
    gb: [round("bf16", -3e38)],
  },
  elems: { hb: "f16", gb: "bf16" },
};

// ---------------------------------------------------------------- references

/**
 * Variables of f16 and bf16 (a scalar parameter and a local) bound to inout and out
 * parameters: the function reads and writes values (k3695 of the GPU differential run, where
 * the simulator left the variable holding the bits of the value written).
 */
const halfRefs: EdgeCase = {
  name: "f16 and bf16 variables bound to inout and out parameters read and get back values",
  kernel: "halfrefs",
  source: `device_fn twice(x: inout f16, y: out bf16) {
  x = x * 2.0;
  y = -0.5;
}
device_kernel halfrefs(s: f16, hb: global<f16>, gb: global<bf16>) {
  let g: bf16 = 1.0;
  twice(s, g);
  hb[0] = s;
  gb[0] = g;
  hb[1] = s + 1.0;
  gb[1] = g + 1.0;
}
`,
  grid: [1],
  block: [1],
  args: [round("f16", 0.1), new Uint16Array(2), new Uint16Array(2)],
  expected: { hb: [round("f16", 2 * round("f16", 0.1)), round("f16", 2 * round("f16", 0.1) + 1)], gb: [-0.5, 0.5] },
  elems: { hb: "f16", gb: "bf16" },
};

export const HALF_EDGE_CASES: readonly EdgeCase[] = [halfCasts, halfArith("f16"), halfArith("bf16"), halfDivision("f16"), halfDivision("bf16"), halfAtomics, halfVectorAtomics, scalarArgs, halfRefs];

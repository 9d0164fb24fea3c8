/**
 * Small kernels at the edges of gk's semantics, where C++ and CUDA leave things undefined
 * or choose differently from gk (spec/language.md, Conversions and Semantics): float to
 * integer conversions (truncation, saturation, NaN → 0), min/max of ±0 and NaN, abs of the
 * most negative integer, MIN / -1, division by zero, shifts by counts of any size, float
 * atomics and arithmetic on subnormals, and 64-bit integers and f64 converted to f32; the
 * small integers (small-int-edge-cases.ts) and f16 and bf16 (half-edge-cases.ts).
 *
 * Each has its expected results, computed here by plain TypeScript that follows the spec's
 * words (not the simulator's helpers): the CI tier checks the simulator against them, the
 * GPU tier the GPU against the simulator.
 */
import type { ScalarName } from "../../src/ir/types.js";
import { elemOfTypedArray, newTypedArray, storedValue, type AnyTypedArray } from "../../src/ir/values.js";
import { compareArrays, describeMismatches } from "../../src/testing/compare.js";
import type { ArgValue } from "../../src/testing/cpuGpu.js";
import { sharedParamCase, tableSwitchCase } from "./language-edge-cases.js";
import { WARP_EDGE_CASES } from "./warp-edge-cases.js";
import { SMALL_INT_EDGE_CASES } from "./small-int-edge-cases.js";
import { HALF_EDGE_CASES } from "./half-edge-cases.js";

export interface EdgeCase {
  readonly name: string;
  readonly source: string;
  readonly kernel: string;
  readonly grid: readonly number[];
  readonly block: readonly number[];
  readonly args: readonly ArgValue[];
  /** The arrays the kernel writes, as the spec defines them; on the GPU for `simError` cases. */
  readonly expected: Readonly<Record<string, readonly (number | bigint)[]>>;
  /** The simulator reports this error instead (the GPU computes `expected`). */
  readonly simError?: string;
  /**
   * Element types of written arrays whose TypedArray does not say (a Uint8Array is taken as
   * bool, a Uint16Array as u16): u8, f16, bf16. Expected f16 and bf16 values are numbers.
   */
  readonly elems?: Readonly<Record<string, ScalarName>>;
}

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const RANGE = { i32: [BigInt(I32_MIN), BigInt(I32_MAX)], u32: [0n, (1n << 32n) - 1n], i64: [I64_MIN, I64_MAX], u64: [0n, (1n << 64n) - 1n] } as const;

/** float → integer: truncate toward zero, saturate, NaN → 0. */
function toInt(v: number, t: keyof typeof RANGE): bigint {
  if (Number.isNaN(v)) return 0n;
  const [lo, hi] = RANGE[t];
  if (v === Infinity) return hi;
  if (v === -Infinity) return lo;
  const x = BigInt(Math.trunc(v));
  return x < lo ? lo : x > hi ? hi : x;
}

const wrap32 = (x: bigint) => Number(BigInt.asIntN(32, x));
const wrap64 = (x: bigint) => BigInt.asIntN(64, x);
/** Integer division rounding toward zero; MIN / -1 wraps to MIN. */
const div = (a: bigint, b: bigint) => a / b;
/** Remainder with the dividend's sign. */
const rem = (a: bigint, b: bigint) => a % b;

/** min/max of floats: a NaN operand yields the other; -0 is below +0. */
function fmin(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  if (a === b) return Object.is(a, -0) || Object.is(b, -0) ? -0 : a;
  return a < b ? a : b;
}
function fmax(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  if (a === b) return Object.is(a, 0) || Object.is(b, 0) ? 0 : a;
  return a > b ? a : b;
}

/** An integer rounded once to the nearest f32, ties to even. */
function intToF32(v: bigint): number {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const bits = a.toString(2).length;
  if (bits <= 24) return Number(v);
  const shift = BigInt(bits - 24);
  let q = a >> shift;
  const r = a & ((1n << shift) - 1n);
  const half = 1n << (shift - 1n);
  if (r > half || (r === half && (q & 1n) === 1n)) q += 1n;
  const x = Number(q) * 2 ** Number(shift);
  return neg ? -x : x;
}

// ---------------------------------------------------------------- float → integer

const CAST_VALUES = [
  NaN, Infinity, -Infinity, -0, 0.5, -0.5, 2.5, -2.9, -1, 1e10, -1e10, 2147483520, 2147483648, -2147483648, -2147483904,
  4294967040, 4294967296, 9.2e18, 9223372036854775807, -9223372036854775808, 18446744073709551615, 3.4e38, 1e-40,
];

const casts: EdgeCase = (() => {
  const x = Float32Array.from(CAST_VALUES);
  const d = Float64Array.from(CAST_VALUES);
  const n = CAST_VALUES.length;
  const both = (t: keyof typeof RANGE) => Array.from({ length: n }, (_, k) => [toInt(x[k]!, t), toInt(d[k]!, t)]).flat();
  return {
    name: "float to integer conversions truncate, saturate, and turn NaN into 0",
    kernel: "casts",
    source: `device_kernel casts(n: i32, x: readonly global<f32>, d: readonly global<f64>,
                      i: global<i32>, u: global<u32>, l: global<i64>, ul: global<u64>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  i[2 * t] = i32(x[t]);
  i[2 * t + 1] = i32(d[t]);
  u[2 * t] = u32(x[t]);
  u[2 * t + 1] = u32(d[t]);
  l[2 * t] = i64(x[t]);
  l[2 * t + 1] = i64(d[t]);
  ul[2 * t] = u64(x[t]);
  ul[2 * t + 1] = u64(d[t]);
}
`,
    grid: [1],
    block: [32],
    args: [n, x, d, new Int32Array(2 * n), new Uint32Array(2 * n), new BigInt64Array(2 * n), new BigUint64Array(2 * n)],
    expected: { i: both("i32").map(Number), u: both("u32").map(Number), l: both("i64"), ul: both("u64") },
  };
})();

// ---------------------------------------------------------------- min, max, clamp of ±0 and NaN

const PAIRS: readonly [number, number][] = [[-0, 0], [0, -0], [-0, -0], [NaN, 1], [1, NaN], [NaN, NaN], [-Infinity, Infinity], [1, 2], [-0, NaN], [2, -3]];

const minmax: EdgeCase = (() => {
  const a = PAIRS.map((p) => p[0]);
  const b = PAIRS.map((p) => p[1]);
  const results = (round: (x: number) => number) =>
    PAIRS.flatMap(([x, y]) => [fmin(x, y), fmax(x, y), fmin(y, x), fmax(y, x), fmin(fmax(x, y), y)].map(round));
  return {
    name: "min and max order -0 below +0 and ignore a NaN operand, also in atomics and clamp",
    kernel: "minmax",
    source: `device_kernel minmax(n: i32, a: readonly global<f32>, b: readonly global<f32>,
                       da: readonly global<f64>, db: readonly global<f64>, f: global<f32>, d: global<f64>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  f[5 * t] = min(a[t], b[t]);
  f[5 * t + 1] = max(a[t], b[t]);
  f[5 * t + 2] = a[t];
  atomicMin(f, 5 * t + 2, b[t]);
  f[5 * t + 3] = a[t];
  atomicMax(f, 5 * t + 3, b[t]);
  f[5 * t + 4] = clamp(a[t], b[t], b[t]);
  d[5 * t] = min(da[t], db[t]);
  d[5 * t + 1] = max(da[t], db[t]);
  d[5 * t + 2] = da[t];
  atomicMin(d, 5 * t + 2, db[t]);
  d[5 * t + 3] = da[t];
  atomicMax(d, 5 * t + 3, db[t]);
  d[5 * t + 4] = clamp(da[t], db[t], db[t]);
}
`,
    grid: [1],
    block: [16],
    args: [PAIRS.length, Float32Array.from(a), Float32Array.from(b), Float64Array.from(a), Float64Array.from(b), new Float32Array(5 * PAIRS.length), new Float64Array(5 * PAIRS.length)],
    expected: { f: results(Math.fround), d: results((x) => x) },
  };
})();

// ---------------------------------------------------------------- integer edges

const INT_PAIRS: readonly [number, number][] = [
  [I32_MIN, -1], [I32_MIN, 1], [I32_MAX, -1], [-7, 2], [7, -2], [-7, -2], [5, 32], [5, 33], [-5, 63], [-1, -1], [1, 31], [12345, 64], [I32_MIN, 31], [-100, 100],
];
const LONG_PAIRS: readonly [bigint, bigint][] = [
  [I64_MIN, -1n], [I64_MIN, 1n], [I64_MAX, -1n], [-7n, 2n], [7n, -2n], [5n, 64n], [5n, 65n], [-5n, 127n], [-1n, -1n], [1n, 63n], [123456789012n, 128n], [I64_MIN, 63n], [-100n, 100n], [3n, -61n],
];

const ints: EdgeCase = (() => {
  const oi = INT_PAIRS.flatMap(([a, b]) => {
    const [x, y] = [BigInt(a), BigInt(b)];
    const c = BigInt(b & 31);
    return [wrap32(x < 0n ? -x : x), wrap32(div(x, y)), wrap32(rem(x, y)), wrap32(div(x, -1n)), wrap32(rem(x, -1n)), wrap32(x << c), wrap32(x >> c), wrap32(BigInt.asUintN(32, x) >> c)];
  });
  const ou = INT_PAIRS.flatMap(([a, b]) => [Number(BigInt.asUintN(32, BigInt(a)) >> BigInt(b & 31)), Number(BigInt.asUintN(32, BigInt.asUintN(32, BigInt(a)) << BigInt(b & 31)))]);
  const ol = LONG_PAIRS.flatMap(([x, y]) => {
    const c = y & 63n;
    return [wrap64(x < 0n ? -x : x), wrap64(div(x, y)), wrap64(rem(x, y)), wrap64(div(x, -1n)), wrap64(rem(x, -1n)), wrap64(x << c), wrap64(x >> c), wrap64(BigInt.asUintN(64, x) >> c)];
  });
  return {
    name: "abs(MIN), MIN / -1, MIN % -1, and shifts by counts of any size (taken modulo the width)",
    kernel: "ints",
    source: `device_kernel ints(n: i32, a: readonly global<i32>, b: readonly global<i32>, la: readonly global<i64>, lb: readonly global<i64>,
                     oi: global<i32>, ou: global<u32>, ol: global<i64>) {
  const t = globalId.x;
  if (t >= n) {
    return;
  }
  oi[8 * t] = abs(a[t]);
  oi[8 * t + 1] = a[t] / b[t];
  oi[8 * t + 2] = a[t] % b[t];
  oi[8 * t + 3] = a[t] / -1;
  oi[8 * t + 4] = a[t] % -1;
  oi[8 * t + 5] = a[t] << b[t];
  oi[8 * t + 6] = a[t] >> b[t];
  oi[8 * t + 7] = a[t] >>> b[t];
  ou[2 * t] = u32(a[t]) >> b[t];
  ou[2 * t + 1] = u32(a[t]) << lb[t] - lb[t] + i64(b[t]);
  ol[8 * t] = abs(la[t]);
  ol[8 * t + 1] = la[t] / lb[t];
  ol[8 * t + 2] = la[t] % lb[t];
  ol[8 * t + 3] = la[t] / -1;
  ol[8 * t + 4] = la[t] % -1;
  ol[8 * t + 5] = la[t] << lb[t];
  ol[8 * t + 6] = la[t] >> lb[t];
  ol[8 * t + 7] = la[t] >>> lb[t];
}
`,
    grid: [1],
    block: [16],
    args: [
      INT_PAIRS.length, Int32Array.from(INT_PAIRS.map((p) => p[0])), Int32Array.from(INT_PAIRS.map((p) => p[1])),
      BigInt64Array.from(LONG_PAIRS.map((p) => p[0])), BigInt64Array.from(LONG_PAIRS.map((p) => p[1])),
      new Int32Array(8 * INT_PAIRS.length), new Uint32Array(2 * INT_PAIRS.length), new BigInt64Array(8 * LONG_PAIRS.length),
    ],
    expected: { oi, ou, ol },
  };
})();

// ---------------------------------------------------------------- division by zero

const divzero: EdgeCase = {
  name: "integer division and remainder by zero: 0 on the GPU, GK8003 in the simulator",
  kernel: "divzero",
  source: `device_kernel divzero(a: readonly global<i32>, ua: readonly global<u32>, la: readonly global<i64>, ula: readonly global<u64>,
                        zero: readonly global<i32>, oi: global<i32>, ou: global<u32>, ol: global<i64>, oul: global<u64>) {
  const t = globalId.x;
  oi[2 * t] = a[t] / zero[t];
  oi[2 * t + 1] = a[t] % zero[t];
  ou[2 * t] = ua[t] / u32(zero[t]);
  ou[2 * t + 1] = ua[t] % u32(zero[t]);
  ol[2 * t] = la[t] / i64(zero[t]);
  ol[2 * t + 1] = la[t] % i64(zero[t]);
  oul[2 * t] = ula[t] / u64(zero[t]);
  oul[2 * t + 1] = ula[t] % u64(zero[t]);
}
`,
  grid: [1],
  block: [4],
  args: [
    Int32Array.from([7, -7, I32_MIN, 0]), Uint32Array.from([7, 0xffffffff, 1, 0]), BigInt64Array.from([7n, -7n, I64_MIN, 0n]),
    BigUint64Array.from([7n, (1n << 64n) - 1n, 1n, 0n]), new Int32Array(4),
    Int32Array.from({ length: 8 }, () => 99), Uint32Array.from({ length: 8 }, () => 99), BigInt64Array.from({ length: 8 }, () => 99n), BigUint64Array.from({ length: 8 }, () => 99n),
  ],
  expected: { oi: Array(8).fill(0), ou: Array(8).fill(0), ol: Array(8).fill(0n), oul: Array(8).fill(0n) },
  simError: "GK8003",
};

// ---------------------------------------------------------------- subnormals and conversions to f32

const SUB = [1e-40, -1e-40, 1.401298464324817e-45, 1.1754942106924411e-38, -1.1754942106924411e-38, 0, -0, 1e-45, 2.5e-39, 1];
const SUB2 = [1e-40, 1e-40, 1.401298464324817e-45, 1.401298464324817e-45, 1e-39, -0, -0, -1e-45, 2.5e-39, 1e-40];
const LONGS = [(1n << 53n) + 1n, I64_MAX, I64_MIN, 16777217n, 16777219n, -16777217n, (1n << 40n) + 3n, 0n, -1n, 9007199791611905n];
const ULONGS = [(1n << 64n) - 1n, (1n << 63n) + 1n, 16777217n, 16777219n, 0n, 1n, (1n << 56n) + (1n << 32n), 4294967295n, 4294967297n, 18446742974197923840n];
const DOUBLES = [1e39, -1e39, 1e-46, 1e-45, 3.4028234663852886e38, 3.4028235677973366e38, 2.5e-39, -0, NaN, 0.1];

const subnormals: EdgeCase = (() => {
  const x = Float32Array.from(SUB);
  const y = Float32Array.from(SUB2);
  const n = SUB.length;
  const f = Array.from({ length: n }, (_, t) => {
    // f32 atomic add flushes subnormal operands and results to zero, keeping the sign (spec: Atomics).
    const ftz = (v: number) => (v !== 0 && Math.abs(v) < 1.1754943508222875e-38 ? (v < 0 ? -0 : 0) : v);
    const sum = ftz(Math.fround(ftz(x[t]!) + ftz(y[t]!)));
    // The shared-memory atomic add keeps subnormals; the global one flushes them.
    return [Math.fround(x[t]! + y[t]!), sum, intToF32(LONGS[t]!), intToF32(ULONGS[t]!), Math.fround(DOUBLES[t]!), Math.fround(x[t]! * y[t]!)];
  }).flat();
  return {
    name: "f32 atomic add in global memory flushes subnormals, in shared memory and arithmetic keeps them; 64-bit integers and f64 round once to f32",
    kernel: "subnormals",
    source: `device_kernel subnormals(n: i32, x: readonly global<f32>, y: readonly global<f32>, l: readonly global<i64>,
                           ul: readonly global<u64>, d: readonly global<f64>, f: global<f32>) {
  shared s: f32[16];
  const t = threadIdx.x;
  s[t] = t < n ? x[t] : 0.0;
  barrier();
  if (t < n) {
    atomicAdd(s, t, y[t]);
  }
  barrier();
  if (t >= n) {
    return;
  }
  f[6 * t] = s[t];
  f[6 * t + 1] = x[t];
  atomicAdd(f, 6 * t + 1, y[t]);
  f[6 * t + 2] = f32(l[t]);
  f[6 * t + 3] = f32(ul[t]);
  f[6 * t + 4] = f32(d[t]);
  f[6 * t + 5] = x[t] * y[t];
}
`,
    grid: [1],
    block: [16],
    args: [n, x, y, BigInt64Array.from(LONGS), BigUint64Array.from(ULONGS), Float64Array.from(DOUBLES), new Float32Array(6 * n)],
    expected: { f },
  };
})();

export const EDGE_CASES: readonly EdgeCase[] = [casts, minmax, ints, divzero, subnormals, ...WARP_EDGE_CASES, sharedParamCase, tableSwitchCase, ...SMALL_INT_EDGE_CASES, ...HALF_EDGE_CASES];

/** Differences between what a run wrote and the case's expected values, as report lines. */
export function expectedDiffs(c: EdgeCase, got: ReadonlyMap<string, AnyTypedArray>, label: string): string[] {
  return Object.entries(c.expected).flatMap(([name, values]) => {
    const a = got.get(name)!;
    const elem = c.elems?.[name] ?? elemOfTypedArray(a)!;
    const want = newTypedArray(elem, values.length);
    values.forEach((v, i) => ((want as unknown as (number | bigint)[])[i] = storedValue(elem, v)));
    return describeMismatches(compareArrays(name, elem, want, a), ["spec", label]);
  });
}

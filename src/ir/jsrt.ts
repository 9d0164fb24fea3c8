/**
 * Pure helper functions that the JavaScript implementations of gk's operations call (the
 * `$` object in generated simulator code and in constant folding). Each follows the spec's
 * semantics exactly; where CUDA leaves a case undefined the spec defines it and both the
 * CUDA backend and these helpers implement that definition.
 */

import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits, roundBf16, roundF16 } from "./halves.js";
import { INT_RANGES } from "./values.js";

const f64buf = new Float64Array(1);
const u64view = new BigUint64Array(f64buf.buffer);

const I32_MIN = Number(INT_RANGES.i32[0]);
const I32_MAX = Number(INT_RANGES.i32[1]);
const U32_MAX = Number(INT_RANGES.u32[1]);
const TWO63 = 9223372036854775808; // 2^63 as a double
const TWO64 = 18446744073709551616; // 2^64 as a double
const [I64_MIN, I64_MAX] = INT_RANGES.i64;
const U64_MAX = INT_RANGES.u64[1];

// ---------------------------------------------------------------- float → integer
// Truncate toward zero, saturate at the type's range, NaN → 0 (PTX cvt.rzi semantics).

export function f2i32(x: number): number {
  if (x !== x) return 0;
  if (x >= I32_MAX) return I32_MAX;
  if (x <= I32_MIN) return I32_MIN;
  return Math.trunc(x) | 0;
}

export function f2u32(x: number): number {
  if (x !== x || x <= 0) return 0;
  if (x >= U32_MAX) return U32_MAX;
  return Math.trunc(x) >>> 0;
}

/** Float to a small integer: truncated, saturated at [lo, hi], NaN → 0 (`| 0` turns -0 into 0). */
function f2small(lo: number, hi: number): (x: number) => number {
  return (x) => (x !== x ? 0 : x >= hi ? hi : x <= lo ? lo : Math.trunc(x) | 0);
}

export const f2i8 = f2small(-128, 127);
export const f2u8 = f2small(0, 255);
export const f2i16 = f2small(-32768, 32767);
export const f2u16 = f2small(0, 65535);

export function f2i64(x: number): bigint {
  if (x !== x) return 0n;
  if (x >= TWO63) return I64_MAX;
  if (x <= -TWO63) return I64_MIN;
  return BigInt(Math.trunc(x));
}

export function f2u64(x: number): bigint {
  if (x !== x || x <= 0) return 0n;
  if (x >= TWO64) return U64_MAX;
  return BigInt(Math.trunc(x));
}

// ---------------------------------------------------------------- integer → float

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * A 64-bit integer as the double nearest to it rounded to odd (exact when it fits in 53 bits):
 * rounding that double once more, to a format of at most 51 significant bits, is the same as
 * rounding the integer once (Number() rounds to nearest even, and rounding twice could differ).
 */
function bigToOdd(x: bigint): number {
  const neg = x < 0n;
  let a = neg ? -x : x;
  if (a <= 9007199254740992n) return Number(x);
  const shift = bitLength(a) - 53;
  const low = a & ((1n << BigInt(shift)) - 1n);
  a >>= BigInt(shift);
  if (low !== 0n) a |= 1n;
  const r = Number(a) * 2 ** shift;
  return neg ? -r : r;
}

/** A 64-bit integer rounded once, to nearest-even, to f32. */
export function big2f32(x: bigint): number {
  return Math.fround(bigToOdd(x));
}

export function big2f16(x: bigint): number {
  return roundF16(bigToOdd(x));
}

export function big2bf16(x: bigint): number {
  return roundBf16(bigToOdd(x));
}

// ---------------------------------------------------------------- half precision

/** x rounded to the nearest f16 (ties to even). */
export const f16 = roundF16;
/** x rounded to the nearest bf16 (ties to even). */
export const bf16 = roundBf16;



// ---------------------------------------------------------------- float helpers

/** round(): halfway cases away from zero (C `roundf`), sign of zero kept. */
export function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  const d = x - t;
  if (d >= 0.5) return t + 1;
  if (d <= -0.5) return t - 1;
  return t;
}

/** min of floats: a NaN operand yields the other; -0 is below +0. */
export function fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  if (a === b) return a === 0 && (Object.is(a, -0) || Object.is(b, -0)) ? -0 : a;
  return a < b ? a : b;
}

/** max of floats: a NaN operand yields the other; +0 is above -0. */
export function fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  if (a === b) return a === 0 && (Object.is(a, 0) || Object.is(b, 0)) ? 0 : a;
  return a > b ? a : b;
}

/** The next double from `x` toward the sign of `dir` (x finite and non-zero). */
function nextToward(x: number, dir: number): number {
  f64buf[0] = x;
  const up = (dir > 0) === (x > 0);
  u64view[0] = up ? u64view[0]! + 1n : u64view[0]! - 1n;
  return f64buf[0];
}

/**
 * a * b + c for operands of at most 26 significant bits (f32, f16, bf16), as a double rounded
 * to odd: the product is exact in f64, and rounding the sum to odd keeps enough to round it
 * once more, to the operands' format, as if the exact result were rounded once.
 */
function fmaToOdd(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  // Not finite: an operand was Inf or NaN. Zero: an exact cancellation (gradual underflow).
  if (!Number.isFinite(s) || s === 0) return s;
  const bb = s - p;
  const err = p - (s - bb) + (c - bb);
  if (err === 0) return s;
  f64buf[0] = s;
  const odd = (u64view[0]! & 1n) === 1n;
  return odd ? s : nextToward(s, err);
}

/** fma for f32 operands, rounded once. */
export function fmaF32(a: number, b: number, c: number): number {
  return Math.fround(fmaToOdd(a, b, c));
}

export function fmaF16(a: number, b: number, c: number): number {
  return roundF16(fmaToOdd(a, b, c));
}

export function fmaBf16(a: number, b: number, c: number): number {
  return roundBf16(fmaToOdd(a, b, c));
}

/** C pow: pow(1, y) and pow(-1, ±Infinity) are 1 even for NaN y (JavaScript's ** gives NaN). */
export function pow(x: number, y: number): number {
  if (x === 1) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}

const F32_MIN_NORMAL = 1.1754943508222875e-38;

/** A subnormal f32 flushed to zero, keeping its sign (what the GPU's f32 atomic add does to operands and results). */
export function ftz32(x: number): number {
  return x !== 0 && x > -F32_MIN_NORMAL && x < F32_MIN_NORMAL ? (x < 0 ? -0 : 0) : x;
}

/**
 * fastDiv (CUDA __fdividef) as the simulator computes it: the quotient rounded once, except
 * where CUDA documents the GPU's other result: for 2^126 < |y| < 2^128, zero signed as the
 * quotient would be, or NaN when x is infinite or NaN (x times a reciprocal flushed to zero).
 */
export function fastDivF32(x: number, y: number): number {
  const ay = Math.abs(y);
  if (ay > 2 ** 126 && ay < Infinity) {
    if (!Number.isFinite(x)) return NaN;
    return (x < 0 || Object.is(x, -0)) !== y < 0 ? -0 : 0;
  }
  return Math.fround(x / y);
}

/** copysign: the magnitude of `a` with the sign bit of `b` (the sign bit of a NaN counts). */
export function copysign(a: number, b: number): number {
  f64buf[0] = b;
  const negative = (u64view[0]! >> 63n) === 1n;
  const m = Math.abs(a);
  return negative ? -m : m;
}

// ---------------------------------------------------------------- erf and erfc
// No JavaScript builtin: gk's own, within 1 ulp below |x| = 4 (a Taylor series summed in
// double-double) and within 4 ulp beyond (a continued fraction for erfc).

/** A double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi) / 2. */
type DD = readonly [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const ca = 134217729 * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = 134217729 * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function ddAdd(x: DD, y: DD): DD {
  const [s, e] = twoSum(x[0], y[0]);
  return twoSum(s, e + x[1] + y[1]);
}

function ddMul(x: DD, y: DD): DD {
  const [p, e] = twoProd(x[0], y[0]);
  return twoSum(p, e + x[0] * y[1] + x[1] * y[0]);
}

function ddDiv(x: DD, d: number): DD {
  const q1 = x[0] / d;
  const [p, e] = twoProd(q1, d);
  const q2 = (x[0] - p - e + x[1]) / d;
  return twoSum(q1, q2);
}

/** 2 / sqrt(pi) as a double-double, from pi = Math.PI + 1.2246467991473532e-16. */
const TWO_OVER_SQRT_PI_DD: DD = (() => {
  const pi: DD = [Math.PI, 1.2246467991473532e-16];
  const s = Math.sqrt(pi[0]);
  const [sq, sqe] = twoProd(s, s);
  const root = twoSum(s, (pi[0] - sq - sqe + pi[1]) / (2 * s));
  const q1 = 2 / root[0];
  const back = ddMul([q1, 0], root);
  return twoSum(q1, (2 - back[0] - back[1]) / root[0]);
})();
const ONE_OVER_SQRT_PI = 0.5641895835477563;

/** erf(a) for 0 <= a < 4 as a double-double: (2/sqrt(pi)) sum (-1)^n a^(2n+1) / (n! (2n+1)). */
function erfDD(a: number): DD {
  const a2 = twoProd(a, a);
  let power: DD = [a, 0]; // a^(2n+1) / n!
  let sum: DD = [a, 0];
  for (let n = 1; n < 200; n++) {
    power = ddDiv(ddMul(power, a2), n);
    const t = ddDiv(power, 2 * n + 1);
    sum = ddAdd(sum, n % 2 === 1 ? [-t[0], -t[1]] : t);
    if (Math.abs(t[0]) < Math.abs(sum[0]) * 1e-34) break;
  }
  return ddMul(sum, TWO_OVER_SQRT_PI_DD);
}

/** exp(-a*a) with a*a carried exactly (hi + lo), so large a does not lose accuracy. */
function expNegSquare(a: number): number {
  const [hi, lo] = twoProd(a, a);
  return Math.exp(-hi) * (1 - lo);
}

/** erfc(a) for a >= 4, by the continued fraction e^(-a^2)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))) (Lentz). */
function erfcFraction(a: number): number {
  let f = a;
  let c = a;
  let d = 0;
  for (let n = 1; n < 1000; n++) {
    const an = n / 2;
    d = 1 / (a + an * d);
    c = a + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-17) break;
  }
  return (ONE_OVER_SQRT_PI * expNegSquare(a)) / f;
}

export function erf(x: number): number {
  if (x !== x || x === 0) return x;
  const a = Math.abs(x);
  const r = a < 4 ? erfDD(a)[0] : a < 6 ? 1 - erfcFraction(a) : 1;
  return x < 0 ? -r : r;
}

export function erfc(x: number): number {
  if (x !== x) return x;
  if (x > -4 && x < 4) {
    const e = erfDD(Math.abs(x));
    return (x < 0 ? ddAdd([1, 0], e) : ddAdd([1, 0], [-e[0], -e[1]]))[0];
  }
  if (x >= 4) return x > 27.3 ? 0 : erfcFraction(x);
  return x < -6 ? 2 : 2 - erfcFraction(-x);
}

// ---------------------------------------------------------------- bit counting

export function popc32(x: number): number {
  let v = x >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export function popc64(x: bigint): number {
  const u = BigInt.asUintN(64, x);
  return popc32(Number(u & 0xffffffffn)) + popc32(Number(u >> 32n));
}

export function clz64(x: bigint): number {
  const u = BigInt.asUintN(64, x);
  const hi = Number(u >> 32n);
  return hi !== 0 ? Math.clz32(hi) : 32 + Math.clz32(Number(u & 0xffffffffn));
}

interface Decomposed {
  readonly m: bigint; // signed integer mantissa
  readonly e: number; // value = m * 2^e
}

function decompose(x: number): Decomposed {
  f64buf[0] = x;
  const bits = u64view[0]!;
  const sign = bits >> 63n ? -1n : 1n;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  if (exp === 0) return { m: sign * frac, e: -1074 };
  return { m: sign * (frac | (1n << 52n)), e: exp - 1075 };
}

/** m * 2^e rounded once to the nearest double (ties to even), m an exact integer. */
function roundToDouble(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const neg = m < 0n;
  let a = neg ? -m : m;
  // Keep 53 significant bits (fewer when the result is subnormal), rounding to nearest even.
  const len = bitLength(a);
  const drop = Math.max(len - 53, -1074 - e);
  if (drop > 0) {
    const bd = BigInt(drop);
    const rem = a & ((1n << bd) - 1n);
    const half = 1n << (bd - 1n);
    a >>= bd;
    if (rem > half || (rem === half && (a & 1n) === 1n)) a += 1n;
    e += drop;
  }
  const r = Number(a) * 2 ** e; // exact unless it overflows, which is the right answer
  return neg ? -r : r;
}

/** fma for f64, rounded once, through exact integer arithmetic. */
export function fmaF64(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return a * b + c;
  if (a === 0 || b === 0) return a * b + c; // exact, and signs of zero follow IEEE addition
  const da = decompose(a);
  const db = decompose(b);
  const dc = decompose(c);
  const pm = da.m * db.m;
  const pe = da.e + db.e;
  const e = Math.min(pe, dc.e);
  const sum = (pm << BigInt(pe - e)) + (dc.m << BigInt(dc.e - e));
  if (sum === 0n) return 0; // exact cancellation gives +0 in round-to-nearest
  return roundToDouble(sum, e);
}

// ---------------------------------------------------------------- 64-bit integer helpers

export function asI64(x: bigint): bigint {
  return BigInt.asIntN(64, x);
}

export function asU64(x: bigint): bigint {
  return BigInt.asUintN(64, x);
}

/** abs that wraps: abs(INT_MIN) is INT_MIN. */
export function absI32(x: number): number {
  return x < 0 ? -x | 0 : x;
}

export function absI64(x: bigint): bigint {
  return x < 0n ? BigInt.asIntN(64, -x) : x;
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

// ---------------------------------------------------------------- memory of structs

/**
 * An array of structs as the simulator holds it: `n` elements of `size` bytes in one buffer,
 * seen through one view per scalar type, so that generated code reads a field as
 * `a.f32[(i * size + offset) / 4]` (every field is aligned to its width, and so is the buffer).
 */
export interface StructMemory {
  readonly n: number;
  readonly bytes: Uint8Array;
  readonly bool: Uint8Array;
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
  readonly i64: BigInt64Array;
  readonly u64: BigUint64Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  /** The bits of f16 and bf16 lanes (of f16x2 and bf16x2 fields). */
  readonly f16: Uint16Array;
  readonly bf16: Uint16Array;
}

/** `n` structs of `size` bytes over `buffer` from `byteOffset` (a multiple of 8), or over fresh zeros. */
export function structMemory(n: number, size: number, buffer?: ArrayBuffer, byteOffset = 0): StructMemory {
  const bytes = n * size;
  const buf = buffer ?? new ArrayBuffer(bytes);
  // The 2-, 4- and 8-byte views cover whole elements of their width (a struct's size is a multiple of its widest field).
  const view = <A>(make: new (b: ArrayBuffer, o: number, len: number) => A, w: number): A => new make(buf, byteOffset, Math.floor(bytes / w));
  return {
    n,
    bytes: new Uint8Array(buf, byteOffset, bytes),
    bool: new Uint8Array(buf, byteOffset, bytes),
    i32: view(Int32Array, 4),
    u32: view(Uint32Array, 4),
    i64: view(BigInt64Array, 8),
    u64: view(BigUint64Array, 8),
    f32: view(Float32Array, 4),
    f64: view(Float64Array, 8),
    f16: view(Uint16Array, 2),
    bf16: view(Uint16Array, 2),
  };
}

// ---------------------------------------------------------------- bitcast

/**
 * The scratch buffer of `bitcast` (src/ir/bitcast.ts): 32 bytes, the widest vector's, seen
 * through a view per lane type. Generated code writes an operand's lanes and reads the
 * result's at once, within one expression, so one buffer serves every thread.
 */
const scratch = new ArrayBuffer(32);
const bits = {
  i8: new Int8Array(scratch), u8: new Uint8Array(scratch), i16: new Int16Array(scratch), u16: new Uint16Array(scratch),
  i32: new Int32Array(scratch), u32: new Uint32Array(scratch), i64: new BigInt64Array(scratch), u64: new BigUint64Array(scratch),
  f32: new Float32Array(scratch), f64: new Float64Array(scratch),
};

/**
 * An integer view of an f32 or f64 array's memory (`kind` its width's: i32, u32, i64, u64), made
 * once per array: generated code reads and writes through it where a bitcast meets memory
 * (src/codegen/js/emitMemory.ts, BitsView), so that a signaling NaN keeps its bits.
 */
const BIT_VIEWS = { i32: Int32Array, u32: Uint32Array, i64: BigInt64Array, u64: BigUint64Array } as const;
const bitViews = new WeakMap<Float32Array<ArrayBuffer> | Float64Array<ArrayBuffer>, Partial<Record<keyof typeof BIT_VIEWS, Int32Array | Uint32Array | BigInt64Array | BigUint64Array>>>();
function bitsOf(a: Float32Array<ArrayBuffer> | Float64Array<ArrayBuffer>, kind: keyof typeof BIT_VIEWS): Int32Array | Uint32Array | BigInt64Array | BigUint64Array {
  let views = bitViews.get(a);
  if (!views) bitViews.set(a, (views = {}));
  return (views[kind] ??= new BIT_VIEWS[kind](a.buffer, a.byteOffset, a.length));
}

/** The helpers as one object: the `$` that generated code and folded expressions see. */
export const jsrt = {
  bits,
  f2i8, f2u8, f2i16, f2u16, f2i32, f2u32, f2i64, f2u64, big2f32, big2f16, big2bf16, f16, bf16, f16Bits, fromF16Bits, bf16Bits, fromBf16Bits,
  roundHalfAway, fmin, fmax, fmaF32, fmaF64, fmaF16, fmaBf16, pow, copysign, ftz32, fastDivF32, erf, erfc, popc32, popc64, clz64,
  asI64, asU64, absI32, absI64, minBig, maxBig, structMemory, bitsOf,
};
export type JsRuntime = typeof jsrt;

/**
 * What the tensor-core builtins (src/ir/mmaBuiltins.ts) compute: the per-lane fragment layouts
 * of PTX's `mma.sync` shapes, and the arithmetic of one element of D = A·B + C as the H200's
 * tensor cores do it (measured bit for bit: bench/tensorcore/README.md; spec/language.md,
 * "Tensor cores"). The simulator's definition of the builtins, and the one place these facts
 * are written down in code.
 *
 * The float model, for one element: each of the K products is exact; each term (products and
 * the accumulator) has a nominal exponent (a product's: the sum of its factors' exponent
 * fields; the accumulator's: its own; a subnormal's field counts as the format's emin); E is
 * the largest over the nonzero terms; every term is truncated toward zero to a multiple of
 * 2^(E−25); the truncated terms are summed exactly; the sum is rounded once, toward zero into
 * f32, to nearest even into f16.
 *
 * Without BigInt: every operand is exact in a double; a product of two (at most 11 + 11
 * significant bits) is exact in a double too; scaling a term by 2^(25−E) is exact (a power of
 * two, far from the double's range limits: |E| < 300), so `Math.trunc` of it is the truncated
 * term as an integer below 2^28, and the sum of at most 33 of them is below 2^34: exact. The
 * sum times 2^(E−25) is the exact value to round.
 */
import { roundF16 } from "./halves.js";

/** The input formats of the float shapes, and the accumulator formats. */
export type MmaInput = "f16" | "bf16" | "tf32";
export type MmaAcc = "f32" | "f16";

/** The smallest normal exponent: the nominal exponent of a subnormal. */
const EMIN: Readonly<Record<MmaInput | MmaAcc, number>> = { f16: -14, bf16: -126, tf32: -126, f32: -126 };

const F32_MAX = 3.4028234663852886e38;

const f64 = new Float64Array(1);
const hi32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // the word that holds a double's exponent
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** floor(log2 |x|) of a nonzero finite double that is normal as a double (every value here is). */
function exponentOf(x: number): number {
  f64[0] = x;
  return ((hi32[HI]! >>> 20) & 0x7ff) - 1023;
}

/** The nominal exponent of a nonzero finite value of a format. */
function nominal(x: number, fmt: MmaInput | MmaAcc): number {
  return Math.max(exponentOf(x), EMIN[fmt]);
}

/**
 * x rounded toward zero to an f32 as the tensor cores round their sum: the significand is
 * truncated to 24 bits, so a sum in [FLT_MAX, 2^128) gives ±FLT_MAX, and one of 2^128 or more
 * overflows the exponent to ±inf (measured on the H200: test/gpu/mma.test.ts, set huge).
 */
export function roundF32TowardZero(x: number): number {
  if (x !== x || x === 0) return x;
  if (Math.abs(x) >= 2 ** 128) return x > 0 ? Infinity : -Infinity;
  if (Math.abs(x) > F32_MAX) return x > 0 ? F32_MAX : -F32_MAX;
  const r = Math.fround(x);
  if (Math.abs(r) <= Math.abs(x)) return r;
  f32[0] = r;
  u32[0] = u32[0]! - 1; // one step toward zero: the magnitude's bits are the same for either sign
  return f32[0]!;
}

/** An f32 rounded to tf32 as `cvt.rna.tf32.f32` does: to 10 fraction bits, ties away from zero (its low 13 bits zero). */
export function roundTf32(x: number): number {
  if (x !== x || !Number.isFinite(x)) return x;
  f32[0] = x;
  u32[0] = ((u32[0]! + 0x1000) & ~0x1fff) >>> 0;
  return f32[0]!;
}

/**
 * One element of D = A·B + C: `a` and `b` the K inputs of its row of A and column of B (values
 * of `input`), `c` the accumulator (a value of `acc`). Infinite and NaN operands give what the
 * exact sum gives (IEEE 754): NaN when an operand is NaN, a product is inf × 0, or infinities
 * of both signs meet; otherwise the infinity. An exact zero sum is −0 only when every term is
 * −0 (the products' signs, and c's), +0 otherwise (tf32: +0 always); a nonzero sum that rounds to zero (below the
 * accumulator's smallest subnormal) is +0 whatever its sign, as the H200 gives it.
 */
export function mmaElement(a: ArrayLike<number>, b: ArrayLike<number>, c: number, input: MmaInput, acc: MmaAcc): number {
  const k = a.length;
  const ea = new Array<number>(k), eb = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    ea[i] = inputExponent(a[i]!, input);
    eb[i] = inputExponent(b[i]!, input);
  }
  return mmaElementOf(a, ea, b, eb, c, input, acc);
}

/** The nominal exponent of an input value of a format, or 0 for a zero or a value that is not finite (which the sum does not align). */
export function inputExponent(x: number, fmt: MmaInput): number {
  return x !== 0 && Number.isFinite(x) ? nominal(x, fmt) : 0;
}

/**
 * mmaElement with the inputs' nominal exponents given (`ea[i]` of `a[i]`, by inputExponent):
 * a warp's tile computes each input's once (mmaWarp), not once per element it meets.
 */
export function mmaElementOf(a: ArrayLike<number>, ea: ArrayLike<number>, b: ArrayLike<number>, eb: ArrayLike<number>, c: number, input: MmaInput, acc: MmaAcc): number {
  const k = a.length;
  let special = !Number.isFinite(c);
  for (let i = 0; i < k && !special; i++) special = !Number.isFinite(a[i]!) || !Number.isFinite(b[i]!);
  if (special) return specialSum(a, b, c);
  let e = -Infinity;
  for (let i = 0; i < k; i++) {
    if (a[i] !== 0 && b[i] !== 0) e = Math.max(e, ea[i]! + eb[i]!);
  }
  if (c !== 0) e = Math.max(e, nominal(c, acc));
  if (e === -Infinity) return input === "tf32" ? 0 : zeroSum(a, b, c);
  const up = 2 ** (25 - e);
  let s = Math.trunc(c * up);
  for (let i = 0; i < k; i++) s += Math.trunc(a[i]! * b[i]! * up);
  if (s === 0) return 0;
  const exact = s * 2 ** (e - 25);
  const r = acc === "f32" ? roundF32TowardZero(exact) : roundF16(exact);
  return r === 0 ? 0 : r;
}

/** The sum when every term is a zero: −0 when all are −0. */
function zeroSum(a: ArrayLike<number>, b: ArrayLike<number>, c: number): number {
  if (!Object.is(c, -0)) return 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i]! * b[i]!, -0)) return 0;
  return -0;
}

/** The sum when an operand is inf or NaN. */
function specialSum(a: ArrayLike<number>, b: ArrayLike<number>, c: number): number {
  let pos = c === Infinity, neg = c === -Infinity, nan = c !== c;
  for (let i = 0; i < a.length; i++) {
    const p = a[i]! * b[i]!; // NaN for NaN operands and inf × 0
    if (p !== p) nan = true;
    else if (p === Infinity) pos = true;
    else if (p === -Infinity) neg = true;
  }
  return nan || (pos && neg) ? NaN : pos ? Infinity : neg ? -Infinity : NaN;
}

/** One element of the integer shape: Σ a·b + c wrapped to i32 (exact: |Σ a·b| < 2^20). */
export function mmaIntElement(a: ArrayLike<number>, b: ArrayLike<number>, c: number): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return (s + c) | 0;
}

// ---------------------------------------------------------------- layouts

/** A tile position, row and column. */
export type RowCol = readonly [row: number, col: number];

/**
 * Which element of a tile lane `lane` holds as the `i`th element of its fragment (PTX ISA,
 * "Matrix fragments for mma.m16n8k*"): g = lane >> 2 (groupID), t = lane & 3 (threadID_in_group).
 * Elements are counted over the fragment's 32-bit registers in order, and within a register
 * from its low bits up.
 */
export interface MmaLayout {
  readonly m: 16;
  readonly n: 8;
  readonly k: number;
  /** Elements per lane of A, B and C/D. */
  readonly count: { readonly a: number; readonly b: number; readonly c: number };
  readonly a: (lane: number, i: number) => RowCol;
  readonly b: (lane: number, i: number) => RowCol;
}

/** C and D of every shape: c0 c1 at row g, columns 2t and 2t+1; c2 c3 at row g+8. */
export function mmaC(lane: number, i: number): RowCol {
  return [(lane >> 2) + 8 * (i >> 1), 2 * (lane & 3) + (i & 1)];
}

/** m16n8k16, f16 or bf16: A's 8 halves in 4 registers, B's 4 in 2. */
export const M16N8K16: MmaLayout = {
  m: 16, n: 8, k: 16,
  count: { a: 8, b: 4, c: 4 },
  a: (lane, i) => [(lane >> 2) + 8 * ((i >> 1) & 1), 2 * (lane & 3) + (i & 1) + 8 * (i >> 2)],
  b: (lane, i) => [2 * (lane & 3) + (i & 1) + 8 * (i >> 1), lane >> 2],
};

/** m16n8k8, tf32: A's 4 values in 4 registers, B's 2 in 2. */
export const M16N8K8: MmaLayout = {
  m: 16, n: 8, k: 8,
  count: { a: 4, b: 2, c: 4 },
  a: (lane, i) => [(lane >> 2) + 8 * (i & 1), (lane & 3) + 4 * (i >> 1)],
  b: (lane, i) => [(lane & 3) + 4 * i, lane >> 2],
};

/** m16n8k32, s8 or u8: A's 16 bytes in 4 registers, B's 8 in 2. */
export const M16N8K32: MmaLayout = {
  m: 16, n: 8, k: 32,
  count: { a: 16, b: 8, c: 4 },
  a: (lane, i) => [(lane >> 2) + 8 * ((i >> 2) & 1), 4 * (lane & 3) + (i & 3) + 16 * (i >> 3)],
  b: (lane, i) => [4 * (lane & 3) + (i & 3) + 16 * (i >> 2), lane >> 2],
};

/**
 * D = A·B + C over a whole warp: `frags[lane]` = [A's elements, B's, C's] of each of the 32
 * lanes (values, in the layout's order); the result is each lane's D elements. With
 * `exponent` (inputExponent for a format), each element also gets its row's and column's
 * exponents, computed once per input.
 */
export function mmaWarp(
  layout: MmaLayout,
  frags: readonly (readonly [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>])[],
  element: (a: number[], b: number[], c: number, ea: number[], eb: number[]) => number,
  exponent?: (x: number) => number,
): number[][] {
  const { m, n, k } = layout;
  const A = new Float64Array(m * k), B = new Float64Array(k * n), C = new Float64Array(m * n);
  for (let lane = 0; lane < 32; lane++) {
    const [fa, fb, fc] = frags[lane]!;
    for (let i = 0; i < layout.count.a; i++) { const [r, col] = layout.a(lane, i); A[r * k + col] = fa[i]!; }
    for (let i = 0; i < layout.count.b; i++) { const [r, col] = layout.b(lane, i); B[r * n + col] = fb[i]!; }
    for (let i = 0; i < 4; i++) { const [r, col] = mmaC(lane, i); C[r * n + col] = fc[i]!; }
  }
  const EA = exponent ? A.map(exponent) : A, EB = exponent ? B.map(exponent) : B;
  const row: number[] = new Array(k), column: number[] = new Array(k), rowE: number[] = new Array(k), columnE: number[] = new Array(k);
  const out: number[][] = [];
  for (let lane = 0; lane < 32; lane++) {
    const d: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [r, col] = mmaC(lane, i);
      for (let j = 0; j < k; j++) {
        row[j] = A[r * k + j]!; column[j] = B[j * n + col]!;
        rowE[j] = EA[r * k + j]!; columnE[j] = EB[j * n + col]!;
      }
      d.push(element(row, column, C[r * n + col]!, rowE, columnE));
    }
    out.push(d);
  }
  return out;
}

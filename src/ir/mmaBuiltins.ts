/**
 * The tensor-core builtins of the builtin table (src/ir/builtins.ts): warp-level matrix
 * multiply-accumulate, PTX's `mma.sync.aligned` shapes m16n8k16 (f16, bf16), m16n8k8 (tf32)
 * and m16n8k32 (s8, u8), for sm_80 and later (the target's `tensorCores` capability).
 *
 * Fragments are plain vectors of a lane's 32-bit registers, as PTX names them: A is a `u32x4`
 * (f16x2/bf16x2 pairs, or four bytes, per register), B a `u32x2`, C and D an `f32x4` (or an
 * `i32x4`, or a `u32x2` of f16 pairs for f16 accumulators); tf32 operands are f32 values
 * (`f32x4`, `f32x2`), rounded to tf32 first. Which tile element each register holds is the
 * layout of src/ir/tensorCore.ts (spec/language.md, "Tensor cores", has the picture). The same
 * registers are what `ldmatrix` loads and what a `u32` load of packed halves gives.
 *
 * Each is a warp operation: every lane of a whole warp (32 threads) must call it together; the
 * simulator gathers the 32 lanes' fragments, computes the tile with the measured arithmetic
 * (tensorCore.ts) and hands each lane its part of D.
 */
import type { WarpEntry } from "./builtins.js";
import { fromBf16Bits, fromF16Bits, f16Bits } from "./halves.js";
import { inputExponent, M16N8K16, M16N8K32, M16N8K8, mmaElementOf, mmaIntElement, mmaWarp, roundTf32, type MmaLayout } from "./tensorCore.js";
import { T, vectorType, type ScalarValue, type VectorType } from "./types.js";

const u32x4 = vectorType(T.u32, 4), u32x2 = vectorType(T.u32, 2);
const f32x4 = vectorType(T.f32, 4), f32x2 = vectorType(T.f32, 2), i32x4 = vectorType(T.i32, 4);

/** One way to call an mma builtin: the operands' types; D has C's type. */
export interface MmaSignature {
  readonly a: VectorType;
  readonly b: VectorType;
  readonly c: VectorType;
  /** The PTX type suffix of D, A, B and C (`.f32.f16.f16.f32`). */
  readonly ptx: string;
}

export interface MmaRule {
  readonly layout: MmaLayout;
  readonly signatures: readonly MmaSignature[];
}

type Lane = readonly (readonly ScalarValue[])[];

/** The halves of 32-bit registers, low bits first, decoded through a table of every 16-bit pattern (`values`). */
function halves(regs: readonly ScalarValue[], values: Float64Array): number[] {
  const out: number[] = new Array(2 * regs.length);
  for (let i = 0; i < regs.length; i++) {
    const r = regs[i] as number;
    out[2 * i] = values[r & 0xffff]!;
    out[2 * i + 1] = values[r >>> 16]!;
  }
  return out;
}

/** Every 16-bit pattern's value in a format, made once (the simulator decodes 768 halves per mma). */
const tables = new Map<(bits: number) => number, Float64Array>();
function tableOf(decode: (bits: number) => number): Float64Array {
  let t = tables.get(decode);
  if (!t) tables.set(decode, (t = Float64Array.from({ length: 0x10000 }, (_, b) => decode(b))));
  return t;
}

/** The bytes of 32-bit registers, low bits first, signed or not. */
function bytes(regs: readonly ScalarValue[], signed: boolean): number[] {
  return regs.flatMap((r) => [0, 8, 16, 24].map((s) => (signed ? (((r as number) << (24 - s)) >> 24) : ((r as number) >>> s) & 0xff)));
}

/** The simulator's rule for a half-precision shape: unpack the lanes, run the tile, pack D (f16 accumulators as pairs). */
function halfShape(decode: (bits: number) => number, input: "f16" | "bf16") {
  return (lanes: readonly Lane[]): ScalarValue[][] => {
    const accHalf = lanes[0]![2]!.length === 2;
    const values = tableOf(decode);
    const frags = lanes.map(([a, b, c]) => [halves(a!, values), halves(b!, values), accHalf ? halves(c!, tableOf(fromF16Bits)) : (c as number[])] as const);
    const acc = accHalf ? "f16" : "f32";
    const d = mmaWarp(M16N8K16, frags, (x, y, z, ex, ey) => mmaElementOf(x, ex, y, ey, z, input, acc), (v) => inputExponent(v, input));
    return accHalf ? d.map((v) => [(mmaF16Bits(v[0]!) | (mmaF16Bits(v[1]!) << 16)) >>> 0, (mmaF16Bits(v[2]!) | (mmaF16Bits(v[3]!) << 16)) >>> 0]) : d;
  };
}

function tf32Shape(lanes: readonly Lane[]): ScalarValue[][] {
  const frags = lanes.map(([a, b, c]) => [(a as number[]).map(roundTf32), (b as number[]).map(roundTf32), c as number[]] as const);
  return mmaWarp(M16N8K8, frags, (x, y, z, ex, ey) => mmaElementOf(x, ex, y, ey, z, "tf32", "f32"), (v) => inputExponent(v, "tf32"));
}

function byteShape(signed: boolean) {
  return (lanes: readonly Lane[]): ScalarValue[][] => {
    const frags = lanes.map(([a, b, c]) => [bytes(a!, signed), bytes(b!, signed), c as number[]] as const);
    return mmaWarp(M16N8K32, frags, mmaIntElement);
  };
}

const WARP = "Every lane of a whole warp calls it together (a divergent or partial warp is an error, GK8014, GK8020); sm_80 and later.";

export const mmaEntries: readonly WarpEntry[] = [
  {
    name: "mma_m16n8k16_f16",
    doc: `D = A·B + C for a 16×16 f16 tile A and a 16×8 tile B (mma.sync m16n8k16): a holds 4 registers of f16 pairs, b 2; c and the result are 4 f32 accumulators, or 2 registers of f16 pairs (f16 accumulators). ${WARP}`,
    rule: {
      kind: "warp", shape: "mma", params: ["a", "b", "c"], result: "operand",
      mma: { layout: M16N8K16, signatures: [{ a: u32x4, b: u32x2, c: f32x4, ptx: ".f32.f16.f16.f32" }, { a: u32x4, b: u32x2, c: u32x2, ptx: ".f16.f16.f16.f16" }] },
    },
    js: { kind: "mma", compute: halfShape(fromF16Bits, "f16") },
  },
  {
    name: "mma_m16n8k16_bf16",
    doc: `D = A·B + C for a 16×16 bf16 tile A and a 16×8 tile B (mma.sync m16n8k16): a holds 4 registers of bf16 pairs, b 2; c and the result are 4 f32 accumulators. ${WARP}`,
    rule: { kind: "warp", shape: "mma", params: ["a", "b", "c"], result: "operand", mma: { layout: M16N8K16, signatures: [{ a: u32x4, b: u32x2, c: f32x4, ptx: ".f32.bf16.bf16.f32" }] } },
    js: { kind: "mma", compute: halfShape(fromBf16Bits, "bf16") },
  },
  {
    name: "mma_m16n8k8_tf32",
    doc: `D = A·B + C for a 16×8 tile A and an 8×8 tile B of tf32 (mma.sync m16n8k8): a and b are f32 values, each rounded to tf32 first (to nearest, ties away from zero, as cvt.rna.tf32.f32); c and the result are 4 f32 accumulators. ${WARP}`,
    rule: { kind: "warp", shape: "mma", params: ["a", "b", "c"], result: "operand", mma: { layout: M16N8K8, signatures: [{ a: f32x4, b: f32x2, c: f32x4, ptx: ".f32.tf32.tf32.f32" }] } },
    js: { kind: "mma", compute: tf32Shape },
  },
  {
    name: "mma_m16n8k32_s8",
    doc: `D = A·B + C for a 16×32 tile A and a 32×8 tile B of i8 (mma.sync m16n8k32): a holds 4 registers of 4 bytes, b 2; c and the result are 4 i32 accumulators, the sum wrapping. ${WARP}`,
    rule: { kind: "warp", shape: "mma", params: ["a", "b", "c"], result: "operand", mma: { layout: M16N8K32, signatures: [{ a: u32x4, b: u32x2, c: i32x4, ptx: ".s32.s8.s8.s32" }] } },
    js: { kind: "mma", compute: byteShape(true) },
  },
  {
    name: "mma_m16n8k32_u8",
    doc: `D = A·B + C for a 16×32 tile A and a 32×8 tile B of u8 (mma.sync m16n8k32): a holds 4 registers of 4 bytes, b 2; c and the result are 4 i32 accumulators, the sum wrapping. ${WARP}`,
    rule: { kind: "warp", shape: "mma", params: ["a", "b", "c"], result: "operand", mma: { layout: M16N8K32, signatures: [{ a: u32x4, b: u32x2, c: i32x4, ptx: ".s32.u8.u8.s32" }] } },
    js: { kind: "mma", compute: byteShape(false) },
  },
];

/** An f16 result's bits as the tensor cores write them: a NaN is 0x7fff (measured on the H200), not f16Bits' 0x7e00. */
function mmaF16Bits(v: number): number {
  return v !== v ? 0x7fff : f16Bits(v);
}

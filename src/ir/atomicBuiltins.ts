/**
 * The atomics of the builtin table (src/ir/builtins.ts): `atomicAdd(arr, i, v)` and the
 * others, on global and shared memory, on every element type (the CUDA column,
 * src/codegen/cuda/atomicBuiltins.ts, makes most 1- and 2-byte ones a loop of atomicCAS,
 * which is exact), and atomicAdd on the two-lane half vectors f16x2 and bf16x2, for which the
 * GPU has an instruction (PTX `atom.add.noftz.f16x2`/`.bf16x2`: each lane added as the scalar
 * atomicAdd adds it, each lane atomic on its own). Here: the rule, the doc, and the
 * simulator's new value of the element (of a vector element: of each lane, by the lane
 * type's template).
 */
import type { AtomicEntry } from "./builtins.js";
import { jsBinary } from "./evalOp.js";
import { call, raw, type Template } from "./templates.js";
import { T, type ScalarName, type ScalarType, type VectorType } from "./types.js";

/** The vector element types an atomic may update: atomicAdd's two-lane halves (AtomicRule.vectors). */
export const ATOMIC_VECTORS = ["f16x2", "bf16x2"] as const;
export type AtomicVectorName = (typeof ATOMIC_VECTORS)[number];
/** An atomic's element type by name: a scalar's, or one of ATOMIC_VECTORS. */
export type AtomicTypeName = ScalarName | AtomicVectorName;

/** The name an atomic's element type goes by in the tables (`f32`, `f16x2`); a vector's is an AtomicVectorName once the checker admitted it. */
export function atomicTypeName(t: ScalarType | VectorType): AtomicTypeName {
  return t.kind === "scalar" ? t.name : (`${t.elem.name}x${t.lanes}` as AtomicVectorName);
}

const SMALL_INTS = ["i8", "u8", "i16", "u16"] as const satisfies readonly ScalarName[];
const HALVES = ["f16", "bf16"] as const satisfies readonly ScalarName[];
const INTS: readonly ScalarName[] = [...SMALL_INTS, "i32", "u32", "i64", "u64"];
const NUMS: readonly ScalarName[] = [...INTS, ...HALVES, "f32", "f64"];

type AtomicJs = (space: "global" | "shared") => Template;

/** The same JavaScript in global and shared memory. */
const anySpace = (t: Template): AtomicJs => () => t;

/** The new value from the operator's own template (src/ir/evalOp.ts): `old op v`. */
function jsOp(op: "add" | "sub" | "and" | "or" | "xor", types: readonly ScalarName[]): Partial<Record<ScalarName, AtomicJs>> {
  const out: Partial<Record<ScalarName, AtomicJs>> = {};
  for (const t of types) {
    const tpl = jsBinary(op, T[t]);
    if (tpl) out[t] = anySpace(raw(([old, v]) => tpl(old!, v!, "-1")));
  }
  return out;
}

/** Every type alike. */
const forAll = (types: readonly ScalarName[], js: AtomicJs) => Object.fromEntries(types.map((t) => [t, js]));

export const atomicEntries: readonly AtomicEntry[] = [
  {
    name: "atomicAdd",
    doc: "atomicAdd(arr, i, v): arr[i] += v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, as the GPU's global atomic add does. On f16 and bf16 it rounds once and keeps subnormals; on f16x2 and bf16x2 each lane does, atomically on its own (the old vector's lanes may be of different moments).",
    rule: { kind: "atomic", op: "add", types: NUMS, vectors: ATOMIC_VECTORS },
    js: { ...jsOp("add", NUMS), f32: (space) => raw(([o, v]) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) + $.ftz32(${v})))` : `Math.fround(${o} + ${v})`)) },
  },
  {
    name: "atomicSub",
    doc: "atomicSub(arr, i, v): arr[i] -= v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, like atomicAdd.",
    rule: { kind: "atomic", op: "sub", types: NUMS },
    js: { ...jsOp("sub", NUMS), f32: (space) => raw(([o, v]) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) - $.ftz32(${v})))` : `Math.fround(${o} - ${v})`)) },
  },
  {
    name: "atomicMin",
    doc: "atomicMin(arr, i, v): arr[i] = min(arr[i], v) atomically; returns the old value.",
    rule: { kind: "atomic", op: "min", types: NUMS },
    js: {
      ...forAll(SMALL_INTS, anySpace(call("Math.min"))),
      ...forAll(HALVES, anySpace(call("$.fmin"))),
      i32: anySpace(call("Math.min")),
      u32: anySpace(call("Math.min")),
      i64: anySpace(call("$.minBig")),
      u64: anySpace(call("$.minBig")),
      f32: anySpace(call("$.fmin")),
      f64: anySpace(call("$.fmin")),
    },
  },
  {
    name: "atomicMax",
    doc: "atomicMax(arr, i, v): arr[i] = max(arr[i], v) atomically; returns the old value.",
    rule: { kind: "atomic", op: "max", types: NUMS },
    js: {
      ...forAll(SMALL_INTS, anySpace(call("Math.max"))),
      ...forAll(HALVES, anySpace(call("$.fmax"))),
      i32: anySpace(call("Math.max")),
      u32: anySpace(call("Math.max")),
      i64: anySpace(call("$.maxBig")),
      u64: anySpace(call("$.maxBig")),
      f32: anySpace(call("$.fmax")),
      f64: anySpace(call("$.fmax")),
    },
  },
  {
    name: "atomicExch",
    doc: "atomicExch(arr, i, v): arr[i] = v atomically; returns the old value.",
    rule: { kind: "atomic", op: "exch", types: NUMS },
    // The new value is the operand: the old one is read but not used.
    js: forAll(NUMS, anySpace(raw(([, v]) => v!, { once: false }))),
  },
  {
    name: "atomicCAS",
    doc: "atomicCAS(arr, i, compare, v): if arr[i] equals compare (bit for bit), arr[i] = v; atomically; returns the old value.",
    rule: { kind: "atomic", op: "cas", types: NUMS },
    js: {
      ...forAll(INTS, anySpace(raw(([o, c, v]) => `(${o} === ${c} ? ${v} : ${o})`, { once: false }))),
      ...forAll([...HALVES, "f32", "f64"], anySpace(raw(([o, c, v]) => `(Object.is(${o}, ${c}) ? ${v} : ${o})`, { once: false }))),
    },
  },
  {
    name: "atomicAnd",
    doc: "atomicAnd(arr, i, v): arr[i] &= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "and", types: INTS },
    js: jsOp("and", INTS),
  },
  {
    name: "atomicOr",
    doc: "atomicOr(arr, i, v): arr[i] |= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "or", types: INTS },
    js: jsOp("or", INTS),
  },
  {
    name: "atomicXor",
    doc: "atomicXor(arr, i, v): arr[i] ^= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "xor", types: INTS },
    js: jsOp("xor", INTS),
  },
];

/**
 * The atomics of the builtin table (src/ir/builtins.ts): `atomicAdd(arr, i, v)` and the
 * others, on global and shared memory. The 32- and 64-bit types use CUDA's atomics; the 1- and
 * 2-byte types (i8 u8 i16 u16 f16 bf16), for which CUDA has none but f16 and bf16 atomicAdd,
 * a loop of atomicCAS on the aligned 32-bit word that holds the element, which is exact: the
 * new value is computed as the operator computes it and written only if no other thread
 * changed the word in between.
 */
import type { CudaHelperName } from "../codegen/cuda/helpers.js";
import type { AtomicEntry, CudaImpl } from "./builtins.js";
import { jsBinary } from "./evalOp.js";
import { call, raw, type Template } from "./templates.js";
import { T, type ScalarName } from "./types.js";

const ULL = "unsigned long long";
const SMALL_INTS = ["i8", "u8", "i16", "u16"] as const satisfies readonly ScalarName[];
const HALVES = ["f16", "bf16"] as const satisfies readonly ScalarName[];
const INTS: readonly ScalarName[] = [...SMALL_INTS, "i32", "u32", "i64", "u64"];
const NUMS: readonly ScalarName[] = [...INTS, ...HALVES, "f32", "f64"];

/**
 * An atomic on a 1- or 2-byte element, for which CUDA has no instruction: a loop of
 * atomicCAS on the aligned 32-bit word holding it (src/codegen/cuda/helpers.ts), applying
 * `op` (a `gk_op_*` struct) to the element and the operand converted to the element's type.
 */
function narrow(op: CudaHelperName): Partial<Record<ScalarName, CudaImpl>> {
  return Object.fromEntries([...SMALL_INTS, ...HALVES].map((t) => [t, { template: raw(([p, ...a]) => `gk_atomic_narrow<${op}>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", op] }]));
}

/** An atomic CUDA provides for i32/u32/u64 (and here i64 through u64, which is the same bits). */
function nativeInts(fn: string): Partial<Record<ScalarName, CudaImpl>> {
  const direct: CudaImpl = { template: call(fn) };
  return {
    i32: direct,
    u32: direct,
    u64: direct,
    i64: { template: raw(([p, ...a]) => `(long long)${fn}((${ULL}*)${p}, ${a.map((x) => `(${ULL})(${x})`).join(", ")})`, { prec: "unary" }) },
  };
}

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
    doc: "atomicAdd(arr, i, v): arr[i] += v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, as the GPU's global atomic add does. On f16 and bf16 it rounds once and keeps subnormals.",
    rule: { kind: "atomic", op: "add", types: NUMS },
    cuda: {
      ...narrow("gk_op_add"),
      ...nativeInts("atomicAdd"),
      f16: { template: call("atomicAdd") },
      bf16: { template: call("atomicAdd") },
      f32: { template: call("atomicAdd") },
      f64: { template: call("atomicAdd") },
    },
    js: { ...jsOp("add", NUMS), f32: (space) => raw(([o, v]) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) + $.ftz32(${v})))` : `Math.fround(${o} + ${v})`)) },
  },
  {
    name: "atomicSub",
    doc: "atomicSub(arr, i, v): arr[i] -= v atomically; returns the old value. On f32 in global memory it flushes subnormal operands and results to zero, like atomicAdd.",
    rule: { kind: "atomic", op: "sub", types: NUMS },
    cuda: {
      ...narrow("gk_op_sub"),
      f16: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
      bf16: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
      // Not CUDA's atomicSub: its headers negate the operand as a signed int, which is
      // undefined for the most negative value, and nvcc then assumes the operand is not it.
      i32: { template: raw(([p, ...a]) => `atomicAdd(${p}, (int)(0u - (unsigned int)(${a[0]})))`) },
      u32: { template: raw(([p, ...a]) => `atomicAdd(${p}, 0u - (${a[0]}))`) },
      i64: { template: raw(([p, ...a]) => `(long long)atomicAdd((${ULL}*)${p}, 0ull - (${ULL})(${a[0]}))`, { prec: "unary" }) },
      u64: { template: raw(([p, ...a]) => `atomicAdd(${p}, 0ull - (${a[0]}))`) },
      f32: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
      f64: { template: raw(([p, ...a]) => `atomicAdd(${p}, -(${a[0]}))`) },
    },
    js: { ...jsOp("sub", NUMS), f32: (space) => raw(([o, v]) => (space === "global" ? `$.ftz32(Math.fround($.ftz32(${o}) - $.ftz32(${v})))` : `Math.fround(${o} - ${v})`)) },
  },
  {
    name: "atomicMin",
    doc: "atomicMin(arr, i, v): arr[i] = min(arr[i], v) atomically; returns the old value.",
    rule: { kind: "atomic", op: "min", types: NUMS },
    cuda: {
      ...narrow("gk_op_min_int"),
      f16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_min_f16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_min_f16"] },
      bf16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_min_bf16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_min_bf16"] },
      i32: { template: call("atomicMin") },
      u32: { template: call("atomicMin") },
      i64: { template: call("atomicMin") },
      u64: { template: call("atomicMin") },
      f32: { template: call("gk_atomic_min_f32"), helpers: ["gk_atomic_min_f32"] },
      f64: { template: call("gk_atomic_min_f64"), helpers: ["gk_atomic_min_f64"] },
    },
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
    cuda: {
      ...narrow("gk_op_max_int"),
      f16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_max_f16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_max_f16"] },
      bf16: { template: raw(([p, ...a]) => `gk_atomic_narrow<gk_op_max_bf16>(${p}, ${a[0]})`), helpers: ["gk_atomic_narrow", "gk_op_max_bf16"] },
      i32: { template: call("atomicMax") },
      u32: { template: call("atomicMax") },
      i64: { template: call("atomicMax") },
      u64: { template: call("atomicMax") },
      f32: { template: call("gk_atomic_max_f32"), helpers: ["gk_atomic_max_f32"] },
      f64: { template: call("gk_atomic_max_f64"), helpers: ["gk_atomic_max_f64"] },
    },
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
    cuda: {
      ...narrow("gk_op_exch"),
      ...nativeInts("atomicExch"),
      f32: { template: call("atomicExch") },
      f64: {
        template: raw(([p, ...a]) => `__longlong_as_double((long long)atomicExch((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]})))`),
      },
    },
    // The new value is the operand: the old one is read but not used.
    js: forAll(NUMS, anySpace(raw(([, v]) => v!, { once: false }))),
  },
  {
    name: "atomicCAS",
    doc: "atomicCAS(arr, i, compare, v): if arr[i] equals compare (bit for bit), arr[i] = v; atomically; returns the old value.",
    rule: { kind: "atomic", op: "cas", types: NUMS },
    cuda: {
      ...Object.fromEntries(
        [...SMALL_INTS, ...HALVES].map((t) => [t, { template: raw(([p, ...a]) => `gk_atomic_cas_narrow(${p}, ${a[0]}, ${a[1]})`), helpers: ["gk_atomic_cas_narrow"] }]),
      ),
      ...nativeInts("atomicCAS"),
      f32: {
        template: raw(([p, ...a]) => `__int_as_float(atomicCAS((int*)${p}, __float_as_int(${a[0]}), __float_as_int(${a[1]})))`),
      },
      f64: {
        template: raw(([p, ...a]) => `__longlong_as_double((long long)atomicCAS((${ULL}*)${p}, (${ULL})__double_as_longlong(${a[0]}), (${ULL})__double_as_longlong(${a[1]})))`),
      },
    },
    js: {
      ...forAll(INTS, anySpace(raw(([o, c, v]) => `(${o} === ${c} ? ${v} : ${o})`, { once: false }))),
      ...forAll([...HALVES, "f32", "f64"], anySpace(raw(([o, c, v]) => `(Object.is(${o}, ${c}) ? ${v} : ${o})`, { once: false }))),
    },
  },
  {
    name: "atomicAnd",
    doc: "atomicAnd(arr, i, v): arr[i] &= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "and", types: INTS },
    cuda: { ...narrow("gk_op_and"), ...nativeInts("atomicAnd") },
    js: jsOp("and", INTS),
  },
  {
    name: "atomicOr",
    doc: "atomicOr(arr, i, v): arr[i] |= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "or", types: INTS },
    cuda: { ...narrow("gk_op_or"), ...nativeInts("atomicOr") },
    js: jsOp("or", INTS),
  },
  {
    name: "atomicXor",
    doc: "atomicXor(arr, i, v): arr[i] ^= v atomically; returns the old value.",
    rule: { kind: "atomic", op: "xor", types: INTS },
    cuda: { ...narrow("gk_op_xor"), ...nativeInts("atomicXor") },
    js: jsOp("xor", INTS),
  },
];

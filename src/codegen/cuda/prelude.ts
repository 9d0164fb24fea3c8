/**
 * The prelude: small device functions that generated code calls, each emitted once and only
 * when a module uses it, in one fixed order (a helper's dependencies first). Two sources:
 * the builtin table's `cudaHelpers` (min/max of floats, float atomics, ...) and the backend's
 * own integer division helpers below.
 */
import { atomicTypeName } from "../../ir/atomicBuiltins.js";
import { atomicBuiltin, memoryBuiltin } from "../../ir/builtins.js";
import { CUDA_ASYNC_COPY, CUDA_ATOMICS, CUDA_CACHE_HINTS, CUDA_INDEX, CUDA_MATH, CUDA_MEMORY, CUDA_WARP } from "./builtins.js";
import { asyncCopyBuiltin, asyncGroupBuiltin } from "../../ir/asyncCopyBuiltins.js";
import { ftzIdentityOperand } from "./ftzIdentities.js";
import { cudaHelperDeps, cudaHelpers, type CudaHelperName } from "./helpers.js";
import type { BinaryExpr, BuiltinExpr, Expr, Module } from "../../ir/nodes.js";
import { isLaneWise } from "../../ir/lanes.js";
import { asScalar, INT_NAMES, isFloat, isHalf, isInt, isSigned, isSmallInt, leaves, type HalfName, type IntName, type ScalarType, type Type } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { CUDA } from "./settings.js";
import { visit, visitExpr, type Visitor } from "../../ir/walk.js";
import { bitcastNeedsHelper } from "./bitcast.js";

export type DivisionHelperName = `gk_${"div" | "rem"}_${IntName | HalfName}`;
export type ConversionHelperName = `gk_${"f32" | "f64"}_to_${IntName}`;
type OwnHelperName = DivisionHelperName | ConversionHelperName | "gk_bitcast";
export type HelperName = CudaHelperName | OwnHelperName;

interface HelperSource {
  readonly code: string;
  /** Printed once above a run of helpers that share it. */
  readonly comment?: string;
}

const DIVISION_COMMENT = [
  "// gk's integer division and remainder: they round toward zero; the most negative value divided",
  "// by -1 wraps to itself, and its remainder is 0. Dividing by zero yields 0 here, on the GPU, where",
  "// nothing can trap; the simulator reports it as an error instead.",
].join("\n");

function divisionHelper(op: "div" | "rem", t: IntName): HelperSource {
  const T = CUDA.types[t];
  const s = CUDA.intSuffix[t];
  const head = `${CUDA.helperQualifier} ${T} gk_${op}_${t}(${T} a, ${T} b)`;
  // C computes a small integer's division in int, where nothing overflows (-128 / -1 is 128),
  // and converting back wraps (to -128).
  if (isSmallInt({ kind: "scalar", name: t })) return { code: `${head} { return b == 0 ? (${T})0 : (${T})(a ${op === "div" ? "/" : "%"} b); }`, comment: DIVISION_COMMENT };
  const signed = t === "i32" || t === "i64";
  if (!signed) return { code: `${head} { return b == 0${s} ? 0${s} : a ${op === "div" ? "/" : "%"} b; }`, comment: DIVISION_COMMENT };
  const U = CUDA.types[t === "i32" ? "u32" : "u64"];
  const us = CUDA.intSuffix[t === "i32" ? "u32" : "u64"];
  const body =
    op === "div"
      ? `return b == 0${s} ? 0${s} : b == -1${s} ? (${T})(0${us} - (${U})a) : a / b;`
      : `return b == 0${s} || b == -1${s} ? 0${s} : a % b;`;
  return { code: `${head} { ${body} }`, comment: DIVISION_COMMENT };
}

const HALF_DIVISION_COMMENT = [
  "// f16 and bf16 division and remainder, rounded once: an f32 division is correctly rounded and has",
  "// 24 >= 2 * 11 + 2 bits, so rounding it again to the half is as if the exact quotient were rounded",
  "// (CUDA's own __hdiv goes through an approximate reciprocal); fmod is exact.",
].join("\n");

function halfDivisionHelper(op: "div" | "rem", t: HalfName): HelperSource {
  const T = CUDA.types[t];
  const h = CUDA.half[t];
  const q = op === "div" ? `${h.toF32}(a) / ${h.toF32}(b)` : `fmodf(${h.toF32}(a), ${h.toF32}(b))`;
  return { code: `${CUDA.helperQualifier} ${T} gk_${op}_${t}(${T} a, ${T} b) { return ${h.fromF32}(${q}); }`, comment: HALF_DIVISION_COMMENT };
}

const CONVERSION_COMMENT = [
  "// gk's float-to-integer conversions truncate toward zero, saturate at the target's range, and",
  "// turn NaN into 0. CUDA's __float2*_rz / __double2*_rz saturate, but on sm_90 several of them",
  "// give the most negative value (or 2^31, 2^63 unsigned) for NaN, so NaN is tested first.",
].join("\n");

/** The saturating 32-bit conversion a small integer's goes through, and the small type's range. */
const SMALL_RANGE = { i8: ["i32", -128, 127], u8: ["u32", 0, 255], i16: ["i32", -32768, 32767], u16: ["u32", 0, 65535] } as const;

function conversionHelper(f: "f32" | "f64", t: IntName): HelperSource {
  const T = CUDA.types[t];
  const head = `${CUDA.helperQualifier} ${T} gk_${f}_to_${t}(${CUDA.types[f]} x)`;
  if (t === "i8" || t === "u8" || t === "i16" || t === "u16") {
    // Saturated at 32 bits, then clamped: the same as saturating at the small type's range.
    const [wide, lo, hi] = SMALL_RANGE[t];
    const sat = `${CUDA.floatToInt[f][wide]}(x)`;
    const clamped = wide === "i32" ? `min(max(${sat}, ${lo}), ${hi})` : `min(${sat}, ${hi}u)`;
    return { code: `${head} { return x != x ? (${T})0 : (${T})${clamped}; }`, comment: CONVERSION_COMMENT };
  }
  return { code: `${head} { return x != x ? 0${CUDA.intSuffix[t]} : ${CUDA.floatToInt[f][t]}(x); }`, comment: CONVERSION_COMMENT };
}

/** bitcast<T>(v) of vectors (bitcast.ts): the bytes copied, which nvcc makes register moves. */
const BITCAST_HELPER: HelperSource = {
  code: `template <typename To, typename From> ${CUDA.helperQualifier} To gk_bitcast(From v) { static_assert(sizeof(To) == sizeof(From), "bitcast of types of different sizes"); To r; memcpy(&r, &v, sizeof(To)); return r; }`,
  comment: "// bitcast<T>(v): v's bytes as a T of the same size (nvcc keeps the copy in registers).",
};

const OWN_HELPERS: ReadonlyMap<OwnHelperName, HelperSource> = new Map<OwnHelperName, HelperSource>([
  ["gk_bitcast", BITCAST_HELPER],
  ...INT_NAMES.flatMap((t) => (["div", "rem"] as const).map((op) => [`gk_${op}_${t}` as const, divisionHelper(op, t)] as const)),
  ...(["f16", "bf16"] as const).flatMap((t) => (["div", "rem"] as const).map((op) => [`gk_${op}_${t}` as const, halfDivisionHelper(op, t)] as const)),
  ...(["f32", "f64"] as const).flatMap((f) => INT_NAMES.map((t) => [`gk_${f}_to_${t}` as const, conversionHelper(f, t)] as const)),
]);

/** The helper a float-to-integer conversion goes through (from f16 and bf16: the f32 one, after an exact conversion to f32). */
export function conversionHelperFor(from: ScalarType, to: ScalarType): ConversionHelperName | undefined {
  if (!isFloat(from) || !isInt(to)) return undefined;
  return `gk_${from.name === "f64" ? "f64" : "f32"}_to_${to.name as IntName}`;
}

/** Every helper in emission order: the backend's own, then the table's in its order. */
const ORDER: readonly HelperName[] = [...OWN_HELPERS.keys(), ...(Object.keys(cudaHelpers) as CudaHelperName[])];

function source(name: HelperName): HelperSource {
  const own = OWN_HELPERS.get(name as OwnHelperName);
  return own ?? { code: cudaHelpers[name as CudaHelperName] };
}

/**
 * The helper that an integer `/` or `%` needs, or undefined when a plain C++ operator is
 * exact: a constant divisor that is not 0 (and, for signed types, not -1) can neither trap
 * nor overflow. f16 and bf16 `/` and `%` always go through one.
 */
export function divisionHelperFor(e: BinaryExpr): DivisionHelperName | undefined {
  const t = e.left.type;
  if (t.kind !== "scalar") return undefined;
  if (e.op !== "div" && e.op !== "rem") return undefined;
  if (isHalf(t)) return `gk_${e.op}_${t.name}`;
  if (!isInt(t)) return undefined;
  const d = e.right;
  if (d.kind === "const") {
    const v = BigInt(d.value as number | bigint);
    if (v !== 0n && !(isSigned(t) && v === -1n)) return undefined;
  }
  return `gk_${e.op}_${t.name as IntName}`;
}

/** The type a math builtin's CUDA implementation is chosen by: its operands' (isnan returns bool). */
export function builtinOperandType(e: BuiltinExpr): ScalarType {
  const t = e.args[0]?.type;
  invariant(t?.kind === "scalar", `${e.name} needs a scalar operand`);
  return t;
}

/** The helpers a module's code calls directly, and those the expressions `extra` (the bodies of vector helpers) call. */
export function usedHelpers(m: Module, extra: readonly Expr[] = []): Set<HelperName> {
  const used = new Set<HelperName>();
  const add = (names: readonly CudaHelperName[] | undefined) => names?.forEach((n) => used.add(n));
  const visitor: Visitor = {
    stmt: (s) => {
      const hinted = s.kind === "store" && s.cache ? CUDA_CACHE_HINTS[s.cache].store : undefined;
      if (hinted) used.add(hinted);
      if (s.kind === "store" && s.order) add(CUDA_MEMORY[memoryBuiltin(s.order === "release" ? "storeRelease" : "storeVolatile").name]?.[asScalar(s.array.type.elem).name]?.helpers);
      if (s.kind === "asyncCopy") add(CUDA_ASYNC_COPY[asyncCopyBuiltin(s.cache)]!(s.bytes).helpers);
      if (s.kind === "asyncGroup") add(CUDA_ASYNC_COPY[asyncGroupBuiltin(s.op)]!(s.pending).helpers);
    },
      expr: (e) => {
        if (m.flushToZero && ftzIdentityOperand(e)) used.add("gk_ftz_f32");
        if (e.kind === "call" && e.args.some((a) => a.kind === "viewArg")) used.add("gk_view");
        // A lane-wise operation calls its vector helper; what that calls comes from `extra`.
        if (isLaneWise(e)) return;
        if (e.kind === "binary") {
          const h = divisionHelperFor(e);
          if (h) used.add(h);
        } else if (e.kind === "builtin") {
          const impls = CUDA_MATH[e.name];
          invariant(impls, `unknown math builtin ${e.name}`);
          add(impls[builtinOperandType(e).name]?.helpers);
        } else if (e.kind === "atomic") {
          add(CUDA_ATOMICS[atomicBuiltin(e.op).name]?.[atomicTypeName(e.type)]?.helpers);
        } else if (e.kind === "warp") {
          add(CUDA_WARP[e.op].helpers);
        } else if (e.kind === "special") {
          add(CUDA_INDEX[e.name].helpers);
        } else if (e.kind === "load" && e.cache) {
          used.add(CUDA_CACHE_HINTS[e.cache].load);
        } else if (e.kind === "load" && e.order) {
          add(CUDA_MEMORY[memoryBuiltin(e.order === "acquire" ? "loadAcquire" : "loadVolatile").name]?.[asScalar(e.type).name]?.helpers);
        } else if (e.kind === "bitcast") {
          if (bitcastNeedsHelper(e)) used.add("gk_bitcast");
        } else if (e.kind === "cast" && e.operand.type.kind === "scalar") {
          const h = conversionHelperFor(e.operand.type, asScalar(e.type));
          if (h) used.add(h);
        }
      },
  };
  for (const f of [...m.functions, ...m.kernels]) {
    if (f.params.some((p) => p.type.kind === "view")) used.add("gk_view");
    visit(f.body, visitor);
  }
  for (const e of extra) visitExpr(e, visitor);
  return used;
}

/** The headers a module needs beyond `CUDA.headers`: those of the half-precision types it uses, in a fixed order. */
export function usedHeaders(m: Module): string[] {
  const used = new Set<HalfName>();
  const note = (t: Type) => {
    const v = t.kind === "global" || t.kind === "array" || t.kind === "view" || t.kind === "dynamicShared" ? t.elem : t;
    if (v.kind !== "scalar" && v.kind !== "vector" && v.kind !== "struct") return;
    for (const l of leaves(v)) if (isHalf(l.type)) used.add(l.type.name);
  };
  (m.constantArrays ?? []).forEach((a) => note(a.type));
  for (const f of [...m.functions, ...m.kernels]) {
    f.params.forEach((p) => note(p.type));
    f.shared.forEach((a) => note(a.type));
    note(f.returnType);
    visit(f.body, {
      stmt: (st) => {
        if (st.kind === "localArray") note(st.array.type);
      },
      expr: (e) => note(e.type),
    });
  }
  return (["f16", "bf16"] as const).filter((h) => used.has(h)).map((h) => CUDA.half[h].header);
}

/** The prelude's text lines for these helpers (with their dependencies), in the fixed order. */
export function preludeLines(used: ReadonlySet<HelperName>): string[] {
  const emitted = new Set<HelperName>();
  const lines: string[] = [];
  let lastComment: string | undefined;
  const emit = (name: HelperName): void => {
    if (emitted.has(name)) return;
    for (const dep of cudaHelperDeps[name as CudaHelperName] ?? []) emit(dep);
    emitted.add(name);
    const src = source(name);
    if (src.comment !== undefined && src.comment !== lastComment) lines.push(...src.comment.split("\n"));
    lastComment = src.comment;
    lines.push(src.code);
  };
  for (const name of ORDER) if (used.has(name)) emit(name);
  return lines;
}

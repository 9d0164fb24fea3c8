/**
 * What the generator may draw from, for a target (GenOptions.target): the scalar types, the
 * types global memory may hold, the exact math builtins, and the features (warp operations,
 * views, references, inexact builtins). Without a target it is `FULL`, whose lists are the
 * very arrays the generator drew from before targets existed, so the same seed gives the
 * same kernel as then (test/testing/gen/target.test.ts holds a digest of them).
 *
 * A target's restriction comes from its record (src/ir/target.ts: capabilities,
 * `lacksBuiltins`) and, where a backend's numbers differ from the simulator's, from
 * `EXACT_ON` below (which math builtins its spec states exact): the inexact ones and the
 * `approx_*`/`fast_f32` stores are left out, as their bounds are the target's, not the table's.
 */
import type { MathEntry } from "../../ir/builtins.js";
import type { Target } from "../../ir/target.js";
import { ALL_TYPES, FLOAT_TYPES, HALF_LANE_TYPES, INT_TYPES, isFloatTy, LANE_TYPES, laneType, NUM_TYPES, type FloatTy, type IntTy, type NumTy, type Ty, type ValTy } from "./ast.js";

export interface Universe {
  /** Its target's name; undefined: every construct gk has. */
  readonly target: string | undefined;
  readonly all: readonly Ty[];
  readonly num: readonly NumTy[];
  readonly int: readonly IntTy[];
  readonly float: readonly FloatTy[];
  /** Vector lane types (2 to 4 lanes), and those of 2-lane vectors only. */
  readonly lanes: readonly Ty[];
  readonly halfLanes: readonly Ty[];
  /** Whether a scalar of type t may be an element of global or constant memory. */
  readonly inMemory: (t: Ty) => boolean;
  /** Whether the math builtin may appear (exact on the target, and the target has it). */
  readonly math: (b: MathEntry) => boolean;
  readonly warp: boolean;
  readonly views: boolean;
  readonly references: boolean;
  /** Inexact builtins stored to `approx_*` and `fast_f32` outputs. */
  readonly inexact: boolean;
  /** Float division in expressions (f32 `/` is within 2.5 ulp in WGSL, not correctly rounded). */
  readonly floatDivision: boolean;
  /** Float inputs and literals that may be subnormal (SwiftShader's WGSL flushes them, spec/wgsl.md). */
  readonly subnormals: boolean;
  /**
   * Float inputs that may be NaN or infinite: WGSL lets an implementation assume there are
   * none (spec/wgsl.md), and SwiftShader's `!=` of a NaN lane is false.
   */
  readonly specials: boolean;
  /**
   * Whether the target keeps the sign of a zero as gk does: SwiftShader's WGSL gives +0 for
   * `-0.0f`, `bitcast<f32>(0x80000000u)` and `x * 0.0f` with x < 0 (measured, 2026-11-29), so
   * a WGSL kernel's float outputs compare with -0 = +0 (the comparison's tolerance rule,
   * src/testing/compare.ts).
   */
  readonly zeroSign: boolean;
  /** Most global arrays (and constant arrays) one kernel binds: WebGPU's storage buffers per stage. */
  readonly buffers: number;
}

export const FULL: Universe = {
  target: undefined,
  all: ALL_TYPES,
  num: NUM_TYPES,
  int: INT_TYPES,
  float: FLOAT_TYPES,
  lanes: LANE_TYPES,
  halfLanes: HALF_LANE_TYPES,
  inMemory: () => true,
  math: () => true,
  warp: true,
  views: true,
  references: true,
  inexact: true,
  floatDivision: true,
  subnormals: true,
  specials: true,
  zeroSign: true,
  buffers: Infinity,
};

/**
 * The math builtins a target's spec states exact, bit for bit the simulator's, by target name
 * (WGSL: spec/wgsl.md, "Numerics"); a target not named here keeps the table's exact ones.
 */
const EXACT_ON: Readonly<Record<string, ReadonlySet<string>>> = {
  WGSL: new Set(["abs", "floor", "ceil", "trunc", "min", "max", "clamp", "round", "copysign", "isnan", "isinf", "popcount", "clz"]),
};

/** A target record's limits where it has WebGPU's (src/codegen/wgsl/target.ts, WgslTarget); the generic record has none. */
function limitsOf(target: Target): { readonly maxStorageBuffersPerShaderStage?: number } | undefined {
  return (target as { readonly webgpuLimits?: { readonly maxStorageBuffersPerShaderStage?: number } }).webgpuLimits;
}

/** The generator's universe for `target` (FULL without one). */
export function universe(target: Target | undefined): Universe {
  if (!target) return FULL;
  const c = target.capabilities;
  const has = (t: Ty): boolean => {
    if (t === "f64") return c.f64;
    if (t === "i64" || t === "u64") return c.i64;
    if (t === "f16" || t === "bf16") return c.halves;
    if (t === "i8" || t === "u8" || t === "i16" || t === "u16") return c.smallInts;
    return true;
  };
  const exact = EXACT_ON[target.name];
  const inexact = exact === undefined;
  return {
    target: target.name,
    all: ALL_TYPES.filter(has),
    num: NUM_TYPES.filter(has),
    int: INT_TYPES.filter(has),
    float: FLOAT_TYPES.filter(has),
    lanes: LANE_TYPES.filter(has),
    halfLanes: HALF_LANE_TYPES.filter(has),
    inMemory: (t) => has(t) && (t !== "bool" || c.globalBools),
    math: (b) => !target.lacksBuiltins?.has(b.name) && (exact === undefined || exact.has(b.name)),
    warp: c.warpOperations,
    views: c.views,
    references: c.references,
    inexact,
    floatDivision: inexact,
    subnormals: inexact,
    specials: inexact,
    zeroSign: inexact,
    buffers: limitsOf(target)?.maxStorageBuffersPerShaderStage ?? Infinity,
  };
}


/**
 * The most float `%` operations (scalar or vector) a kernel for a target without exact float
 * division has: each is a loop (gk's exact fmod, spec/wgsl.md), and SwiftShader's shader
 * compiler takes time and memory exponential in a chain of them whose results feed each other
 * (measured 2026-11-29: 4 dependent vec4 `%` 4 s; seed 1's kernel 1808, with a chain of 3 in one
 * expression, over 7 minutes and 24 GB before the kernel ran).
 */
export const TARGET_FLOAT_REMAINDERS = 2;

/** The float `%` operations of a generated program (any node `{ k: "binary", op: "%" }` of a float or float-vector type). */
export function floatRemainders(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, x) => n + floatRemainders(x), 0);
  if (typeof node !== "object" || node === null) return 0;
  const o = node as { k?: unknown; op?: unknown; t?: unknown };
  const own = o.k === "binary" && o.op === "%" && typeof o.t === "string" && laneType(o.t as ValTy) !== undefined && isFloatTy(laneType(o.t as ValTy)!) ? 1 : 0;
  return Object.values(node).reduce((n: number, x) => n + floatRemainders(x), own);
}

/**
 * The builtin table is data. One entry per builtin: its name, its type rule, its doc line,
 * its accuracy, and the simulator's definition (`js`), which is what the builtin means. The
 * checker, the simulator, the docs and every backend read this table; test/ir/builtins.test.ts
 * checks that the simulator implements every type an entry accepts.
 *
 * What a backend spells for a builtin is that backend's own column, keyed by the builtin's name
 * (CUDA: src/codegen/cuda/builtins.ts), with a completeness test of its own. Templates are
 * structured (src/ir/templates.ts): a call, or raw text with its precedence and whether it
 * evaluates each operand once declared beside it. `$` in a JavaScript template is the runtime
 * of src/ir/evalOp.ts (`makeRuntime`).
 */
import type { AtomicOp, Axis, SpecialName, WarpOp } from "./nodes.js";
import { evaluatesOnce, fill, raw, type Template } from "./templates.js";
import { FLOAT_NAMES, INT_NAMES, T, type FloatName, type ScalarName, type ScalarType, type ScalarValue, type ValueType } from "./types.js";
import { atomicEntries, type AtomicVectorName } from "./atomicBuiltins.js";
import { warpEntries } from "./warpBuiltins.js";
import { mmaEntries, type MmaRule } from "./mmaBuiltins.js";
import { ldmatrixEntries } from "./ldmatrixBuiltins.js";
import { asyncCopyEntries } from "./asyncCopyBuiltins.js";
import { vectorEntries, vectorMemoryEntries, type VectorEntry, type VectorMemoryEntry, type VectorMemoryRule, type VectorRule } from "./vectorBuiltins.js";

export type { VectorEntry, VectorMemoryEntry, VectorMemoryRule, VectorRule };
export type { CacheHintEntry, CacheHintRule };
import { mathEntries } from "./mathBuiltins.js";
import { fastMathEntries } from "./fastMath.js";
import { memoryEntries } from "./memoryBuiltins.js";
import { cacheHintEntries, type CacheHintEntry, type CacheHintRule } from "./cacheHintBuiltins.js";

/** A class of scalar types ("f32": f32 alone, for CUDA's fast intrinsics). */
export type ScalarClass = "float" | "numeric" | "int" | "f32";

/**
 * A constraint on an operand's type, over the type algebra (src/ir/types.ts): a scalar of
 * the class, or also a vector of such scalars, lane by lane, where `vectors` is true.
 */
export interface TypeConstraint {
  readonly scalars: ScalarClass;
  readonly vectors: boolean;
}

const CLASS_SCALARS: Record<ScalarClass, readonly ScalarName[]> = {
  float: FLOAT_NAMES,
  int: INT_NAMES,
  numeric: [...INT_NAMES, ...FLOAT_NAMES],
  f32: ["f32"],
};

/** The scalar types a constraint admits (for a vector, its lanes' types). */
export function admittedScalars(c: TypeConstraint): readonly ScalarType[] {
  return CLASS_SCALARS[c.scalars].map((n) => T[n]);
}

/** Whether `t` satisfies the constraint. */
export function satisfies(t: ValueType, c: TypeConstraint): boolean {
  const lane = t.kind === "scalar" ? t : t.kind === "vector" && c.vectors ? t.elem : undefined;
  return lane !== undefined && CLASS_SCALARS[c.scalars].includes(lane.name);
}

export interface MathRule {
  readonly kind: "math";
  readonly arity: 1 | 2 | 3;
  /** Every operand has one type, which satisfies this constraint. */
  readonly operands: TypeConstraint;
  /** The result has the operands' type, or is bool, or is i32 (bit counts). */
  readonly result: "operand" | "bool" | "i32";
}

export interface AtomicRule {
  readonly kind: "atomic";
  readonly op: AtomicOp;
  /** Element types this atomic accepts. */
  readonly types: readonly ScalarName[];
  /** Vector element types it accepts too (atomicAdd: f16x2, bf16x2), each lane by its lane type's implementation. */
  readonly vectors?: readonly AtomicVectorName[];
}

export interface SyncRule {
  readonly kind: "sync";
}

export interface IndexRule {
  readonly kind: "index";
  readonly special: SpecialName;
  /** Whether it has members .x .y .z (laneId has none). */
  readonly axes: boolean;
}

/**
 * A warp operation (src/ir/warpBuiltins.ts): a shuffle of a value (`params`: the value and the
 * lane operand), a vote on a bool, or `syncWarp`.
 */
export interface WarpRule {
  readonly kind: "warp";
  /** A shuffle, a vote on a bool, a match of an integer value across the warp, `syncWarp`, or a tensor-core multiply-accumulate (src/ir/mmaBuiltins.ts). */
  readonly shape: "shuffle" | "vote" | "match" | "sync" | "mma" | "ldmatrix";
  /** The operands' names, for docs and messages. */
  readonly params: readonly string[];
  /** The result: the value's type (shuffles), u32 (ballot, matchAny), bool (anyLane, allLanes, matchAll), or none (syncWarp). */
  readonly result: "operand" | "u32" | "bool" | "void";
  /** An mma's fragment types and layout. */
  readonly mma?: MmaRule;
}

/**
 * Memory ordering (src/ir/memoryBuiltins.ts): a fence (a statement), or a load or store of one
 * element of global or shared memory with an ordering (spec: Memory model).
 */
export interface MemoryRule {
  readonly kind: "memory";
  readonly op: "fenceBlock" | "fenceDevice" | "loadAcquire" | "loadVolatile" | "storeRelease" | "storeVolatile";
  /** Element types a load or store accepts (none for a fence). */
  readonly types: readonly ScalarName[];
}

/**
 * A named constant of the language: `warpSize` (i32), and `Infinity` and `NaN`, which are
 * untyped float constants (`type: "float"`): like a float literal, they take their type from
 * the context, f32 by default.
 */
export interface ConstantRule {
  readonly kind: "constant";
  readonly type: ScalarName | "float";
  readonly value: ScalarValue;
}

/** Asynchronous global → shared copies and their groups (src/ir/asyncCopyBuiltins.ts): statements. */
export interface AsyncCopyRule {
  readonly kind: "asyncCopy";
  readonly op: "copy" | "copyL2" | "commit" | "wait" | "waitAll";
}

export type TypeRule = MathRule | AtomicRule | SyncRule | IndexRule | WarpRule | ConstantRule | VectorRule | VectorMemoryRule | MemoryRule | CacheHintRule | AsyncCopyRule;

export interface MathEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: MathRule;
  readonly js: Partial<Record<ScalarName, Template>>;
  /** How far GPU and simulator results may differ, in ulp of the result type: CUDA's documented error plus the simulator's; 0 means exact. */
  readonly ulp: Readonly<Record<FloatName, number>>;
  /** A fast, approximate intrinsic (src/ir/fastMath.ts): CUDA's documented bound and where it holds, in place of `ulp`. */
  readonly fast?: FastAccuracy;
}

/**
 * The accuracy of a fast intrinsic (`fastExp` is CUDA's `__expf`), which CUDA documents as a bound
 * that holds over some inputs (an absolute error for `__sinf` in [-π, π], ulp elsewhere).
 */
export interface FastAccuracy {
  /** CUDA's documented bound, in its words (or how gk derives one from the documented implementation). */
  readonly bound: string;
  /**
   * Where the tests compare the GPU with the simulator, and how closely: one range per operand
   * in each region, and the bound there plus the simulator's own rounding.
   */
  readonly regions: readonly FastRegion[];
  /** What the simulator computes outside the regions, where that differs from the accurate function. */
  readonly outside?: string;
}

export interface FastRegion {
  readonly operands: readonly (readonly [number, number])[];
  readonly tolerance: { readonly ulp?: number; readonly abs?: number };
}

export interface AtomicEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: AtomicRule;
  /**
   * The new value of the element: a template over `[old, ...operands]`, for an element of
   * global or shared memory (the GPU's f32 atomic add differs between them). A vector element
   * (rule.vectors) takes its lane type's, lane by lane.
   */
  readonly js: Partial<Record<ScalarName, (space: "global" | "shared") => Template>>;
}

export interface SyncEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: SyncRule;
  /** The simulator suspends the thread here; there is no expression to evaluate. */
  readonly js: "barrier";
}

export interface IndexEntry {
  readonly name: SpecialName;
  readonly doc: string;
  readonly rule: IndexRule;
  /** The simulator's per-thread variable holding this value on an axis. */
  readonly js: (axis: Axis) => string;
}

/**
 * The simulator's rule for a warp operation, applied once every thread of the warp has
 * arrived (src/runtime/sim/warps.ts). `size` is the number of threads the warp has (32, or
 * fewer in the last warp of a block whose size is not a multiple of 32).
 */
export type WarpJs =
  /** The lane whose value `lane` receives, from its lane operand; `size` or more: a lane that does not exist (an error). */
  | { readonly kind: "shuffle"; readonly source: (lane: number, operand: number, size: number) => number }
  /** The value every lane receives, from the predicates of the warp's lanes in order. */
  | { readonly kind: "vote"; readonly combine: (preds: readonly boolean[]) => ScalarValue }
  /** The value lane `lane` receives, from the values of the warp's lanes in order. */
  | { readonly kind: "match"; readonly result: (values: readonly ScalarValue[], lane: number) => ScalarValue }
  | { readonly kind: "sync" }
  /**
   * A tensor-core operation of a whole warp (32 lanes): each lane's result (a vector's lanes, or
   * a scalar), from every lane's operands in order (each operand a vector's lanes: mma's
   * [a, b, c], ldmatrix's [the 4 words of the lane's row]).
   */
  | { readonly kind: "mma" | "ldmatrix"; readonly compute: (lanes: readonly (readonly (readonly ScalarValue[])[])[]) => (ScalarValue | ScalarValue[])[] };

export interface WarpEntry {
  readonly name: WarpOp;
  readonly doc: string;
  readonly rule: WarpRule;
  readonly js: WarpJs;
}

export interface ConstantEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: ConstantRule;
}

export interface MemoryEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: MemoryRule;
}

export interface AsyncCopyEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: AsyncCopyRule;
  /** The simulator's definition: the method of its tracker of copies (src/runtime/sim/asyncCopies.ts) the code calls. */
  readonly js: "copy" | "commit" | "wait" | "waitAll";
}

export type BuiltinEntry = MathEntry | AtomicEntry | SyncEntry | IndexEntry | WarpEntry | ConstantEntry | VectorEntry | VectorMemoryEntry | MemoryEntry | CacheHintEntry | AsyncCopyEntry;

// ---------------------------------------------------------------- synchronization and thread indices

const syncEntries: readonly SyncEntry[] = [
  {
    name: "barrier",
    doc: "barrier(): waits until every thread of the block has reached this barrier (CUDA __syncthreads). All threads of a block must reach the same barriers.",
    rule: { kind: "sync" },
    js: "barrier",
  },
];

const AXES = ["x", "y", "z"] as const;
function indexEntry(name: SpecialName, js: string, doc: string): IndexEntry {
  return { name, doc, rule: { kind: "index", special: name, axes: true }, js: (axis) => `${js}${AXES[axis]}` };
}

const indexEntries: readonly IndexEntry[] = [
  indexEntry("threadIdx", "$t", "The thread's index within its block (.x .y .z), i32."),
  indexEntry("blockIdx", "$b", "The block's index within the grid (.x .y .z), i32."),
  indexEntry("blockDim", "$bd", "Threads per block on each axis (.x .y .z), i32."),
  indexEntry("gridDim", "$gd", "Blocks per grid on each axis (.x .y .z), i32."),
  indexEntry("globalId", "$g", "blockIdx * blockDim + threadIdx on each axis (.x .y .z), i32."),
  {
    name: "laneId",
    doc: "The thread's lane in its warp, i32: its linear index in the block, threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), modulo 32.",
    rule: { kind: "index", special: "laneId", axes: false },
    js: () => "$lane",
  },
];

const constantEntries: readonly ConstantEntry[] = [
  { name: "warpSize", doc: "The number of threads of a warp: 32, an i32 constant (it may size arrays).", rule: { kind: "constant", type: "i32", value: 32 } },
  { name: "Infinity", doc: "Positive infinity, an untyped float constant (f32 by default, f64 where an f64 is expected); `-Infinity` is negative infinity.", rule: { kind: "constant", type: "float", value: Infinity } },
  { name: "NaN", doc: "A quiet NaN, an untyped float constant (f32 by default, f64 where an f64 is expected). It equals nothing, itself included: test with isnan(x).", rule: { kind: "constant", type: "float", value: NaN } },
];

// ---------------------------------------------------------------- the table

export const builtins: readonly BuiltinEntry[] = [
  ...mathEntries, ...fastMathEntries, ...vectorEntries, ...vectorMemoryEntries, ...atomicEntries, ...syncEntries, ...memoryEntries, ...cacheHintEntries, ...asyncCopyEntries, ...warpEntries, ...mmaEntries, ...ldmatrixEntries, ...indexEntries, ...constantEntries,
];

export type BuiltinName = string;

const byName = new Map<string, BuiltinEntry>(builtins.map((b) => [b.name, b]));

export function lookupBuiltin(name: string): BuiltinEntry | undefined {
  return byName.get(name);
}

export function mathBuiltin(name: string): MathEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "math" ? (b as MathEntry) : undefined;
}

/** A vector builtin (`dot`, `select`, ...), by name. */
export function vectorBuiltin(name: string): VectorEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "vector" ? (b as VectorEntry) : undefined;
}

/** `loadStreaming4` and the other cache-hinted accesses, by name. */
export function cacheHintBuiltin(name: string): CacheHintEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "cacheHint" ? (b as CacheHintEntry) : undefined;
}

/** `load2 load4 store2 store4`, by name. */
export function vectorMemoryBuiltin(name: string): VectorMemoryEntry | undefined {
  const b = byName.get(name);
  return b && b.rule.kind === "vectorMemory" ? (b as VectorMemoryEntry) : undefined;
}

export function atomicBuiltin(op: AtomicOp): AtomicEntry {
  const b = atomicEntries.find((e) => e.rule.op === op);
  if (!b) throw new Error(`internal compiler error: no atomic ${op}`);
  return b;
}

export function indexBuiltin(name: SpecialName): IndexEntry {
  return indexEntries.find((e) => e.name === name)!;
}

export function warpBuiltin(op: WarpOp): WarpEntry {
  const b = warpEntries.find((e) => e.name === op) ?? mmaEntries.find((e) => e.name === op) ?? ldmatrixEntries.find((e) => e.name === op);
  if (!b) throw new Error(`internal compiler error: no warp operation ${op}`);
  return b;
}

export function memoryBuiltin(op: MemoryRule["op"]): MemoryEntry {
  const b = memoryEntries.find((e) => e.rule.op === op);
  if (!b) throw new Error(`internal compiler error: no memory operation ${op}`);
  return b;
}

export function constantBuiltin(name: string): ConstantEntry | undefined {
  return constantEntries.find((e) => e.name === name);
}

/**
 * The simulator's template of a math builtin on operand type `t`. In a module that flushes
 * f32 subnormals (`ftz`), its f32 operands are read flushed and an f32 result is written
 * flushed, as the GPU's `.ftz` instructions and library do; `copysign` alone moves bits.
 */
export function mathJs(entry: MathEntry, t: ScalarType, ftz: boolean): Template | undefined {
  const tpl = entry.js[t.name];
  if (!tpl || !ftz || t.name !== "f32" || entry.name === "copysign") return tpl;
  const result = entry.rule.result === "operand";
  return raw(
    (ops) => {
      const inner = fill(tpl, ops.map((x) => `$.ftz32(${x})`));
      return result ? `$.ftz32(${inner})` : inner;
    },
    { once: evaluatesOnce(tpl) },
  );
}

/** The scalar types a math rule accepts, by name. */
export function operandTypes(rule: MathRule): readonly ScalarName[] {
  return CLASS_SCALARS[rule.operands.scalars];
}

/**
 * The device IR: typed and explicit. Every expression knows its type; every conversion is
 * a `cast` node; every index is an explicit expression per dimension; there is no sugar
 * (compound assignment, `++`, `>>>`, `globalId` arithmetic on the host side, untyped
 * literals are all gone). Spans from the source ride along for `#line` and runtime errors.
 * Nodes are readonly plain objects; passes return new trees.
 */
import type { Span } from "../diagnostics/source.js";
import type { BuiltinName } from "./builtins.js";
import type { MemoryType, ScalarType, ScalarValue, StructType, ValueType, VectorType, VoidType } from "./types.js";

// ---------------------------------------------------------------- variables

/** A parameter or local holding a value (not an array). `id` is unique within its function; names need not be. */
export interface ValueVar {
  readonly kind: "valueVar";
  readonly id: number;
  readonly name: string;
  readonly type: ValueType;
  readonly mutable: boolean;
  /**
   * A device_fn parameter `inout T` or `out T`: a reference to the caller's variable or array
   * element, which reading and assigning the parameter read and write (`out`: only written).
   */
  readonly ref?: "inout" | "out";
  readonly span: Span;
}

/**
 * A `global<T>` parameter, a `shared` array (of constant or dynamic length), a local array, a
 * `view<T>` parameter, or a module-level `constant` array (its id is negative: such arrays
 * belong to the module, not to one function, and their ids never meet a function's).
 */
export interface ArrayVar {
  readonly kind: "arrayVar";
  readonly id: number;
  readonly name: string;
  readonly type: MemoryType;
  readonly span: Span;
}

export type Param = ValueVar | ArrayVar;

// ---------------------------------------------------------------- paths into values

/**
 * One step into a value: a struct's field (by number), a vector's lane (0 to 3: `x y z w`),
 * or an element of an array field (one index per dimension, evaluated left to right).
 */
export type PathStep =
  | { readonly kind: "field"; readonly field: number }
  | { readonly kind: "lane"; readonly lane: number }
  | { readonly kind: "elem"; readonly indices: readonly Expr[] };

// ---------------------------------------------------------------- expressions

export type BinOp =
  | "add" | "sub" | "mul" | "div" | "rem"
  | "shl" | "shr"
  | "and" | "or" | "xor"
  | "eq" | "ne" | "lt" | "le" | "gt" | "ge";

export type UnOp = "neg" | "not" | "bitnot";

export type SpecialName = "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "globalId" | "laneId";
export type Axis = 0 | 1 | 2;

export type AtomicOp = "add" | "sub" | "min" | "max" | "exch" | "cas" | "and" | "or" | "xor";

/** The warp operations, by their builtin names. */
export type WarpOp = "shfl" | "shflUp" | "shflDown" | "shflXor" | "ballot" | "anyLane" | "allLanes" | "syncWarp" | "matchAny" | "matchAll" | MmaOp;
/** The tensor-core multiply-accumulates (src/ir/mmaBuiltins.ts). */
export type MmaOp = "mma_m16n8k16_f16" | "mma_m16n8k16_bf16" | "mma_m16n8k8_tf32" | "mma_m16n8k32_s8" | "mma_m16n8k32_u8" | LdmatrixOp;
/** Loads of 8×8 matrices of 16-bit elements from shared memory into fragments (src/ir/ldmatrixBuiltins.ts). */
export type LdmatrixOp = "ldmatrix_x1" | "ldmatrix_x2" | "ldmatrix_x4" | "ldmatrix_x1_trans" | "ldmatrix_x2_trans" | "ldmatrix_x4_trans";

/** How a load or store is ordered with other threads' accesses (spec: Memory model); plain when absent. */
export type LoadOrder = "acquire" | "volatile";
export type StoreOrder = "release" | "volatile";
/**
 * A cache hint of a load or store of global memory (src/ir/cacheHintBuiltins.ts): `streaming`
 * (touched once), `readOnly` (loads of readonly arrays). It never changes the result.
 */
export type CacheHint = "streaming" | "readOnly";

export interface ConstExpr {
  readonly kind: "const";
  readonly type: ScalarType;
  /** boolean for bool, bigint for i64/u64, a number in range (f32 values already rounded) otherwise. */
  readonly value: ScalarValue;
  readonly span: Span;
}

export interface VarExpr {
  readonly kind: "var";
  readonly type: ValueType;
  readonly var: ValueVar;
  readonly span: Span;
}

/**
 * `threadIdx.x` etc., type i32. `globalId` is `blockIdx * blockDim + threadIdx` on that axis, wrapping in i32.
 * `laneId` (the thread's linear index in its block, modulo 32) has no axis: its `axis` is 0.
 */
export interface SpecialExpr {
  readonly kind: "special";
  readonly type: ScalarType;
  readonly name: SpecialName;
  readonly axis: Axis;
  readonly span: Span;
}

export interface UnaryExpr {
  readonly kind: "unary";
  readonly type: ValueType;
  readonly op: UnOp;
  readonly operand: Expr;
  readonly span: Span;
}

/**
 * Arithmetic and bitwise ops: both operands and the result share `type`.
 * Shifts: the count has the left operand's type too (the checker casts it); counts are taken modulo the bit width.
 * Comparisons: operands share a type; the result is bool.
 */
export interface BinaryExpr {
  readonly kind: "binary";
  readonly type: ValueType;
  readonly op: BinOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

/** Short-circuit `&&` / `||` on bool. */
export interface LogicalExpr {
  readonly kind: "logical";
  readonly type: ScalarType;
  readonly op: "and" | "or";
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

/** `cond ? ifTrue : ifFalse`; only the chosen branch is evaluated. */
export interface SelectExpr {
  readonly kind: "select";
  readonly type: ValueType;
  readonly cond: Expr;
  readonly ifTrue: Expr;
  readonly ifFalse: Expr;
  readonly span: Span;
}

export interface CastExpr {
  readonly kind: "cast";
  readonly type: ValueType;
  readonly operand: Expr;
  readonly span: Span;
}

/**
 * `bitcast<T>(v)`: the bits of `operand` read as a value of `type`, a scalar or vector of as
 * many value bits (lanes × width; bool and structs take no part). Nothing is computed or
 * rounded: a NaN's payload goes through as it is.
 */
export interface BitcastExpr {
  readonly kind: "bitcast";
  readonly type: ScalarType | VectorType;
  readonly operand: Expr;
  readonly span: Span;
}

/**
 * An element of an array (one index per dimension; globals, dynamic shared arrays and views
 * have one), or the part of it that `path` leads to (`a[i].pos.x`: only those bytes are
 * read). With `vector` set, the array holds scalars and the load reads the element at
 * `indices` and the `vector - 1` after it along the last dimension, as one vector of that
 * many lanes, in one access: the element's flat index must be a multiple of `vector` (the
 * simulator checks it, GK8030) and `path` is empty.
 */
export interface LoadExpr {
  readonly kind: "load";
  readonly type: ValueType;
  readonly array: ArrayVar;
  readonly indices: readonly Expr[];
  readonly path: readonly PathStep[];
  readonly vector: 2 | 4 | 8 | null;
  /** `loadAcquire`, `loadVolatile` (global or shared memory); a plain load when absent. */
  readonly order?: LoadOrder;
  /** `loadStreaming`, `loadReadOnly` (global memory, no order): how the caches should treat it. */
  readonly cache?: CacheHint;
  readonly span: Span;
}

/** A whole array passed to a device function's `global<T>` or shared array parameter. */
export interface ArrayArg {
  readonly kind: "arrayArg";
  readonly array: ArrayVar;
  readonly span: Span;
}

/** A variable passed to an `inout`/`out` parameter: the callee reads and writes it. */
export interface VarRef {
  readonly kind: "varRef";
  readonly var: ValueVar;
  readonly span: Span;
}

/** An array element passed to an `inout`/`out` parameter; its indices are evaluated (and checked) at the call. */
export interface ElemRef {
  readonly kind: "elemRef";
  readonly array: ArrayVar;
  readonly indices: readonly Expr[];
  readonly span: Span;
}

/**
 * `view(a, offset, length, stride)` (or `a` alone: the whole array) passed to a `view<T>`
 * parameter: elements offset, offset + stride, ... of `a` (its flat, row-major elements), `length`
 * of them. A null length is "to the end of `a`"; a null stride is 1. Operands are i32,
 * evaluated at the call in the order written.
 */
export interface ViewArg {
  readonly kind: "viewArg";
  readonly array: ArrayVar;
  readonly offset: Expr;
  readonly length: Expr | null;
  readonly stride: Expr | null;
  readonly span: Span;
}

export type CallArg = Expr | ArrayArg | VarRef | ElemRef | ViewArg;

export interface CallExpr {
  readonly kind: "call";
  readonly type: ValueType | VoidType;
  /** Name of an IR function of the same module. */
  readonly callee: string;
  readonly args: readonly CallArg[];
  readonly span: Span;
}

/**
 * A math builtin from the builtin table, lane by lane when its operands are vectors (all of
 * one type: the checker splats a scalar operand), or a vector builtin (`dot`, `select`, ...).
 */
export interface BuiltinExpr {
  readonly kind: "builtin";
  readonly type: ValueType;
  readonly name: BuiltinName;
  readonly args: readonly Expr[];
  readonly span: Span;
}

/**
 * An atomic read-modify-write of one array element; the value is the element's old value. The
 * element is a scalar, or a vector of the atomic's rule.vectors (atomicAdd on f16x2, bf16x2).
 */
export interface AtomicExpr {
  readonly kind: "atomic";
  readonly type: ScalarType | VectorType;
  readonly op: AtomicOp;
  readonly array: ArrayVar;
  readonly indices: readonly Expr[];
  /** `[value]`, or `[compare, value]` for cas. */
  readonly args: readonly Expr[];
  readonly span: Span;
}

/**
 * A warp operation: collective over the threads of a warp, which all reach it together, so it
 * is never folded, moved, dropped or evaluated twice. Shuffles: `[value, lane]`, the lane
 * operand i32 (taken modulo 32), the type the value's; votes: `[pred]` (bool), type u32
 * (ballot) or bool; matches: `[value]` (an integer), type u32 (matchAny) or bool (matchAll);
 * `syncWarp`: no operands, type void (an expression statement); tensor-core
 * multiply-accumulates: `[a, b, c]`, vectors of fragment registers, the type c's.
 */
export interface WarpExpr {
  readonly kind: "warp";
  readonly type: ScalarType | VectorType | VoidType;
  readonly op: WarpOp;
  readonly args: readonly Expr[];
  readonly span: Span;
}

/** The part of a value that `path` leads to: `p.pos`, `v.x`, `s.taps[i]` (path not empty). */
export interface MemberExpr {
  readonly kind: "member";
  readonly type: ValueType;
  readonly operand: Expr;
  readonly path: readonly PathStep[];
  readonly span: Span;
}

/**
 * A vector or struct value from its parts, evaluated left to right. A vector: from one scalar
 * of its lane type (every lane that value), or from scalars and vectors of its lane type
 * whose lanes add up to its own, in order. A struct: one argument per field in order, except
 * that an array field takes one argument per element, row-major.
 */
export interface ConstructExpr {
  readonly kind: "construct";
  readonly type: VectorType | StructType;
  readonly args: readonly Expr[];
  readonly span: Span;
}

/** Lanes of a vector in any order, repeated or not (`v.zyx`, `v.xxyy`): a new vector of `lanes.length` lanes. */
export interface SwizzleExpr {
  readonly kind: "swizzle";
  readonly type: VectorType;
  readonly operand: Expr;
  readonly lanes: readonly number[];
  readonly span: Span;
}

/** The zero value of a type: every scalar in it 0 or false. */
export interface ZeroExpr {
  readonly kind: "zero";
  readonly type: ValueType;
  readonly span: Span;
}

export type Expr =
  | ConstExpr
  | VarExpr
  | SpecialExpr
  | UnaryExpr
  | BinaryExpr
  | LogicalExpr
  | SelectExpr
  | CastExpr
  | BitcastExpr
  | LoadExpr
  | CallExpr
  | BuiltinExpr
  | AtomicExpr
  | WarpExpr
  | MemberExpr
  | ConstructExpr
  | SwizzleExpr
  | ZeroExpr;

// ---------------------------------------------------------------- statements

/** Declares a local value; every local starts initialized. */
export interface LetStmt {
  readonly kind: "let";
  readonly var: ValueVar;
  readonly init: Expr;
  readonly span: Span;
}

/** Declares a local array: zero-filled, or filled row-major from `init`. */
export interface LocalArrayStmt {
  readonly kind: "localArray";
  readonly array: ArrayVar;
  readonly init: readonly Expr[] | null;
  readonly span: Span;
}

/** `x = v`, or with a path `p.pos.x = v` (path indices are evaluated before the value). */
export interface AssignStmt {
  readonly kind: "assign";
  readonly var: ValueVar;
  readonly path: readonly PathStep[];
  readonly value: Expr;
  readonly span: Span;
}

/**
 * `a[i] = v`, `a[i].pos.x = v` (only the bytes `path` leads to are written, and a store never
 * writes padding), or with `vector` a vector stored into that many consecutive elements of an
 * array of scalars (as for a vector load). Indices and path indices are evaluated before the value.
 */
export interface StoreStmt {
  readonly kind: "store";
  readonly array: ArrayVar;
  readonly indices: readonly Expr[];
  readonly path: readonly PathStep[];
  readonly vector: 2 | 4 | 8 | null;
  readonly value: Expr;
  /** `storeRelease`, `storeVolatile` (global or shared memory); a plain store when absent. */
  readonly order?: StoreOrder;
  /** `storeStreaming` (global memory, no order; only "streaming"): how the caches should treat it. */
  readonly cache?: CacheHint;
  readonly span: Span;
}

/** An expression evaluated for its effect: a call, an atomic or a warp operation. */
export interface ExprStmt {
  readonly kind: "expr";
  readonly expr: Expr;
  readonly span: Span;
}

export interface IfStmt {
  readonly kind: "if";
  readonly cond: Expr;
  readonly then: readonly Stmt[];
  readonly else: readonly Stmt[];
  readonly span: Span;
}

/**
 * Every loop. `init` runs once before; then, if `testFirst`, `cond` is tested before each
 * iteration (for/while) or after it (do-while); `continue` jumps to `step`, then the test.
 * A null `cond` is `true`. Locals declared in `init` are scoped to the loop.
 */
export interface LoopStmt {
  readonly kind: "loop";
  readonly init: readonly Stmt[];
  readonly cond: Expr | null;
  readonly step: readonly Stmt[];
  readonly body: readonly Stmt[];
  readonly testFirst: boolean;
  /** `@unroll` ("full") or `@unroll(N)`: how far the CUDA compiler should unroll it; it changes no result. */
  readonly unroll?: "full" | number;
  readonly span: Span;
}

export interface BreakStmt {
  readonly kind: "break";
  readonly span: Span;
}

export interface ContinueStmt {
  readonly kind: "continue";
  readonly span: Span;
}

export interface ReturnStmt {
  readonly kind: "return";
  readonly value: Expr | null;
  readonly span: Span;
}

/** `barrier()`: no thread of the block passes until all have arrived at this same barrier. */
export interface BarrierStmt {
  readonly kind: "barrier";
  readonly span: Span;
}

/**
 * `threadfenceBlock()` / `threadfence()`: this thread's memory accesses before the fence are
 * seen by the threads of its block / of the device before those after it (spec: Memory model).
 */
export interface FenceStmt {
  readonly kind: "fence";
  readonly scope: "block" | "device";
  readonly span: Span;
}

/**
 * `cpAsync(dst, di, src, si, bytes[, valid])` / `cpAsyncL2(...)` (src/ir/asyncCopyBuiltins.ts):
 * starts an asynchronous copy of `bytes` (4, 8 or 16; `bytes / size of T` elements, `lanes`)
 * from the global array `src` at `srcIndices` to the shared array `dst` at `dstIndices`, both
 * arrays of one scalar type T, each element's flat index a multiple of `lanes`. With `valid`
 * (an i32 in 0..lanes) only that many elements are read and the rest of the destination is
 * zero-filled. `cache`: through L1 ("all", PTX `.ca`) or L2 only ("global", `.cg`, 16 bytes).
 * The destination holds the data only after the issuing thread's matching `asyncGroup` wait.
 */
export interface AsyncCopyStmt {
  readonly kind: "asyncCopy";
  readonly bytes: 4 | 8 | 16;
  readonly cache: "all" | "global";
  readonly dst: ArrayVar;
  readonly dstIndices: readonly Expr[];
  readonly src: ArrayVar;
  readonly srcIndices: readonly Expr[];
  readonly valid: Expr | null;
  readonly span: Span;
}

/**
 * `cpAsyncCommit()` (`commit`): this thread's copies since its last commit become one group;
 * `cpAsyncWait(n)` (`wait`): waits until at most `pending` of this thread's groups are
 * unfinished; `cpAsyncWaitAll()` (`waitAll`): waits for every copy of this thread, committed or not.
 */
export interface AsyncGroupStmt {
  readonly kind: "asyncGroup";
  readonly op: "commit" | "wait" | "waitAll";
  /** `wait`'s n, a constant; 0 for the others. */
  readonly pending: number;
  readonly span: Span;
}

/** A nested scope (a source block): locals declared inside end with it. */
export interface BlockStmt {
  readonly kind: "block";
  readonly body: readonly Stmt[];
  readonly span: Span;
}

export type Stmt =
  | LetStmt
  | LocalArrayStmt
  | AssignStmt
  | StoreStmt
  | ExprStmt
  | IfStmt
  | LoopStmt
  | BreakStmt
  | ContinueStmt
  | ReturnStmt
  | BarrierStmt
  | FenceStmt
  | AsyncCopyStmt
  | AsyncGroupStmt
  | BlockStmt;

// The functions and the module that hold these nodes live in ./module.ts.
export type * from "./module.js";

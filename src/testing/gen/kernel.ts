/**
 * A whole generated program, in two steps (a fast-check `chain`):
 *
 * 1. its shape: the launch, local variables and arrays, shared memory, accumulators, device
 *    function signatures, module constants, and the plan of top-level segments;
 * 2. everything else over that shape: the statements, device function bodies, and the
 *    values of every parameter.
 *
 * The kernel body:
 *
 *   const tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;    // thread in block
 *   const gid = ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z) + tid;
 *   const o = gid * 4;                                       // this thread's output slots o..o+3
 *   <locals, local arrays, shared declarations, shared accumulators set by thread 0; barrier>
 *   <segments: plain statements | a shared-memory phase | a loop of phases with a uniform trip count
 *    | warp operations storing to output slots | in blocks of whole warps, asynchronous copies,
 *    ldmatrix and a tensor-core multiply-accumulate (warps.ts)>
 *   <barrier; shared accumulators read out>
 *   <epilogue: statements that may also return early>
 *
 * Barriers and warp operations sit only at the top level or in loops with a constant trip
 * count, and no thread returns before the last one, so every thread reaches every barrier
 * and every warp operation. `shfl` and `shflXor` appear only where every warp is whole (the
 * block's size is a multiple of 32): elsewhere they could read a lane that does not exist. A shared array is
 * written only at `sh[tid]` in a phase (after a barrier, when it was readable before) and is
 * readable after the phase's barrier, at every slot, until its next phase.
 */
import fc from "fast-check";
import type { Dim3 } from "../../ir/limits.js";
import type { Target } from "../../ir/target.js";
import {
  assign, bin, index, isFloatTy, isHalfTy, isScalarTy, laneType, lit, nameRef, NUM_TYPES, scalarTarget,
  type ConstantArray, type ConstDef, type Expr, type FloatTy, type LValue, type NumTy, type Param, type ParamValue, type Program, type Stmt,
  type StructDef, type TableDef, type Ty, type ValTy, type VecTy,
} from "./ast.js";
import { arrayValue, compositeValue, filledArray } from "./compoundValues.js";
import type { ArrayRef, Env, FnSig, ValueVar } from "./expr.js";
import { FAST_USES, type FastUse } from "./fast.js";
import { callable, fnBody, fnShape, type FnShape } from "./functions.js";
import { Scope, type Accumulator, type KernelParts, type StmtCtx } from "./stmt.js";
import type { GenericFn } from "./generic.js";
import { arbGenericFn } from "./genericArb.js";
import { floatRemainders, FULL, TARGET_FLOAT_REMAINDERS, universe, type Universe } from "./universe.js";
import { inputValue, literalValue, sentinel, smallValue, typedArray } from "./values.js";
import { tensorCores, warpOperations } from "./warps.js";
import { launchBounds } from "./cacheHints.js";
import { compoundTypes, memoryScalarsOf, names } from "./programTypes.js";

/** Output slots per thread. */
export const SLOTS = 4;
/** Elements of every `in_T` input array. */
export const INPUT_LENGTH = 8;
/** Elements of every accumulator array. */
export const ACC_LENGTH = 4;

export interface GenOptions {
  /** Most threads per block (default 128). */
  readonly maxBlockThreads?: number;
  /** Most blocks (default 6). */
  readonly maxBlocks?: number;
  /** Stores of inexact math builtins (exp, sin, ...) to `approx_*` outputs, compared within their ulp (default true). */
  readonly approx?: boolean;
  /** Atomics on floats (default true; contended float additions use small integers only, so they stay exact). */
  readonly floatAtomics?: boolean;
  /** Generic device functions and kernels generic over a shared array's size (default true; src/testing/gen/generic.ts). */
  readonly generics?: boolean;
  /**
   * Draw only what this target can run as the simulator does (universe.ts): its types, its
   * exact builtins, no construct it lacks; none (the default): everything gk has, the same
   * kernels for the same seeds as before this option existed.
   */
  readonly target?: Target;
  /** Asynchronous copies, ldmatrix and tensor-core multiply-accumulates in blocks of whole warps (default true; warps.ts). */
  readonly tensorCores?: boolean;
  /** Cache-hinted loads and stores of the kernel's global arrays (cacheHints.ts) and `@launchBounds` on the kernel (default true; off for a target without them). */
  readonly cacheHints?: boolean;
}

type Segment = { readonly k: "plain" } | { readonly k: "warp" } | { readonly k: "tensor" } | { readonly k: "phase"; readonly target: number } | { readonly k: "loop"; readonly target: number; readonly trips: number };

interface Shape {
  /** What the program draws from (its target's). */
  readonly u: Universe;
  readonly grid: Dim3;
  /** Generic device functions (generic.ts), callable at every type their constraints admit. */
  readonly generics: readonly GenericFn[];
  /** Whether the kernel is generic over the size of a 1-D shared array (Program.sizeParam), where it has one. */
  readonly genericKernel: boolean;
  readonly block: Dim3;
  /** The program's vector types (inputs, outputs and value parameters of each; lanes read by scalar expressions). */
  readonly vecTypes: readonly VecTy[];
  readonly structs: readonly StructDef[];
  readonly locals: readonly { readonly name: string; readonly t: ValTy }[];
  readonly localArrays: readonly { readonly t: ValTy; readonly dims: readonly number[]; readonly init: "none" | "nested" | "flat" }[];
  /**
   * Shared data arrays: element types; the last may be a single `shared` variable. `dynamic`:
   * declared `shared sh: T[];` (of a scalar type) with its length given by the launch (where
   * the array is one-dimensional).
   */
  readonly shared: readonly { readonly t: ValTy; readonly scalar: boolean; readonly dynamic: boolean }[];
  readonly constantArrays: readonly ConstantArray[];
  readonly sharedAccs: readonly Accumulator[];
  readonly globalAccs: readonly Accumulator[];
  readonly fns: readonly FnShape[];
  readonly constants: readonly ConstDef[];
  readonly tables: readonly TableDef[];
  readonly plan: readonly Segment[];
  readonly approx: readonly FloatTy[];
  /** The fast builtin stored to `fast_f32`, with its operands clamped into one region (one per program, so its tolerance is the array's). */
  readonly fast: FastUse | null;
}

/**
 * The operations threads apply to an accumulator of each kind of type, in any order with one
 * result: integer operations wrap, f32 and f64 sums are of small integers (exact), and f16 and
 * bf16 sums would not stay exact (integers are exact only up to 2048 and 256), so only min and max.
 */
const ACC_OPS = { int: ["add", "min", "max", "and", "or", "xor"], float: ["add", "min", "max"], half: ["min", "max"] } as const;

/** The shapes of an accumulator's ACC_LENGTH elements: `x[4]`, a scalar `x` (shared only), `x[2][2]` (shared only). */
const ACC_SHAPES: Readonly<Record<string, readonly number[]>> = { "": [ACC_LENGTH], "1": [], "2": [2, ACC_LENGTH / 2] };

function accumulator(prefix: string, shapes: readonly string[], types: readonly NumTy[]): fc.Arbitrary<Accumulator> {
  return fc.constantFrom(...types).chain((t) =>
    fc.tuple(fc.constantFrom(...(isHalfTy(t) ? ACC_OPS.half : isFloatTy(t) ? ACC_OPS.float : ACC_OPS.int)), fc.constantFrom(...shapes)).map(
      ([op, shape]): Accumulator => ({ name: `${prefix}${shape}_${op}_${t}`, t, op, dims: ACC_SHAPES[shape]! }),
    ),
  );
}

function uniqueByName<T extends { name: string }>(xs: readonly T[]): T[] {
  return xs.filter((x, i) => xs.findIndex((y) => y.name === x.name) === i);
}


function shape(opts: GenOptions): fc.Arbitrary<Shape> {
  const u = universe(opts.target);
  return compoundTypes(u).chain(({ vecTypes, structs }) => shapeWith(opts, u, vecTypes, structs));
}

function shapeWith(opts: GenOptions, u: Universe, vecTypes: readonly VecTy[], structs: readonly StructDef[]): fc.Arbitrary<Shape> {
  const maxThreads = opts.maxBlockThreads ?? 128;
  const maxBlocks = opts.maxBlocks ?? 6;
  const anyWidth = fc.integer({ min: 1, max: Math.min(64, maxThreads) });
  const launch = fc
    .record({
      // Whole warps now and then, where shfl and shflXor may appear.
      bx: maxThreads < 32 ? anyWidth : fc.oneof({ arbitrary: anyWidth, weight: 4 }, { arbitrary: fc.constantFrom(...[32, 64].filter((n) => n <= maxThreads)), weight: 1 }),
      by: fc.constantFrom(1, 1, 1, 2, 3),
      bz: fc.constantFrom(1, 1, 1, 1, 2),
      gx: fc.integer({ min: 1, max: 3 }),
      gy: fc.constantFrom(1, 1, 2),
      gz: fc.constantFrom(1, 1, 1, 2),
    })
    .map(({ bx, by, bz, gx, gy, gz }) => {
      const y = Math.max(1, Math.min(by, Math.floor(maxThreads / bx)));
      const z = bx * y * bz <= maxThreads ? bz : 1;
      const x = Math.min(gx, maxBlocks);
      const gy2 = x * gy <= maxBlocks ? gy : 1;
      const gz2 = x * gy2 * gz <= maxBlocks ? gz : 1;
      return { block: [bx, y, z] as Dim3, grid: [x, gy2, gz2] as Dim3 };
    });
  const scalars = fc.constantFrom(...u.all);
  // Scalars that global and constant memory may hold (constant arrays, global accumulators).
  const memoryScalars = u === FULL ? scalars : fc.constantFrom(...u.all.filter(u.inMemory));
  const accNums = u === FULL ? NUM_TYPES : u.num.filter(u.inMemory);
  const compound = compoundOf({ vecTypes, structs });
  // Value types: scalars, and now and then the program's vectors and structs.
  const types: fc.Arbitrary<ValTy> = compound.length ? fc.oneof({ arbitrary: scalars, weight: 3 }, { arbitrary: fc.constantFrom(...compound), weight: 1 }) : scalars;
  // Local arrays of the program's vector lane types now and then, where load2/load4/store2/store4 (load8/store8) apply.
  const laneTypes = [...new Set(vecTypes.map((v) => laneType(v)!))];
  const localElem: fc.Arbitrary<ValTy> = laneTypes.length ? fc.oneof({ arbitrary: types, weight: 3 }, { arbitrary: fc.constantFrom<ValTy>(...laneTypes), weight: 1 }) : types;
  const localArray = fc
    .record({
      t: localElem,
      dims: fc.oneof(fc.integer({ min: 1, max: 6 }).map((n) => [n]), fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }))),
      init: fc.constantFrom<"none" | "nested" | "flat">("none", "nested", "flat"),
    })
    // A one-dimensional f16 or bf16 array of 4 or more has 8 elements: room for load8/store8.
    .map((a) => (isScalarTy(a.t) && isHalfTy(a.t) && a.dims.length === 1 && a.dims[0]! >= 4 ? { ...a, dims: [8] } : a))
    .map((a) => (isScalarTy(a.t) ? a : { ...a, init: "none" as const }));
  // Shared arrays: mostly of scalars, which views and dynamic shared arrays take (gk refuses
  // others there, GK2042, GK2044); of the program's vectors and structs now and then.
  const sharedTypes: fc.Arbitrary<ValTy> = compound.length ? fc.oneof({ arbitrary: scalars, weight: 6 }, { arbitrary: fc.constantFrom(...compound), weight: 1 }) : scalars;
  const shared = fc.array(fc.tuple(sharedTypes, fc.boolean()), { maxLength: 2 }).chain((ts) =>
    fc.option(sharedTypes, { freq: 3 }).map((scalar) => [
      ...ts.map(([t, dynamic]) => ({ t, scalar: false, dynamic: dynamic && isScalarTy(t) })),
      ...(scalar ? [{ t: scalar, scalar: true, dynamic: false }] : []),
    ]),
  );
  const constants = fc.tuple(
    fc.option(fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }), { freq: 2 }),
    fc.option(fc.integer({ min: -400, max: 400 }).map((n) => n / 16 + 1 / 1024)),
    fc.option(scalars.chain((t) => literalValue(t, u.subnormals).map((v) => ({ t, v })))),
  ).map(([i, f, typed]) => {
    const out: ConstDef[] = [];
    if (i !== null) out.push({ name: "C0", t: undefined, v: i });
    if (f !== null) out.push({ name: "C1", t: undefined, v: f });
    if (typed) out.push({ name: "C2", t: typed.t, v: typed.v });
    return out;
  });
  return fc
    .record({
      launch,
      locals: fc.array(types, { maxLength: 5 }).chain((ts) => names(ts.length, "v").map((ns) => ts.map((t, i) => ({ name: ns[i]!, t })))),
      localArrays: fc.array(localArray, { maxLength: 2 }),
      shared,
      sharedAccs: fc.array(accumulator("sacc", ["", "1", "2"], accNums), { maxLength: 2 }),
      globalAccs: fc.array(accumulator("acc", [""], accNums), { maxLength: 3 }),
      constants,
      tables: fc.array(
        fc.tuple(memoryScalars, fc.oneof(fc.integer({ min: 1, max: 5 }).map((n) => [n]), fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })))).chain(([t, dims]) =>
          fc.array(literalValue(t, u.subnormals), { minLength: count(dims), maxLength: count(dims) }).map((values) => ({ t, dims, values })),
        ),
        { maxLength: 2 },
      ).map((ts) => ts.map((x, i): TableDef => ({ name: `tab${i}`, ...x }))),
      segments: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 4 }),
      // Where a segment of warp operations goes, in about one program in two (shuffles move twelve types; matches four).
      warpAt: u.warp ? fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.nat(), weight: 1 }) : fc.constant(null),
      // Where the tensor-core segment goes, in blocks of whole warps (warps.ts), in about one program in three of them.
      tensorAt: opts.tensorCores === false ? fc.constant(null) : fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.nat(), weight: 1 }),
      approx: opts.approx === false || !u.inexact ? fc.constant([]) : fc.subarray([...u.float]),
      fast: opts.approx === false || !u.inexact ? fc.constant(null) : fc.option(fc.constantFrom(...FAST_USES), { freq: 2 }),
      // Constant memory holds scalars (gk refuses others, GK2043).
      constantArrays: fc.array(memoryScalars, { maxLength: 2 }).map((ts) => ts.map((t, i): ConstantArray => ({ name: `K${i}`, t, length: INPUT_LENGTH }))),
      generics: opts.generics === false ? fc.constant([]) : fc.array(arbGenericFn(u), { maxLength: 2 }),
      genericKernel: opts.generics === false ? fc.constant(false) : fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    })
    // Device functions after the arrays: their views are now and then of a shared or local array's type.
    .chain((r) => {
      const arrayScalars = [...new Set([...r.shared, ...r.localArrays].map((x) => x.t).filter(isScalarTy))];
      const viewTypes = arrayScalars.length ? fc.oneof(fc.constantFrom(...u.all), fc.constantFrom(...arrayScalars)) : fc.constantFrom(...u.all);
      return fc.array(fnShape(names(3, "p"), INPUT_LENGTH, types, viewTypes, u), { maxLength: 3 }).map((fns) => ({ ...r, fns }));
    })
    .map((r): Shape => {
      const plan = r.segments.map(([kind, target, trips]): Segment => {
        if (r.shared.length === 0 || kind % 3 === 0) return { k: "plain" };
        const t = target % r.shared.length;
        return kind % 3 === 2 && !r.shared[t]!.scalar ? { k: "loop", target: t, trips } : { k: "phase", target: t };
      });
      if (r.warpAt !== null) plan.splice(r.warpAt % (plan.length + 1), 0, { k: "warp" });
      // Global accumulators and constant arrays in the buffers the target has left (none are dropped without a limit).
      const left = u.buffers - 2 * (memoryScalarsOf(u).length + vecTypes.length + structs.length) - r.approx.length - (r.fast ? 1 : 0);
      const globalAccs = u.buffers === Infinity ? uniqueByName(r.globalAccs) : uniqueByName(r.globalAccs).slice(0, Math.max(0, left));
      const constantArrays = u.buffers === Infinity ? r.constantArrays : r.constantArrays.slice(0, Math.max(0, left - globalAccs.length));
      const [bx, by, bz] = r.launch.block;
      if (r.tensorAt !== null && (bx * by * bz) % 32 === 0) plan.splice(r.tensorAt % (plan.length + 1), 0, { k: "tensor" });
      return {
        u,
        ...r.launch,
        vecTypes,
        structs,
        locals: r.locals,
        localArrays: r.localArrays,
        shared: r.shared,
        sharedAccs: uniqueByName(r.sharedAccs),
        globalAccs,
        fns: r.fns,
        constants: r.constants,
        tables: r.tables,
        plan,
        approx: r.approx,
        fast: r.fast,
        constantArrays,
        generics: r.generics,
        genericKernel: r.genericKernel,
      };
    });
}

// ---------------------------------------------------------------- parameters

/** The program's vector and struct types. */
function compoundOf(s: { readonly vecTypes: readonly VecTy[]; readonly structs: readonly StructDef[] }): ValTy[] {
  return [...s.vecTypes, ...s.structs.map((d) => d.name)];
}

/** Every value type with a value parameter `s_T`, an input `in_T` and an output `out_T`: those global memory may hold. */
function paramTypes(s: Shape): ValTy[] {
  return [...memoryScalarsOf(s.u), ...compoundOf(s)];
}

function kernelParams(s: Shape): Param[] {
  const types = paramTypes(s);
  return [
    ...types.map((t): Param => ({ name: `s_${t}`, type: { kind: "scalar", t } })),
    ...types.map((t): Param => ({ name: `in_${t}`, type: { kind: "global", t, readonly: true } })),
    ...types.map((t): Param => ({ name: `out_${t}`, type: { kind: "global", t, readonly: false } })),
    ...s.approx.map((t): Param => ({ name: `approx_${t}`, type: { kind: "global", t, readonly: false } })),
    ...(s.fast ? [{ name: "fast_f32", type: { kind: "global", t: "f32", readonly: false } } as const] : []),
    ...s.globalAccs.map((a): Param => ({ name: a.name, type: { kind: "global", t: a.t, readonly: false } })),
  ];
}

function threads(s: Shape): number {
  return s.grid[0] * s.grid[1] * s.grid[2] * s.block[0] * s.block[1] * s.block[2];
}

/** Values of every parameter: random values and inputs, sentinel-filled outputs, accumulators by their operation. */
function values(s: Shape, params: readonly Param[]): fc.Arbitrary<Map<string, ParamValue>> {
  const n = threads(s) * SLOTS;
  const accs = new Map(s.globalAccs.map((a) => [a.name, a]));
  const input = (u: Ty) => inputValue(u, s.u.subnormals, s.u.specials);
  const arbs = params.map((p): fc.Arbitrary<ParamValue> => {
    const t = p.type.t;
    if (p.type.kind === "scalar") return compositeValue(t, s.structs, input);
    if (p.name.startsWith("in_")) return arrayValue(t, s.structs, INPUT_LENGTH, input);
    const acc = accs.get(p.name);
    if (acc) return typedArray(acc.t, ACC_LENGTH, isFloatTy(acc.t) && acc.op === "add" ? smallValue(acc.t) : input(acc.t));
    return filledArray(t, s.structs, n, sentinel);
  });
  const constants = s.constantArrays.map((a) => typedArray(a.t, a.length, input(a.t)));
  return fc.tuple(fc.tuple(...arbs), fc.tuple(...constants)).map(([vs, cs]) => new Map<string, ParamValue>([
    ...params.map((p, i): [string, ParamValue] => [p.name, vs[i]!]),
    ...s.constantArrays.map((a, i): [string, ParamValue] => [a.name, cs[i]!]),
  ]));
}

// ---------------------------------------------------------------- the kernel body

const special = (name: "threadIdx" | "blockIdx" | "blockDim" | "gridDim", axis: "x" | "y" | "z"): Expr => ({ k: "special", t: "i32", name, axis });

/** `(index.z * dim.y + index.y) * dim.x + index.x`: the linear index of a thread in its block, or of a block in the grid. */
function linear(index: "threadIdx" | "blockIdx", dim: "blockDim" | "gridDim"): Expr {
  const zy = bin("i32", "+", bin("i32", "*", special(index, "z"), special(dim, "y")), special(index, "y"));
  return bin("i32", "+", bin("i32", "*", zy, special(dim, "x")), special(index, "x"));
}
const i32 = (name: string): Expr => nameRef("i32", name);
const BARRIER: Stmt = { k: "barrier" };

function prologue(): Stmt[] {
  const size = bin("i32", "*", bin("i32", "*", special("blockDim", "x"), special("blockDim", "y")), special("blockDim", "z"));
  const gid = bin("i32", "+", bin("i32", "*", linear("blockIdx", "gridDim"), size), i32("tid"));
  const tid = linear("threadIdx", "blockDim");
  const decl = (name: string, init: Expr): Stmt => ({ k: "let", decl: "const", name, t: "i32", init });
  return [decl("tid", tid), decl("gid", gid), decl("o", bin("i32", "*", i32("gid"), lit("i32", SLOTS)))];
}

interface SharedData {
  readonly ref: ArrayRef;
  /** Declared `shared sh: T[];`, its length (the block's threads) given by the launch. */
  readonly dynamic: boolean;
  /** Where this thread writes: `sh[tid]` or `sh[threadIdx.y][threadIdx.x]`; none for a scalar (thread 0 writes it). */
  readonly own: readonly Expr[] | null;
}

function sharedData(s: Shape): SharedData[] {
  const [bx, by, bz] = s.block;
  return s.shared.map(({ t, scalar, dynamic }, k) => {
    if (scalar) return { ref: { name: "ss", t, dims: [], kind: "shared" }, own: null, dynamic: false };
    const twoD = by > 1 && bz === 1;
    const isDynamic = dynamic && !twoD;
    return {
      ref: { name: `sh${k}`, t, dims: twoD ? [by, bx] : [bx * by * bz], kind: "shared", ...(isDynamic && { dynamic: true }) },
      dynamic: isDynamic,
      own: twoD ? [special("threadIdx", "y"), special("threadIdx", "x")] : [i32("tid")],
    };
  });
}

const accRef = (a: Accumulator): ArrayRef => ({ name: a.name, t: a.t, dims: a.dims, kind: "shared" });

/** The module's constant arrays as arrays expressions read. */
function constantRefs(s: Shape): ArrayRef[] {
  return s.constantArrays.map((a): ArrayRef => ({ name: a.name, t: a.t, dims: [a.length], kind: "constant" }));
}

/** The module constant tables as arrays expressions may read. */
function tableRefs(s: Shape): ArrayRef[] {
  return s.tables.map((t) => ({ name: t.name, t: t.t, dims: t.dims, kind: "table" }));
}

function kernelBody(s: Shape, fns: readonly FnSig[], constants: readonly ConstDef[], opts: GenOptions): fc.Arbitrary<Stmt[]> {
  const types = paramTypes(s);
  const hints = opts.cacheHints !== false;
  const base: Env = {
    vars: [
      ...types.map((t): ValueVar => ({ name: `s_${t}`, t, mutable: true })),
      ...["tid", "gid", "o"].map((name): ValueVar => ({ name, t: "i32", mutable: false })),
    ],
    arrays: [
      ...types.map((t): ArrayRef => ({ name: `in_${t}`, t, dims: [INPUT_LENGTH], kind: "input", ...(hints && { hints: "all" }) })),
      ...types.map((t): ArrayRef => ({ name: `out_${t}`, t, dims: [], kind: "own", ...(hints && { hints: "streaming" }) })),
      ...constantRefs(s),
      ...tableRefs(s),
    ],
    fns,
    constants,
    slots: SLOTS,
    inputLength: INPUT_LENGTH,
    structs: s.structs,
    vecTypes: s.vecTypes,
    ...(s.u !== FULL && { u: s.u }),
  };
  const writers = s.fns.flatMap((f, index) => (f.kind === "writer" ? [{ index, t: f.t }] : []));
  const parts = (accs: readonly Accumulator[]): KernelParts => ({
    outTypes: types, approx: s.approx, fast: s.fast, accumulators: accs, writers, floatAtomics: opts.floatAtomics !== false,
  });
  const outer = new Scope(base, parts(s.globalAccs));
  const locals = s.locals.map(({ name, t }): ValueVar => ({ name, t, mutable: true }));
  const localArrays = s.localArrays.map((a, i): ArrayRef => ({ name: `la${i}`, t: a.t, dims: a.dims, kind: "local" }));
  const inner = new Scope({ ...base, vars: [...base.vars, ...locals], arrays: [...base.arrays, ...localArrays] }, parts(s.globalAccs));
  const shared = sharedData(s);
  const segmentParts = parts([...s.globalAccs, ...s.sharedAccs]);
  const scopeWith = (readable: ReadonlySet<number>, extra: readonly ArrayRef[] = [], p = segmentParts) =>
    inner.with(undefined, [...inner.env.arrays, ...shared.filter((_, k) => readable.has(k)).map((d) => d.ref), ...extra], p);
  const ctx = (depth: number, ret: StmtCtx["ret"]): StmtCtx => ({ depth, loop: false, ret, loops: 0, blocks: 0 });

  const pieces: fc.Arbitrary<Stmt[]>[] = [fc.constant(prologue())];
  // A local without an initializer starts at zero (or false).
  const init = (t: ValTy) => fc.option(outer.gen.any(t), { freq: 8 });
  pieces.push(fc.tuple(...locals.map((v) => init(v.t))).map((inits) => locals.map((v, i): Stmt => ({ k: "let", decl: "let", name: v.name, t: v.t, init: inits[i] ?? null }))));
  pieces.push(
    fc.tuple(...s.localArrays.map((a) => (a.init !== "none" && isScalarTy(a.t) ? fc.array(literalValue(a.t, s.u.subnormals), { minLength: count(a.dims), maxLength: count(a.dims) }) : fc.constant(null)))).map((inits) =>
      s.localArrays.map((a, i): Stmt => ({ k: "localArray", name: `la${i}`, t: a.t, dims: a.dims, init: inits[i] ?? null, flat: a.init === "flat" })),
    ),
  );
  const declarations: Stmt[] = [
    ...shared.map((d): Stmt => ({ k: "shared", name: d.ref.name, t: d.ref.t, dims: d.ref.dims, ...(d.dynamic ? { dynamic: true } : {}) })),
    ...s.sharedAccs.map((a): Stmt => ({ k: "shared", name: a.name, t: a.t, dims: a.dims })),
  ];
  pieces.push(fc.constant(declarations));
  if (s.sharedAccs.length) pieces.push(sharedAccInit(s.sharedAccs, inner));

  const readable = new Set<number>();
  s.plan.forEach((seg, n) => {
    if (seg.k === "plain") {
      pieces.push(scopeWith(readable).stmts(ctx(2, "none"), 1, 3));
      return;
    }
    if (seg.k === "warp" || seg.k === "tensor") {
      pieces.push((seg.k === "warp" ? warpOperations : tensorCores)(scopeWith(readable), s.block));
      return;
    }
    const d = shared[seg.target]!;
    const before = readable.has(seg.target) ? [BARRIER] : [];
    const others = new Set([...readable].filter((k) => k !== seg.target));
    if (seg.k === "phase") {
      pieces.push(sharedWrite(d, scopeWith(others)).map((w) => [...before, ...w, BARRIER]));
    } else {
      const r: ValueVar = { name: `r${n}`, t: "i32", mutable: false };
      const write = sharedWrite(d, scopeWith(others).with(r));
      const reads = scopeWith(new Set([...others, seg.target])).with(r).stmts(ctx(1, "none"), 1, 3);
      pieces.push(
        fc.tuple(write, reads).map(([w, rs]): Stmt[] => [
          ...before,
          {
            k: "for",
            init: { k: "let", decl: "let", name: r.name, t: "i32", init: lit("i32", 0) },
            cond: bin("bool", "<", i32(r.name), lit("i32", seg.trips)),
            step: { k: "step", target: scalarTarget(r.name, "i32"), op: "++", prefix: false },
            body: [...w, BARRIER, ...rs, BARRIER],
          },
        ]),
      );
    }
    readable.add(seg.target);
  });

  const accs = s.sharedAccs.map(accRef);
  const epilogue = scopeWith(readable, accs, parts(s.globalAccs));
  if (s.sharedAccs.length) {
    const readout = fc.tuple(
      ...s.sharedAccs.map((a, i) =>
        fc.tuple(fc.integer({ min: 0, max: SLOTS - 1 }), fc.tuple(...a.dims.map((n) => epilogue.gen.index(n, 1)))).map(([j, ix]) =>
          assign({ name: `out_${a.t}`, t: a.t, idx: [bin("i32", "+", i32("o"), lit("i32", (j + i) % SLOTS))] }, "=", ix.length ? index(a.t, a.name, ...ix) : nameRef(a.t, a.name)),
        ),
      ),
    );
    pieces.push(readout.map((ss) => [BARRIER, ...ss]));
  }
  pieces.push(epilogue.stmts(ctx(2, "void"), 0, 3));
  return fc.tuple(...pieces).map((ps) => ps.flat());
}

function count(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/** `sh[tid] = e` (and maybe a compound update of the same slot: not of a struct), or thread 0 setting a single shared variable. */
function sharedWrite(d: SharedData, scope: Scope): fc.Arbitrary<Stmt[]> {
  const t = d.ref.t;
  const value = scope.gen.any(t);
  if (!d.own) {
    return value.map((e): Stmt[] => [{ k: "if", c: bin("bool", "==", i32("tid"), lit("i32", 0)), then: [assign(scalarTarget(d.ref.name, t), "=", e)], else: null }]);
  }
  const target: LValue = { name: d.ref.name, t, idx: d.own };
  const lane = laneType(t);
  const update = lane === undefined ? fc.constant(null) : fc.option(fc.tuple(lane === "bool" ? fc.constantFrom("^=", "|=") : fc.constantFrom("+=", "*=", "-="), value), { freq: 3 });
  return fc.tuple(value, update).map(([e, more]): Stmt[] => [
    assign(target, "=", e),
    ...(more ? [assign(target, more[0] as "+=", more[1])] : []),
  ]);
}

/** Thread 0 sets every shared accumulator; then a barrier. Float sums start at small integers. */
function sharedAccInit(accs: readonly Accumulator[], scope: Scope): fc.Arbitrary<Stmt[]> {
  const value = (a: Accumulator) => (isFloatTy(a.t) && a.op === "add" ? smallValue(a.t).map((v) => lit(a.t, v)) : scope.gen.any(a.t));
  return fc.tuple(...accs.map(value)).map((inits): Stmt[] => {
    const sets = accs.map((a, i): Stmt => {
      if (a.dims.length === 0) return assign(scalarTarget(a.name, a.t), "=", inits[i]!);
      return {
        k: "for",
        init: { k: "let", decl: "let", name: "c0", t: "i32", init: lit("i32", 0) },
        cond: bin("bool", "<", i32("c0"), lit("i32", ACC_LENGTH)),
        step: { k: "step", target: scalarTarget("c0", "i32"), op: "++", prefix: false },
        body: [assign({ name: a.name, t: a.t, idx: a.dims.length === 1 ? [i32("c0")] : [bin("i32", "/", i32("c0"), lit("i32", a.dims[1]!)), bin("i32", "%", i32("c0"), lit("i32", a.dims[1]!))] }, "=", inits[i]!)],
      };
    });
    return [{ k: "if", c: bin("bool", "==", i32("tid"), lit("i32", 0)), then: sets, else: null }, BARRIER];
  });
}

// ---------------------------------------------------------------- the program

/** Each generic function's instances: one signature per type its constraint admits. */
function genericSigs(s: Shape): FnSig[] {
  return s.generics.flatMap((g, index) =>
    g.constraint.types.filter((t) => s.u.all.includes(t)).map((t): FnSig => ({ index, params: [{ kind: "scalar", t }, { kind: "scalar", t }, { kind: "scalar", t: "i32" }], ret: t, generic: { sized: g.sized } })),
  );
}

/** The kernel's constant parameter: the size of its first 1-D shared array (data, else an accumulator), when it is generic. */
function sizeParam(s: Shape): Program["sizeParam"] {
  if (!s.genericKernel) return undefined;
  const data = sharedData(s).find((d) => d.ref.dims.length === 1 && !d.dynamic)?.ref;
  const acc = s.sharedAccs.find((a) => a.dims.length === 1);
  const array = data ?? (acc && accRef(acc));
  return array ? { name: "S", value: array.dims[0]!, array: array.name } : undefined;
}

export function arbProgram(given: GenOptions = {}): fc.Arbitrary<Program> {
  // A target draws neither tensor-core segments nor cache hints and launch bounds (CUDA's alone).
  const opts: GenOptions = given.target ? { ...given, tensorCores: false, cacheHints: false } : given;
  return shape(opts).chain((s) => {
    const params = kernelParams(s);
    const sharedLengths = new Map(sharedData(s).flatMap((d) => (d.dynamic ? [[d.ref.name, d.ref.dims[0]!] as const] : [])));
    const generic = genericSigs(s);
    const sigs: FnSig[] = [...callable(s.fns), ...generic];
    const size = sizeParam(s);
    return fc
      .record({
        fns: fc.tuple(...s.fns.map((f, i) => fnBody(f, i, s.fns, s.constants, [...constantRefs(s), ...tableRefs(s)], SLOTS, INPUT_LENGTH, generic, s))),
        body: kernelBody(s, sigs, s.constants, opts),
        values: values(s, params),
        bounds: opts.cacheHints === false ? fc.constant(undefined) : launchBounds(s.block),
      })
      .map(({ fns, body, values: vs, bounds }): Program => ({
        constants: s.constants, constantArrays: s.constantArrays, structs: s.structs, tables: s.tables, sharedLengths, fns, ...(s.generics.length && { generics: s.generics }), ...(size && { sizeParam: size }),
        params, body, grid: s.grid, block: s.block, values: vs, ...(bounds && { launchBounds: bounds }),
        ...(s.fast ? { fastTolerance: s.fast.tolerance ?? {} } : {}),
        ...(!s.u.zeroSign && { eitherZero: true as const }),
        ...(!s.u.subnormals && { flushesSubnormals: true as const }),
      }))
      .filter((p) => !given.target || s.u.floatDivision || floatRemainders(p) <= TARGET_FLOAT_REMAINDERS);
  });
}


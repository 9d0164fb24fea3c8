/**
 * The generator's own small syntax tree of a gk program: close to the source text (it is
 * printed, never checked here), so that a shrunk counterexample prints as readable `.gk`.
 * Names of module-level things (the kernel, device functions, constants, structs) are printed with
 * a prefix, so that many generated programs fit in one module.
 */
import { FLOAT_NAMES, HALF_LANE_SCALARS, INT_NAMES, LANE_SCALARS, SCALAR_INFO, type FloatName, type IntName, type ScalarName, type ScalarValue } from "../../ir/types.js";
import type { Value as CompositeValue } from "../../ir/composite.js";
import type { AnyTypedArray } from "../../ir/values.js";
import type { Dim3 } from "../../ir/limits.js";
import type { GenericCall, GenericFn } from "./generic.js";

export type Ty = ScalarName;
export type IntTy = IntName;
export type FloatTy = FloatName;
export type NumTy = IntTy | FloatTy;
/** f16 and bf16. */
export type HalfTy = "f16" | "bf16";

export const INT_TYPES: readonly IntTy[] = INT_NAMES;
export const FLOAT_TYPES: readonly FloatTy[] = FLOAT_NAMES;
export const NUM_TYPES: readonly NumTy[] = [...INT_TYPES, ...FLOAT_TYPES];
export const ALL_TYPES: readonly Ty[] = ["bool", ...NUM_TYPES];

/** Lane counts of vector types (8: f16, bf16 and bool only). */
export type Lanes = 2 | 3 | 4 | 8;
/** A vector type: `f32x4`, `boolx2`, ... */
export type VecTy = `${Ty}x${Lanes}`;
/** A struct type of the program: `S0`, `S1` (printed with the kernel's prefix). */
export type StructTy = `S${number}`;
/** The type of a value: a scalar, a vector or a struct. */
export type ValTy = Ty | VecTy | StructTy;

export const isScalarTy = (t: ValTy): t is Ty => (ALL_TYPES as readonly string[]).includes(t);
export const isVecTy = (t: ValTy): t is VecTy => /x[2348]$/.test(t);
export const isStructTy = (t: ValTy): t is StructTy => /^S\d+$/.test(t);
export const vec = (lane: Ty, n: Lanes): VecTy => `${lane}x${n}`;
export const laneOf = (v: VecTy): Ty => v.slice(0, -2) as Ty;
export const lanesOf = (v: VecTy): Lanes => Number(v.slice(-1)) as Lanes;
/** The scalar type of a scalar or of a vector's lanes; undefined for a struct. */
export const laneType = (t: ValTy): Ty | undefined => (isVecTy(t) ? laneOf(t) : isScalarTy(t) ? t : undefined);

/** A field of a generated struct: a value type, or a fixed-size array of one when `dims` is not empty. */
export interface FieldDef {
  readonly name: string;
  readonly t: ValTy;
  readonly dims: readonly number[];
}

/** A struct declaration; a struct's fields may be of structs declared before it. */
export interface StructDef {
  readonly name: StructTy;
  readonly fields: readonly FieldDef[];
}

export const isIntTy = (t: Ty): t is IntTy => SCALAR_INFO[t].class === "int";
export const isFloatTy = (t: Ty): t is FloatTy => SCALAR_INFO[t].class === "float";
export const isHalfTy = (t: Ty): t is HalfTy => t === "f16" || t === "bf16";
export const isSignedTy = (t: Ty): boolean => SCALAR_INFO[t].class === "int" && SCALAR_INFO[t].signed;
export const is64Ty = (t: Ty): boolean => SCALAR_INFO[t].bits === 64;
export const widthOf = (t: IntTy): number => SCALAR_INFO[t].bits;

/** The scalar types vectors have lanes of, and struct fields hold (not the 1- and 2-byte types: src/ir/types.ts). */
export const LANE_TYPES: readonly Ty[] = LANE_SCALARS;
/** f16 and bf16: lanes of vectors of 2, 4 and 8 lanes (f16x2, f16x4, f16x8, ...). */
export const HALF_LANE_TYPES: readonly Ty[] = HALF_LANE_SCALARS;
/** The lane types of vectors of n lanes (of 8: the halves, and bool, what comparing them gives). */
export const laneTypesOf = (n: Lanes): readonly Ty[] => (n === 3 ? LANE_TYPES : n === 8 ? [...HALF_LANE_TYPES, "bool"] : [...LANE_TYPES, ...HALF_LANE_TYPES]);
/** Whether a vector of n lanes may have lanes of t. */
export const isVecLane = (t: Ty, n: Lanes): boolean => laneTypesOf(n).includes(t);
export const LANE_NUM_TYPES: readonly NumTy[] = NUM_TYPES.filter((t) => LANE_SCALARS.includes(t));
export const LANE_INT_TYPES: readonly IntTy[] = INT_TYPES.filter((t) => LANE_SCALARS.includes(t));
export const LANE_FLOAT_TYPES: readonly FloatTy[] = FLOAT_TYPES.filter((t) => LANE_SCALARS.includes(t));

/** A value of a scalar type: boolean for bool, bigint for i64/u64, number otherwise (f32 values already rounded). */
export type Value = ScalarValue;

export type BinOp =
  | "+" | "-" | "*" | "/" | "%"
  | "&" | "|" | "^" | "<<" | ">>" | ">>>"
  | "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">="
  | "&&" | "||";

export type LitForm = "hex" | "bin" | "oct" | "sep" | "exp" | "dot";

/** `a op b`, computed exactly (untyped constants have arbitrary precision). */
export interface LitParts {
  readonly op: "+" | "-" | "^";
  readonly a: bigint;
  readonly b: bigint;
}

export type SpecialName = "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "globalId";

export type Expr =
  /**
   * A literal, or (with `constant`) the module constant of that value. `form` spells it
   * another way (`0x1F`, `1_000`, `2.5e+0`, `.5`, `5.`); `parts` as an untyped constant
   * expression of that exact value (`(7 ^ 2)`).
   */
  | { readonly k: "lit"; readonly t: Ty; readonly v: Value; readonly constant?: string; readonly form?: LitForm; readonly parts?: LitParts }
  /** A local, parameter, loop counter or shared variable. */
  | { readonly k: "name"; readonly t: ValTy; readonly name: string }
  | { readonly k: "special"; readonly t: "i32"; readonly name: SpecialName; readonly axis: "x" | "y" | "z" }
  | { readonly k: "unary"; readonly t: ValTy; readonly op: "-" | "+" | "!" | "~"; readonly e: Expr }
  /** An operator; on vectors lane by lane, one operand maybe a scalar of the lane type (or a shift count). */
  | { readonly k: "binary"; readonly t: ValTy; readonly op: BinOp; readonly l: Expr; readonly r: Expr }
  | { readonly k: "select"; readonly t: ValTy; readonly c: Expr; readonly a: Expr; readonly b: Expr }
  /** A conversion: of a scalar, or of a vector to a vector of as many lanes. */
  | { readonly k: "cast"; readonly t: ValTy; readonly e: Expr }
  /** `bitcast<t>(e)`: e's bits as a value of t, a scalar or vector of as many bits (expr.ts keeps NaNs away from it). */
  | { readonly k: "bitcast"; readonly t: ValTy; readonly e: Expr }
  /** A builtin: math (maybe lane-wise), fast math, a vector builtin (`dot`, `select`, `load4` with the array as a `name`), a shuffle, vote or match. */
  | { readonly k: "builtin"; readonly t: ValTy; readonly fn: string; readonly args: readonly Expr[] }
  | { readonly k: "atomic"; readonly t: Ty; readonly fn: string; readonly array: string; readonly idx: readonly Expr[]; readonly args: readonly Expr[] }
  /**
   * A call of device function number `fn` of the program; with `generic`, of generic
   * function number `fn` (Program.generics), making its instance at type `t`.
   */
  | { readonly k: "call"; readonly t: ValTy | "void"; readonly fn: number; readonly args: readonly CallArg[]; readonly generic?: GenericCall }
  | { readonly k: "index"; readonly t: ValTy; readonly array: string; readonly idx: readonly Expr[] }
  /** Fields, lanes, swizzles and elements of array fields of a value: `e.pos.x`, `e.taps[i]`, `e.zyx`. */
  | { readonly k: "path"; readonly t: ValTy; readonly e: Expr; readonly path: readonly PathStep[] }
  /** A vector constructor: one scalar (every lane), or scalars and vectors of the lane type whose lanes add up. */
  | { readonly k: "vec"; readonly t: VecTy; readonly parts: readonly Expr[] }
  /** A struct value `{ f: e, ... }`, the fields in declaration order; an array field as its elements, row-major. */
  | { readonly k: "struct"; readonly t: StructTy; readonly fields: readonly (Expr | readonly Expr[])[] };

/** `.name` (a field, a lane or a swizzle) or `[i]` (an element of an array field). */
export type PathStep = { readonly k: "field"; readonly name: string } | { readonly k: "elem"; readonly idx: Expr };

/**
 * A device function's argument: a value; a global array passed by name; a view of an array
 * (`view(a, offset, length, stride)`, of a row `a[r]` when `row` is set; the array or row
 * alone when `whole`); or a variable or element passed to a reference parameter.
 */
export type CallArg =
  | Expr
  | { readonly k: "arrayRef"; readonly name: string }
  | {
      readonly k: "view"; readonly array: string; readonly row: Expr | null; readonly offset: Expr; readonly length: number; readonly stride: number;
      readonly whole: boolean; readonly source: ArrayKind;
    }
  | { readonly k: "ref"; readonly target: LValue; readonly source: "var" | ArrayKind };

/** Where an array a program reads lives (expr.ts, ArrayRef). */
export type ArrayKind = "input" | "constant" | "table" | "local" | "shared" | "own" | "view";

export type AssignOp = "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" | ">>>=";

/** A variable (no indices) or an array element, or a field, lane or element of one of these (`path`). */
export interface LValue {
  readonly name: string;
  /** The type of the place written: after the path. */
  readonly t: ValTy;
  readonly idx: readonly Expr[];
  readonly path?: readonly PathStep[];
}

export type Stmt =
  | { readonly k: "let"; readonly decl: "let" | "const"; readonly name: string; readonly t: ValTy; readonly init: Expr | null }
  /** `flat`: a 2-D array's initializer written as one row-major list (arrays of scalars only). */
  | { readonly k: "localArray"; readonly name: string; readonly t: ValTy; readonly dims: readonly number[]; readonly init: readonly Value[] | null; readonly flat?: boolean }
  /** `dims` empty: one `shared x: T;`; `dynamic`: `shared x: T[];` (of scalars), its length (dims[0]) given by the launch. */
  | { readonly k: "shared"; readonly name: string; readonly t: ValTy; readonly dims: readonly number[]; readonly dynamic?: boolean }
  /**
   * `store2(array, idx, value)` / `store4(...)` / `store8(...)` into an array of scalars of type t;
   * `storeStreaming(array, idx, value)` (an element of type t) and `storeStreaming2`/`4` (cacheHints.ts).
   */
  | { readonly k: "vstore"; readonly fn: "store2" | "store4" | "store8" | "storeStreaming" | "storeStreaming2" | "storeStreaming4"; readonly array: string; readonly t: ValTy; readonly idx: Expr; readonly value: Expr }
  | { readonly k: "assign"; readonly target: LValue; readonly op: AssignOp; readonly value: Expr }
  | { readonly k: "step"; readonly target: LValue; readonly op: "++" | "--"; readonly prefix: boolean }
  | { readonly k: "do"; readonly e: Expr }
  | { readonly k: "if"; readonly c: Expr; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] | null }
  /** `unroll`: written after `@unroll` (full) or `@unroll(N)`. */
  | { readonly k: "for"; readonly init: Stmt | null; readonly cond: Expr | null; readonly step: Stmt | null; readonly body: readonly Stmt[]; readonly unroll?: Unroll }
  | { readonly k: "while"; readonly c: Expr; readonly body: readonly Stmt[] }
  | { readonly k: "doWhile"; readonly body: readonly Stmt[]; readonly c: Expr }
  | { readonly k: "jump"; readonly word: "break" | "continue" }
  | { readonly k: "return"; readonly e: Expr | null }
  | { readonly k: "barrier" }
  | { readonly k: "block"; readonly body: readonly Stmt[] }
  | { readonly k: "comment"; readonly text: string };

export type Unroll = "full" | number;

/** A value parameter (`kind` "scalar", of any value type), a global array, a view or a reference (of scalars). */
export type ParamType =
  | { readonly kind: "scalar"; readonly t: ValTy }
  | { readonly kind: "global"; readonly t: ValTy; readonly readonly: boolean }
  /** `v: view<T>` (or readonly): the function reads (and writes) elements 0..length-1. */
  /** `atomic`: the function updates it atomically, so its calls pass views of this thread's own output slots (global memory) only. */
  | { readonly kind: "view"; readonly t: Ty; readonly readonly: boolean; readonly length: number; readonly atomic?: boolean }
  /** `x: inout T` / `x: out T`. */
  | { readonly kind: "ref"; readonly t: Ty; readonly mode: "inout" | "out" };

export interface Param {
  readonly name: string;
  readonly type: ParamType;
}

export interface FnDef {
  readonly params: readonly Param[];
  readonly ret: ValTy | "void";
  readonly body: readonly Stmt[];
}

/** A module-level constant table, `const T0: T[n] = [...]` (or `T[a][b]`, given flat, row-major). */
export interface TableDef {
  readonly name: string;
  readonly t: Ty;
  readonly dims: readonly number[];
  readonly values: readonly Value[];
}

/** A module-level constant: untyped (`const C = 3;`) when `t` is undefined. */
export interface ConstDef {
  readonly name: string;
  readonly t: Ty | undefined;
  readonly v: Value;
}


// ---------------------------------------------------------------- constructors

export const lit = (t: Ty, v: Value): Expr => ({ k: "lit", t, v });
export const nameRef = (t: ValTy, name: string): Expr => ({ k: "name", t, name });
export const bin = (t: ValTy, op: BinOp, l: Expr, r: Expr): Expr => ({ k: "binary", t, op, l, r });
export const cast = (t: ValTy, e: Expr): Expr => (e.t === t ? e : { k: "cast", t, e });
export const builtin = (t: ValTy, fn: string, ...args: Expr[]): Expr => ({ k: "builtin", t, fn, args });
export const index = (t: ValTy, array: string, ...idx: Expr[]): Expr => ({ k: "index", t, array, idx });
export const assign = (target: LValue, op: AssignOp, value: Expr): Stmt => ({ k: "assign", target, op, value });
export const scalarTarget = (name: string, t: ValTy): LValue => ({ name, t, idx: [] });

/** The zero of a type, in the representation `Value` uses. */
export function zeroOf(t: Ty): Value {
  return t === "bool" ? false : t === "i64" || t === "u64" ? 0n : 0;
}

/** A small integer as a value of type t (t numeric; v must fit). */
export function small(t: NumTy, v: number): Value {
  return t === "i64" || t === "u64" ? BigInt(v) : v;
}

/**
 * A generated program: one kernel, the device functions it calls and its module constants,
 * with a launch shape and a value for every parameter. `params` lists every parameter the
 * kernel may use; the printer keeps only those its body names.
 */
export interface Program {
  readonly constants: readonly ConstDef[];
  readonly structs: readonly StructDef[];
  /** Module-level `constant` arrays (`constant K0: T[8];`); their contents are in `values`, by name. */
  readonly constantArrays: readonly ConstantArray[];
  /** The lengths of the kernel's dynamic shared arrays, by name. */
  readonly sharedLengths: ReadonlyMap<string, number>;
  /** How the `fast_f32` output compares (fast.ts): within this, or bit for bit when it is empty; absent when the kernel has no `fast_f32`. */
  readonly fastTolerance?: { readonly ulp?: number; readonly abs?: number };
  /** Module constant tables, read by the kernel and device functions (named `tab<i>`). */
  readonly tables: readonly TableDef[];
  readonly fns: readonly FnDef[];
  /** Generic device functions (src/testing/gen/generic.ts), printed `<name>_g0`, ... */
  readonly generics?: readonly GenericFn[];
  /**
   * Makes the kernel generic over a constant `S: i32` that sizes the 1-D shared array
   * `array`; the program runs the kernel's instance `<name><value>`.
   */
  readonly sizeParam?: { readonly name: string; readonly value: number; readonly array: string };
  /**
   * The target may give a zero of either sign where gk says which (universe.ts, `zeroSign`):
   * its written arrays compare with -0 = +0 (generated.ts). Absent: bit for bit.
   */
  readonly eitherZero?: true;
  /**
   * The target may flush subnormal results to zero (universe.ts, `subnormals`): its written
   * arrays compare with every value below 2^-126 equal to zero (generated.ts).
   */
  readonly flushesSubnormals?: true;
  readonly params: readonly Param[];
  readonly body: readonly Stmt[];
  /** `@launchBounds(maxThreads)` or `@launchBounds(maxThreads, minBlocks)` on the kernel, maxThreads at least the block's threads. */
  readonly launchBounds?: readonly [number] | readonly [number, number];
  readonly grid: Dim3;
  readonly block: Dim3;
  /**
   * Parameter name → its value: a scalar, a vector or struct value (src/ir/composite.ts), or
   * an array parameter's or constant array's TypedArray (of its lanes for vectors, of its
   * bytes for structs).
   */
  readonly values: ReadonlyMap<string, ParamValue>;
}

export type ArrayValue = AnyTypedArray;
export type ParamValue = CompositeValue | ArrayValue;

export interface ConstantArray {
  readonly name: string;
  readonly t: Ty;
  readonly length: number;
}

/**
 * The device IR's functions and modules: what a kernel or device function is, its launch
 * bounds and instance, the module a compilation produces, and the data a launch carries.
 * The expressions and statements they hold are in ./nodes.ts (which re-exports this file).
 */
import type { Span } from "../diagnostics/source.js";
import type { Dim3 } from "./limits.js";
import type { ArrayType, ScalarType, ScalarValue, StructType, TypeParam, ValueType, VoidType } from "./types.js";
import type { Value } from "./composite.js";
import type { ArrayVar, Param, Stmt } from "./nodes.js";

/** An argument of an instance of a generic definition: a type, a constant parameter's value, or a device function (by IR name) for a function parameter. */
export type InstanceArg =
  | { readonly kind: "type"; readonly type: ValueType }
  | { readonly kind: "const"; readonly type: ScalarType; readonly value: ScalarValue }
  | { readonly kind: "fn"; readonly name: string };

/** What a function is an instance of: its generic definition (by IR name) and the arguments, in parameter order. */
export interface Instance {
  readonly generic: string;
  readonly args: readonly InstanceArg[];
}

export interface Function {
  readonly kind: "kernel" | "device_fn";
  /** Unique in the module. An instance's name is its gk spelling, `reduce<f32, 256>`. */
  readonly name: string;
  /** Set on an instance of a generic definition (its body checked with these arguments). */
  readonly instance?: Instance;
  readonly params: readonly Param[];
  readonly returnType: ValueType | VoidType;
  /** Kernels only: `shared` arrays (dynamic ones included, in declaration order), declared at the kernel's top level. */
  readonly shared: readonly ArrayVar[];
  /** Kernels only: `@launchBounds(maxThreads, minBlocks)`: no launch's block has more threads; ptxas fits `minBlocks` blocks per SM. */
  readonly launchBounds?: LaunchBounds;
  /** Kernels only: `@maxRegisters(n)`: ptxas gives each thread at most n registers. */
  readonly maxRegisters?: number;
  readonly body: readonly Stmt[];
  /** The file that defines it (imports bring functions from other files). */
  readonly file: string;
  readonly span: Span;
}

/** `@launchBounds(maxThreads)` or `@launchBounds(maxThreads, minBlocks)` on a kernel (spec: Launch bounds). */
export interface LaunchBounds {
  /** The most threads a launch's block may have. */
  readonly maxThreads: number;
  /** The blocks ptxas should keep resident per multiprocessor (it limits registers so). */
  readonly minBlocks?: number;
}

/** Launch data, materialized only when a launch runs; lengths count elements (vectors, structs) of the array. */
export type ArrayData =
  | { readonly kind: "values"; readonly values: readonly Value[] }
  | { readonly kind: "zeros"; readonly length: number }
  | { readonly kind: "fill"; readonly length: number; readonly value: Value }
  | { readonly kind: "iota"; readonly length: number }
  /** Deterministic: floats in [lo, hi) (default [0, 1)), integers in [lo, hi), bools either. */
  | { readonly kind: "rand"; readonly length: number; readonly seed: number; readonly lo: number; readonly hi: number };

export type LaunchArg =
  | { readonly kind: "value"; readonly param: string; readonly type: ValueType; readonly value: Value; readonly span: Span }
  | { readonly kind: "array"; readonly param: string; readonly elem: ValueType; readonly data: ArrayData; readonly span: Span };

/** The contents of a module's `constant` array for one launch. */
export interface LaunchConstant {
  readonly name: string;
  readonly elem: ScalarType;
  readonly data: ArrayData;
  readonly span: Span;
}

/**
 * A host-side example launch (`launch k(...) grid(...) block(...) shared(...);`), arguments in
 * parameter order, then the contents of every `constant` array the kernel reads, and the length
 * of each of its dynamic shared arrays, in their order in `Function.shared`.
 */
export interface Launch {
  readonly kernel: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly args: readonly LaunchArg[];
  readonly constants: readonly LaunchConstant[];
  readonly sharedLengths: readonly number[];
  readonly span: Span;
}

export interface ModuleConstant {
  readonly name: string;
  readonly type: ScalarType;
  readonly value: ScalarValue;
  readonly span: Span;
}

/**
 * A module-level constant of the entry file as the host sees it (the named exports of an
 * imported .gk module, spec/typescript.md): a typed scalar, an untyped constant (`"int"`: a
 * bigint value, `"float"`: a number), or a table with its values row-major.
 */
export interface ExportedConstant {
  readonly name: string;
  readonly type: ScalarType | ArrayType | "int" | "float";
  readonly value: ScalarValue | readonly ScalarValue[];
  readonly span: Span;
}

/** A generic parameter as an instance needs it: a type parameter (the types it admits) or a constant parameter (its type). */
export type GenericParamInfo = TypeParam | { readonly kind: "constParam"; readonly name: string; readonly type: ScalarType };

/** A generic kernel of the entry file: its parameters, so that the API can name and check an instance (`with()`). */
export interface GenericKernel {
  /** Its name in the entry file. */
  readonly name: string;
  /** Its IR name, which its instances' names start with (`irName<f32, 256>`). */
  readonly irName: string;
  readonly params: readonly GenericParamInfo[];
  readonly span: Span;
}

export interface Module {
  /** The entry file. */
  readonly file: string;
  /** `@flushToZero;`: f32 operations flush subnormal operands and results to zero (spec: Flush to zero). */
  readonly flushToZero?: boolean;
  /** The `constant` arrays of the entry file and everything it imports, in the order they were met. */
  readonly constantArrays?: readonly ArrayVar[];
  /** Device functions of the entry file and everything it imports, callees before callers. */
  readonly functions: readonly Function[];
  /**
   * Kernels of the entry file, in source order, then the instances of generic kernels that
   * launch statements (or an instance request) name, in the order first named.
   */
  readonly kernels: readonly Function[];
  /** The struct types the functions use and the entry file declares, each after the structs it contains. */
  readonly structs: readonly StructType[];
  /** Generic kernels of the entry file (and those it imports), which have no code until an instance is named. */
  readonly generics?: readonly GenericKernel[];
  readonly constants: readonly ModuleConstant[];
  readonly launches: readonly Launch[];
  /** Every constant of the entry file's scope (its own and those it imports), for the host; set by the checker. */
  readonly exported?: readonly ExportedConstant[];
}

/**
 * The TypeScript spellings of gk's constructs, as tables (spec/typescript.md shows them side
 * by side with the .gk forms). A construct that a later feature adds is one entry here and
 * one case in the lowering that reads it.
 */
import { INT_NAMES, SCALAR_INFO, SCALAR_NAMES } from "../ir/types.js";

/** Where gk's names come from in a TypeScript file: `import { kernel, f32 } from "gk"`. */
export const GK_MODULE = "gk";

/** Calls that declare module items when they initialize a top-level `const`. */
export const ITEM_CALLS = {
  /** `export const k = kernel((n: i32, out: Global<f32>) => { ... })`: a device_kernel. */
  kernel: "Kernel",
  /** `const f = deviceFn((x: f32): f32 => x * x)`: a device_fn. */
  deviceFn: "Function",
} as const;
export type ItemCall = keyof typeof ITEM_CALLS;

/** Calls that declare arrays: `const t = shared(f32, 16, 16)`, `const a = local(i32, 8)`, `const W = table(f32, [...])`. */
export const ARRAY_CALLS = {
  /** `shared name: T[d0]...;` (no sizes: `shared name: T;`), at the top of a kernel body. */
  shared: { where: "kernel body", values: false },
  /** `let name: T[d0]... [= values];` in a function body. */
  local: { where: "function body", values: true },
  /** `const NAME: T[d0]... = values;` at the top level of a file. */
  table: { where: "top level", values: true },
  /** `shared name: T[];` (a dynamic shared array: each launch gives its length), at the top of a kernel body. */
  dynamicShared: { where: "kernel body", values: false },
  /** `constant NAME: T[d0]...;` (constant memory: each launch gives its contents), at the top level of a file. */
  constant: { where: "top level", values: false },
} as const;
export type ArrayCall = keyof typeof ARRAY_CALLS;

/**
 * Calls that stand for annotations: `unroll();` or `unroll(4);` as a statement is `@unroll` or
 * `@unroll(4)` on the statement after it (a loop); `flushToZero();` as a statement at the top
 * level of a file is `@flushToZero;`; `launchBounds(256, 2);` or `maxRegisters(64);` as the
 * first statement of a kernel's body is that kernel's `@launchBounds(256, 2)` / `@maxRegisters(64)`.
 */
export const ANNOTATION_CALLS = {
  unroll: "statement",
  flushToZero: "module",
  launchBounds: "kernel",
  maxRegisters: "kernel",
} as const;
export type AnnotationCall = keyof typeof ANNOTATION_CALLS;

/** Type names gk exports for parameters: `x: ReadonlyGlobal<f32>`, `s: Shared<f32, [256]>`. */
export const MEMORY_TYPES = {
  Global: { kind: "global", readonly: false },
  ReadonlyGlobal: { kind: "global", readonly: true },
  Shared: { kind: "shared" },
  /** `view<T>`, `readonly view<T>`: a device_fn parameter (ReadonlyView is the host's read-only TypedArray, hence ReadView). */
  View: { kind: "view", readonly: false },
  ReadView: { kind: "view", readonly: true },
  /** `inout T`, `out T`: a device_fn parameter that refers to the caller's variable or element. */
  InOut: { kind: "ref", mode: "inout" },
  Out: { kind: "ref", mode: "out" },
} as const;
export type MemoryTypeName = keyof typeof MEMORY_TYPES;

/** TypeScript's own types, which name no gk type, with what to write instead. */
export const TS_KEYWORD_TYPES: Readonly<Record<string, string>> = {
  number: `a kernel names gk's number types: i32 for a count or an index, f32 or f64 for a real number (import type { i32, f32 } from "gk"; all of them: ${SCALAR_NAMES.filter((n) => n !== "bool").join(", ")})`,
  bigint: `a kernel names gk's 64-bit integer types: ${INT_NAMES.filter((n) => SCALAR_INFO[n].bits === 64).join(" or ")}`,
  boolean: "a kernel names gk's bool",
  string: "kernels have no strings",
  any: "a kernel's values have gk types: f32, i32, bool, ...",
  unknown: "a kernel's values have gk types: f32, i32, bool, ...",
  object: "kernels have no objects",
  never: "a kernel's values have gk types: f32, i32, bool, ...",
  undefined: "a kernel's values have gk types: f32, i32, bool, ...",
  null: "a kernel's values have gk types: f32, i32, bool, ...",
  symbol: "kernels have no symbols",
};

/**
 * TypeScript syntax that a kernel cannot use (GK1020), by what the syntax is called: the
 * message says what to write instead. Lowering refuses every node it has no case for; this
 * table words the common ones.
 */
export const REFUSED: Readonly<Record<string, string>> = {
  StringLiteral: "kernels have no strings",
  NoSubstitutionTemplateLiteral: "kernels have no strings",
  TemplateExpression: "kernels have no strings",
  TaggedTemplateExpression: "kernels have no strings",
  RegularExpressionLiteral: "kernels have no regular expressions",
  NullKeyword: "kernels have no null: every variable has a value of its gk type",
  UndefinedKeyword: "kernels have no undefined: every variable has a value of its gk type",
  ThisKeyword: "a kernel has no `this`",
  SuperKeyword: "a kernel has no `super`",
  NewExpression: "kernels create no objects; an array is `local(f32, 8)`",
  ArrowFunction: "a kernel cannot define functions inside it: declare a deviceFn at the top level",
  FunctionExpression: "a kernel cannot define functions inside it: declare a deviceFn at the top level",
  FunctionDeclaration: "a kernel cannot define functions inside it: declare a deviceFn at the top level",
  ClassExpression: "kernels have no classes",
  ClassDeclaration: "kernels have no classes",
  AwaitExpression: "kernels are not async: a kernel runs to its end on the device",
  YieldExpression: "kernels are not generators",
  TypeOfExpression: "typeof has no meaning in a kernel: every value's gk type is known",
  DeleteExpression: "kernels have no objects to delete from",
  VoidExpression: "`void e` has no meaning in a kernel",
  SpreadElement: "kernels have no spread: pass each argument",
  AsExpression: "a type assertion converts nothing: convert with f32(x), i32(x), ...",
  TypeAssertionExpression: "a type assertion converts nothing: convert with f32(x), i32(x), ...",
  SatisfiesExpression: "`satisfies` has no meaning in a kernel",
  MetaProperty: "kernels have no import.meta or new.target",
  ForOfStatement: "for...of walks a JavaScript iterable: write for (let i = 0; i < n; i++)",
  ForInStatement: "for...in walks an object's keys: write for (let i = 0; i < n; i++)",
  TryStatement: "kernels have no exceptions",
  ThrowStatement: "kernels have no exceptions",
  LabeledStatement: "kernels have no labels: break and continue leave the innermost loop",
  WithStatement: "`with` has no meaning in a kernel",
  DebuggerStatement: "`debugger` has no meaning in a kernel",
  TypeAliasDeclaration: "declare types outside kernels (a struct: an interface at the top level of the file)",
  InterfaceDeclaration: "declare types outside kernels (a struct: an interface at the top level of the file)",
  EnumDeclaration: "kernels have no enums: use constants (const RED = 0;)",
  ImportDeclaration: "imports belong at the top of the file",
  OptionalChain: "kernels have no optional chaining (?.): every value exists",
  ElementAccessChain: "kernels have no optional chaining (?.): every value exists",
};

/** Binary operators TypeScript has and gk does not, with what to write instead. */
export const REFUSED_OPERATORS: Readonly<Record<string, string>> = {
  "**": "gk has no `**`: write pow(a, b)",
  "??": "`??` has no meaning in a kernel: every value exists",
  in: "kernels have no objects (`in`)",
  instanceof: "kernels have no objects (`instanceof`)",
  ",": "the comma operator is only for a for loop's steps: for (...; ...; i++, j--)",
  "**=": "gk has no `**=`: write x = pow(x, y)",
  "&&=": "gk has no `&&=`: write x = x && y",
  "||=": "gk has no `||=`: write x = x || y",
  "??=": "`??=` has no meaning in a kernel: every value exists",
};

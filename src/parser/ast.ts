/**
 * The AST mirrors the source: every node is a readonly plain object with a string `kind`
 * and a span. Nothing here is checked or typed; the checker (src/check) is the only
 * bridge from this tree to the typed IR.
 */
import type { Span } from "../diagnostics/source.js";

export interface Ident {
  readonly name: string;
  readonly span: Span;
}

// ---------------------------------------------------------------- types as written

/** `f32`, `i32`, `void`, ...: any identifier in type position; the checker resolves it. */
export interface NamedTypeExpr {
  readonly kind: "NamedType";
  readonly name: Ident;
  readonly span: Span;
}

/** `global<T>` or `readonly global<T>`. */
export interface GlobalTypeExpr {
  readonly kind: "GlobalType";
  readonly readonly: boolean;
  readonly elem: TypeExpr;
  readonly span: Span;
}

/**
 * `T[N]`, `T[N][M]`: sizes outermost first, each a constant expression; `shared T[N]` as a
 * device_fn parameter. `T[]` (`unsized`, with no sizes): a dynamic shared array's type, whose
 * length each launch gives.
 */
export interface ArrayTypeExpr {
  readonly kind: "ArrayType";
  readonly elem: TypeExpr;
  readonly sizes: readonly Expr[];
  readonly unsized: boolean;
  readonly shared: boolean;
  readonly span: Span;
}

/** `view<T>` or `readonly view<T>`: a device_fn parameter that is a run of elements of an array in any memory. */
export interface ViewTypeExpr {
  readonly kind: "ViewType";
  readonly readonly: boolean;
  readonly elem: TypeExpr;
  readonly span: Span;
}

/** `inout T`, `out T`: a device_fn parameter that refers to a variable or an array element of the caller's. */
export interface RefTypeExpr {
  readonly kind: "RefType";
  readonly mode: "inout" | "out";
  readonly elem: TypeExpr;
  readonly span: Span;
}

export type TypeExpr = NamedTypeExpr | GlobalTypeExpr | ArrayTypeExpr | ViewTypeExpr | RefTypeExpr;

// ---------------------------------------------------------------- expressions

/** A number as written. `isFloat` when it has a `.` or an exponent (decimal only). */
export interface NumberLit {
  readonly kind: "Number";
  /** The literal's text with numeric separators (`_`) removed, e.g. `0xFF`, `1.5e-3`, `42`. */
  readonly text: string;
  readonly isFloat: boolean;
  readonly span: Span;
}

export interface BoolLit {
  readonly kind: "Bool";
  readonly value: boolean;
  readonly span: Span;
}

export interface NameExpr {
  readonly kind: "Name";
  readonly name: string;
  readonly span: Span;
}

export type UnaryOp = "-" | "+" | "!" | "~";

export interface UnaryExpr {
  readonly kind: "Unary";
  readonly op: UnaryOp;
  readonly operand: Expr;
  readonly span: Span;
}

export type BinaryOp =
  | "+" | "-" | "*" | "/" | "%"
  | "<<" | ">>" | ">>>"
  | "&" | "|" | "^"
  | "==" | "!=" | "===" | "!=="
  | "<" | "<=" | ">" | ">="
  | "&&" | "||";

export interface BinaryExpr {
  readonly kind: "Binary";
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  /** Span of the operator token, for messages about the operation itself. */
  readonly opSpan: Span;
  readonly span: Span;
}

export interface ConditionalExpr {
  readonly kind: "Conditional";
  readonly cond: Expr;
  readonly then: Expr;
  readonly else: Expr;
  readonly span: Span;
}

/** `name(args)`: device functions, builtins, casts (`f32(x)`) and launch data helpers (`zeros(n)`). */
export interface CallExpr {
  readonly kind: "Call";
  readonly callee: Ident;
  /** `add<f32>(a, b)`: the generic arguments as written (types are names; constants are expressions). */
  readonly typeArgs?: GenericArgs;
  readonly args: readonly Expr[];
  readonly span: Span;
}

/**
 * `<f32, 256>` after a generic kernel's or function's name: each argument as an expression
 * (a type is a Name; a constant is a unary expression, `(BLOCK * 2)` in parentheses). The
 * checker matches them to the generic parameters.
 */
export interface GenericArgs {
  readonly args: readonly Expr[];
  /** From `<` to `>`. */
  readonly span: Span;
}

export interface IndexExpr {
  readonly kind: "Index";
  readonly object: Expr;
  readonly index: Expr;
  readonly span: Span;
}

/** `threadIdx.x`, `p.pos`, `v.xy` and the like. */
export interface MemberExpr {
  readonly kind: "Member";
  readonly object: Expr;
  readonly property: Ident;
  readonly span: Span;
}

/** `[1, 2, 3]`: launch values, local array initializers and the array fields of struct values. */
export interface ArrayLit {
  readonly kind: "ArrayLit";
  readonly elements: readonly Expr[];
  readonly span: Span;
}

/** `{ start: 0, edges: 2 }`: a struct value, whose struct type comes from where it is used. */
export interface ObjectLit {
  readonly kind: "ObjectLit";
  readonly fields: readonly ObjectField[];
  readonly span: Span;
}

export interface ObjectField {
  readonly name: Ident;
  readonly value: Expr;
  readonly span: Span;
}

/** `(e)`: kept so that spans and messages can point at what the user wrote. */
export interface ParenExpr {
  readonly kind: "Paren";
  readonly expr: Expr;
  readonly span: Span;
}

export type Expr =
  | NumberLit
  | BoolLit
  | NameExpr
  | UnaryExpr
  | BinaryExpr
  | ConditionalExpr
  | CallExpr
  | IndexExpr
  | MemberExpr
  | ArrayLit
  | ObjectLit
  | ParenExpr;

// ---------------------------------------------------------------- statements

/** `let x = e;`, `const x: T = e;`, `let a: f32[8];`, `let a: i32[3] = [1, 2, 3];` */
export interface VarDecl {
  readonly kind: "VarDecl";
  readonly mutable: boolean;
  readonly name: Ident;
  readonly type?: TypeExpr;
  readonly init?: Expr;
  readonly span: Span;
}

/** `let a = 1, b: f32, c = 2.0;`: several names of one `let` or `const`, declared in order. */
export interface VarDecls {
  readonly kind: "VarDecls";
  readonly decls: readonly VarDecl[];
  readonly span: Span;
}

/**
 * `switch (v) { case 1: case 2: ...; break; default: ... }`: each case is its labels (a
 * `default` label is `undefined`) and the statements up to the next label.
 */
export interface SwitchStmt {
  readonly kind: "Switch";
  readonly value: Expr;
  readonly cases: readonly SwitchCase[];
  readonly span: Span;
}

export interface SwitchCase {
  /** The label's value; absent for `default`. */
  readonly test?: Expr;
  readonly body: readonly Stmt[];
  readonly span: Span;
}

/** `shared tile: f32[16][16];` (or a scalar: `shared total: f32;`). */
export interface SharedDecl {
  readonly kind: "SharedDecl";
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly span: Span;
}

export type AssignOp = "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" | ">>>=";

export interface AssignStmt {
  readonly kind: "Assign";
  readonly op: AssignOp;
  /** Any expression as parsed; the checker reports GK1012 if it is not a name or an index. */
  readonly target: Expr;
  readonly value: Expr;
  readonly opSpan: Span;
  readonly span: Span;
}

/** `i++;` / `i--;` (also `++i;`): statements only, never expressions. */
export interface IncDecStmt {
  readonly kind: "IncDec";
  readonly op: "++" | "--";
  readonly target: Expr;
  readonly span: Span;
}

export interface ExprStmt {
  readonly kind: "ExprStmt";
  readonly expr: Expr;
  readonly span: Span;
}

export interface IfStmt {
  readonly kind: "If";
  readonly cond: Expr;
  readonly then: Stmt;
  readonly else?: Stmt;
  readonly span: Span;
}

export interface ForStmt {
  readonly kind: "For";
  /** A VarDecl, an assignment, an increment or an expression statement. */
  readonly init?: Stmt;
  readonly cond?: Expr;
  /** An assignment, an increment or an expression statement. */
  readonly step?: Stmt;
  readonly body: Stmt;
  readonly span: Span;
}

export interface WhileStmt {
  readonly kind: "While";
  readonly cond: Expr;
  readonly body: Stmt;
  readonly span: Span;
}

export interface DoWhileStmt {
  readonly kind: "DoWhile";
  readonly body: Stmt;
  readonly cond: Expr;
  readonly span: Span;
}

export interface BreakStmt {
  readonly kind: "Break";
  readonly span: Span;
}

export interface ContinueStmt {
  readonly kind: "Continue";
  readonly span: Span;
}

export interface ReturnStmt {
  readonly kind: "Return";
  readonly value?: Expr;
  readonly span: Span;
}

/** `@unroll`, `@unroll(4)`, `@flushToZero`: a name and, optionally, arguments. */
export interface Annotation {
  readonly name: Ident;
  readonly args?: readonly Expr[];
  readonly span: Span;
}

/** An annotation and the statement after it (`@unroll for (...) ...`). */
export interface AnnotatedStmt {
  readonly kind: "Annotated";
  readonly annotation: Annotation;
  readonly body: Stmt;
  readonly span: Span;
}

export interface BlockStmt {
  readonly kind: "Block";
  readonly body: readonly Stmt[];
  readonly span: Span;
}

/** A lone `;`. */
export interface EmptyStmt {
  readonly kind: "Empty";
  readonly span: Span;
}

export type Stmt =
  | VarDecl
  | VarDecls
  | SwitchStmt
  | SharedDecl
  | AssignStmt
  | IncDecStmt
  | ExprStmt
  | IfStmt
  | ForStmt
  | WhileStmt
  | DoWhileStmt
  | BreakStmt
  | ContinueStmt
  | ReturnStmt
  | BlockStmt
  | AnnotatedStmt
  | EmptyStmt;

// ---------------------------------------------------------------- module items

export interface Param {
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly span: Span;
}

/**
 * A generic parameter, `T: f32 | f64` or `BLOCK: i32`: a type parameter when its constraint
 * has several members or names a class of types (`float`, `int`, `numeric`), a constant
 * parameter when it is a single scalar type. The checker tells them apart. `OP: device_fn(a:
 * T, b: T): T` is a function parameter: `fn` holds the signature, and `constraint` is empty.
 */
export interface GenericParam {
  readonly name: Ident;
  /** The names after `:`, separated by `|`. */
  readonly constraint: readonly Ident[];
  readonly fn?: FnConstraint;
  readonly span: Span;
}

/** `device_fn(a: T, b: T): T` as a function parameter's constraint. */
export interface FnConstraint {
  readonly params: readonly Param[];
  readonly returnType: TypeExpr;
  readonly span: Span;
}

export interface KernelDecl {
  readonly kind: "Kernel";
  readonly exported: boolean;
  readonly name: Ident;
  /** `<T: f32 | f64, BLOCK: i32>`; absent for a plain kernel. */
  readonly generics?: readonly GenericParam[];
  readonly params: readonly Param[];
  readonly body: BlockStmt;
  /** `@launchBounds(256, 2)` or `@maxRegisters(64)` before `device_kernel`; absent when none. */
  readonly annotation?: Annotation;
  readonly span: Span;
}

export interface FunctionDecl {
  readonly kind: "Function";
  readonly exported: boolean;
  readonly name: Ident;
  /** `<T: f32 | f64, N: i32>`; absent for a plain function. */
  readonly generics?: readonly GenericParam[];
  readonly params: readonly Param[];
  /** Absent means `void`. */
  readonly returnType?: TypeExpr;
  readonly body: BlockStmt;
  readonly span: Span;
}

export interface ConstDecl {
  readonly kind: "Const";
  readonly exported: boolean;
  readonly name: Ident;
  readonly type?: TypeExpr;
  readonly init: Expr;
  readonly span: Span;
}

export interface ImportDecl {
  readonly kind: "Import";
  readonly names: readonly Ident[];
  /** The path as written, quotes removed, escapes resolved. */
  readonly path: string;
  readonly pathSpan: Span;
  readonly span: Span;
}

export interface LaunchArg {
  readonly name: Ident;
  readonly value: Expr;
  readonly span: Span;
}

/** `constant TAPS: f32[17];`: an array in constant memory, which each launch fills. */
export interface ConstantDecl {
  readonly kind: "Constant";
  readonly exported: boolean;
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly span: Span;
}

/** `@flushToZero;`: an option of the whole module. */
export interface ModuleAnnotation {
  readonly kind: "ModuleAnnotation";
  readonly annotation: Annotation;
  readonly span: Span;
}

/** `launch k(a = 1, x = zeros(8)) grid(1) block(256) shared(buf = 256);` */
export interface LaunchDecl {
  readonly kind: "Launch";
  readonly kernel: Ident;
  /** `launch reduce<f32, 256>(...)`: the instance of a generic kernel. */
  readonly typeArgs?: GenericArgs;
  readonly args: readonly LaunchArg[];
  /** `shared(name = length, ...)`: the lengths of dynamic shared arrays (empty without the clause). */
  readonly shared: readonly LaunchArg[];
  /** One to three constant expressions each. */
  readonly grid: readonly Expr[];
  readonly block: readonly Expr[];
  readonly span: Span;
}

/** `struct Node { start: i32; edges: i32; }`: fields in order, separated by `;` or `,`. */
export interface StructDecl {
  readonly kind: "Struct";
  readonly exported: boolean;
  readonly name: Ident;
  readonly fields: readonly FieldDecl[];
  readonly span: Span;
}

export interface FieldDecl {
  readonly name: Ident;
  readonly type: TypeExpr;
  readonly span: Span;
}

export type Item = KernelDecl | FunctionDecl | ConstDecl | ConstantDecl | StructDecl | ImportDecl | LaunchDecl | ModuleAnnotation;

export interface Module {
  readonly kind: "Module";
  readonly file: string;
  readonly items: readonly Item[];
  readonly span: Span;
}

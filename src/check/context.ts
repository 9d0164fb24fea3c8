/** The state of checking one function body (or one constant context), passed to every check. */
import type { Target } from "../ir/target.js";
import type * as ast from "../parser/ast.js";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import type { ArrayVar, ConstExpr, Expr, Stmt } from "../ir/nodes.js";
import { typeToString, type ScalarType, type ScalarValue, type Type, type ValueType, type VoidType } from "../ir/types.js";
import { Scopes, type GenericParamSig, type GenericSymbol, type ModuleSymbol, type Signature } from "./symbols.js";
import type { Untyped } from "./untyped.js";

/** The top-level names visible in one file: its own declarations and its imports. */
export interface ModuleScope {
  readonly file: string;
  readonly text: string;
  /** The module flushes f32 subnormals (`@flushToZero;`): its constant expressions fold so. */
  readonly flushToZero: boolean;
  /** The code generator's target, handed in: its kernel-symbol rule (GK2011), its spellings of gk's builtins (hints), its limits. */
  readonly target: Target;
  lookup(name: string): ModuleSymbol | undefined;
  names(): Iterable<string>;
}

export interface CallSite {
  readonly callee: string;
  readonly span: Span;
}

/**
 * What a generic argument binds a parameter to: a type, a constant's value, or (while a
 * generic definition is checked) a constant whose value is not known yet.
 */
export type Binding =
  | { readonly kind: "type"; readonly type: ScalarType }
  | { readonly kind: "const"; readonly type: ScalarType; readonly value: ScalarValue }
  | { readonly kind: "unknown"; readonly type: ScalarType }
  /**
   * A device function, by IR name; or, while a generic definition is checked, a function
   * not known yet (`irName` absent; `name` is the parameter's). `sig`, where known, is the
   * function's signature (for a function parameter passed on, its declared one).
   */
  | { readonly kind: "fn"; readonly name: string; readonly irName?: string; readonly sig?: Signature };

/** Generic parameter name → what it is bound to. */
export type Bindings = ReadonlyMap<string, Binding>;

/** How a generic body is being checked (absent: the code is not generic). */
export interface GenericMode {
  /**
   * "definition": for one combination of the types its type parameters admit, with the
   * constant parameters' values unknown; "instance": with every argument known.
   */
  readonly mode: "definition" | "instance";
  /** Ids of the variables that stand for constant parameters of unknown value (definition mode). */
  readonly symbolic: ReadonlySet<number>;
}

/** Makes instances of generic definitions (src/check/generics.ts), for calls and launches. */
export interface InstanceMaker {
  /**
   * The signature of `sym` with these bindings and the name a call refers to: the instance's
   * (made if new) when every binding is known and the caller is not a generic definition;
   * else the definition's own name (for the call graph; such IR is only checked, never run).
   * Undefined after an error (reported) or when the definition has errors of its own.
   */
  signature(ctx: FnCtx, sym: GenericSymbol, bindings: Bindings, at: Span): { readonly callee: string; readonly sig: Signature } | undefined;
  /** The signature function parameter `p` of `sym` declares with these bindings of the others; undefined where it does not resolve. */
  declaredFnSignature(sym: GenericSymbol, bindings: Bindings, p: Extract<GenericParamSig, { kind: "fn" }>): Signature | undefined;
}

export interface FnCtx {
  readonly log: DiagnosticLog;
  readonly module: ModuleScope;
  readonly scopes: Scopes;
  /** `const` is a constant context: module-level constants, launch values, array sizes at module level. */
  readonly kind: "kernel" | "device_fn" | "const";
  readonly name: string;
  readonly returnType: ValueType | VoidType;
  readonly calls: CallSite[];
  readonly shared: ArrayVar[];
  /** Untyped-constant values of AST expressions, computed once (null: not an untyped constant). */
  readonly untyped: Map<ast.Expr, Untyped | null>;
  /** AST expressions whose errors were already reported, so their users stay quiet. */
  readonly poisoned: Set<ast.Expr>;
  nextId: number;
  loopDepth: number;
  /**
   * Uses of something whose error was reported elsewhere (a generic definition with errors):
   * the body is then incomplete, so checks of its whole (every path returns) stay quiet.
   */
  silentFailures: number;
  /** Bytes of shared memory declared so far. */
  sharedBytes: number;
  /** The function's read-only copies of module-level constant arrays, by name, and their declarations (its body starts with them). */
  readonly constArrays: Map<string, ArrayVar>;
  readonly prelude: Stmt[];
  /**
   * The initializers of `const` locals whose value is a constant expression (of literals,
   * module constants and constant parameters, `const M = N * 2;`), by the local's id, with the
   * `const` locals they read replaced by theirs: array sizes may read such a local.
   */
  readonly constInits: Map<number, Expr>;
  /** Set while a generic body is checked. */
  readonly generic?: GenericMode;
  /** Where calls of generic functions and launches of generic kernels get their instances. */
  readonly instances?: InstanceMaker;
}

export function newCtx(
  log: DiagnosticLog,
  module: ModuleScope,
  kind: FnCtx["kind"],
  name: string,
  returnType: ValueType | VoidType,
  extra: { readonly generic?: GenericMode; readonly instances?: InstanceMaker } = {},
): FnCtx {
  return {
    ...extra,
    log, module, kind, name, returnType,
    scopes: new Scopes(),
    calls: [],
    shared: [],
    untyped: new Map(),
    poisoned: new Set(),
    nextId: 0,
    loopDepth: 0,
    silentFailures: 0,
    sharedBytes: 0,
    constArrays: new Map(),
    prelude: [],
    constInits: new Map(),
  };
}

/** The source text a span covers, for messages that quote the user's code. */
export function textOf(ctx: FnCtx, s: Span): string {
  if (s.file !== ctx.module.file) return "…";
  const t = ctx.module.text.slice(s.start, s.end).replace(/\s+/g, " ");
  return t.length > 40 ? t.slice(0, 37) + "..." : t;
}

export function constExpr(type: ScalarType, value: ScalarValue, span: Span): ConstExpr {
  return { kind: "const", type, value, span };
}

/** An IR expression that has a value (not a call of a void function). */
export type ValueExpr = Expr & { readonly type: ValueType };

/** A value expression of a scalar type. */
export type ScalarExpr = Expr & { readonly type: ScalarType };

export function hasValue(e: Expr): e is ValueExpr {
  return e.type.kind !== "void";
}

export function isScalarExpr(e: Expr): e is ScalarExpr {
  return e.type.kind === "scalar";
}

/** A type as messages show it; an array size that depends on a constant parameter not known yet shows as `?`. */
export function tyName(t: Type): string {
  if (t.kind === "array" && t.dims.includes(UNKNOWN_DIM)) return typeToString(t).replace(/\[0\]/g, "[?]");
  return typeToString(t);
}

/**
 * The size of an array dimension that depends on a constant parameter, while a generic
 * definition is checked (no real size is 0): checks that need the size wait for the instance.
 */
export const UNKNOWN_DIM = 0;

/** Whether a dimension's size is known (see UNKNOWN_DIM). */
export function knownDim(n: number): boolean {
  return n !== UNKNOWN_DIM;
}

/** The state of checking one function body (or one constant context), passed to every check. */
import type * as ast from "../../parser/ast.js";
import type { DiagnosticLog } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../diagnostics/source.js";
import type { ArrayVar, ConstExpr, Expr, Stmt } from "../nodes.js";
import { typeToString, type ScalarType, type ScalarValue, type Type, type ValueType, type VoidType } from "../types.js";
import { Scopes, type ModuleSymbol } from "./symbols.js";
import type { Untyped } from "./untyped.js";

/** The top-level names visible in one file: its own declarations and its imports. */
export interface ModuleScope {
  readonly file: string;
  readonly text: string;
  lookup(name: string): ModuleSymbol | undefined;
  names(): Iterable<string>;
}

export interface CallSite {
  readonly callee: string;
  readonly span: Span;
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
  /** Bytes of shared memory declared so far. */
  sharedBytes: number;
  /** The function's read-only copies of module-level constant arrays, by name, and their declarations (its body starts with them). */
  readonly constArrays: Map<string, ArrayVar>;
  readonly prelude: Stmt[];
}

export function newCtx(
  log: DiagnosticLog,
  module: ModuleScope,
  kind: FnCtx["kind"],
  name: string,
  returnType: ValueType | VoidType,
): FnCtx {
  return {
    log, module, kind, name, returnType,
    scopes: new Scopes(),
    calls: [],
    shared: [],
    untyped: new Map(),
    poisoned: new Set(),
    nextId: 0,
    loopDepth: 0,
    sharedBytes: 0,
    constArrays: new Map(),
    prelude: [],
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

export function tyName(t: Type): string {
  return typeToString(t);
}

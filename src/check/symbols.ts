/** What names mean while checking: module-level symbols, local symbols, and nested scopes. */
import type * as ast from "../parser/ast.js";
import type { Span } from "../diagnostics/source.js";
import type { ArrayVar, Expr, ValueVar } from "../ir/nodes.js";
import type { ArrayType, GlobalType, ScalarType, ScalarValue, StructType, ValueType, ViewType, VoidType } from "../ir/types.js";
import type { ModuleScope } from "./context.js";
import type { Untyped } from "./untyped.js";

export interface ParamSig {
  readonly name: string;
  /** A value (scalar, vector, struct), a global array, or (device_fn only) a shared array of the caller's or a view. */
  readonly type: ValueType | GlobalType | ArrayType | ViewType;
  /** device_fn only: `inout T` or `out T` (the type is then the scalar T). */
  readonly ref?: "inout" | "out";
  readonly span: Span;
}

export interface Signature {
  readonly params: readonly ParamSig[];
  readonly returnType: ValueType | VoidType;
}

/**
 * A generic parameter of a definition: a type parameter and the types it admits, or a
 * constant parameter and its type.
 */
export type GenericParamSig =
  | { readonly kind: "type"; readonly name: string; readonly allowed: readonly ScalarType[]; readonly span: Span }
  | { readonly kind: "const"; readonly name: string; readonly type: ScalarType; readonly span: Span }
  /**
   * A function parameter (device functions only), `OP: device_fn(a: T, b: T): T`: its
   * argument is a device function of that signature, resolved with the other parameters'
   * bindings; `text` is the constraint as written, for messages.
   */
  | { readonly kind: "fn"; readonly name: string; readonly decl: ast.FnConstraint; readonly text: string; readonly span: Span };

/** A generic kernel or device function: checked once for every type its parameters admit, and instantiated where it is used. */
export interface GenericSymbol {
  readonly kind: "generic";
  readonly of: "kernel" | "function";
  readonly name: string;
  /** Unique across all files, like a function's; instances are named `irName<args>`. */
  readonly irName: string;
  readonly decl: ast.KernelDecl | ast.FunctionDecl;
  readonly params: readonly GenericParamSig[];
  /** The file that defines it, whose names its body sees. */
  readonly scope: ModuleScope;
  readonly span: Span;
}

/** A name declared at the top level of some file. */
export type ModuleSymbol =
  | { readonly kind: "untypedConst"; readonly name: string; readonly value: Untyped; readonly span: Span }
  | { readonly kind: "typedConst"; readonly name: string; readonly type: ScalarType; readonly value: ScalarValue; readonly span: Span }
  /** `const W: f32[3] = [...]`: a table of constants; each function that reads it gets a read-only local copy. */
  | { readonly kind: "constArray"; readonly name: string; readonly type: ArrayType; readonly values: readonly Expr[]; readonly span: Span }
  /** `constant TAPS: f32[17];`: constant memory, which every function of the module reads and each launch fills. */
  | { readonly kind: "constantArray"; readonly name: string; readonly array: ArrayVar; readonly span: Span }
  /** `irName`: the function's name in the IR and in generated code, unique across all files. */
  | { readonly kind: "function"; readonly name: string; readonly irName: string; readonly decl: ast.FunctionDecl; readonly sig: Signature; readonly span: Span }
  | { readonly kind: "kernel"; readonly name: string; readonly irName: string; readonly decl: ast.KernelDecl; readonly sig: Signature; readonly span: Span }
  | { readonly kind: "struct"; readonly name: string; readonly type: StructType; readonly span: Span }
  | GenericSymbol
  /** A declaration that failed to check: uses of it are not reported again. */
  | { readonly kind: "poisoned"; readonly name: string; readonly span: Span };

/** A name declared inside a function. */
export type LocalSymbol =
  | { readonly kind: "value"; readonly var: ValueVar }
  /** `scalar`: a `shared x: T;` scalar, stored as a one-element array and used by name. */
  | { readonly kind: "array"; readonly var: ArrayVar; readonly readonly: boolean; readonly scalar?: boolean }
  | { readonly kind: "untypedConst"; readonly value: Untyped; readonly span: Span }
  /** A type parameter, bound to one of the types it admits while a generic body is checked. */
  | { readonly kind: "typeParam"; readonly name: string; readonly type: ScalarType; readonly span: Span }
  /**
   * A constant parameter: in an instance, `value` is its value (a typed constant); in the
   * check of the definition it has none, and reads as the immutable variable `var`.
   */
  | { readonly kind: "constParam"; readonly name: string; readonly var: ValueVar; readonly value?: ScalarValue; readonly span: Span }
  /**
   * A function parameter: calls of it are checked against `sig`; in an instance they call
   * `callee` (the IR name of the function it is bound to), which the check of the
   * definition does not know.
   */
  | { readonly kind: "fnParam"; readonly name: string; readonly sig: Signature; readonly callee?: string; readonly span: Span }
  | { readonly kind: "poisoned"; readonly span: Span };

/** Block scopes of one function, innermost last. */
export class Scopes {
  private readonly stack: Map<string, LocalSymbol>[] = [new Map()];

  push(): void {
    this.stack.push(new Map());
  }

  pop(): void {
    this.stack.pop();
  }

  /** The symbol already declared under this name in the innermost scope, if any. */
  declaredHere(name: string): LocalSymbol | undefined {
    return this.stack[this.stack.length - 1]!.get(name);
  }

  declare(name: string, sym: LocalSymbol): void {
    this.stack[this.stack.length - 1]!.set(name, sym);
  }

  lookup(name: string): LocalSymbol | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const s = this.stack[i]!.get(name);
      if (s) return s;
    }
    return undefined;
  }

  /** Every visible local name, for "did you mean" suggestions. */
  names(): string[] {
    return this.stack.flatMap((m) => [...m.keys()]);
  }
}

export function symbolSpan(s: LocalSymbol): Span {
  switch (s.kind) {
    case "value":
    case "array":
      return s.var.span;
    case "untypedConst":
    case "typeParam":
    case "constParam":
    case "fnParam":
    case "poisoned":
      return s.span;
  }
}

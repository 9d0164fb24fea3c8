/**
 * Generic device functions for generated programs, and the calls that make their instances:
 *
 *   device_fn k_g0<T: u32 | i64 | f64, N: i32>(a: T, b: T, k: i32): T {
 *     let w: T = <E over a, b, T(k)>;
 *     let buf: T[N];                                   // with a constant parameter only
 *     for (let i = 0; i < N; i++) { buf[i] = <E over a, b, w, T(i)>; }
 *     for (let i = 0; i < N; i++) { w = <E over w, buf[i], a>; }
 *     return <E over a, b, w>;
 *   }
 *
 * The expressions E use only what every type of the constraint has (+ - * and unary -,
 * comparisons, ?:, min and max; `/` and `%` when every type is a float; bit operations,
 * shifts by 0 to 7, and `/` and `%` by `x | 1` when every type is an integer), leaves that
 * are parameters or locals, `T(k)`, and untyped literals 0 to 9 (which fit every numeric
 * type). So the body checks for every type the constraint admits, and every instance is
 * well defined. The kernel (and device functions) call them at each admitted type:
 * `k_g0(a, b, k)` with T inferred from `a`, or `k_g0<f64>(...)`, `k_g0<f64, 3>(...)`.
 *
 * This file is the functions' shape and text (loaded without fast-check, as the printer
 * is); genericArb.ts makes them.
 */
import { FLOAT_TYPES, INT_TYPES, NUM_TYPES, type NumTy } from "./ast.js";

/** A constraint as written, and the types it admits. */
export interface Constraint {
  readonly text: string;
  readonly types: readonly NumTy[];
}

export const CONSTRAINTS: readonly Constraint[] = [
  { text: "numeric", types: NUM_TYPES },
  { text: "float", types: FLOAT_TYPES },
  { text: "int", types: INT_TYPES },
  { text: "i32 | f32", types: ["i32", "f32"] },
  { text: "u32 | i64 | f64", types: ["u32", "i64", "f64"] },
  { text: "i32 | u32", types: ["i32", "u32"] },
];

/** An expression over T. */
export type GExpr =
  /** A parameter, a local or `buf[i]`; `T(k)` and `T(i)` are casts of i32 names. */
  | { readonly g: "leaf"; readonly text: string }
  | { readonly g: "cast"; readonly from: string }
  /** An untyped literal 0 to 9: only ever an operand beside a typed one. */
  | { readonly g: "lit"; readonly v: number }
  | { readonly g: "neg"; readonly e: GExpr }
  | { readonly g: "bin"; readonly op: string; readonly l: GExpr; readonly r: GExpr }
  /** `l op (r | 1)`: integer division and remainder that cannot divide by zero. */
  | { readonly g: "div"; readonly op: "/" | "%"; readonly l: GExpr; readonly r: GExpr }
  | { readonly g: "shift"; readonly op: "<<" | ">>" | ">>>"; readonly e: GExpr; readonly count: number }
  | { readonly g: "minmax"; readonly fn: "min" | "max"; readonly a: GExpr; readonly b: GExpr }
  | { readonly g: "select"; readonly cmp: string; readonly l: GExpr; readonly r: GExpr; readonly a: GExpr; readonly b: GExpr };

export interface GenericFn {
  readonly constraint: Constraint;
  /** With a constant parameter N sizing the local array `buf` and bounding its loops. */
  readonly sized: boolean;
  readonly init: GExpr;
  readonly fill: GExpr | null;
  readonly fold: GExpr | null;
  readonly result: GExpr;
}

/** How a call names the instance: its generic arguments written, or T inferred; N when the function has it. */
export interface GenericCall {
  readonly explicit: boolean;
  readonly size?: number;
}

/** The sizes N a call may give (small: the local array is per thread). */
export const SIZES: readonly number[] = [1, 2, 3, 4];

// ---------------------------------------------------------------- printing

/** An expression's text, in parentheses unless it is a leaf, a literal or a call. */
function text(e: GExpr): string {
  switch (e.g) {
    case "leaf":
      return e.text;
    case "cast":
      return `T(${e.from})`;
    case "lit":
      return String(e.v);
    case "neg":
      return `(-${text(e.e)})`;
    case "bin":
      return `(${text(e.l)} ${e.op} ${text(e.r)})`;
    case "div":
      return `(${text(e.l)} ${e.op} (${text(e.r)} | 1))`;
    case "shift":
      return `(${text(e.e)} ${e.op} ${e.count})`;
    case "minmax":
      return `${e.fn}(${bare(e.a)}, ${bare(e.b)})`;
    case "select":
      return `(${text(e.l)} ${e.cmp} ${text(e.r)} ? ${text(e.a)} : ${text(e.b)})`;
  }
}

/** The text without the parentheses around an operator's operands, where nothing binds around it. */
function bare(e: GExpr): string {
  const t = text(e);
  return e.g === "bin" || e.g === "div" || e.g === "shift" || e.g === "select" ? t.slice(1, -1) : t;
}

export function printGenericFn(name: string, f: GenericFn): string[] {
  const params = `<T: ${f.constraint.text}${f.sized ? ", N: i32" : ""}>`;
  const lines = [`device_fn ${name}${params}(a: T, b: T, k: i32): T {`, `  let w: T = ${bare(f.init)};`];
  if (f.sized) {
    lines.push(
      "  let buf: T[N];",
      "  for (let i = 0; i < N; i++) {",
      `    buf[i] = ${bare(f.fill!)};`,
      "  }",
      "  for (let i = 0; i < N; i++) {",
      `    w = ${bare(f.fold!)};`,
      "  }",
    );
  }
  lines.push(`  return ${bare(f.result)};`, "}");
  return lines;
}

/** `<f64>`, `<f64, 3>`, or nothing (T inferred). */
export function genericArgsText(t: NumTy, call: GenericCall): string {
  if (!call.explicit && call.size === undefined) return "";
  return `<${t}${call.size !== undefined ? `, ${call.size}` : ""}>`;
}

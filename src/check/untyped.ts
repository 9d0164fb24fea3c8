/**
 * Untyped constants: literals, and `const`s bound to expressions of literals, keep exact
 * values (integers as bigint, floats as f64) until a context gives them a type, as in Go.
 * `x * 2` makes 2 the type of x; `let n = 4;` defaults to i32; `let s = 0.5;` to f32.
 */
import type * as ast from "../parser/ast.js";
import { jsrt } from "../ir/jsrt.js";
import { T, type ScalarType, type ScalarValue } from "../ir/types.js";
import { INT_RANGES } from "../ir/values.js";

export type Untyped = { readonly kind: "int"; readonly value: bigint } | { readonly kind: "float"; readonly value: number };


export function untypedToString(u: Untyped): string {
  if (u.kind === "int") return u.value.toString();
  const s = String(u.value);
  return Number.isInteger(u.value) && !s.includes("e") ? `${s}.0` : s;
}

/** The literal's value, or an error message for a malformed one. */
export function literalValue(lit: ast.NumberLit): Untyped | string {
  const text = lit.text;
  if (lit.isFloat) {
    const v = Number(text);
    if (Number.isNaN(v)) return `malformed number '${text}'`;
    if (!Number.isFinite(v)) return `the float literal '${text}' is too large even for f64`;
    return { kind: "float", value: v };
  }
  try {
    return { kind: "int", value: BigInt(text) };
  } catch {
    return `malformed number '${text}'`;
  }
}

/** Whether an untyped constant is finite (only `Infinity` and `NaN`, and what is computed from them, are not). */
function finite(u: Untyped): boolean {
  return u.kind === "int" || Number.isFinite(u.value);
}

/** The default type of an untyped constant used where no type is expected. */
export function defaultType(u: Untyped): ScalarType {
  return u.kind === "int" ? T.i32 : T.f32;
}

export type Conversion = { readonly ok: true; readonly value: ScalarValue } | { readonly ok: false; readonly why: "range" | "float-to-int" | "to-bool" };

/** Gives an untyped constant a type: integers must fit; floats never become integers implicitly. */
export function convertUntyped(u: Untyped, t: ScalarType): Conversion {
  switch (t.name) {
    case "bool":
      return { ok: false, why: "to-bool" };
    case "i8":
    case "u8":
    case "i16":
    case "u16":
    case "i32":
    case "u32":
    case "i64":
    case "u64": {
      if (u.kind === "float") return { ok: false, why: "float-to-int" };
      const [lo, hi] = INT_RANGES[t.name];
      if (u.value < lo || u.value > hi) return { ok: false, why: "range" };
      return { ok: true, value: t.name === "i64" || t.name === "u64" ? u.value : Number(u.value) };
    }
    case "f16":
    case "bf16": {
      const v = u.kind === "int" ? (t.name === "f16" ? jsrt.big2f16 : jsrt.big2bf16)(u.value) : (t.name === "f16" ? jsrt.f16 : jsrt.bf16)(u.value);
      if (!Number.isFinite(v) && finite(u)) return { ok: false, why: "range" };
      return { ok: true, value: v };
    }
    case "f32": {
      const v = u.kind === "int" ? jsrt.big2f32(u.value) : Math.fround(u.value);
      if (!Number.isFinite(v) && finite(u)) return { ok: false, why: "range" };
      return { ok: true, value: v };
    }
    case "f64": {
      const v = u.kind === "int" ? Number(u.value) : u.value;
      if (!Number.isFinite(v) && finite(u)) return { ok: false, why: "range" };
      return { ok: true, value: v };
    }
  }
}

/**
 * The type an explicit cast (`u32(-1)`, `i32(2.5)`) reads an untyped constant as: an
 * integer as i64 (u64 when only that fits), a float as f64. The cast then applies the
 * usual conversion, so `u32(-1)` wraps to 4294967295 and `i32(2.5)` truncates to 2.
 */
export function castSource(u: Untyped): { type: ScalarType; value: ScalarValue } | undefined {
  if (u.kind === "float") return { type: T.f64, value: u.value };
  if (u.value >= INT_RANGES.i64[0] && u.value <= INT_RANGES.i64[1]) return { type: T.i64, value: u.value };
  if (u.value >= 0n && u.value <= INT_RANGES.u64[1]) return { type: T.u64, value: u.value };
  return undefined;
}

export type UntypedResult = Untyped | { readonly error: string; readonly code: "GK3016" | "GK3003" | "GK3006" };

/** Arithmetic on two untyped constants, exactly: integers stay integers, a float operand makes a float. */
export function untypedBinary(op: ast.BinaryOp, a: Untyped, b: Untyped): UntypedResult | undefined {
  if (a.kind === "int" && b.kind === "int") {
    const x = a.value;
    const y = b.value;
    switch (op) {
      case "+": return { kind: "int", value: x + y };
      case "-": return { kind: "int", value: x - y };
      case "*": return { kind: "int", value: x * y };
      case "/":
      case "%":
        if (y === 0n) return { error: "division by zero in a constant expression", code: "GK3016" };
        return { kind: "int", value: op === "/" ? x / y : x % y };
      case "<<":
      case ">>":
      case ">>>":
        if (y < 0n || y > 128n) return { error: `shift count ${y} of a constant is out of range 0..128`, code: "GK3006" };
        if (op === ">>>" && x < 0n) return { error: "'>>>' of a negative untyped constant: give it a type first, e.g. u32(x) >>> n", code: "GK3003" };
        return { kind: "int", value: op === "<<" ? x << y : x >> y };
      case "&": return { kind: "int", value: x & y };
      case "|": return { kind: "int", value: x | y };
      case "^": return { kind: "int", value: x ^ y };
      default:
        return undefined;
    }
  }
  const x = a.kind === "int" ? Number(a.value) : a.value;
  const y = b.kind === "int" ? Number(b.value) : b.value;
  const float = (v: number): UntypedResult =>
    Number.isFinite(v) || !finite(a) || !finite(b) ? { kind: "float", value: v } : { error: "constant expression overflows f64", code: "GK3006" };
  switch (op) {
    case "+": return float(x + y);
    case "-": return float(x - y);
    case "*": return float(x * y);
    case "/":
      if (y === 0) return { error: "division by zero in a constant expression", code: "GK3016" };
      return float(x / y);
    case "%":
      if (y === 0) return { error: "division by zero in a constant expression", code: "GK3016" };
      return float(x % y);
    case "<<": case ">>": case ">>>": case "&": case "|": case "^":
      return { error: `operator '${op}' needs integers, but a float constant is an operand`, code: "GK3003" };
    default:
      return undefined;
  }
}

export function untypedUnary(op: ast.UnaryOp, a: Untyped): UntypedResult | undefined {
  switch (op) {
    case "-": return a.kind === "int" ? { kind: "int", value: -a.value } : { kind: "float", value: -a.value };
    case "+": return a;
    case "~":
      if (a.kind === "float") return { error: "operator '~' needs an integer, but the operand is a float constant", code: "GK3003" };
      return { kind: "int", value: ~a.value };
    case "!":
      return undefined;
  }
}

/** Compares two untyped constants exactly. */
export function untypedCompare(op: ast.BinaryOp, a: Untyped, b: Untyped): boolean | undefined {
  let c: number;
  if (a.kind === "int" && b.kind === "int") c = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  else {
    const x = a.kind === "int" ? Number(a.value) : a.value;
    const y = b.kind === "int" ? Number(b.value) : b.value;
    if (Number.isNaN(x) || Number.isNaN(y)) return op === "!=" || op === "!==" ? true : ["==", "===", "<", "<=", ">", ">="].includes(op) ? false : undefined;
    c = x < y ? -1 : x > y ? 1 : 0;
  }
  switch (op) {
    case "==": case "===": return c === 0;
    case "!=": case "!==": return c !== 0;
    case "<": return c < 0;
    case "<=": return c <= 0;
    case ">": return c > 0;
    case ">=": return c >= 0;
    default: return undefined;
  }
}

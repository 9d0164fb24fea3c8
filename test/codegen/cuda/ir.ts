/**
 * Building IR by hand, for backend tests that the checker would not produce (constants it
 * folds or rejects, names the parser does not accept, every operator on every type).
 * Every built module is checked with the IR verifier.
 */
import { expect } from "vitest";
import type { Span } from "../../../src/diagnostics/source.js";
import type {
  ArrayVar,
  BinOp,
  Expr,
  Function,
  Module,
  Param,
  ValueVar,
  Stmt,
  UnOp,
} from "../../../src/ir/nodes.js";
import { isComparison } from "../../../src/ir/evalOp.js";
import { T, type ScalarType, type ScalarValue } from "../../../src/ir/types.js";
import { verifyModule } from "../../../src/ir/verify.js";

export const span: Span = { file: "built.gk", start: 0, end: 0 };

/** Hands out variable ids; one per function is plenty. */
export class Ids {
  private next = 1;
  scalar(name: string, type: ScalarType, mutable = true): ValueVar {
    return { kind: "valueVar", id: this.next++, name, type, mutable, span };
  }
  global(name: string, elem: ScalarType, readonly = false): ArrayVar {
    return { kind: "arrayVar", id: this.next++, name, type: { kind: "global", elem, readonly }, span };
  }
  array(name: string, elem: ScalarType, dims: number[], space: "shared" | "local"): ArrayVar {
    return { kind: "arrayVar", id: this.next++, name, type: { kind: "array", elem, dims, space }, span };
  }
}

export const c = (type: ScalarType, value: ScalarValue): Expr => ({ kind: "const", type, value, span });
export const ref = (v: ValueVar): Expr => ({ kind: "var", type: v.type, var: v, span });
export const bin = (op: BinOp, left: Expr, right: Expr): Expr => ({
  kind: "binary",
  type: isComparison(op) ? T.bool : (left.type as ScalarType),
  op,
  left,
  right,
  span,
});
export const un = (op: UnOp, operand: Expr): Expr => ({ kind: "unary", type: operand.type as ScalarType, op, operand, span });
export const cast = (type: ScalarType, operand: Expr): Expr => ({ kind: "cast", type, operand, span });
export const load = (array: ArrayVar, ...indices: Expr[]): Expr => ({ kind: "load", type: array.type.elem, array, indices, path: [], vector: null, span });
export const i32 = (v: number): Expr => c(T.i32, v);

export const store = (array: ArrayVar, indices: Expr[], value: Expr): Stmt => ({ kind: "store", array, indices, path: [], vector: null, value, span });
export const letS = (v: ValueVar, init: Expr): Stmt => ({ kind: "let", var: v, init, span });
export const assign = (v: ValueVar, value: Expr): Stmt => ({ kind: "assign", var: v, path: [], value, span });

export function kernelFn(name: string, params: Param[], body: Stmt[], shared: ArrayVar[] = []): Function {
  return { kind: "kernel", name, params, returnType: T.void, shared, body, file: "built.gk", span };
}

export function deviceFn(name: string, params: Param[], returnType: ScalarType | typeof T.void, body: Stmt[]): Function {
  return { kind: "device_fn", name, params, returnType, shared: [], body, file: "built.gk", span };
}

/** A verified module of these functions (device functions first, callees before callers). */
export function moduleOf(kernels: Function[], functions: Function[] = [], file = "built.gk"): Module {
  const m: Module = { file, functions, kernels, structs: [], constants: [], launches: [] };
  expect(verifyModule(m)).toEqual([]);
  return m;
}

/** The body of kernel `k(x: T, out: global<T>)` storing each expression (built from `x`) into `out[0]`, `out[1]`, ... */
export function storesOf(type: ScalarType, values: (x: Expr) => Expr[], outType: ScalarType = type): Module {
  const ids = new Ids();
  const x = ids.scalar("x", type);
  const out = ids.global("out", outType);
  const body = values(ref(x)).map((v, i) => store(out, [i32(i)], v));
  return moduleOf([kernelFn("k", [x, out], body)]);
}

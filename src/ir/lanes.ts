/**
 * What an operation on vectors means, lane by lane, as scalar IR: `a + b` on f32x4 is
 * `f32x4{a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}`. The checker keeps vector operations
 * whole in the IR (a WGSL backend maps them to its own vectors); the CUDA backend and the
 * simulator both derive their code from `expandLanes`, so the two cannot disagree about a
 * lane. The operands passed in stand for the node's operands, already evaluated once
 * (variables, or a backend's temporaries): an expansion reads each of them several times.
 */
import type { Span } from "../diagnostics/source.js";
import { mathBuiltin, vectorBuiltin } from "./builtins.js";
import type { BinOp, Expr, UnOp } from "./nodes.js";
import { T, type ScalarType, type ValueType, type VectorType } from "./types.js";
import { invariant } from "../util.js";

// ---------------------------------------------------------------- IR constructors

/** Lane `k` of a vector-valued expression. */
export function lane(e: Expr, k: number): Expr {
  invariant(e.type.kind === "vector", `lane of a ${e.type.kind}`);
  return { kind: "member", type: e.type.elem, operand: e, path: [{ kind: "lane", lane: k }], span: e.span };
}

export function binary(op: BinOp, type: ValueType, left: Expr, right: Expr, span: Span): Expr {
  return { kind: "binary", type, op, left, right, span };
}

export function unary(op: UnOp, type: ValueType, operand: Expr, span: Span): Expr {
  return { kind: "unary", type, op, operand, span };
}

/** A vector of `type` from one expression per lane. */
export function vectorOf(type: VectorType, lanes: readonly Expr[], span: Span): Expr {
  invariant(lanes.length === type.lanes, `${lanes.length} lanes for ${type.lanes}`);
  return { kind: "construct", type, args: lanes, span };
}

/** Every lane of `v` in turn, combined left to right: `((v0 op v1) op v2) op v3`. */
export function foldLanes(lanes: readonly Expr[], combine: (a: Expr, b: Expr) => Expr): Expr {
  invariant(lanes.length > 0, "folding no lanes");
  return lanes.slice(1).reduce(combine, lanes[0]!);
}

/** The lane type of a value type (the type itself for a scalar). */
export function laneType(t: ValueType): ScalarType {
  if (t.kind === "scalar") return t;
  invariant(t.kind === "vector", `lanes of a ${t.kind}`);
  return t.elem;
}

// ---------------------------------------------------------------- element-wise operations

/** Whether `e` is an operation that works lane by lane on vectors (and so has an expansion). */
export function isLaneWise(e: Expr): boolean {
  switch (e.kind) {
    case "unary":
    case "binary":
    case "cast":
      return e.type.kind === "vector";
    case "builtin":
      return vectorBuiltin(e.name) !== undefined || e.type.kind === "vector" || e.args.some((a) => a.type.kind === "vector");
    default:
      return false;
  }
}

/**
 * The meaning of a lane-wise operation `e` whose operands are `ops` (in `operands(e)` order),
 * as scalar IR over the lanes of `ops`. Vector builtins (`dot`, `select`, ...) expand by their
 * own definition in the builtin table.
 */
export function expandLanes(e: Expr, ops: readonly Expr[]): Expr {
  const span = e.span;
  if (e.kind === "builtin") {
    const v = vectorBuiltin(e.name);
    if (v) return v.expand(ops, span);
  }
  invariant(e.type.kind === "vector", `a lane-wise ${e.kind} of type ${e.type.kind}`);
  const type = e.type;
  const elem = type.elem;
  const lanes = Array.from({ length: type.lanes }, (_, k): Expr => {
    switch (e.kind) {
      case "unary":
        return unary(e.op, elem, lane(ops[0]!, k), span);
      case "binary":
        return binary(e.op, elem, lane(ops[0]!, k), lane(ops[1]!, k), span);
      case "cast":
        return { kind: "cast", type: elem, operand: lane(ops[0]!, k), span };
      case "builtin": {
        invariant(mathBuiltin(e.name), `unknown builtin ${e.name}`);
        return { kind: "builtin", type: elem, name: e.name, args: ops.map((o) => lane(o, k)), span };
      }
      default:
        return invariant(false, `no lane-wise ${e.kind}`) as never;
    }
  });
  return vectorOf(type, lanes, span);
}

/** `dot(a, b)`: a.x*b.x + a.y*b.y + ..., left to right, each operation rounded in the lane type. */
export function dotOf(a: Expr, b: Expr, span: Span): Expr {
  invariant(a.type.kind === "vector", "dot of a non-vector");
  const t = a.type.elem;
  const products = Array.from({ length: a.type.lanes }, (_, k) => binary("mul", t, lane(a, k), lane(b, k), span));
  return foldLanes(products, (x, y) => binary("add", t, x, y, span));
}

/** `sqrt(x)` of a float scalar. */
export function sqrtOf(x: Expr, span: Span): Expr {
  return { kind: "builtin", type: laneType(x.type as ValueType), name: "sqrt", args: [x], span };
}

/** The bool vector's lanes combined with `op` (`any`: or, `all`: and), as a bool. */
export function reduceBool(v: Expr, op: "and" | "or", span: Span): Expr {
  invariant(v.type.kind === "vector", "reducing a non-vector");
  const lanes = Array.from({ length: v.type.lanes }, (_, k) => lane(v, k));
  return foldLanes(lanes, (a, b) => ({ kind: "logical", type: T.bool, op, left: a, right: b, span }));
}

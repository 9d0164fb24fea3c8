/**
 * The vector builtins of the builtin table (src/ir/builtins.ts): geometry on float vectors
 * (`dot length distance normalize cross`), reductions of bool vectors (`any all`), the
 * lane-wise `select`, and the vector accesses of arrays of scalars (`load2 load4 load8 store2
 * store4 store8`; 8 lanes of f16 and bf16 only).
 *
 * A geometric builtin is defined by its `expand` column: its meaning as IR over its operands
 * (src/ir/lanes.ts), which both backends derive their code from, so the GPU and the
 * simulator compute the same operations in the same order (`dot` adds the products left to
 * right, each rounded in the lane type). Vector accesses are loads and stores in the IR
 * (`LoadExpr.vector`, `StoreStmt.vector`), which the backends emit as one access.
 */
import type { Span } from "../diagnostics/source.js";
import type { Expr } from "./nodes.js";
import { binary, dotOf, lane, reduceBool, sqrtOf, vectorOf } from "./lanes.js";
import type { ValueType } from "./types.js";
import { invariant } from "../util.js";

/**
 * Operands: `float` every operand of one float vector type; `float3` the same, of 3 lanes;
 * `bool` one bool vector; `select` (c, a, b): a and b of one scalar or vector type, c bool or a
 * bool vector of their lanes. Result: the lane type, the operands' type, or bool.
 */
export interface VectorRule {
  readonly kind: "vector";
  readonly params: readonly string[];
  readonly operands: "float" | "float3" | "bool" | "select";
  readonly result: "lane" | "operand" | "bool";
}

export interface VectorEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: VectorRule;
  /** The builtin's meaning as IR over its operands (each already evaluated once: an expansion may read one several times). */
  readonly expand: (args: readonly Expr[], span: Span) => Expr;
}

/** `load2 load4 load8 store2 store4 store8`: a vector access of consecutive elements of an array of scalars. */
export interface VectorMemoryRule {
  readonly kind: "vectorMemory";
  readonly op: "load" | "store";
  readonly lanes: 2 | 4 | 8;
}

export interface VectorMemoryEntry {
  readonly name: string;
  readonly doc: string;
  readonly rule: VectorMemoryRule;
}

function lengthOf(v: Expr, span: Span): Expr {
  return sqrtOf(dotOf(v, v, span), span);
}

/** The lane-wise difference a - b, lane k of it as an expression. */
function diffLane(a: Expr, b: Expr, k: number, span: Span): Expr {
  invariant(a.type.kind === "vector", "difference of non-vectors");
  return binary("sub", a.type.elem, lane(a, k), lane(b, k), span);
}

export const vectorEntries: readonly VectorEntry[] = [
  {
    name: "dot",
    doc: "dot(a, b): a.x*b.x + a.y*b.y + ..., the products added left to right, each operation rounded in the lane type.",
    rule: { kind: "vector", params: ["a", "b"], operands: "float", result: "lane" },
    expand: ([a, b], span) => dotOf(a!, b!, span),
  },
  {
    name: "length",
    doc: "length(v): sqrt(dot(v, v)).",
    rule: { kind: "vector", params: ["v"], operands: "float", result: "lane" },
    expand: ([v], span) => lengthOf(v!, span),
  },
  {
    name: "distance",
    doc: "distance(a, b): length(a - b), the differences computed lane by lane.",
    rule: { kind: "vector", params: ["a", "b"], operands: "float", result: "lane" },
    expand: ([a, b], span) => {
      invariant(a!.type.kind === "vector", "distance of non-vectors");
      const t = a!.type.elem;
      const squares = Array.from({ length: a!.type.lanes }, (_, k) => binary("mul", t, diffLane(a!, b!, k, span), diffLane(a!, b!, k, span), span));
      return sqrtOf(squares.slice(1).reduce((x, y) => binary("add", t, x, y, span), squares[0]!), span);
    },
  },
  {
    name: "normalize",
    doc: "normalize(v): v / length(v), each lane divided by the length (a zero vector gives NaN lanes).",
    rule: { kind: "vector", params: ["v"], operands: "float", result: "operand" },
    expand: ([v], span) => {
      invariant(v!.type.kind === "vector", "normalize of a non-vector");
      const t = v!.type;
      return vectorOf(t, Array.from({ length: t.lanes }, (_, k) => binary("div", t.elem, lane(v!, k), lengthOf(v!, span), span)), span);
    },
  },
  {
    name: "cross",
    doc: "cross(a, b) of 3-lane vectors: (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x).",
    rule: { kind: "vector", params: ["a", "b"], operands: "float3", result: "operand" },
    expand: ([a, b], span) => {
      invariant(a!.type.kind === "vector" && a!.type.lanes === 3, "cross of non-3-lane vectors");
      const t = a!.type;
      const term = (i: number, j: number) =>
        binary("sub", t.elem, binary("mul", t.elem, lane(a!, i), lane(b!, j), span), binary("mul", t.elem, lane(a!, j), lane(b!, i), span), span);
      return vectorOf(t, [term(1, 2), term(2, 0), term(0, 1)], span);
    },
  },
  {
    name: "any",
    doc: "any(b): true when some lane of the bool vector b is true.",
    rule: { kind: "vector", params: ["b"], operands: "bool", result: "bool" },
    expand: ([b], span) => reduceBool(b!, "or", span),
  },
  {
    name: "all",
    doc: "all(b): true when every lane of the bool vector b is true.",
    rule: { kind: "vector", params: ["b"], operands: "bool", result: "bool" },
    expand: ([b], span) => reduceBool(b!, "and", span),
  },
  {
    name: "select",
    doc: "select(c, a, b): a where c is true, else b; lane by lane when c is a bool vector. Unlike c ? a : b, both a and b are evaluated.",
    rule: { kind: "vector", params: ["c", "a", "b"], operands: "select", result: "operand" },
    expand: ([c, a, b], span) => {
      if (c!.type.kind === "scalar") return { kind: "select", type: a!.type as ValueType, cond: c!, ifTrue: a!, ifFalse: b!, span };
      invariant(a!.type.kind === "vector", "a lane-wise select of non-vectors");
      const t = a!.type;
      return vectorOf(t, Array.from({ length: t.lanes }, (_, k) => ({ kind: "select", type: t.elem, cond: lane(c!, k), ifTrue: lane(a!, k), ifFalse: lane(b!, k), span }) satisfies Expr), span);
    },
  },
];

const ALIGN = "the element's flat index (row-major) must be a multiple of";

export const vectorMemoryEntries: readonly VectorMemoryEntry[] = [
  { name: "load2", doc: `load2(arr, i): arr[i] and arr[i + 1] as a 2-lane vector, in one access of both (4 bytes for f16 and bf16 elements, an f16x2 or bf16x2; 8 for 32-bit elements, 16 for 64-bit ones); ${ALIGN} 2 (GK8030).`, rule: { kind: "vectorMemory", op: "load", lanes: 2 } },
  { name: "load4", doc: `load4(arr, i): arr[i] to arr[i + 3] as a 4-lane vector, in one access of all four (8 bytes for f16 and bf16 elements, an f16x4 or bf16x4; 16 for 32-bit elements; 64-bit ones take two 16-byte accesses); ${ALIGN} 4 (GK8030).`, rule: { kind: "vectorMemory", op: "load", lanes: 4 } },
  { name: "load8", doc: `load8(arr, i): arr[i] to arr[i + 7] of an f16 or bf16 array as an f16x8 or bf16x8, in one 16-byte access; ${ALIGN} 8 (GK8030).`, rule: { kind: "vectorMemory", op: "load", lanes: 8 } },
  { name: "store2", doc: `store2(arr, i, v): the lanes of the 2-lane vector v into arr[i] and arr[i + 1], in one access; ${ALIGN} 2 (GK8030).`, rule: { kind: "vectorMemory", op: "store", lanes: 2 } },
  { name: "store4", doc: `store4(arr, i, v): the lanes of the 4-lane vector v into arr[i] to arr[i + 3], in one access (two for 64-bit elements); ${ALIGN} 4 (GK8030).`, rule: { kind: "vectorMemory", op: "store", lanes: 4 } },
  { name: "store8", doc: `store8(arr, i, v): the lanes of the f16x8 or bf16x8 v into arr[i] to arr[i + 7], in one 16-byte access; ${ALIGN} 8 (GK8030).`, rule: { kind: "vectorMemory", op: "store", lanes: 8 } },
];

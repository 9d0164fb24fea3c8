/**
 * Operations on vectors in CUDA: each lane-wise operation of a module (`a + b` on f32x4,
 * `sqrt(v)`, `dot(a, b)`, a comparison, a conversion) becomes one small inline helper, whose
 * body is the operation's lane expansion (src/ir/lanes.ts) emitted by the scalar emitter, so
 * every lane means what the scalar operation means (wrapping, division by zero, NaN, ...):
 *
 *   static __device__ __forceinline__ gk_f32x4 gk_add_f32x4(gk_f32x4 a, gk_f32x4 b) { return gk_f32x4{a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
 *
 * and the expression calls it: `gk_add_f32x4(v, w)`. nvcc inlines them.
 */
import type { Expr, Module, ValueVar } from "../../ir/nodes.js";
import { expandLanes, isLaneWise } from "../../ir/lanes.js";
import { typeToString, type ValueType } from "../../ir/types.js";
import { operands, visit } from "../../ir/walk.js";
import { invariant } from "../../util.js";
import { emitExpr, type ExprContext } from "./expr.js";
import { CUDA } from "./settings.js";
import type { TypeNames } from "./types.js";

/** The helper a lane-wise operation calls: `gk_add_f32x4`, `gk_cvt_i32x4_f32x4`, `gk_select_boolx4_f32x4`. */
export function laneWiseHelperName(e: Expr): string {
  invariant(isLaneWise(e), `${e.kind} is not lane-wise`);
  const ops = operands(e);
  const t = (x: Expr) => typeToString(x.type);
  const p = CUDA.internalPrefix;
  switch (e.kind) {
    case "unary":
    case "binary":
      return `${p}${e.op}_${t(ops[0]!)}`;
    case "cast":
      return `${p}cvt_${t(ops[0]!)}_${t(e)}`;
    case "builtin":
      return e.name === "select" ? `${p}select_${t(ops[0]!)}_${t(ops[1]!)}` : `${p}${e.name}_${t(ops[0]!)}`;
    default:
      return invariant(false, `no helper for ${e.kind}`) as never;
  }
}

export interface VectorHelper {
  readonly name: string;
  readonly code: string;
  /** The body's expression: the prelude's scalar helpers it calls are needed too. */
  readonly body: Expr;
}

const PARAMS = ["a", "b", "c"];

/** The helper of one lane-wise operation. */
function helperFor(e: Expr, types: TypeNames): VectorHelper {
  const name = laneWiseHelperName(e);
  const params: ValueVar[] = operands(e).map((o, i) => ({
    kind: "valueVar", id: -1000 - i, name: PARAMS[i]!, type: o.type as ValueType, mutable: false, span: e.span,
  }));
  const refs: Expr[] = params.map((p) => ({ kind: "var", type: p.type, var: p, span: e.span }));
  const body = expandLanes(e, refs);
  const cx: ExprContext = {
    name: (v) => {
      const p = params.find((q) => q.id === v.id);
      invariant(p, `variable #${v.id} in a vector helper`);
      return p.name;
    },
    functionName: () => invariant(false, "a call in a vector helper") as never,
    functions: new Map(),
    temp: () => invariant(false, "a temporary in a vector helper") as never,
    volatileLoads: new Set(),
    hoistedValues: new Map(),
    refTargets: new Set(),
    flushToZero: false,
    types,
  };
  const result = types.name(e.type as ValueType);
  const args = params.map((p) => `${types.name(p.type)} ${p.name}`).join(", ");
  return { name, code: `${CUDA.helperQualifier} ${result} ${name}(${args}) { return ${emitExpr(body, cx).text}; }`, body };
}

/** The helpers a module's lane-wise operations call, each once, in the order they are first met. */
export function vectorHelpers(m: Module, types: TypeNames): VectorHelper[] {
  const out = new Map<string, VectorHelper>();
  for (const f of [...m.functions, ...m.kernels]) {
    visit(f.body, {
      expr: (e) => {
        if (!isLaneWise(e)) return;
        const name = laneWiseHelperName(e);
        if (!out.has(name)) out.set(name, helperFor(e, types));
      },
    });
  }
  return [...out.values()];
}

/**
 * f32 operations that nvcc removes in a module built with -ftz=true: an operation by an
 * identity constant (`x * 1.0`, `1.0 * x`, `x / 1.0`, `x + -0.0`, `-0.0 + x`, `x - 0.0`),
 * `-(-x)` and `f32(f64(x))` are folded into `x` before any instruction flushes it, so they
 * would pass a subnormal `x` on where the spec (and the simulator) flush it. The backend
 * writes each as `gk_ftz_f32(x)`, the flush itself, which nvcc keeps.
 *
 * Only identities visible in the IR are found; one that nvcc finds after inlining a device
 * function (`scale(x, 1.0)` with `x * s` inside) remains, as spec/language.md says.
 */
import type { Expr } from "../../ir/nodes.js";

const isF32 = (e: Expr) => e.type.kind === "scalar" && e.type.name === "f32";
const isConst = (e: Expr, v: number, negative: boolean) => e.kind === "const" && e.value === v && Object.is(e.value, -0) === negative;

/** The operand an f32 expression is the identity of, which nvcc would return unflushed; none for any other expression. */
export function ftzIdentityOperand(e: Expr): Expr | undefined {
  if (!isF32(e)) return undefined;
  if (e.kind === "binary") {
    const { op, left, right } = e;
    if (op === "mul") return isConst(right, 1, false) ? left : isConst(left, 1, false) ? right : undefined;
    if (op === "div") return isConst(right, 1, false) ? left : undefined;
    if (op === "add") return isConst(right, 0, true) ? left : isConst(left, 0, true) ? right : undefined;
    if (op === "sub") return isConst(right, 0, false) ? left : undefined;
    return undefined;
  }
  if (e.kind === "unary" && e.op === "neg" && e.operand.kind === "unary" && e.operand.op === "neg") return e.operand.operand;
  if (e.kind === "cast" && e.operand.kind === "cast" && isF32(e.operand.operand) && e.operand.type.kind === "scalar" && e.operand.type.name === "f64") {
    return e.operand.operand;
  }
  return undefined;
}

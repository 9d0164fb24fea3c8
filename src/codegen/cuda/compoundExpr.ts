/**
 * Vectors and structs in expressions: building them and reaching into them, for the
 * `construct`, `swizzle` and `member` cases of the one switch over expressions (expr.ts).
 *
 * - Vectors and structs are built with braces (`gk_f32x4{a, b, c, d}`, `Particle{...}`), which
 *   C++ evaluates left to right; an argument read more than once is evaluated first into a
 *   temporary, unless it is a name or a literal.
 * - An element of a braced initializer never narrows, and a vector or struct computed by a comma
 *   expression or by `?:` goes through its copy helper (`braced`, also used by statements).
 * - A path of fields, lanes and elements is C++ members and subscripts: `.pos.x`, `.taps[i][j]`.
 */
import type { ConstructExpr, Expr, MemberExpr, PathStep, SwizzleExpr } from "../../ir/nodes.js";
import { operands } from "../../ir/walk.js";
import { laneName, type ArrayType, type ValueType } from "../../ir/types.js";
import { stepType } from "../../ir/paths.js";
import { invariant } from "../../util.js";
import { atom, emitExpr, inOrder, operand, PREC, sequence, type Emitted, type ExprContext } from "./expr.js";

/** `s.pos.x`, `v.y`, `s.taps[i][j]`: the operand, then its path. */
export function member(e: MemberExpr, cx: ExprContext): Emitted {
  return inOrder(operands(e), cx, ([operand, ...ix]) => atom(`${operand_(emitExpr(operand!, cx))}${pathText(operand!.type as ValueType, e.path, ix, cx)}`));
}

/** An operand of a postfix operator (`.x`, `[i]`): parenthesized unless it binds as tightly. */
function operand_(x: Emitted): string {
  return operand(x, PREC.primary);
}

/**
 * `.pos.x`, `.taps[i][j]`: a path as C++ members and subscripts; `indices` are the path's index
 * expressions (in order), which C++17 evaluates after what they apply to, left to right.
 */
export function pathText(t: ValueType | ArrayType, path: readonly PathStep[], indices: readonly Expr[], cx: ExprContext): string {
  let out = "";
  let cur = t;
  let k = 0;
  for (const step of path) {
    switch (step.kind) {
      case "field":
        invariant(cur.kind === "struct", "a field of a non-struct");
        out += `.${cx.types.field(cur, step.field)}`;
        break;
      case "lane":
        out += `.${laneName(step.lane)}`;
        break;
      case "elem":
        out += step.indices.map(() => `[${emitExpr(indices[k++]!, cx).text}]`).join("");
        break;
    }
    cur = stepType(cur, step);
  }
  return out;
}

/** Whether code may be pasted twice (a name or a literal) without evaluating anything twice. */
function trivial(e: Expr): boolean {
  return e.kind === "var" || e.kind === "const" || e.kind === "zero";
}

/**
 * `gk_f32x4{a, b, c, d}` (a splat repeats its value, a vector argument gives its lanes) or
 * `Particle{pos, mass, {t0, t1}}` (an array field's elements in nested braces). An argument
 * that is read more than once and is not a name or a literal is evaluated first into a
 * temporary, as are the arguments before it, so the order stays left to right.
 */
export function construct(e: ConstructExpr, cx: ExprContext): Emitted {
  const t = e.type;
  const name = cx.types.name(t);
  if (t.kind === "struct") {
    const args = e.args.map((a) => braced(a, emitExpr(a, cx), cx));
    let k = 0;
    const fields = t.fields.map((f) => {
      if (f.type.kind !== "array") return args[k++]!;
      const dims = f.type.dims;
      const nest = (level: number): string => `{${Array.from({ length: dims[level]! }, () => (level === dims.length - 1 ? args[k++]! : nest(level + 1))).join(", ")}}`;
      return nest(0);
    });
    return atom(`${name}{${fields.join(", ")}}`);
  }
  const repeated = e.args.map((a) => (e.args.length === 1 ? t.lanes > 1 : a.type.kind === "vector"));
  const last = repeated.lastIndexOf(true);
  const needsTemp = e.args.some((a, i) => repeated[i] && !trivial(a));
  const parts: string[] = [];
  const assigns: string[] = [];
  const refs = e.args.map((a, i) => {
    if (!needsTemp || i > last || trivial(a)) return a;
    const tmp = cx.temp(a.type as ValueType);
    assigns.push(`${cx.name(tmp)} = ${emitExpr(a, cx).text}`);
    return { kind: "var", type: tmp.type, var: tmp, span: a.span } satisfies Expr;
  });
  for (const a of refs) {
    const text = braced(a, emitExpr(a, cx), cx);
    if (e.args.length === 1) parts.push(...Array.from({ length: t.lanes }, () => text));
    else if (a.type.kind === "vector") parts.push(...Array.from({ length: a.type.lanes }, (_, k) => `${text}.${laneName(k)}`));
    else parts.push(text);
  }
  const built = `${name}{${parts.join(", ")}}`;
  return assigns.length ? sequence(assigns, built) : atom(built);
}

/**
 * An element of a braced initializer, which C++ does not let narrow: a bool that C++ computes
 * as an int (`a & b` of bools, a vote's `__any_sync`) is converted explicitly. A vector or
 * struct computed by a comma expression, or by `?:`, goes through its copy helper
 * (`gk_copy_f32x3((gk_t1 = ..., gk_f32x3{...}))`, `gk_copy_i64x3(c ? gk_i64x3{...} : v)`):
 * nvcc 13.0 crashes with a segmentation fault on such an element (TypeNames.copyHelper; the
 * `?:` case found by the random kernels).
 */
export function braced(e: Expr, em: Emitted, cx: ExprContext): string {
  const text = em.text;
  if ((e.type.kind === "vector" || e.type.kind === "struct") && (em.comma || e.kind === "select")) return `${cx.types.copyHelper(e.type)}(${text})`;
  if (e.type.kind !== "scalar" || e.type.name !== "bool") return text;
  const isBool =
    e.kind === "const" || e.kind === "var" || e.kind === "load" || e.kind === "member" || e.kind === "logical" || e.kind === "call" ||
    (e.kind === "binary" && e.op !== "and" && e.op !== "or") || (e.kind === "unary" && e.op === "not") || e.kind === "cast";
  return isBool ? text : `(bool)(${text})`;
}

/** `v.zyx`: a new vector of the chosen lanes (the vector in a temporary unless it is a name). */
export function swizzle(e: SwizzleExpr, cx: ExprContext): Emitted {
  const name = cx.types.name(e.type);
  let v = e.operand;
  let assign = "";
  if (!trivial(v)) {
    const tmp = cx.temp(v.type as ValueType);
    assign = `${cx.name(tmp)} = ${emitExpr(v, cx).text}`;
    v = { kind: "var", type: tmp.type, var: tmp, span: v.span };
  }
  const text = operand(emitExpr(v, cx), PREC.primary);
  const built = `${name}{${e.lanes.map((k) => `${text}.${laneName(k)}`).join(", ")}}`;
  return assign ? sequence([assign], built) : atom(built);
}

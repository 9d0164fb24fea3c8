/**
 * Paths into values held in variables: `p.pos.x`, `s.taps[i]` read from a value and
 * `name.path = value` as a new value (vectors and structs are JavaScript arrays: a field or lane
 * is an element, an array field a flat array, row-major). The paths into array elements are
 * emitMemory.ts's.
 */
import type { Expr, PathStep } from "../../ir/nodes.js";
import { stepType } from "../../ir/paths.js";
import type { ArrayType, ValueType } from "../../ir/types.js";
import type { Site } from "./sites.js";
import { invariant } from "../../util.js";
import { isTrivial, newTemp, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import { bindTo, checkedSeq, fieldIndices } from "./emitMemory.js";

/** The flat (row-major) index of an array field's element from its checked indices. */
function flatIndex(at: ArrayType, refs: readonly string[]): string {
  return refs.reduce((acc, r, d) => (d === 0 ? r : `(${acc} * ${at.dims[d]} + ${r})`), "");
}

/**
 * `operand.path` of a value (vectors and structs are arrays: a field or lane is an element, an
 * array field a flat array). Indices of array fields are checked (GK8001).
 */
export function emitMember(ctx: FnCtx, operand: string, t: ValueType, path: readonly PathStep[], span: Site["span"]): string {
  const binds: string[] = [];
  const tests: string[] = [];
  let cur: ValueType | ArrayType = t;
  const hasIndex = path.some((p) => p.kind === "elem");
  const base = hasIndex ? bindTo(ctx, operand, binds) : isTrivial(operand) ? operand : `(${operand})`;
  let code = base;
  for (const step of path) {
    if (step.kind === "field") code += `[${step.field}]`;
    else if (step.kind === "lane") code += `[${step.lane}]`;
    else {
      invariant(cur.kind === "array", "an element of a non-array");
      const at = cur;
      const flat = flatIndex(at, fieldIndices(ctx, at, step.indices, binds, tests, span));
      code += `[${flat}]`;
    }
    cur = stepType(cur, step);
  }
  return binds.length || tests.length ? checkedSeq(binds, tests, code) : code;
}

/**
 * `name.path = value` as a new value of the variable: the parts along the path are copied and
 * the last one replaced (values are never changed in place, so a copy made by `let q = p;` is
 * safe). Returns statements.
 */
export function emitAssignPath(ctx: FnCtx, name: string, t: ValueType, path: readonly PathStep[], value: Expr, span: Site["span"]): string {
  const binds: string[] = [];
  const tests: string[] = [];
  const keys: string[] = [];
  let cur: ValueType | ArrayType = t;
  for (const step of path) {
    if (step.kind === "field") keys.push(String(step.field));
    else if (step.kind === "lane") keys.push(String(step.lane));
    else {
      invariant(cur.kind === "array", "an element of a non-array");
      const at = cur;
      const flat = flatIndex(at, fieldIndices(ctx, at, step.indices, binds, tests, span));
      keys.push(bindTo(ctx, flat, binds));
    }
    cur = stepType(cur, step);
  }
  const v = newTemp(ctx);
  binds.push(`${v} = ${emitExpr(ctx, value)}`);
  // Copies along the path, outermost first; then each is put back into its parent.
  const copies = keys.map(() => newTemp(ctx));
  const lines = [`${copies[0]} = ${name}.slice();`];
  for (let k = 1; k < keys.length; k++) lines.push(`${copies[k]} = ${copies[k - 1]}[${keys[k - 1]}].slice();`);
  lines.push(`${copies[keys.length - 1]}[${keys[keys.length - 1]}] = ${v};`);
  for (let k = keys.length - 1; k > 0; k--) lines.push(`${copies[k - 1]}[${keys[k - 1]}] = ${copies[k]};`);
  lines.push(`${name} = ${copies[0]};`);
  return `${binds.map((b) => `${b};`).join(" ")} ${tests.map((t) => `${t};`).join(" ")} ${lines.join(" ")}`.trim();
}

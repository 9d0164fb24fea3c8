/**
 * IR expressions to JavaScript expressions. Every operator, cast and math builtin is pasted
 * from the evalOp and builtin tables, so the simulator computes exactly what constant folding
 * computes. `&&`, `||` and `?:` stay lazy; array accesses are in emitMemory.ts. A warp
 * operation yields to the scheduler, which resumes the thread with its result once the whole
 * warp has arrived (src/runtime/sim/scheduler.ts).
 *
 * Vectors and structs are arrays (src/ir/composite.ts): `f32x4(a, b, c, d)` is `[a, b, c, d]`,
 * a struct the array of its fields. A lane-wise operation evaluates its operands once, into
 * temporaries, then its lane expansion (src/ir/lanes.ts), the same one the CUDA backend emits.
 */
import { indexBuiltin, mathBuiltin, mathJs, warpBuiltin } from "../../ir/builtins.js";
import { jsBinary, jsCast, jsUnary } from "../../ir/evalOp.js";
import type { ConstructExpr, Expr, SwizzleExpr, ValueVar, WarpExpr } from "../../ir/nodes.js";
import { asScalar, isInt, type ArrayType, type ValueType } from "../../ir/types.js";
import { expandLanes, isLaneWise } from "../../ir/lanes.js";
import { operands } from "../../ir/walk.js";
import { zeroValue, type Value } from "../../ir/composite.js";
import { assertNever, invariant } from "../../util.js";
import { applyTemplate, isTrivial, literal, newTemp, varName, type FnCtx } from "./context.js";
import { emitAtomic, emitLoad, emitLoadBits, emitRefRead } from "./emitMemory.js";
import { emitMember } from "./emitPath.js";
import { emitCall } from "./emitCall.js";
import { raw } from "../../ir/templates.js";
import { bitcastJs, isBitcastType } from "../../ir/bitcast.js";

export function emitExpr(ctx: FnCtx, e: Expr): string {
  if (isLaneWise(e)) return laneWise(ctx, e);
  switch (e.kind) {
    case "const":
      return literal(e.type, e.value);
    case "var":
      return ctx.bound.get(e.var.id) ?? (e.var.ref ? emitRefRead(ctx, e.var, e.span) : varName(e.var));
    case "special":
      return indexBuiltin(e.name).js(e.axis);
    case "unary": {
      invariant(e.operand.type.kind === "scalar", "unary operand is not a scalar");
      const tpl = jsUnary(e.op, e.operand.type, ctx.opts.flushToZero);
      invariant(tpl, `operator ${e.op} on ${e.operand.type.name}`);
      return applyTemplate(ctx, raw(([a]) => tpl(a!)), [emitExpr(ctx, e.operand)]);
    }
    case "binary": {
      const t = e.left.type;
      invariant(t.kind === "scalar", "binary operand is not a scalar");
      const tpl = jsBinary(e.op, t, ctx.opts.flushToZero);
      invariant(tpl, `operator ${e.op} on ${t.name}`);
      const traps = (e.op === "div" || e.op === "rem") && isInt(t);
      const site = traps ? ctx.sites.add({ kind: "division", op: e.op as "div" | "rem", type: t, fn: ctx.fn.name, span: e.span }) : -1;
      return applyTemplate(ctx, raw(([a, b]) => tpl(a!, b!, String(site))), [emitExpr(ctx, e.left), emitExpr(ctx, e.right)]);
    }
    case "logical":
      return `(${emitExpr(ctx, e.left)} ${e.op === "and" ? "&&" : "||"} ${emitExpr(ctx, e.right)})`;
    case "select":
      return `(${emitExpr(ctx, e.cond)} ? ${emitExpr(ctx, e.ifTrue)} : ${emitExpr(ctx, e.ifFalse)})`;
    case "cast": {
      invariant(e.operand.type.kind === "scalar", "cast of a non-scalar");
      const tpl = jsCast(e.operand.type, asScalar(e.type), ctx.opts.flushToZero);
      return applyTemplate(ctx, raw(([a]) => tpl(a!)), [emitExpr(ctx, e.operand)]);
    }
    case "bitcast": {
      const from = e.operand.type;
      invariant(from.kind !== "void" && isBitcastType(from), `bitcast of ${from.kind}`);
      // Straight from memory: the element's bits (emitLoadBits), as a number would lose a signaling NaN's.
      const direct = e.operand.kind === "load" ? emitLoadBits(ctx, e.operand, e.type) : undefined;
      if (direct !== undefined) return direct;
      // A scalar operand is written once; a vector's lanes are read one by one, from a temporary.
      const code = emitExpr(ctx, e.operand);
      if (from.kind === "scalar") return bitcastJs(from, e.type, code);
      return applyTemplate(ctx, raw(([a]) => bitcastJs(from, e.type, a!)), [code]);
    }
    case "load":
      return emitLoad(ctx, e);
    case "call":
      return emitCall(ctx, e);
    case "builtin": {
      const entry = mathBuiltin(e.name);
      invariant(entry, `unknown math builtin ${e.name}`);
      const t = e.args[0]?.type;
      invariant(t?.kind === "scalar", `${e.name} without a scalar operand`);
      const tpl = mathJs(entry, t, ctx.opts.flushToZero);
      invariant(tpl, `${e.name} has no JavaScript implementation for ${t.name}`);
      return applyTemplate(ctx, tpl, e.args.map((a) => emitExpr(ctx, a)));
    }
    case "atomic":
      return emitAtomic(ctx, e);
    case "warp":
      return emitWarp(ctx, e);
    case "member":
      return emitMember(ctx, emitExpr(ctx, e.operand), e.operand.type as ValueType, e.path, e.span);
    case "construct":
      return construct(ctx, e);
    case "swizzle":
      return swizzle(ctx, e);
    case "zero":
      return zeroLiteral(e.type);
  }
  return assertNever(e, "expression");
}

/** Code that is a name or a literal as it is; anything else evaluated once into a temporary (`binds` gets the assignment). */
function once(ctx: FnCtx, code: string, binds: string[]): string {
  if (isTrivial(code)) return code;
  const t = newTemp(ctx);
  binds.push(`${t} = ${code}`);
  return t;
}

function seqOf(binds: readonly string[], value: string): string {
  return binds.length ? `(${binds.join(", ")}, ${value})` : value;
}

/** A lane-wise operation: its operands once, in order, then its lane expansion over them. */
function laneWise(ctx: FnCtx, e: Expr): string {
  const binds: string[] = [];
  const refs = operands(e).map((o): Expr => {
    const code = once(ctx, emitExpr(ctx, o), binds);
    const v: ValueVar = { kind: "valueVar", id: -1 - ctx.bound.size, name: code, type: o.type as ValueType, mutable: false, span: o.span };
    ctx.bound.set(v.id, code);
    return { kind: "var", type: v.type, var: v, span: o.span };
  });
  return seqOf(binds, emitExpr(ctx, expandLanes(e, refs)));
}

/** `[a, b, c, d]`; a splat repeats its value; a vector argument is spread into its lanes. */
function construct(ctx: FnCtx, e: ConstructExpr): string {
  if (e.type.kind === "vector" && e.args.length === 1) {
    const binds: string[] = [];
    const s = once(ctx, emitExpr(ctx, e.args[0]!), binds);
    return seqOf(binds, `[${Array.from({ length: e.type.lanes }, () => s).join(", ")}]`);
  }
  if (e.type.kind === "vector") return `[${e.args.map((a) => (a.type.kind === "vector" ? `...${emitExpr(ctx, a)}` : emitExpr(ctx, a))).join(", ")}]`;
  // A struct: its fields in order, an array field the flat array of its elements.
  const args = e.args.map((a) => emitExpr(ctx, a));
  let k = 0;
  const fields = e.type.fields.map((f) => {
    if (f.type.kind !== "array") return args[k++]!;
    const n = f.type.dims.reduce((a, d) => a * d, 1);
    const elems = args.slice(k, k + n);
    k += n;
    return `[${elems.join(", ")}]`;
  });
  return `[${fields.join(", ")}]`;
}

function swizzle(ctx: FnCtx, e: SwizzleExpr): string {
  const binds: string[] = [];
  const v = once(ctx, emitExpr(ctx, e.operand), binds);
  return seqOf(binds, `[${e.lanes.map((k) => `${v}[${k}]`).join(", ")}]`);
}

/** A JavaScript literal of the zero value of a type (arrays for vectors and structs; values are never changed in place, so a large array field may repeat one element). */
function zeroLiteral(t: ValueType | ArrayType): string {
  switch (t.kind) {
    case "scalar":
      return literal(t, zeroValue(t) as Exclude<Value, readonly Value[]>);
    case "vector":
      return `[${Array.from({ length: t.lanes }, () => zeroLiteral(t.elem)).join(", ")}]`;
    case "struct":
      return `[${t.fields.map((f) => zeroLiteral(f.type)).join(", ")}]`;
    case "array": {
      const n = t.dims.reduce((a, d) => a * d, 1);
      return n > 16 ? `new Array(${n}).fill(${zeroLiteral(t.elem)})` : `[${Array.from({ length: n }, () => zeroLiteral(t.elem)).join(", ")}]`;
    }
  }
}

/**
 * A warp operation: the thread yields a `WarpStop` (src/runtime/sim/scheduler.ts) with its identity, the path
 * of call sites to it as for a barrier (`"c4.w12"`), and its operands (`a`: the value or the
 * predicate, `b`: a shuffle's lane operand); the scheduler sends back the result.
 */
function emitWarp(ctx: FnCtx, e: WarpExpr): string {
  invariant(ctx.mode === "generator", `warp operation in ${ctx.fn.name}, which is not a generator`);
  const site = ctx.sites.add({ kind: "warp", op: e.op, fn: ctx.fn.name, span: e.span });
  const at = ctx.fn.kind === "kernel" ? `"w${site}"` : `$path + "w${site}"`;
  const args = e.args.map((x) => emitExpr(ctx, x));
  // A tensor-core operation yields its operands (vectors) as `a`.
  const shape = warpBuiltin(e.op).rule.shape;
  if (shape === "mma" || shape === "ldmatrix") return `(yield { at: ${at}, site: ${site}, a: [${args.join(", ")}], b: 0 })`;
  const [a, b] = args;
  return `(yield { at: ${at}, site: ${site}, a: ${a ?? "0"}, b: ${b ?? "0"} })`;
}

/**
 * IR expressions to JavaScript expressions. Every operator, cast and math builtin is pasted
 * from the evalOp and builtin tables, so the simulator computes exactly what constant folding
 * computes. `&&`, `||` and `?:` stay lazy; array accesses are in emitMemory.ts. A warp
 * operation yields to the scheduler, which resumes the thread with its result once the whole
 * warp has arrived (src/runtime/sim/scheduler.ts).
 */
import { indexBuiltin, mathBuiltin, mathJs } from "../../ir/builtins.js";
import { jsBinary, jsCast, jsUnary } from "../../ir/evalOp.js";
import type { Expr, WarpExpr } from "../../ir/nodes.js";
import { asScalar, isInt } from "../../ir/types.js";
import { assertNever, invariant } from "../../util.js";
import { applyTemplate, literal, varName, type FnCtx } from "./context.js";
import { emitAtomic, emitLoad, emitRefRead } from "./emitMemory.js";
import { emitCall } from "./emitCall.js";
import { raw } from "../../ir/templates.js";

export function emitExpr(ctx: FnCtx, e: Expr): string {
  switch (e.kind) {
    case "const":
      return literal(e.type, e.value);
    case "var":
      return e.var.ref ? emitRefRead(ctx, e.var) : varName(e.var);
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
  }
  return assertNever(e, "expression");
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
  const [a, b] = e.args.map((x) => emitExpr(ctx, x));
  return `(yield { at: ${at}, site: ${site}, a: ${a ?? "0"}, b: ${b ?? "0"} })`;
}

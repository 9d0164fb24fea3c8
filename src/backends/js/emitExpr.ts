/**
 * IR expressions to JavaScript expressions. Every operator, cast and math builtin is pasted
 * from the evalOp and builtin tables, so the simulator computes exactly what constant folding
 * computes. `&&`, `||` and `?:` stay lazy; array accesses are in emitMemory.ts. A warp
 * operation yields to the scheduler, which resumes the thread with its result once the whole
 * warp has arrived (src/runtime/sim/scheduler.ts).
 */
import { indexBuiltin, mathBuiltin } from "../../ir/builtins.js";
import { jsBinary, jsCast, jsUnary } from "../../ir/evalOp.js";
import type { CallExpr, Expr, WarpExpr } from "../../ir/nodes.js";
import { asScalar, isInt } from "../../ir/types.js";
import { assertNever, invariant } from "../../util.js";
import { applyTemplate, arrayName, fnName, literal, newTemp, varName, type FnCtx } from "./context.js";
import { emitAtomic, emitLoad } from "./emitMemory.js";
import { raw } from "../../ir/templates.js";

export function emitExpr(ctx: FnCtx, e: Expr): string {
  switch (e.kind) {
    case "const":
      return literal(e.type, e.value);
    case "var":
      return varName(e.var);
    case "special":
      return indexBuiltin(e.name).js(e.axis);
    case "unary": {
      invariant(e.operand.type.kind === "scalar", "unary operand is not a scalar");
      const tpl = jsUnary(e.op, e.operand.type);
      invariant(tpl, `operator ${e.op} on ${e.operand.type.name}`);
      return applyTemplate(ctx, raw(([a]) => tpl(a!)), [emitExpr(ctx, e.operand)]);
    }
    case "binary": {
      const t = e.left.type;
      invariant(t.kind === "scalar", "binary operand is not a scalar");
      const tpl = jsBinary(e.op, t);
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
      const tpl = jsCast(e.operand.type, asScalar(e.type));
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
      const tpl = entry.js[t.name];
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

/**
 * A device function call: arguments in order, arrays with their lengths, then the thread
 * indices the callee reads. A callee that reaches a barrier or a warp operation is a
 * generator, run with `yield*` and given the path of call sites that leads to it (see
 * emitStmt.ts, barrier).
 */
export function emitCall(ctx: FnCtx, e: CallExpr): string {
  const args: string[] = [];
  for (const a of e.args) {
    if (a.kind === "arrayArg") {
      const n = arrayName(ctx, a.array);
      // A global array with its length; a shared array alone (its sizes are constants of its type).
      if (a.array.type.kind === "array") args.push(n);
      else args.push(n, `${n}$n`);
    } else {
      args.push(emitExpr(ctx, a));
    }
  }
  args.push(...(ctx.analysis.specials.get(e.callee) ?? []));
  const name = fnName(e.callee, ctx.analysis);
  if (!ctx.analysis.suspendFns.has(e.callee)) {
    const call = `${name}(${args.join(", ")})`;
    if (ctx.steps === "$steps" || !ctx.analysis.loopFns.has(e.callee)) return call;
    // Hand the step count to the callee and take it back (arguments' own calls do the same).
    const r = newTemp(ctx);
    return `($steps = $s, ${r} = ${call}, $s = $steps, ${r})`;
  }
  const site = ctx.sites.add({ kind: "call", callee: e.callee, fn: ctx.fn.name, span: e.span });
  args.push(ctx.mode === "generator" && ctx.fn.kind === "device_fn" ? `$path + "c${site}."` : `"c${site}."`);
  return `(yield* ${name}(${args.join(", ")}))`;
}

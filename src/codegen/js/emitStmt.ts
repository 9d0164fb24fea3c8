/**
 * IR statements to JavaScript statements.
 *
 * Loops become one shape whatever their kind, so `continue` always runs the step and then
 * the test (IR `LoopStmt`):
 *
 *   { init; L3: for (;;) { if (!(cond)) break;  C3: { body }  step;  [do-while: if (!(cond)) break;]  budget } }
 *
 * `break` is `break L3`, `continue` is `break C3`. Every back-edge counts one step against
 * the launch's step budget (GK8004) in the function's step counter (context.ts). `return` in
 * the fast-path kernel ends the thread (`continue $T`, the loop over threads), in a region too
 * (`break $R`, see regions/), and in a device_fn inlined into a region it leaves the inlined
 * body. On the generator path `barrier()` yields the barrier's identity, the path of call
 * sites that led to it (`"c4.c9.b12"`), which the scheduler compares between the threads of a
 * block; regions stop at barriers themselves (regions/emit.ts).
 */
import type { Stmt } from "../../ir/nodes.js";
import { assertNever, invariant } from "../../util.js";
import { varName, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import { emitLocalArray, emitRefWrite, emitStore } from "./emitMemory.js";
import { emitAssignPath } from "./emitPath.js";
import { emitAsyncCopy, emitAsyncGroup } from "./emitAsync.js";

/** Exported for the regions' loops, which write the same back-edge. */
export function budgetCheck(ctx: FnCtx, site: number): string {
  return `if (++${ctx.steps} > ${ctx.budget}) $sim.budget(${site});`;
}

export function emitStmts(ctx: FnCtx, list: readonly Stmt[], pad: string): string[] {
  return list.flatMap((s) => emitStmt(ctx, s, pad));
}

function emitStmt(ctx: FnCtx, s: Stmt, pad: string): string[] {
  const inner = pad + "  ";
  switch (s.kind) {
    case "let":
      return [`${pad}${s.var.mutable ? "let" : "const"} ${varName(s.var)} = ${emitExpr(ctx, s.init)};`];
    case "localArray":
      return [`${pad}${emitLocalArray(ctx, s)}`];
    case "assign":
      if (s.path.length) return [`${pad}${emitAssignPath(ctx, varName(s.var), s.var.type, s.path, s.value, s.span)}`];
      return [`${pad}${s.var.ref ? emitRefWrite(ctx, s.var, emitExpr(ctx, s.value), s.span) : `${varName(s.var)} = ${emitExpr(ctx, s.value)};`}`];
    case "store":
      return [`${pad}${emitStore(ctx, s)}`];
    case "expr":
      return [`${pad}${emitExpr(ctx, s.expr)};`];
    case "if": {
      const out = [`${pad}if (${emitExpr(ctx, s.cond)}) {`, ...emitStmts(ctx, s.then, inner)];
      if (s.else.length) out.push(`${pad}} else {`, ...emitStmts(ctx, s.else, inner));
      out.push(`${pad}}`);
      return out;
    }
    case "loop":
      return emitLoop(ctx, s, pad);
    case "break": {
      const id = innermostLoop(ctx);
      ctx.broken.add(id);
      return [`${pad}break L${id};`];
    }
    case "continue": {
      const id = innermostLoop(ctx);
      ctx.continued.add(id);
      return [`${pad}break C${id};`];
    }
    case "return":
      return [`${pad}${emitReturn(ctx, s.value === null ? null : emitExpr(ctx, s.value))}`];
    case "barrier": {
      invariant(ctx.mode === "generator", `barrier() in ${ctx.fn.name}, which is not a generator`);
      const site = ctx.sites.add({ kind: "barrier", fn: ctx.fn.name, span: s.span });
      return [`${pad}yield ${ctx.fn.kind === "kernel" ? `"b${site}"` : `$path + "b${site}"`};`];
    }
    case "block":
      return [`${pad}{`, ...emitStmts(ctx, s.body, inner), `${pad}}`];
    case "fence":
      // The simulator runs one access at a time, in one order every thread sees: a fence orders
      // nothing more. Race mode follows what it orders (src/runtime/sim/races.ts).
      return [...(ctx.opts.checkRaces ? [`${pad}$race.fence(${s.scope === "device"});`] : []), ...(ctx.analysis.asyncCopies ? [`${pad}$async.fence();`] : [])];
    case "asyncCopy":
      return [`${pad}${emitAsyncCopy(ctx, s)}`];
    case "asyncGroup":
      return [`${pad}${emitAsyncGroup(s)}`];
  }
  return assertNever(s, "statement");
}

function innermostLoop(ctx: FnCtx): number {
  const id = ctx.loops[ctx.loops.length - 1];
  invariant(id !== undefined, "break or continue outside a loop");
  return id;
}

function emitReturn(ctx: FnCtx, value: string | null): string {
  if (ctx.inlineReturn) {
    const { label, ret } = ctx.inlineReturn;
    return value === null || ret === null ? `break ${label};` : `{ ${varName(ret)} = ${value}; break ${label}; }`;
  }
  if (ctx.fn.kind === "kernel") {
    invariant(value === null, "a kernel returns a value");
    return ctx.mode === "fastKernel" ? "continue $T;" : ctx.mode === "region" ? "break $R;" : "return;";
  }
  return value === null ? "return;" : `return ${value};`;
}

function emitLoop(ctx: FnCtx, s: Stmt & { kind: "loop" }, pad: string): string[] {
  const id = ctx.labels.next++;
  const site = ctx.sites.add({ kind: "loop", fn: ctx.fn.name, span: s.span });
  const p1 = pad + "  ";
  const p2 = pad + "    ";
  const p3 = pad + "      ";
  const out = [`${pad}{`, ...emitStmts(ctx, s.init, p1), `${p1}L${id}: for (;;) {`];
  const test = s.cond ? `if (!(${emitExpr(ctx, s.cond)})) break;` : null;
  if (s.testFirst && test) out.push(`${p2}${test}`);
  ctx.loops.push(id);
  const body = emitStmts(ctx, s.body, p3);
  ctx.loops.pop();
  if (ctx.continued.has(id)) out.push(`${p2}C${id}: {`, ...body, `${p2}}`);
  else out.push(...body.map((l) => l.slice(2)));
  out.push(...emitStmts(ctx, s.step, p2));
  if (!s.testFirst && test) out.push(`${p2}${test}`);
  out.push(`${p2}${budgetCheck(ctx, site)}`, `${p1}}`, `${pad}}`);
  return out;
}

/** One kernel's or device function's body, checked into an IR function: parameters declared, statements checked, every path returning. */
import type * as ast from "../parser/ast.js";
import type { Function, Instance, Param } from "../ir/nodes.js";
import type { CallSite, FnCtx } from "./context.js";
import { typeToString } from "../ir/types.js";
import { alwaysLeaves, checkStmts, declare, newArrayVar, newValueVar } from "./stmt.js";
import type { Signature } from "./symbols.js";
import { checkKernelAnnotation } from "./kernelAnnotations.js";

/**
 * Checks `d`'s body in `ctx` (whose return type is the signature's), under the IR name
 * `irName`; `fn` is undefined when the body has errors. `calls` are the calls it makes.
 */
export function checkFunctionBody(
  ctx: FnCtx,
  d: ast.KernelDecl | ast.FunctionDecl,
  sig: Signature,
  irName: string,
  instance?: Instance,
): { readonly fn?: Function; readonly calls: readonly CallSite[] } {
  // A kernel's annotation's arguments are constants: checked before the parameters are in scope.
  const annotation = d.kind === "Kernel" ? checkKernelAnnotation(ctx, d.annotation, d.params) : {};
  const params: Param[] = [];
  d.params.forEach((p, i) => {
    const ps = sig.params[i]!;
    const t = ps.type;
    if (t.kind !== "global" && t.kind !== "array" && t.kind !== "view") {
      const v = { ...newValueVar(ctx, p.name, t, true), ...(ps.ref && { ref: ps.ref }) };
      declare(ctx, p.name, { kind: "value", var: v });
      params.push(v);
    } else {
      const a = newArrayVar(ctx, p.name, t);
      declare(ctx, p.name, { kind: "array", var: a, readonly: (t.kind === "global" || t.kind === "view") && t.readonly });
      params.push(a);
    }
  });
  const errors = ctx.log.errorCount;
  // The copies of module-level constant arrays the body reads come first.
  const body = [...checkStmts(ctx, d.body.body, true)];
  body.unshift(...ctx.prelude);
  if (ctx.log.errorCount === errors && ctx.silentFailures === 0 && ctx.kind === "device_fn" && sig.returnType.kind !== "void" && !alwaysLeaves(body)) {
    ctx.log.error("GK4003", d.name.span, `'${d.name.name}' must return ${typeToString(sig.returnType)} on every path: add a 'return' at the end of its body`);
  }
  if (ctx.log.errorCount > errors || ctx.silentFailures > 0) return { calls: ctx.calls };
  const fn: Function = {
    kind: ctx.kind === "kernel" ? "kernel" : "device_fn",
    name: irName,
    ...(instance && { instance }),
    params,
    returnType: sig.returnType,
    shared: ctx.shared,
    ...annotation,
    body,
    file: ctx.module.file,
    span: d.span,
  };
  return { fn, calls: ctx.calls };
}

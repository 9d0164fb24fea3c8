/**
 * A kernel's or device function's signature from its declaration: the parameter types and
 * the return type, resolved in a context (for a generic definition, one whose scope binds
 * its generic parameters, so that `global<T>` and `shared f32[N]` resolve).
 */
import type * as ast from "../parser/ast.js";
import { leafCount, T, typeToString } from "../ir/types.js";
import type { FnCtx } from "./context.js";
import { isReservedName } from "../ir/names.js";
import { symbolSpan, type ParamSig, type Signature } from "./symbols.js";
import { resolveType, resolveValue } from "./typeExpr.js";

/** The signature, or undefined after reporting every problem with it. */
export function resolveSignature(ctx: FnCtx, d: ast.KernelDecl | ast.FunctionDecl): Signature | undefined {
  const params: ParamSig[] = [];
  let ok = true;
  for (const p of d.params) {
    const ref = p.type.kind === "RefType" ? p.type : undefined;
    if (ref && d.kind === "Kernel") {
      ctx.log.error("GK4007", ref.span, `a kernel's parameters are values and global arrays, given by the launch; '${ref.mode}' marks a device_fn parameter that refers to its caller's variable or element`);
      ok = false;
      continue;
    }
    const t = ref ? resolveValue(ctx, ref.elem, "local") : resolveType(ctx, p.type, "param");
    if (!t || t === "void") {
      if (t === "void") ctx.log.error("GK2003", p.type.span, "'void' is only a return type");
      ok = false;
      continue;
    }
    if (params.some((q) => q.name === p.name.name)) {
      ctx.log.error("GK2002", p.name.span, `parameter '${p.name.name}' is declared twice`);
      ok = false;
      continue;
    }
    if (isReservedName(p.name.name)) {
      ctx.log.error("GK2009", p.name.span, `'${p.name.name}' is a reserved name in gk and cannot be declared`);
      ok = false;
      continue;
    }
    const generic = ctx.scopes.declaredHere(p.name.name);
    if (generic) {
      ctx.log.error("GK2002", p.name.span, `parameter '${p.name.name}' has the name of a generic parameter of '${d.name.name}'`, [{ message: "the generic parameter", span: symbolSpan(generic) }]);
      ok = false;
      continue;
    }
    if ((t.kind === "array" || t.kind === "view") && d.kind === "Kernel") {
      const what = t.kind === "view" ? "a view is a device_fn parameter" : "its shared memory is declared in its body (`shared name: T[N];`)";
      ctx.log.error("GK4007", p.type.span, `a kernel's parameters are scalars and global arrays; ${what}`);
      ok = false;
      continue;
    }
    if (ref && t.kind !== "scalar") {
      ctx.log.error("GK2045", ref.elem.span, `'${ref.mode} ${typeToString(t)}': references are to scalars; pass a ${t.kind} by value and return the new one (${t.kind === "struct" ? `device_fn f(p: ${t.name}): ${t.name}` : `device_fn f(v: ${typeToString(t)}): ${typeToString(t)}`})`);
      ok = false;
      continue;
    }
    params.push({ name: p.name.name, type: t as ParamSig["type"], ...(ref && { ref: ref.mode }), span: p.span });
  }
  if (ok && d.kind === "Kernel") {
    // The GPU receives a vector or struct argument as its scalars, one kernel argument each (spec: Kernel arguments).
    let count = 0;
    const most = ctx.module.target.limits.kernelArgs;
    for (const p of params) {
      count += p.type.kind === "global" || p.type.kind === "array" || p.type.kind === "view" ? 1 : leafCount(p.type);
      if (count > most) {
        ctx.log.error("GK4007", p.span, `'${d.name.name}' takes more than ${most} kernel arguments, counting each scalar of a vector or struct parameter as one: pass large structs in a global array`);
        ok = false;
        break;
      }
    }
  }
  let returnType: Signature["returnType"] = T.void;
  if (d.kind === "Function" && d.returnType) {
    const r = resolveValue(ctx, d.returnType, "return");
    if (!r) ok = false;
    else returnType = r === "void" ? T.void : r;
  }
  return ok ? { params, returnType } : undefined;
}

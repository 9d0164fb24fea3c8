/** Arrays: resolving an indexed expression to its array and checking one index per dimension. */
import type * as ast from "../parser/ast.js";
import type { ArrayVar } from "../ir/nodes.js";
import { isInt, memoryDims, T, typeToString } from "../ir/types.js";
import { knownDim, textOf, tyName, type FnCtx, type ScalarExpr, type ValueExpr } from "./context.js";
import { checkValue, untypedOf } from "./expr.js";
import { type ModuleSymbol } from "./symbols.js";
import { didYouMean } from "../diagnostics/didYouMean.js";

export interface ArrayBase {
  readonly array: ArrayVar;
  readonly readonly: boolean;
  /** Index expressions applied to the array, outermost first. */
  readonly indices: readonly ast.Expr[];
}

/** Unwinds `a[i][j]` to `a` and `[i, j]`; reports a base that is not an array. */
export function arrayBase(ctx: FnCtx, e: ast.Expr): ArrayBase | undefined {
  const indices: ast.Expr[] = [];
  let base = e;
  while (base.kind === "Index") {
    indices.unshift(base.index);
    base = base.object;
  }
  while (base.kind === "Paren") base = base.expr;
  if (base.kind !== "Name") {
    ctx.log.error("GK3008", base.span, `'${textOf(ctx, base.span)}' is not an array and cannot be indexed`);
    return undefined;
  }
  const ref = arrayRef(ctx, base, indices.length > 0);
  if (!ref) return undefined;
  return { ...ref, indices };
}

/** The array a name refers to, or an error. `indexed` says whether the user wrote an index after it. */
export function arrayRef(ctx: FnCtx, e: ast.NameExpr, indexed: boolean): { array: ArrayVar; readonly: boolean } | undefined {
  const local = ctx.scopes.lookup(e.name);
  if (local?.kind === "array") return { array: local.var, readonly: local.readonly };
  if (local?.kind === "poisoned") return undefined;
  if (local) {
    const t = local.kind === "value" ? typeToString(local.var.type) : local.kind === "constParam" ? "a constant parameter" : local.kind === "typeParam" ? "a type parameter" : local.kind === "fnParam" ? "a function parameter" : "an untyped constant";
    const vt = local.kind === "value" ? local.var.type : undefined;
    const hint = vt?.kind === "vector" ? `: a vector's lanes are ${["x", "y", "z", "w"].slice(0, vt.lanes).map((l) => `.${l}`).join(" ")}` : "";
    ctx.log.error("GK3008", e.span, indexed ? `'${e.name}' is ${t}, not an array, and cannot be indexed${hint}` : `'${e.name}' is ${t}, not an array`);
    return undefined;
  }
  const m = ctx.module.lookup(e.name);
  if (m?.kind === "poisoned") return undefined;
  if (m?.kind === "constArray" && ctx.kind !== "const") return { array: constArrayCopy(ctx, m), readonly: true };
  if (m?.kind === "constantArray" && ctx.kind !== "const") return { array: m.array, readonly: true };
  if (m) {
    ctx.log.error("GK3008", e.span, `'${e.name}' is not an array`);
    return undefined;
  }
  ctx.log.error("GK2001", e.span, `unknown name '${e.name}'${didYouMean(e.name, [...ctx.scopes.names(), ...ctx.module.names()])}`);
  return undefined;
}

/** The function's copy of a module-level constant array, declared once at the start of its body. */
function constArrayCopy(ctx: FnCtx, m: Extract<ModuleSymbol, { kind: "constArray" }>): ArrayVar {
  const known = ctx.constArrays.get(m.name);
  if (known) return known;
  const a: ArrayVar = { kind: "arrayVar", id: ctx.nextId++, name: m.name, type: m.type, span: m.span };
  ctx.constArrays.set(m.name, a);
  ctx.prelude.push({ kind: "localArray", array: a, init: m.values, span: m.span });
  return a;
}

export function dimsOf(a: ArrayVar): readonly (number | undefined)[] {
  return memoryDims(a.type);
}

/** Checks index expressions against an array's dimensions: integers, in bounds where both are constant. */
export function checkIndices(ctx: FnCtx, array: ArrayVar, indices: readonly ast.Expr[], whole: ast.Expr): ScalarExpr[] | undefined {
  const dims = dimsOf(array);
  if (indices.length !== dims.length) {
    const shape = dims.length === 1 ? `${array.name}[i]` : `${array.name}${dims.map((_, k) => `[${"ijk"[k] ?? "i"}]`).join("")}`;
    ctx.log.error(
      "GK3008",
      whole.span,
      `'${array.name}' (${tyName(array.type)}) has ${dims.length} dimension${dims.length === 1 ? "" : "s"} but is indexed with ${indices.length}: write ${shape}`,
    );
    return undefined;
  }
  const out: ScalarExpr[] = [];
  let ok = true;
  indices.forEach((ix, k) => {
    const v = checkValue(ctx, ix, T.i32);
    if (!v) {
      ok = false;
      return;
    }
    if (v.type.kind !== "scalar" || !isInt(v.type)) {
      ctx.log.error("GK3009", ix.span, `an index must be an integer, but '${textOf(ctx, ix.span)}' is ${typeToString(v.type)}: write i32(${textOf(ctx, ix.span)})`);
      ok = false;
      return;
    }
    const size = dims[k];
    const u = untypedOf(ctx, ix);
    if (size !== undefined && knownDim(size) && u?.kind === "int" && (u.value < 0n || u.value >= BigInt(size))) {
      ctx.log.error("GK3008", ix.span, `index ${u.value} is out of bounds for '${array.name}', whose dimension ${k + 1} has size ${size}`);
      ok = false;
      return;
    }
    out.push(v as ScalarExpr);
  });
  return ok ? out : undefined;
}

/** Why code cannot write an element of this readonly array, and what to do. */
export function readonlyWrite(a: ArrayVar): string {
  const t = a.type;
  if (t.kind === "array" && t.space === "constant") return `'${a.name}' is constant memory (${tyName(t)}); kernels read it, and each launch gives its contents`;
  if (t.kind === "array") return `'${a.name}' is a module-level constant array; it cannot be written: copy it into a local array (let a: ${tyName(t)} = ...) to change it`;
  return `'${a.name}' is readonly (${tyName(t)}); it cannot be written: drop 'readonly' from the parameter if the kernel must write it`;
}

/** `a[i]` / `t[i][j]` as an element: its array and checked indices. */
export function checkIndexChain(
  ctx: FnCtx,
  e: ast.IndexExpr,
  mode: "read" | "write",
): { array: ArrayVar; indices: ValueExpr[] } | undefined {
  const base = arrayBase(ctx, e);
  if (!base) return undefined;
  if (mode === "write" && base.readonly) {
    ctx.log.error("GK2007", e.span, readonlyWrite(base.array));
    return undefined;
  }
  const indices = checkIndices(ctx, base.array, base.indices, e);
  if (!indices) return undefined;
  return { array: base.array, indices };
}

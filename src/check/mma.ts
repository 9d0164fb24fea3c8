/**
 * The checker's rule for the tensor-core builtins (src/ir/mmaBuiltins.ts): `mma_...(a, b, c)`
 * takes A's and B's fragments and the accumulators, vectors of exactly the types one of the
 * builtin's signatures names (no conversion: a fragment is registers, not numbers); the
 * accumulators' type picks the signature (f32x4 or, for f16, u32x2 of f16 pairs), and the
 * result has it. A wrong type is GK3005, naming the operand and what it must hold.
 * `ldmatrix_...(arr, i)` is a load4 of a shared u32 array (with its checks, GK2046 ...), held
 * as the warp operation's operand.
 */
import type * as ast from "../parser/ast.js";
import type { WarpEntry } from "../ir/builtins.js";
import type { Expr } from "../ir/nodes.js";
import { sameType, typeToString, type ValueType } from "../ir/types.js";
import { textOf, type FnCtx } from "./context.js";
import { checkValue } from "./expr.js";
import { checkVectorLoad } from "./vectors.js";
import { ldmatrixCount } from "../ir/ldmatrixBuiltins.js";
import type { LdmatrixOp } from "../ir/nodes.js";
import { memorySpace, T, vectorType } from "../ir/types.js";

/** What each operand holds, in a message's words. */
const ROLE = ["A's fragment", "B's fragment", "the accumulators"] as const;

export function checkMma(ctx: FnCtx, e: ast.CallExpr, b: WarpEntry): Expr | undefined {
  const sigs = b.rule.mma!.signatures;
  const args = e.args.map((a) => checkValue(ctx, a));
  if (args.some((a) => !a)) return undefined;
  const [a, bf, c] = args as Expr[] as [Expr & { type: ValueType }, Expr & { type: ValueType }, Expr & { type: ValueType }];
  const sig = sigs.find((s) => sameType(c.type, s.c));
  const wants = (k: 0 | 1 | 2) => [...new Set(sigs.map((s) => typeToString([s.a, s.b, s.c][k]!)))].join(" or ");
  let ok = true;
  const refuse = (k: 0 | 1 | 2, got: ValueType, want: string) => {
    const p = b.rule.params[k]!;
    ctx.log.error("GK3005", e.args[k]!.span, `${b.name}()'s ${p} is ${ROLE[k]}, ${want}, but '${textOf(ctx, e.args[k]!.span)}' is ${typeToString(got)} (spec/language.md, Tensor cores)`);
    ok = false;
  };
  if (!sig) refuse(2, c.type, wants(2));
  const s = sig ?? sigs[0]!;
  if (!sameType(a.type, s.a)) refuse(0, a.type, typeToString(s.a));
  if (!sameType(bf.type, s.b)) refuse(1, bf.type, typeToString(s.b));
  return ok ? { kind: "warp", type: s.c, op: b.name, args: [a, bf, c], span: e.span } : undefined;
}

export function checkLdmatrix(ctx: FnCtx, e: ast.CallExpr, b: WarpEntry): Expr | undefined {
  const row = checkVectorLoad(ctx, e, 4);
  if (!row || row.kind !== "load") return undefined;
  const t = row.array.type;
  if (memorySpace(t) !== "shared" || t.elem.kind !== "scalar" || t.elem.name !== "u32") {
    const what = memorySpace(t) !== "shared" ? `${memorySpace(t)} memory` : `a shared array of ${typeToString(t.elem)}`;
    ctx.log.error("GK3005", e.args[0]!.span, `${b.name}() reads a shared array of u32 (words of two 16-bit elements), but '${row.array.name}' is ${what} (spec/language.md, Tensor cores)`);
    return undefined;
  }
  const n = ldmatrixCount(b.name as LdmatrixOp);
  return { kind: "warp", type: n === 1 ? T.u32 : vectorType(T.u32, n), op: b.name, args: [row], span: e.span };
}

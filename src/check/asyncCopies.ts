/**
 * The checker's rule for the asynchronous-copy builtins (src/ir/asyncCopyBuiltins.ts), all
 * statements: `cpAsync(dst, di, src, si, bytes[, valid])` and `cpAsyncL2(...)` copy from a
 * `global<T>` array to a fixed-size `shared` array of the same scalar T (the destination may
 * be partly indexed, `tile[r]`, as for load4); `bytes` is a constant 4, 8 or 16 (16 for
 * cpAsyncL2) that holds a whole number of elements, `valid` an i32. A view or a dynamic shared
 * array cannot promise the alignment a copy needs (GK2046, as for vector accesses).
 * `cpAsyncCommit()`, `cpAsyncWaitAll()` take nothing; `cpAsyncWait(n)` a constant n ≥ 0. A
 * constant of a generic definition's constant parameters (`STAGES - 2`) is checked in each instance.
 */
import type * as ast from "../parser/ast.js";
import type { AsyncCopyEntry } from "../ir/builtins.js";
import type { ArrayVar, Stmt } from "../ir/nodes.js";
import { ASYNC_COPY_BYTES } from "../ir/asyncCopyBuiltins.js";
import { foldExpr } from "../ir/passes/fold.js";
import { memorySpace, sizeOf, T, typeToString } from "../ir/types.js";
import { tyName, type FnCtx } from "./context.js";
import { checkAs, foldedConstant } from "./expr.js";
import { arrayBase, checkIndices, readonlyWrite } from "./memory.js";
import { unknownConstant, withConstInits } from "./typeExpr.js";

/** The builtin's arguments, in a message's words. */
const SHAPE: Readonly<Record<AsyncCopyEntry["rule"]["op"], string>> = {
  copy: "cpAsync(dst, di, src, si, bytes) or cpAsync(dst, di, src, si, bytes, valid)",
  copyL2: "cpAsyncL2(dst, di, src, si, 16) or cpAsyncL2(dst, di, src, si, 16, valid)",
  commit: "cpAsyncCommit()",
  wait: "cpAsyncWait(n)",
  waitAll: "cpAsyncWaitAll()",
};

export function checkAsyncCopyStatement(ctx: FnCtx, e: ast.CallExpr, b: AsyncCopyEntry, span: ast.Stmt["span"]): Stmt[] {
  const op = b.rule.op;
  const counts = op === "copy" || op === "copyL2" ? [5, 6] : op === "wait" ? [1] : [0];
  if (!counts.includes(e.args.length)) {
    ctx.log.error("GK3004", e.span, `${b.name}() takes ${counts.join(" or ")} argument${counts[0] === 1 ? "" : "s"} (${SHAPE[op]}), but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
    return [];
  }
  if (op === "commit" || op === "waitAll") return [{ kind: "asyncGroup", op, pending: 0, span }];
  if (op === "wait") {
    const n = constantInt(ctx, e.args[0]!, "the number of groups cpAsyncWait() leaves pending");
    // A count of constant parameters (cpAsyncWait(STAGES - 2) in a generic definition) is checked in each instance, where they are known.
    if (n === undefined || n === "unknown") return [];
    if (n < 0) {
      ctx.log.error("GK3006", e.args[0]!.span, `cpAsyncWait(n) waits until at most n groups are pending, so n is 0 or more, not ${n}`);
      return [];
    }
    return [{ kind: "asyncGroup", op, pending: n, span }];
  }
  return copy(ctx, e, b, span);
}

function copy(ctx: FnCtx, e: ast.CallExpr, b: AsyncCopyEntry, span: ast.Stmt["span"]): Stmt[] {
  const [dstArg, di, srcArg, si, bytesArg, validArg] = e.args as [ast.Expr, ast.Expr, ast.Expr, ast.Expr, ast.Expr, ast.Expr | undefined];
  const dst = arrayBase(ctx, dstArg);
  const src = arrayBase(ctx, srcArg);
  const bytes = constantInt(ctx, bytesArg, `the bytes ${b.name}() copies`);
  if (!dst || !src || bytes === undefined || bytes === "unknown") return [];
  if (!memoryIs(ctx, b, dst.array, dstArg, "shared") || !memoryIs(ctx, b, src.array, srcArg, "global")) return [];
  if (dst.readonly) {
    ctx.log.error("GK2007", dstArg.span, `${b.name}() writes to '${dst.array.name}': ${readonlyWrite(dst.array)}`);
    return [];
  }
  const elem = dst.array.type.elem;
  if (elem.kind !== "scalar" || src.array.type.elem !== elem) {
    ctx.log.error("GK3005", srcArg.span, `${b.name}() copies between arrays of one scalar type, but '${dst.array.name}' holds ${typeToString(elem)} and '${src.array.name}' holds ${typeToString(src.array.type.elem)}`);
    return [];
  }
  const sizes = b.rule.op === "copyL2" ? [16] : ASYNC_COPY_BYTES;
  if (!sizes.includes(bytes) || bytes % sizeOf(elem) !== 0) {
    const why = !sizes.includes(bytes) ? `copies ${sizes.length > 1 ? `${sizes.slice(0, -1).join(", ")} or ${sizes[sizes.length - 1]}` : sizes[0]} bytes` : `copies whole elements, and ${elem.name} has ${sizeOf(elem)} bytes`;
    ctx.log.error("GK3005", bytesArg.span, `${b.name}() ${why}, not ${bytes}${b.rule.op === "copyL2" ? " (cpAsync copies 4 or 8 bytes through L1)" : ""}`);
    return [];
  }
  const dstIndices = checkIndices(ctx, dst.array, [...dst.indices, di], e);
  const srcIndices = checkIndices(ctx, src.array, [...src.indices, si], e);
  const valid = validArg ? checkAs(ctx, validArg, T.i32, `the elements ${b.name}() reads (valid)`) : null;
  if (!dstIndices || !srcIndices || valid === undefined) return [];
  return [{ kind: "asyncCopy", bytes: bytes as 4 | 8 | 16, cache: b.rule.op === "copy" ? "all" : "global", dst: dst.array, dstIndices, src: src.array, srcIndices, valid, span }];
}

/** Whether `a` is a fixed-size shared array (`shared`) or a global array (`global`); GK2046 or GK3005 otherwise. */
function memoryIs(ctx: FnCtx, b: AsyncCopyEntry, a: ArrayVar, at: ast.Expr, want: "shared" | "global"): boolean {
  const t = a.type;
  const role = want === "shared" ? "to a shared array" : "from a global array";
  if (t.kind === "view" || t.kind === "dynamicShared") {
    const what = t.kind === "view" ? "a view (its elements may be strided)" : "a dynamic shared array (placed in the dynamic region after others)";
    ctx.log.error("GK2046", at.span, `${b.name}() copies ${role} in aligned pieces, which gk cannot promise for '${a.name}', ${what}`);
    return false;
  }
  const ok = want === "global" ? t.kind === "global" : t.kind === "array" && memorySpace(t) === "shared";
  if (!ok) ctx.log.error("GK3005", at.span, `${b.name}() copies from a global array to a shared array, but '${a.name}' is ${memorySpace(t) === "local" ? "a local array, " : ""}${tyName(t)}`);
  return ok;
}

/**
 * An i32 constant argument (const locals of constants folded in), "unknown" for one of the
 * constant parameters of a generic definition being checked, or undefined after its error.
 */
function constantInt(ctx: FnCtx, e: ast.Expr, what: string): number | "unknown" | undefined {
  const read = checkAs(ctx, e, T.i32, what);
  if (!read) return undefined;
  const v = withConstInits(ctx, read);
  if (foldExpr(v, ctx.module.flushToZero).kind !== "const" && unknownConstant(ctx, v)) return "unknown";
  const c = foldedConstant(ctx, v, e, what);
  return c ? Number(c.value) : undefined;
}

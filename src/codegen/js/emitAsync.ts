/**
 * Asynchronous copies on the simulator (src/ir/asyncCopyBuiltins.ts): the code generator's
 * half of src/runtime/sim/asyncCopies.ts, whose tracker the code calls as `$async`.
 *
 * Only a kernel that starts or waits for copies (KernelAnalysis.asyncCopies) has any of this:
 *   - each of its shared arrays of scalars has the states of its elements, `name$p` (0: an
 *     ordinary element; else the id of a copy into it), from `$async.shared(...)` once per
 *     launch; a device function finds its array parameters' and views' states with `$async.of`;
 *   - every access of such memory first tests the element's state, and only a nonzero one calls
 *     `$async.hit`, which reports an access the copy's visibility rule forbids; every write of
 *     global memory tests whether any copy is reading (`$async.reading`), and only then calls
 *     `$async.sourceWrite`, which reports a write of a pending copy's source;
 *   - a copy evaluates its indices (dst's, then src's, then `valid`), checks them (bounds and
 *     alignment as for a vector access, GK8001 and GK8030; `valid` in 0..lanes, GK8053) and
 *     calls `$async.copy`; commits, waits and fences call the tracker.
 */
import type { ArrayVar, AsyncCopyStmt, AsyncGroupStmt } from "../../ir/nodes.js";
import { sizeOf } from "../../ir/types.js";
import { asyncCopyBuiltin, asyncCopyEntry, asyncGroupBuiltin } from "../../ir/asyncCopyBuiltins.js";
import { arrayName, isTrivial, newTemp, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import { flagsOf, indexing } from "./emitMemory.js";

/** Where the states of `array`'s elements are, when its accesses must check them; `maybe`: the name may hold undefined (a view of other memory). */
export interface AsyncStates {
  readonly p: string;
  readonly maybe: boolean;
}

export function asyncStates(ctx: FnCtx, array: ArrayVar): AsyncStates | undefined {
  if (!ctx.analysis.asyncCopies) return undefined;
  const t = array.type;
  const p = `${arrayName(ctx, array)}$p`;
  if (t.kind === "view") return { p, maybe: true };
  if (t.kind === "array" && t.space === "shared" && t.elem.kind === "scalar") return { p, maybe: ctx.fn.kind !== "kernel" };
  return undefined;
}

/** An expression (its value unused) that reports an access of `n` elements from `offset` (a name or literal) the copies forbid. */
export function asyncCheck(s: AsyncStates, offset: string, n: number, site: number, write: boolean): string {
  const call = `$async.hit(${s.p}, ${offset}, ${n}, ${site}, ${write})`;
  const test = n === 1 ? `${s.p}[${offset}] === 0 || ${call}` : call;
  return s.maybe ? `(${s.p} === undefined || ${test})` : `(${test})`;
}

/**
 * For a write of `n` elements from `offset` of global memory (or a view's) in a kernel with
 * copies: an expression that reports the write when a pending copy reads one of them (its
 * source); undefined where no copy can read the array.
 */
export function asyncSourceWrite(ctx: FnCtx, array: ArrayVar, offset: string, n: number, site: number): string | undefined {
  if (!ctx.analysis.asyncCopies || array.type.elem.kind !== "scalar") return undefined;
  const t = array.type;
  if (t.kind !== "global" && t.kind !== "view") return undefined;
  return `($async.reading === 0 || $async.sourceWrite(${arrayName(ctx, array)}, ${offset}, ${n}, ${site}))`;
}

/** The declarations a kernel's launch makes once: the states of each shared array of scalars. */
export function asyncSharedStates(ctx: FnCtx, pad: string): string[] {
  if (!ctx.analysis.asyncCopies) return [];
  return ctx.fn.shared.flatMap((s) => {
    const t = s.type;
    if (t.kind !== "array" || t.elem.kind !== "scalar") return [];
    const n = arrayName(ctx, s);
    return [`${pad}const ${n}$p = $async.shared(${n}, ${JSON.stringify(s.name)}, ${JSON.stringify(t.dims)});`];
  });
}

/** A device function's lookups of its array parameters' states. */
export function asyncParamStates(ctx: FnCtx, pad: string): string[] {
  return ctx.fn.params.flatMap((p) => (p.kind === "arrayVar" && asyncStates(ctx, p) ? [`${pad}const ${arrayName(ctx, p)}$p = $async.of(${arrayName(ctx, p)});`] : []));
}

export function emitAsyncCopy(ctx: FnCtx, s: AsyncCopyStmt): string {
  const lanes = s.bytes / sizeOf(s.dst.type.elem);
  const dstSite = ctx.sites.add({ kind: "access", access: "write", array: s.dst, fn: ctx.fn.name, span: s.span });
  const srcSite = ctx.sites.add({ kind: "access", access: "read", array: s.src, fn: ctx.fn.name, span: s.span });
  const d = indexing(ctx, s.dst, s.dstIndices, lanes);
  const src = indexing(ctx, s.src, s.srcIndices, 1);
  const binds = [...d.binds, ...src.binds];
  const bind = (code: string) => {
    if (isTrivial(code)) return code;
    const t = newTemp(ctx);
    binds.push(`${t} = ${code}`);
    return t;
  };
  const o = bind(d.offset);
  const so = bind(src.offset);
  const v = s.valid ? bind(emitExpr(ctx, s.valid)) : String(lanes);
  const states = asyncStates(ctx, s.dst)!;
  const srcName = arrayName(ctx, s.src);
  const flags = flagsOf(ctx, s.dst);
  const checks = [
    `(${d.inBounds}) || ${d.fault(dstSite)};`,
    `${o} % ${lanes} === 0 || $sim.misaligned(${dstSite}, ${d.report}, ${lanes});`,
    ...(s.valid ? [`${v} >>> 0 <= ${lanes} || $sim.copyCount(${srcSite}, ${v}, ${lanes});`] : []),
    `${s.valid ? `${v} === 0 || ` : ""}(${src.inBounds} && ${so} + ${v} <= ${srcName}$n) || ${src.fault(srcSite)};`,
    `${so} % ${lanes} === 0 || $sim.misaligned(${srcSite}, ${src.report}, ${lanes});`,
  ];
  const call = `$async.${asyncCopyEntry(asyncCopyBuiltin(s.cache)).js}(${arrayName(ctx, s.dst)}, ${states.p}, ${o}, ${lanes}, ${srcName}, ${so}, ${v}, ${dstSite}, ${flags ? flags.flags : "undefined"});`;
  return `{ ${[...binds.map((b) => `${b};`), ...checks, call].join(" ")} }`;
}

export function emitAsyncGroup(s: AsyncGroupStmt): string {
  return `$async.${asyncCopyEntry(asyncGroupBuiltin(s.op)).js}(${s.op === "wait" ? s.pending : ""});`;
}

/**
 * A kernel's annotation (spec/language.md, Launch bounds), written before `device_kernel`:
 * `@launchBounds(maxThreads)` or `@launchBounds(maxThreads, minBlocks)` (CUDA
 * `__launch_bounds__`: no launch's block has more than maxThreads threads, and ptxas keeps
 * registers low enough for minBlocks blocks per multiprocessor), or `@maxRegisters(n)` (CUDA
 * `__maxnreg__`: at most n registers per thread). The arguments are integer constants, or
 * constant parameters of a generic kernel, checked in each instance. Anything else is GK4013.
 */
import type * as ast from "../parser/ast.js";
import type { LaunchBounds } from "../ir/nodes.js";
import { textOf, type FnCtx } from "./context.js";
import { constIntegerOrUnknown } from "./typeExpr.js";

/** The most blocks a multiprocessor holds at once (sm_80 and sm_90: 32), the bound of `minBlocks`. */
export const MAX_BLOCKS_PER_SM = 32;
/** The registers a thread may be given (`@maxRegisters`): ptxas takes 16 to 255. */
export const REGISTER_RANGE = [16, 255] as const;

export interface KernelAnnotation {
  readonly launchBounds?: LaunchBounds;
  readonly maxRegisters?: number;
}

const USAGE = "a kernel may be annotated with @launchBounds(maxThreads), @launchBounds(maxThreads, minBlocks) or @maxRegisters(n)";

/** The annotation's meaning; `{}` for none or one still unknown (in a generic definition) or wrong (reported). */
export function checkKernelAnnotation(ctx: FnCtx, a: ast.Annotation | undefined, params: readonly ast.Param[]): KernelAnnotation {
  if (!a) return {};
  const name = a.name.name;
  const args = a.args ?? [];
  if (name !== "launchBounds" && name !== "maxRegisters") {
    const why = name === "flushToZero" ? "@flushToZero is an option of the whole module: write '@flushToZero;' at the top level of the entry file" : name === "unroll" ? "@unroll annotates the loop after it, inside a function" : `unknown annotation '@${name}'`;
    ctx.log.error("GK4013", a.span, `${why}; ${USAGE}`);
    return {};
  }
  const counts = name === "launchBounds" ? [1, 2] : [1];
  if (!counts.includes(args.length)) {
    ctx.log.error("GK4013", a.span, `@${name} takes ${name === "launchBounds" ? "1 or 2 arguments (maxThreads, minBlocks)" : "1 argument, the register count"}, but ${args.length} ${args.length === 1 ? "was" : "were"} given`);
    return {};
  }
  const value = (e: ast.Expr, what: string, lo: number, hi: number): number | "unknown" | undefined => {
    const param = e.kind === "Name" ? params.find((p) => p.name.name === e.name) : undefined;
    if (param) {
      ctx.log.error("GK4013", e.span, `${what} must be a constant, but '${param.name.name}' is a parameter of the kernel, known only when it is launched`);
      return undefined;
    }
    const n = constIntegerOrUnknown(ctx, e, what);
    if (n === undefined || n === "unknown") return n;
    if (n < BigInt(lo) || n > BigInt(hi)) {
      ctx.log.error("GK4013", e.span, `${what} must be from ${lo} to ${hi}, but '${textOf(ctx, e.span)}' is ${n}`);
      return undefined;
    }
    return Number(n);
  };
  if (name === "maxRegisters") {
    const n = value(args[0]!, "the register count of @maxRegisters", REGISTER_RANGE[0], REGISTER_RANGE[1]);
    return typeof n === "number" ? { maxRegisters: n } : {};
  }
  const maxThreads = value(args[0]!, "the most threads of a block (@launchBounds)", 1, ctx.module.target.limits.blockThreads);
  const minBlocks = args[1] ? value(args[1], "the blocks per multiprocessor (@launchBounds)", 1, MAX_BLOCKS_PER_SM) : undefined;
  if (typeof maxThreads !== "number" || (args[1] && typeof minBlocks !== "number")) return {};
  return { launchBounds: { maxThreads, ...(typeof minBlocks === "number" && { minBlocks }) } };
}

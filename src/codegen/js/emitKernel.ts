/**
 * One kernel (and the device functions it reaches) as the source of one JavaScript
 * function, run by `new Function("$", "$sim", source)`: `$` is evalOp's runtime, `$sim` the
 * fault handlers. The source returns `$launch(args, gdx, gdy, gdz, bdx, bdy, bdz, budget)`.
 *
 * Fast path (no barrier and no warp operation anywhere): `$launch` loops over blocks and
 * threads with the kernel body inlined in the innermost loop, and returns the number of
 * steps taken (counted in a local, `$s`; see context.ts).
 *
 *   for (bz) for (by) for (bx) { reset shared; for (tz) for (ty) $T: for (tx) { body } }
 *
 * Barrier path, by default: the kernel cut at its barriers into regions, each a loop over the
 * block's threads (regions/launch.ts); `$launch` runs the blocks and returns the steps taken.
 *
 * Barrier path on generators (what the regions do not cover, kernels with warp operations,
 * or when asked for): `$launch` returns a block runner, `{ begin(bx, by, bz), thread(tx, ty,
 * tz), steps() }`, where `thread` is a generator that yields at each barrier and each warp
 * operation; the scheduler (src/runtime/sim/scheduler.ts) drives the threads of each block.
 *
 * Race mode (GenOptions.checkRaces) runs every kernel on generators, so that the scheduler
 * tells the detector (`$race`, a third parameter of the source) which thread runs; so does a
 * kernel with asynchronous copies, for their tracker (`$async`, the fourth; emitAsync.ts).
 *
 * State per launch lives in variables of the generated closure; the code is compiled once
 * per kernel, so V8 optimizes it once and keeps it.
 */
import type { ArrayVar, Function, Module } from "../../ir/nodes.js";
import { analyzeKernel, type KernelAnalysis } from "./analysis.js";
import { arrayName, baseArrayName, fnName, newFnCtx, varName, type FnCtx, type FnMode, type GenOptions } from "./context.js";
import { emitStmts } from "./emitStmt.js";
import { AXES, derivedIndices, kernelParams, LAUNCH_PARAMS, resetShared, temps, v } from "./launchParts.js";
import { regionLaunch } from "./regions/launch.js";
import { asyncParamStates } from "./emitAsync.js";
import { lowerKernel } from "./regions/lower.js";
import { SiteTable } from "./sites.js";

/**
 * How a kernel with barriers runs: as regions (regions/, the default), or one generator per
 * thread (src/runtime/sim/scheduler.ts). A kernel with warp operations always runs on generators.
 */
export type BarrierPath = "regions" | "generators";

export interface GeneratedKernel {
  readonly source: string;
  readonly sites: SiteTable;
  readonly analysis: KernelAnalysis;
  /** True when the kernel reaches a barrier: it runs on the barrier path. */
  readonly usesBarriers: boolean;
  /** True when the kernel reaches a warp operation: it runs on generators. */
  readonly usesWarpOps: boolean;
  /** How the barrier path runs it; null on the fast path. */
  readonly barrierPath: BarrierPath | null;
  /** On the region path, the identity of each barrier point (`"c4.b12"`), by number. */
  readonly barrierPoints: readonly string[];
}

/**
 * `barrierPath` is what a kernel with barriers asks for; one the region path does not cover
 * (regions/lower.ts), or that reaches a warp operation, runs on generators.
 */
export function generateKernel(m: Module, kernelName: string, opts: GenOptions, barrierPath: BarrierPath = "regions"): GeneratedKernel {
  const analysis = analyzeKernel(m, kernelName);
  const k = analysis.kernel;
  const usesBarriers = analysis.barrierFns.has(kernelName);
  const usesWarpOps = analysis.warpFns.has(kernelName);
  if (usesBarriers && !usesWarpOps && !analysis.asyncCopies && barrierPath === "regions" && !opts.checkRaces) {
    const sites = new SiteTable();
    const tree = lowerKernel(m, analysis, sites);
    if (tree) {
      // Device functions that reach a barrier are inlined into the regions; the others are called.
      const fns = analysis.deviceFns.filter((f) => !analysis.barrierFns.has(f.name));
      const parts = [...prelude(fns, analysis, sites, opts), ...regionLaunch(k, tree, analysis, sites, opts), "return $launch;"];
      return { source: parts.join("\n") + "\n", sites, analysis, usesBarriers, usesWarpOps, barrierPath: "regions", barrierPoints: tree.points };
    }
  }
  const sites = new SiteTable();
  const parts = prelude(analysis.deviceFns, analysis, sites, opts);
  const suspends = usesBarriers || usesWarpOps || analysis.asyncCopies || opts.checkRaces === true;
  const ctx = newFnCtx(k, suspends ? "generator" : "fastKernel", analysis, sites, opts);
  parts.push(...(suspends ? barrierLaunch(ctx) : fastLaunch(ctx)), "return $launch;");
  return { source: parts.join("\n") + "\n", sites, analysis, usesBarriers, usesWarpOps, barrierPath: suspends ? "generators" : null, barrierPoints: [] };
}

function prelude(fns: readonly Function[], analysis: KernelAnalysis, sites: SiteTable, opts: GenOptions): string[] {
  const parts = ['"use strict";', "let $steps = 0;", "let $budget = 0;"];
  // The constant arrays the kernel reads, which every function reads; each launch sets them.
  if (analysis.constants.length) parts.push(`let ${analysis.constants.map(baseArrayName).join(", ")};`);
  parts.push("");
  for (const f of fns) parts.push(...deviceFn(f, analysis, sites, opts), "");
  return parts;
}

function deviceFn(f: Function, analysis: KernelAnalysis, sites: SiteTable, opts: GenOptions): string[] {
  const mode: FnMode = analysis.suspendFns.has(f.name) ? "generator" : "plain";
  const ctx = newFnCtx(f, mode, analysis, sites, opts);
  const params = f.params.flatMap((p) => {
    if (p.kind === "valueVar") return p.ref ? [varName(p), `${varName(p)}$o`] : [varName(p)];
    const n = arrayName(ctx, p);
    // emitCall.ts: how each kind of argument arrives.
    return p.type.kind === "array" ? [n] : p.type.kind === "view" ? [n, `${n}$o`, `${n}$n`, `${n}$s`, `${n}$v`] : [n, `${n}$n`];
  });
  params.push(...(analysis.specials.get(f.name) ?? []));
  if (mode === "generator") params.push("$path");
  // A shared array parameter brings its written flags along as a property (launchParts.ts).
  const written = opts.checkUninitializedShared ? f.params.filter((p): p is ArrayVar => p.type.kind === "array").map((p) => `  const ${arrayName(ctx, p)}$w = ${arrayName(ctx, p)}.$w;`) : [];
  // In race mode, the shadows of the memory the array parameters reach (races.ts).
  const shadows = opts.checkRaces ? f.params.filter((p): p is ArrayVar => p.kind === "arrayVar").map((p) => `  const ${arrayName(ctx, p)}$r = $race.of(${arrayName(ctx, p)});`) : [];
  // With asynchronous copies, the states of the shared memory the array parameters reach (emitAsync.ts).
  shadows.push(...asyncParamStates(ctx, "  "));
  const body = emitStmts(ctx, f.body, "  ");
  return [
    ...ctx.hoisted,
    `function${mode === "generator" ? "*" : ""} ${fnName(f.name, analysis)}(${params.join(", ")}) {`,
    ...written,
    ...shadows,
    ...temps(ctx, "  "),
    ...body,
    "}",
  ];
}

function fastLaunch(ctx: FnCtx): string[] {
  const { outer, perThread } = kernelParams(ctx, "  ");
  const body = emitStmts(ctx, ctx.fn.body, "        ");
  const [tx, ty, tz] = AXES.map((a) => v("threadIdx", a));
  const [bx, by, bz] = AXES.map((a) => v("blockIdx", a));
  const [gdx, gdy, gdz] = AXES.map((a) => v("gridDim", a));
  const [bdx, bdy, bdz] = AXES.map((a) => v("blockDim", a));
  return [
    `function $launch(${LAUNCH_PARAMS.join(", ")}) {`,
    ...outer,
    ...ctx.hoisted.map((h) => `  ${h}`),
    ...temps(ctx, "  "),
    "  let $s = 0;",
    `  let ${bx} = 0, ${by} = 0, ${bz} = 0, ${tx} = 0, ${ty} = 0, ${tz} = 0;`,
    "  try {",
    `    for (${bz} = 0; ${bz} < ${gdz}; ${bz}++) for (${by} = 0; ${by} < ${gdy}; ${by}++) for (${bx} = 0; ${bx} < ${gdx}; ${bx}++) {`,
    ...resetShared(ctx).map((l) => `      ${l}`),
    `      for (${tz} = 0; ${tz} < ${bdz}; ${tz}++) for (${ty} = 0; ${ty} < ${bdy}; ${ty}++) $T: for (${tx} = 0; ${tx} < ${bdx}; ${tx}++) {`,
    ...[...perThread, ...derivedIndices(ctx)].map((l) => `        ${l}`),
    ...body,
    "      }",
    "      $sim.block();",
    "    }",
    "  } catch ($e) {",
    `    throw $sim.located($e, ${tx}, ${ty}, ${tz}, ${bx}, ${by}, ${bz});`,
    "  }",
    "  return $s;",
    "}",
  ];
}

function barrierLaunch(ctx: FnCtx): string[] {
  const { outer, perThread } = kernelParams(ctx, "  ");
  const body = emitStmts(ctx, ctx.fn.body, "    ");
  const [tx, ty, tz] = AXES.map((a) => v("threadIdx", a));
  const [bx, by, bz] = AXES.map((a) => v("blockIdx", a));
  return [
    `function $launch(${LAUNCH_PARAMS.join(", ")}) {`,
    ...outer,
    `  let ${bx} = 0, ${by} = 0, ${bz} = 0;`,
    `  function* $thread(${tx}, ${ty}, ${tz}) {`,
    ...temps(ctx, "    "),
    ...[...perThread, ...derivedIndices(ctx)].map((l) => `    ${l}`),
    ...body,
    "  }",
    "  return {",
    `    begin(x, y, z) { ${[`${bx} = x;`, `${by} = y;`, `${bz} = z;`, ...resetShared(ctx)].join(" ")} },`,
    "    thread: $thread,",
    "    steps: () => $steps,",
    "  };",
    "}",
  ];
}

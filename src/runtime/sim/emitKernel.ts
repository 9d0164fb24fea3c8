/**
 * One kernel (and the device functions it reaches) as the source of one JavaScript
 * function, run by `new Function("$", "$sim", source)`: `$` is evalOp's runtime, `$sim` the
 * fault handlers. The source returns `$launch(args, gdx, gdy, gdz, bdx, bdy, bdz, budget)`.
 *
 * Fast path (no barrier anywhere): `$launch` loops over blocks and threads with the kernel
 * body inlined in the innermost loop, and returns the number of steps taken (counted in a
 * local, `$s`; see context.ts).
 *
 *   for (bz) for (by) for (bx) { reset shared; for (tz) for (ty) $T: for (tx) { body } }
 *
 * Barrier path: `$launch` returns a block runner, `{ begin(bx, by, bz), thread(tx, ty, tz),
 * steps() }`, where `thread` is a generator that yields at each barrier; the scheduler
 * (scheduler.ts) drives the threads of each block.
 *
 * State per launch lives in variables of the generated closure; the code is compiled once
 * per kernel, so V8 optimizes it once and keeps it.
 */
import { indexBuiltin } from "../../ir/builtins.js";
import type { Axis, Function, Module, SpecialName } from "../../ir/nodes.js";
import { analyzeKernel, walk, type KernelAnalysis } from "./analysis.js";
import { arrayName, fnName, newFnCtx, varName, zeroOf, type FnCtx, type FnMode, type GenOptions } from "./context.js";
import { emitStmts } from "./emitStmt.js";
import { typedArrayOf } from "./emitMemory.js";
import { SiteTable } from "./sites.js";

export interface GeneratedKernel {
  readonly source: string;
  readonly sites: SiteTable;
  readonly analysis: KernelAnalysis;
  /** True when the kernel reaches a barrier: it runs on the barrier path. */
  readonly usesBarriers: boolean;
}

const AXES: readonly Axis[] = [0, 1, 2];
const v = (name: SpecialName, axis: Axis) => indexBuiltin(name).js(axis);

export function generateKernel(m: Module, kernelName: string, opts: GenOptions): GeneratedKernel {
  const analysis = analyzeKernel(m, kernelName);
  const sites = new SiteTable();
  const usesBarriers = analysis.barrierFns.has(kernelName);
  const parts = ['"use strict";', "let $steps = 0;", "let $budget = 0;", ""];
  for (const f of analysis.deviceFns) parts.push(...deviceFn(f, analysis, sites, opts), "");
  const k = analysis.kernel;
  const ctx = newFnCtx(k, usesBarriers ? "generator" : "fastKernel", analysis, sites, opts);
  parts.push(...(usesBarriers ? barrierLaunch(ctx) : fastLaunch(ctx)), "return $launch;");
  return { source: parts.join("\n") + "\n", sites, analysis, usesBarriers };
}

function deviceFn(f: Function, analysis: KernelAnalysis, sites: SiteTable, opts: GenOptions): string[] {
  const mode: FnMode = analysis.barrierFns.has(f.name) ? "generator" : "plain";
  const ctx = newFnCtx(f, mode, analysis, sites, opts);
  const params = f.params.flatMap((p) => (p.kind === "scalarVar" ? [varName(p)] : [arrayName(ctx, p), `${arrayName(ctx, p)}$n`]));
  params.push(...(analysis.specials.get(f.name) ?? []));
  if (mode === "generator") params.push("$path");
  const body = emitStmts(ctx, f.body, "  ");
  return [
    ...ctx.hoisted,
    `function${mode === "generator" ? "*" : ""} ${fnName(f.name, analysis)}(${params.join(", ")}) {`,
    ...temps(ctx, "  "),
    ...body,
    "}",
  ];
}

function temps(ctx: FnCtx, pad: string): string[] {
  return ctx.temps.length ? [`${pad}let ${ctx.temps.join(", ")};`] : [];
}

const LAUNCH_PARAMS = ["$args", ...AXES.map((a) => v("gridDim", a)), ...AXES.map((a) => v("blockDim", a)), "$stepBudget"];

/** Kernel parameters taken from `$args`; a parameter the kernel assigns is copied per thread (`perThread`). */
function kernelParams(ctx: FnCtx, pad: string): { outer: string[]; perThread: string[] } {
  const outer: string[] = [`${pad}$steps = 0;`, `${pad}$budget = $stepBudget;`];
  const perThread: string[] = [];
  const assigned = new Set<number>();
  walk(ctx.fn.body, (s) => (s.kind === "assign" ? assigned.add(s.var.id) : undefined), () => undefined);
  ctx.fn.params.forEach((p, i) => {
    if (p.kind === "arrayVar") {
      const n = arrayName(ctx, p);
      outer.push(`${pad}const ${n} = $args[${i}], ${n}$n = ${n}.length;`);
    } else if (assigned.has(p.id)) {
      outer.push(`${pad}const ${varName(p)}$in = $args[${i}];`);
      perThread.push(`let ${varName(p)} = ${varName(p)}$in;`);
    } else {
      outer.push(`${pad}const ${varName(p)} = $args[${i}];`);
    }
  });
  for (const s of ctx.fn.shared) {
    const t = s.type;
    if (t.kind !== "array") continue;
    const size = t.dims.reduce((a, b) => a * b, 1);
    const n = arrayName(ctx, s);
    outer.push(`${pad}const ${n} = new ${typedArrayOf(t.elem)}(${size});`);
    if (ctx.opts.checkUninitializedShared) outer.push(`${pad}const ${n}$w = new Uint8Array(${size});`);
  }
  return { outer, perThread };
}

/** Fresh shared memory for a block: zeros, and nothing written yet. */
function resetShared(ctx: FnCtx): string[] {
  return ctx.fn.shared.flatMap((s) => {
    const n = arrayName(ctx, s);
    const out = [`${n}.fill(${zeroOf(s.type.elem)});`];
    if (ctx.opts.checkUninitializedShared) out.push(`${n}$w.fill(0);`);
    return out;
  });
}

/** `globalId` on the axes the kernel reads it: blockIdx * blockDim + threadIdx, wrapping in i32. */
function globalIds(ctx: FnCtx): string[] {
  const used = new Set(ctx.analysis.specials.get(ctx.fn.name) ?? []);
  return AXES.filter((a) => used.has(v("globalId", a))).map(
    (a) => `const ${v("globalId", a)} = (Math.imul(${v("blockIdx", a)}, ${v("blockDim", a)}) + ${v("threadIdx", a)}) | 0;`,
  );
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
    ...[...perThread, ...globalIds(ctx)].map((l) => `        ${l}`),
    ...body,
    "      }",
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
    ...[...perThread, ...globalIds(ctx)].map((l) => `    ${l}`),
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

/**
 * The barrier path without generators ("thread-loop fission", as MCUDA and POCL do it): the
 * kernel is cut at its barriers into regions, and each region runs as one loop over the
 * block's threads. Region 0 starts at the kernel's start, region k at barrier point k; each
 * thread runs until it stops at a barrier point or ends, which is the simulator's order (the
 * spec: threads one at a time, x fastest, each until it reaches a barrier or ends).
 *
 *   function $r3(<the launch's values>) {    // resumes every thread at barrier point 3
 *     for (tz) for (ty) for (tx) {
 *       let sum_4 = sum_4$p[$i];             // locals that live across barriers, per thread
 *       $R: { ... }                          // emit.ts: until a stop sets $at, or the end
 *       <each thread must stop where the first stopped: else GK8002>
 *     }
 *     <some ended while others wait: GK8002>
 *     return $bar;                           // where all stopped, or -1: all ended
 *   }
 *   $launch: for (bz) for (by) for (bx) { fresh shared memory; for (let $r = $r0(...); $r > 0; $r = $regions[$r](...)); }
 *
 * The checks after each thread are the generator scheduler's (src/runtime/sim/scheduler.ts), made in the same
 * order, so the same divergence is reported the same way. A local in scope at a barrier point
 * (scopes.ts) that a later region reads back lives in a TypedArray of its type with one element
 * per thread (`name$p`), a local array in a plain Array of per-thread arrays.
 *
 * Regions are functions of the generated module, compiled once per kernel; what a launch
 * gives them (arguments, shared memory, per-thread storage, the block's index) they take as
 * parameters, so that their loops read it from registers.
 */
import type { Function } from "../../../ir/nodes.js";
import { TYPED_ARRAY } from "../../../ir/values.js";
import { isHalf } from "../../../ir/types.js";
import type { KernelAnalysis } from "../analysis.js";
import { arrayName, newFnCtx, type FnCtx, type GenOptions } from "../context.js";
import { sentinelOf } from "../emitMemory.js";
import { AXES, assignedParams, derivedIndices, kernelParams, LAUNCH_PARAMS, resetShared, temps, v } from "../launchParts.js";
import type { SiteTable } from "../sites.js";
import { emitRegion, nameOf, placeStores, restoreLocal, type RegionCode } from "./emit.js";
import { scopesOf, type Local, type Scopes } from "./scopes.js";
import type { RegionTree } from "./tree.js";

export function regionLaunch(kernel: Function, tree: RegionTree, analysis: KernelAnalysis, sites: SiteTable, opts: GenOptions): string[] {
  const kctx = newFnCtx(kernel, "region", analysis, sites, opts);
  const assigned = assignedParams(kctx);
  const base: Local[] = kernel.params.flatMap((p) => (p.kind === "valueVar" && assigned.has(p.id) ? [p] : []));
  const scopes = scopesOf(tree.body, base);
  const perThread = new Set([...scopes.crossing.values()].filter((l) => l.kind === "arrayVar").map((l) => l.id));
  const hoisted: string[] = [];
  const labels = { next: 0 };
  const emit = (point: number, o: GenOptions): Emitted => {
    const ctx: FnCtx = { ...newFnCtx(kernel, "region", analysis, sites, o), hoisted, labels, perThread };
    return { ctx, point, code: emitRegion(ctx, tree.body, scopes, point, point === 0 ? base : [], "        ") };
  };
  const regions = tree.points.map((_, point) => emit(point, opts));
  const reads = readBack(tree.points.length, scopes, regions.map((r) => r.code));

  // What a launch passes every region: arguments and shared memory, per-thread storage of the
  // locals some region reads back, the inlined device_fns' array parameters, the launch's shape.
  const { outer, names } = kernelParams(kctx, "  ");
  const kept = new Set(reads.flatMap((r) => [...r]));
  const storage = [...scopes.crossing.values()].filter((l) => kept.has(l.id));
  // An inlined function's array parameter is the caller's array under another name: a global
  // one with its length, a shared one with its written flags (when they are kept).
  const aliases = tree.aliases.map(({ param, arg }) => {
    const [p, a] = [arrayName(kctx, param), arrayName(kctx, arg)];
    const companion = param.type.kind === "global" ? "$n" : opts.checkUninitializedShared ? "$w" : undefined;
    return { names: companion ? [p, `${p}${companion}`] : [p], line: `  const ${p} = ${a}${companion ? `, ${p}${companion} = ${a}${companion}` : ""};` };
  });
  const values = [
    ...names,
    ...storage.map((l) => `${nameOf(l)}$p`),
    ...aliases.flatMap((a) => a.names),
    ...AXES.map((a) => v("blockIdx", a)),
    ...LAUNCH_PARAMS.slice(1),
  ];
  const fn = (r: Emitted, name: string) => regionFunction(r, name, values, scopes, reads);
  const fns = regions.map((r) => fn(r, `$r${r.point}`));
  // Once no element of the block's shared memory holds the sentinel, every element has been
  // written (GK8013 cannot happen): regions that touch it run a second version, without the check.
  // Arrays of structs look at their written flags on every read (layout.ts): they are never all written.
  const written = opts.checkUninitializedShared
    ? kernel.shared.map((a) => {
        const e = a.type.elem;
        return e.kind === "struct" ? "false" : `!${arrayName(kctx, a)}.includes(${sentinelOf(e.kind === "vector" ? e.elem : e)})`;
      })
    : [];
  const unchecked = regions.map((r) => {
    if (!written.length || !r.code.lines.some((l) => l.includes("$w["))) return `$r${r.point}`;
    fns.push(fn(emit(r.point, { ...opts, checkUninitializedShared: false }), `$r${r.point}$u`));
    return `$r${r.point}$u`;
  });
  return [
    ...new Set(hoisted),
    ...fns.flatMap((f) => [...f, ""]),
    `const $regions = [${regions.map((r) => `$r${r.point}`).join(", ")}];`,
    ...(written.length ? [`const $written = [${unchecked.join(", ")}];`] : []),
    "",
    `function $launch(${LAUNCH_PARAMS.join(", ")}) {`,
    ...outer,
    `  const $n = ${AXES.map((a) => v("blockDim", a)).join(" * ")};`,
    ...storage.map((l) => `  const ${nameOf(l)}$p = ${storageOf(l)};`),
    ...aliases.map((a) => a.line),
    ...blocks(kctx, values, written),
    "  return $steps;",
    "}",
  ];
}

interface Emitted {
  readonly ctx: FnCtx;
  readonly point: number;
  readonly code: RegionCode;
}

/** The loop over blocks: fresh shared memory, then the regions, each picked by where the last one stopped all threads. */
function blocks(kctx: FnCtx, values: readonly string[], written: readonly string[]): string[] {
  const [bx, by, bz] = AXES.map((a) => v("blockIdx", a));
  const [gdx, gdy, gdz] = AXES.map((a) => v("gridDim", a));
  const call = `(${values.join(", ")})`;
  const run = written.length
    ? [
        `  const $region = (r, all) => (all ? $written : $regions)[r]${call};`,
        `  for (${bz} = 0; ${bz} < ${gdz}; ${bz}++) for (${by} = 0; ${by} < ${gdy}; ${by}++) for (${bx} = 0; ${bx} < ${gdx}; ${bx}++) {`,
        ...resetShared(kctx).map((l) => `    ${l}`),
        "    let $all = false;",
        `    for (let $r = $region(0, false); $r > 0; $r = $region($r, $all)) if (!$all) $all = ${written.join(" && ")};`,
        "    $sim.block();",
      ]
    : [
        `  const $region = (r) => $regions[r]${call};`,
        `  for (${bz} = 0; ${bz} < ${gdz}; ${bz}++) for (${by} = 0; ${by} < ${gdy}; ${by}++) for (${bx} = 0; ${bx} < ${gdx}; ${bx}++) {`,
        ...resetShared(kctx).map((l) => `    ${l}`),
        "    for (let $r = $region(0); $r > 0; $r = $region($r));",
        "    $sim.block();",
      ];
  return [`  let ${bx} = 0, ${by} = 0, ${bz} = 0;`, ...run, "  }"];
}

/**
 * Per barrier point, the locals that must be in per-thread storage when a region resumes
 * there: those it reads back, and those a region it may stop at needs and it does not write
 * (a fixpoint over the regions). A stop stores only these, of what its region wrote. Region 0
 * starts every thread afresh: it needs nothing from storage.
 */
function readBack(n: number, scopes: Scopes, codes: readonly RegionCode[]): Set<number>[] {
  const need = codes.map((c, k) => new Set((scopes.at.get(k) ?? []).filter((l) => c.uses.has(l.id) || c.defs.has(l.id)).map((l) => l.id)));
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = 0; k < n; k++) {
      for (const j of codes[k]!.stops) {
        for (const id of need[j]!) {
          if (codes[k]!.defs.has(id) || need[k]!.has(id) || k === 0) continue;
          need[k]!.add(id);
          changed = true;
        }
      }
    }
  }
  return need;
}

/**
 * Per-thread storage of a local: a TypedArray of a scalar's type (bool as 0/1 bytes; f16 and
 * bf16 in a Float32Array, which holds their values exactly), or an Array of values (vectors,
 * structs) or of a local array's per-thread arrays.
 */
function storageOf(l: Local): string {
  if (l.kind !== "valueVar" || l.type.kind !== "scalar") return "new Array($n)";
  return `new ${isHalf(l.type) ? "Float32Array" : TYPED_ARRAY[l.type.name].name}($n)`;
}

/**
 * `$r<point>` (or `$r<point>$u`, unchecked): runs every thread of the block from barrier point
 * `point` (0: the start); returns where all stopped, or -1. A stop stores what its region wrote
 * of what the region resuming there reads back (`reads`).
 */
function regionFunction({ ctx, point, code }: Emitted, name: string, params: readonly string[], scopes: Scopes, reads: readonly Set<number>[]): string[] {
  const stored = (k: number) => (scopes.at.get(k) ?? []).filter((l) => code.defs.has(l.id) && reads[k]!.has(l.id));
  const body = placeStores(code.lines, stored);
  // Region 0 starts each thread (kernelParams' per-thread copies); the others read back what they use.
  const live = scopes.at.get(point) ?? [];
  const start = point === 0 ? kernelParams(ctx, "").perThread : live.filter((l) => code.uses.has(l.id) || code.defs.has(l.id)).map(restoreLocal);
  const prologue = [...derivedIndices(ctx, (name) => body.some((l) => l.includes(name))), ...start];
  const [tx, ty, tz] = AXES.map((a) => v("threadIdx", a));
  const [bx, by, bz] = AXES.map((a) => v("blockIdx", a));
  const [bdx, bdy, bdz] = AXES.map((a) => v("blockDim", a));
  return [
    `function ${name}(${params.join(", ")}) {`,
    "  let $s = $steps, $i = 0, $at = -1, $bar = -1, $wait = -1, $end = -1;",
    `  let ${tx} = 0, ${ty} = 0, ${tz} = 0;`,
    ...temps(ctx, "  "),
    "  try {",
    `    for (${tz} = 0; ${tz} < ${bdz}; ${tz}++) for (${ty} = 0; ${ty} < ${bdy}; ${ty}++) for (${tx} = 0; ${tx} < ${bdx}; ${tx}++, $i++) {`,
    ...prologue.map((l) => `      ${l}`),
    "      $at = -1;",
    "      $R: {",
    ...body,
    "      }",
    // The common case first: this thread stopped where the first one did (or ended, like all before it).
    "      if ($at !== $bar) {",
    "        if ($bar < 0) { $bar = $at; $wait = $i; if ($i > 0) $end = 0; }",
    "        else if ($at < 0) { if ($end < 0) $end = $i; }",
    `        else $sim.differentBarriers(${bx}, ${by}, ${bz}, $wait, $bar, $i, $at);`,
    "      }",
    "    }",
    "  } catch ($e) {",
    `    throw $sim.located($e, ${tx}, ${ty}, ${tz}, ${bx}, ${by}, ${bz});`,
    "  }",
    "  $steps = $s;",
    `  if ($bar > 0 && $end >= 0) $sim.exitedAtBarrier(${bx}, ${by}, ${bz}, $end, $wait, $bar);`,
    "  return $bar;",
    "}",
  ];
}

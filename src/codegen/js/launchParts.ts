/**
 * Pieces of generated `$launch` functions that every path shares: the parameter list, the
 * kernel's arguments and shared memory taken into locals, fresh shared memory per block,
 * `globalId` and `laneId` per thread and the temporaries' declaration.
 */
import { indexBuiltin } from "../../ir/builtins.js";
import type { Axis, SpecialName } from "../../ir/nodes.js";
import { visit } from "../../ir/walk.js";
import { arrayName, varName, type FnCtx } from "./context.js";
import { sentinelOf, typedArrayOf } from "./emitMemory.js";
import { allocate, flagCount, globalLength, sentinelFill, zeroFill } from "./layout.js";
import { asyncSharedStates } from "./emitAsync.js";

export const AXES: readonly Axis[] = [0, 1, 2];
/** The JavaScript name of a thread-index variable: `$tx`, `$bdy`, `$gz`... */
export const v = (name: SpecialName, axis: Axis) => indexBuiltin(name).js(axis);

export const LAUNCH_PARAMS = ["$args", ...AXES.map((a) => v("gridDim", a)), ...AXES.map((a) => v("blockDim", a)), "$stepBudget"];

export function temps(ctx: FnCtx, pad: string): string[] {
  return ctx.temps.length ? [`${pad}let ${ctx.temps.join(", ")};`] : [];
}

/**
 * Kernel parameters taken from `$args`, then the constant arrays the kernel reads (into the
 * module's variables of them), then the lengths of its dynamic shared arrays; a parameter the
 * kernel assigns is copied per thread (`perThread`). `names`: what `outer` declares (the
 * region path passes them to its regions).
 */
export function kernelParams(ctx: FnCtx, pad: string): { outer: string[]; perThread: string[]; names: string[] } {
  const outer: string[] = [`${pad}$steps = 0;`, `${pad}$budget = $stepBudget;`];
  const perThread: string[] = [];
  const names: string[] = [];
  const assigned = assignedParams(ctx);
  ctx.fn.params.forEach((p, i) => {
    if (p.kind === "arrayVar") {
      const n = arrayName(ctx, p);
      outer.push(`${pad}const ${n} = $args[${i}], ${n}$n = ${globalLength(n, p.type.elem)};`);
      names.push(n, `${n}$n`);
      // A readonly array is written by no argument of the launch (aliasing.ts): it cannot race.
      if (ctx.opts.checkRaces) outer.push(`${pad}const ${n}$r = ${p.type.kind === "global" && p.type.readonly ? "undefined" : `$race.global(${n}, ${JSON.stringify(p.name)}, ${n}$n)`};`);
    } else if (assigned.has(p.id)) {
      outer.push(`${pad}const ${varName(p)}$in = $args[${i}];`);
      perThread.push(`let ${varName(p)} = ${varName(p)}$in;`);
      names.push(`${varName(p)}$in`);
    } else {
      outer.push(`${pad}const ${varName(p)} = $args[${i}];`);
      names.push(varName(p));
    }
  });
  const { constants, dynamicShared, passesMemory } = ctx.analysis;
  constants.forEach((c, k) => outer.push(`${pad}${arrayName(ctx, c)} = $args[${ctx.fn.params.length + k}];`));
  const lengthAt = ctx.fn.params.length + constants.length;
  for (const s of ctx.fn.shared) {
    const t = s.type;
    if (t.kind !== "array" && t.kind !== "dynamicShared") continue;
    const n = arrayName(ctx, s);
    let flags: string;
    if (t.kind === "array") {
      const size = t.dims.reduce((a, b) => a * b, 1);
      outer.push(`${pad}const ${n} = ${allocate(t.elem, size)};`);
      names.push(n);
      flags = String(flagCount(t.elem, size));
    } else {
      // A dynamic shared array holds scalars (GK2042).
      outer.push(`${pad}const ${n}$n = $args[${lengthAt + dynamicShared.indexOf(s)}], ${n} = new ${typedArrayOf(t.elem)}(${n}$n);`);
      names.push(n, `${n}$n`);
      flags = `${n}$n`;
    }
    if (ctx.opts.checkRaces) {
      const dims = t.kind === "array" ? JSON.stringify(t.dims) : "null";
      const length = t.kind === "array" ? String(t.dims.reduce((a, b) => a * b, 1)) : `${n}$n`;
      outer.push(`${pad}const ${n}$r = $race.shared(${n}, ${JSON.stringify(s.name)}, ${dims}, ${length});`);
    }
    if (ctx.opts.checkUninitializedShared) {
      outer.push(`${pad}const ${n}$w = new Uint8Array(${flags});`);
      names.push(`${n}$w`);
      // Device functions that take shared arrays, views or references find the written flags on the array.
      if (passesMemory) outer.push(`${pad}${n}.$w = ${n}$w;`);
    }
  }
  outer.push(...asyncSharedStates(ctx, pad));
  return { outer, perThread, names };
}

/** Ids of the kernel's scalar parameters that its body assigns (or passes by reference): each thread starts from the argument. */
export function assignedParams(ctx: FnCtx): Set<number> {
  const assigned = new Set<number>();
  visit(ctx.fn.body, {
    stmt: (s) => (s.kind === "assign" ? assigned.add(s.var.id) : undefined),
    expr: (e) => e.kind === "call" && e.args.forEach((a) => a.kind === "varRef" && assigned.add(a.var.id)),
  });
  return new Set(ctx.fn.params.filter((p) => p.kind === "valueVar" && assigned.has(p.id)).map((p) => p.id));
}

/** Fresh shared memory for a block: nothing written yet (the sentinel of emitMemory.ts when that is checked, else zeros). */
export function resetShared(ctx: FnCtx): string[] {
  return ctx.fn.shared.flatMap((s) => {
    const n = arrayName(ctx, s);
    if (!ctx.opts.checkUninitializedShared) return [zeroFill(n, s.type.elem)];
    return [sentinelFill(n, s.type.elem, sentinelOf), `${n}$w.fill(0);`];
  });
}

/**
 * The thread indices computed from others, where the kernel reads them: `globalId` on an axis
 * (blockIdx * blockDim + threadIdx, wrapping in i32) and `laneId` (the linear index in the
 * block, modulo 32); `needed` may leave out those a piece of the kernel does not read.
 */
export function derivedIndices(ctx: FnCtx, needed: (name: string) => boolean = () => true): string[] {
  const used = new Set(ctx.analysis.specials.get(ctx.fn.name) ?? []);
  const wanted = (name: string) => used.has(name) && needed(name);
  const lines = AXES.filter((a) => wanted(v("globalId", a))).map(
    (a) => `const ${v("globalId", a)} = (Math.imul(${v("blockIdx", a)}, ${v("blockDim", a)}) + ${v("threadIdx", a)}) | 0;`,
  );
  const [tx, ty, tz] = AXES.map((a) => v("threadIdx", a));
  const [bdx, bdy] = AXES.map((a) => v("blockDim", a));
  if (wanted(v("laneId", 0))) lines.push(`const ${v("laneId", 0)} = (${tx} + ${bdx} * (${ty} + ${bdy} * ${tz})) & 31;`);
  return lines;
}

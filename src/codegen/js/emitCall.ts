/**
 * Device function calls in the simulator's code. Arguments go in order, each as one or more
 * JavaScript arguments:
 *
 *   a scalar                    its value
 *   a global array              the array and its length (`a`, `a$n`)
 *   a shared array              the array (its sizes are constants of its type)
 *   a view                      the array, the offset of its first element, its length, its
 *                               stride, and the site that made it (`v`, `v$o`, `v$n`, `v$s`, `v$v`)
 *   an element reference        the array and the element's flat offset (`r`, `r$o`)
 *   a variable reference        a one-element box holding the variable (`[x]`, 0), written back
 *                               to the variable after the call; a reference parameter passes
 *                               its own array and offset on
 *
 * then the thread indices the callee reads. A view and an element reference are checked
 * where they are made, at the call (GK8001). A callee that reaches a barrier or a warp
 * operation is a generator, run with `yield*` and given the path of call sites that leads to it
 * (see emitStmt.ts, barrier).
 */
import type { ArrayVar, CallArg, CallExpr, Function, ViewArg } from "../../ir/nodes.js";
import { asScalar, memoryDims } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { arrayName, fnName, isTrivial, newTemp, varName, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import { fromStored, indexing, toStored } from "./emitMemory.js";

export function emitCall(ctx: FnCtx, e: CallExpr): string {
  const callee = ctx.analysis.deviceFns.find((f) => f.name === e.callee);
  invariant(callee, `call of unknown device function ${e.callee}`);
  const boxes = new Map<number, string>();
  const writeBack: string[] = [];
  const args = e.args.flatMap((a, i) => argCode(ctx, a, callee, i, boxes, writeBack));
  args.push(...(ctx.analysis.specials.get(e.callee) ?? []));
  const name = fnName(e.callee, ctx.analysis);
  let call: string;
  if (!ctx.analysis.suspendFns.has(e.callee)) {
    call = `${name}(${args.join(", ")})`;
    if (ctx.steps === "$s" && ctx.analysis.loopFns.has(e.callee)) {
      // Hand the step count to the callee and take it back (arguments' own calls do the same).
      const r = newTemp(ctx);
      call = `($steps = $s, ${r} = ${call}, $s = $steps, ${r})`;
    }
  } else {
    const site = ctx.sites.add({ kind: "call", callee: e.callee, fn: ctx.fn.name, span: e.span });
    args.push(ctx.mode === "generator" && ctx.fn.kind === "device_fn" ? `$path + "c${site}."` : `"c${site}."`);
    call = `(yield* ${name}(${args.join(", ")}))`;
  }
  if (writeBack.length === 0) return call;
  const r = newTemp(ctx);
  return `(${r} = ${call}, ${writeBack.join(", ")}, ${r})`;
}

function argCode(ctx: FnCtx, a: CallArg, callee: Function, i: number, boxes: Map<number, string>, writeBack: string[]): string[] {
  const param = callee.params[i];
  invariant(param, `call of ${callee.name} without parameter ${i + 1}`);
  switch (a.kind) {
    case "arrayArg": {
      const n = arrayName(ctx, a.array);
      // A global array with its length; a shared array alone (its sizes are constants of its type).
      return a.array.type.kind === "array" ? [n] : [n, `${n}$n`];
    }
    case "varRef": {
      const v = a.var;
      if (v.ref) return [varName(v), `${varName(v)}$o`];
      // The box holds the stored form, as the callee's emitRefRead/emitRefWrite expect it
      // (bools as 0 or 1, f16 and bf16 as bits); the variable holds the value.
      const t = asScalar(v.type);
      let box = boxes.get(v.id);
      if (box) return [box, "0"];
      box = newTemp(ctx);
      boxes.set(v.id, box);
      writeBack.push(`${varName(v)} = ${fromStored(t, `${box}[0]`)}`);
      return [`(${box} = [${toStored(t, varName(v))}])`, "0"];
    }
    case "elemRef": {
      const site = ctx.sites.add({ kind: "elemRef", array: a.array, param: param.name, callee: callee.name, fn: ctx.fn.name, span: a.span });
      const ix = indexing(ctx, a.array, a.indices);
      const offset = isTrivial(ix.offset) ? ix.offset : newTemp(ctx);
      const parts = [...ix.binds, `(${ix.inBounds}) || ${ix.fault(site)}`, ...(offset === ix.offset ? [] : [`${offset} = ${ix.offset}`]), arrayName(ctx, a.array)];
      return [`(${parts.join(", ")})`, offset];
    }
    case "viewArg":
      return viewCode(ctx, a, callee, param.name);
    default:
      return [emitExpr(ctx, a)];
  }
}

/** The length of `a` in elements of its own indexing: constant for a fixed-size array, `a$n` otherwise. */
function lengthOf(ctx: FnCtx, a: ArrayVar): string {
  const dims = memoryDims(a.type);
  return dims.every((d) => d !== undefined) ? String(dims.reduce<number>((x, y) => x * (y ?? 1), 1)) : `${arrayName(ctx, a)}$n`;
}

/**
 * A view's five arguments. Its offset, length and stride are evaluated in order, then it is
 * checked against its array: every element it has must be one of the array's (GK8001 names the
 * view's parameter and the array). A view of a view is of the first view's array.
 */
function viewCode(ctx: FnCtx, a: ViewArg, callee: Function, param: string): string[] {
  const site = ctx.sites.add({ kind: "view", array: a.array, param, callee: callee.name, fn: ctx.fn.name, span: a.span });
  const name = arrayName(ctx, a.array);
  const binds: string[] = [];
  const bind = (code: string) => {
    if (isTrivial(code)) return code;
    const t = newTemp(ctx);
    binds.push(`${t} = ${code}`);
    return t;
  };
  const o = bind(emitExpr(ctx, a.offset));
  const length = lengthOf(ctx, a.array);
  const n = a.length ? bind(emitExpr(ctx, a.length)) : bind(`${length} - ${o}`);
  const s = a.stride ? bind(emitExpr(ctx, a.stride)) : "1";
  const last = newTemp(ctx);
  const inside = `${n} === 0 || (${o} >= 0 && ${o} < ${length} && (${last} = ${o} + (${n} - 1) * ${s}) >= 0 && ${last} < ${length})`;
  const check = `(${n} >= 0 && (${inside})) || $sim.viewRange(${site}, ${o}, ${n}, ${s}, ${length})`;
  const first = `(${[...binds, check, name].join(", ")})`;
  if (a.array.type.kind === "view") return [first, `${name}$o + ${o} * ${name}$s`, n, `${name}$s * ${s}`, `${name}$v`];
  return [first, o, n, s, String(site)];
}

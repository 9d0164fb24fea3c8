/**
 * The state of generating one JavaScript function from one IR function: how IR variables
 * are named in JavaScript, the temporaries the expressions need, the loops that `break`
 * and `continue` leave, and how `return`, `barrier()`, warp operations and local arrays are
 * written in this function's mode.
 */
import type { ArrayVar, Function, ValueVar } from "../../ir/nodes.js";
import type { ScalarType, ScalarValue } from "../../ir/types.js";
import { invariant } from "../../util.js";
import type { KernelAnalysis } from "./analysis.js";
import type { SiteTable } from "./sites.js";
import { evaluatesOnce, fill, type Template } from "../../ir/templates.js";

/**
 * - `fastKernel`: the kernel body inlined in the loop over threads; `return` ends the thread.
 * - `generator`: a `function*` (a kernel or device_fn that reaches a barrier or a warp
 *   operation); `barrier()` and warp operations yield.
 * - `plain`: a device_fn without barriers; it runs to completion, so its local arrays can be
 *   allocated once per compiled kernel instead of once per call.
 * - `region`: code of one region of the barrier path (regions/), the part of the kernel a
 *   thread runs from one barrier to the next, inside a loop over the block's threads; `return`
 *   ends the thread, device_fns that reach a barrier are inlined.
 */
export type FnMode = "fastKernel" | "generator" | "plain" | "region";

export interface GenOptions {
  readonly checkUninitializedShared: boolean;
  /** The module flushes f32 subnormals to zero (`@flushToZero;`): its f32 operations do (evalOp.ts). */
  readonly flushToZero: boolean;
  /**
   * Race mode (src/runtime/sim/races.ts): every access of global and shared memory, and every
   * fence, calls the detector `$race`; the kernel runs on generators, whose scheduler tells the
   * detector which thread runs. Off, the code has no trace of it.
   */
  readonly checkRaces?: boolean;
}

export interface FnCtx {
  readonly fn: Function;
  readonly mode: FnMode;
  readonly analysis: KernelAnalysis;
  readonly sites: SiteTable;
  readonly opts: GenOptions;
  /** Temporaries declared with `let` at the top of the function. */
  readonly temps: string[];
  /** Declarations placed outside the function: storage of local arrays reused between calls. */
  readonly hoisted: string[];
  /** Ids of the loops enclosing the statement being generated, innermost last. */
  readonly loops: number[];
  /** Loops whose body needs a label for `continue`. */
  readonly continued: Set<number>;
  /** Loops left by `break` (the regions' resumed loops need to know whether their end is reached). */
  readonly broken: Set<number>;
  /** The next loop label's number; one counter may serve several functions' contexts. */
  readonly labels: { next: number };
  /** In a device_fn inlined into a region: `return` assigns `ret` (when not void) and leaves the block `label`. */
  readonly inlineReturn?: { readonly label: string; readonly ret: ValueVar | null };
  /** In a region: ids of the local arrays that live across a barrier, so each thread needs its own. */
  readonly perThread?: ReadonlySet<number>;
  /**
   * The variable counting steps: `$steps`, shared by the functions of a kernel, or in the
   * fast-path kernel a local `$s` (a register in the hot loop) that is copied to `$steps`
   * around calls of device functions that count steps themselves.
   */
  readonly steps: "$steps" | "$s";
  /**
   * The step budget as the function reads it: `$budget`, or in the fast-path kernel and in a
   * region their parameter `$stepBudget`, which the hot loops read from a register rather
   * than from the closure.
   */
  readonly budget: "$budget" | "$stepBudget";
  /**
   * Names standing for IR variables that exist only while an operation is emitted: the
   * operands of a lane-wise operation, evaluated once into temporaries (emitExpr.ts), by the
   * (negative) ids of the variables its lane expansion reads.
   */
  readonly bound: Map<number, string>;
}

export function newFnCtx(fn: Function, mode: FnMode, analysis: KernelAnalysis, sites: SiteTable, opts: GenOptions): FnCtx {
  const steps = mode === "fastKernel" || mode === "region" ? "$s" : "$steps";
  const budget = mode === "fastKernel" || mode === "region" ? "$stepBudget" : "$budget";
  return { fn, mode, analysis, sites, opts, temps: [], hoisted: [], loops: [], continued: new Set(), broken: new Set(), labels: { next: 0 }, steps, budget, bound: new Map() };
}

const safe = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_");

/** The JavaScript name of a scalar variable. */
export function varName(v: ValueVar): string {
  return `${safe(v.name)}_${v.id}`;
}

/**
 * The JavaScript name of an array; `$n` (its length, for globals, dynamic shared arrays and
 * views) and `$w` (written flags, shared) are suffixed to it, and for a view `$o` (its first
 * element's offset), `$s` (its stride) and `$v` (the site that made it, which names its array).
 */
export function arrayName(ctx: FnCtx, a: ArrayVar): string {
  const base = baseArrayName(a);
  // Hoisted local arrays live outside the function, beside other functions' arrays.
  return a.type.kind === "array" && a.type.space === "local" && ctx.mode === "plain" ? `${fnName(ctx.fn.name, ctx.analysis)}$${base}` : base;
}

/** An array's name without the prefix of hoisted local arrays: the name everywhere but in `plain` device_fns. */
export function baseArrayName(a: ArrayVar): string {
  // A module's constant array (a negative id) is a variable of the whole generated module.
  return a.id < 0 ? `${safe(a.name)}_k${-a.id}` : `${safe(a.name)}_${a.id}`;
}

/** The JavaScript name of a device function. */
export function fnName(name: string, analysis: KernelAnalysis): string {
  const i = analysis.deviceFns.findIndex((f) => f.name === name);
  invariant(i >= 0, `device function ${name} not analyzed`);
  return `$f${i}_${safe(name)}`;
}

export function newTemp(ctx: FnCtx): string {
  const t = `$t${ctx.temps.length}`;
  ctx.temps.push(t);
  return t;
}

/** A JavaScript literal for a constant of type `t`. */
export function literal(t: ScalarType, v: ScalarValue): string {
  switch (t.name) {
    case "bool":
      return v ? "true" : "false";
    case "i64":
    case "u64": {
      invariant(typeof v === "bigint", `${t.name} constant ${String(v)} is not a bigint`);
      return v < 0n ? `(${v}n)` : `${v}n`;
    }
    default: {
      invariant(typeof v === "number", `${t.name} constant ${String(v)} is not a number`);
      if (Object.is(v, -0)) return "(-0)";
      if (Number.isNaN(v)) return "NaN";
      if (v === Infinity) return "Infinity";
      if (v === -Infinity) return "(-Infinity)";
      return v < 0 ? `(${v})` : String(v);
    }
  }
}

/** Code that can be pasted more than once without evaluating anything twice: a name or a literal. */
export function isTrivial(code: string): boolean {
  return /^(?:[A-Za-z_$][\w$]*|\d[\w.+]*|\(-[\w.+]+\)|\(-0\)|\(-Infinity\))$/.test(code);
}

/** A `typeof` zero for `fill()`: typed arrays of 64-bit integers take bigints. */
export function zeroOf(t: ScalarType): string {
  return t.name === "i64" || t.name === "u64" ? "0n" : "0";
}

/**
 * Applies a template (src/ir/templates.ts) to operand code. A template that evaluates each
 * operand once, in order and unconditionally gets the code directly; for one that does not
 * (`isnan(x)` is `(x !== x)`), every non-trivial operand is first bound to a temporary, in
 * order, so that each is evaluated exactly once and left to right.
 */
export function applyTemplate(ctx: FnCtx, template: Template, operands: readonly string[]): string {
  if (evaluatesOnce(template) || operands.every(isTrivial)) return fill(template, operands);
  const binds: string[] = [];
  const refs = operands.map((code) => {
    if (isTrivial(code)) return code;
    const t = newTemp(ctx);
    binds.push(`${t} = ${code}`);
    return t;
  });
  return `(${binds.join(", ")}, ${fill(template, refs)})`;
}

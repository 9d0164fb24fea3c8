/**
 * From the kernel's IR to the region tree (tree.ts). Statements that reach no barrier stay as
 * they are. A call of a device_fn that reaches a barrier is inlined: what the enclosing
 * statement evaluates before the call is evaluated first into fresh locals, in the language's
 * left-to-right order, then the arguments into the callee's parameters, then the callee's body,
 * whose `return` leaves its value in a local the rest of the statement reads:
 *
 *   out[t] += twice(data, t);   →   let tmp = out[t]; let i' = t; let twice_ret = 0;
 *                                   $F0: { <twice's body; `return v;` is `{ twice_ret = v; break $F0; }`> }
 *                                   out[t] = tmp + twice_ret;
 *
 * (An array parameter is the caller's array under the parameter's name, see RegionTree.aliases.)
 *
 * A loop condition that calls one is evaluated at the top of the body (for, while) or at the
 * end of the step (do-while), with `break` when it is false. A call in an operand that is
 * evaluated only sometimes (the right of `&&` / `||`, a branch of `?:`) is not covered: such a
 * kernel runs on the generator path (`lowerKernel` answers undefined). So does a kernel whose
 * regions would be too large: each region repeats the loops around its barrier point, and
 * inlining multiplies the barrier points of device_fns called from several places, so the
 * code grows with the number of points (`MAX_POINTS`) times the size of the tree
 * (`MAX_REGION_CODE`).
 */
import { zeroValue } from "../../../ir/composite.js";
import { T, type ScalarValue, type ValueType } from "../../../ir/types.js";
import type { ArrayVar, CallArg, CallExpr, Expr, Function, Module, ValueVar, Stmt } from "../../../ir/nodes.js";
import { invariant } from "../../../util.js";
import { operands, someExpr, someIn, visit, withOperands } from "../../../ir/walk.js";
import type { KernelAnalysis } from "../analysis.js";
import type { SiteTable } from "../sites.js";
import { Renaming } from "./rename.js";
import type { RegionTree, RStmt } from "./tree.js";

/** What the region path does not cover; the kernel then runs on the generator path. */
class NotCovered {
  constructor(readonly why: string) {}
}

interface Lowering {
  readonly fns: ReadonlyMap<string, Function>;
  readonly barrierFns: ReadonlySet<string>;
  readonly sites: SiteTable;
  readonly points: string[];
  readonly aliases: { param: ArrayVar; arg: ArrayVar }[];
  nextId: number;
  nextLabel: number;
}

/** The kernel's region tree, or undefined when the region path does not cover it. */
export function lowerKernel(m: Module, analysis: KernelAnalysis, sites: SiteTable): RegionTree | undefined {
  const k = analysis.kernel;
  const fns = new Map(m.functions.map((f) => [f.name, f]));
  const lw: Lowering = { fns, barrierFns: analysis.barrierFns, sites, points: [""], aliases: [], nextId: maxId([k, ...analysis.deviceFns]) + 1, nextLabel: 0 };
  try {
    const body = stmts(lw, k, k.body, "");
    if (lw.points.length * size(body) > MAX_REGION_CODE) throw new NotCovered("regions too large");
    return { body, points: lw.points, aliases: lw.aliases };
  } catch (e) {
    if (e instanceof NotCovered) return undefined;
    throw e;
  }
}

/**
 * Beyond these, the kernel runs on generators: barrier points (each inlined call brings at
 * least one, so this also bounds inlining), and points times statements of the region tree.
 */
const MAX_POINTS = 1000;
const MAX_REGION_CODE = 200_000;

/** Statements of the region tree, IR statements counted as one. */
function size(list: readonly RStmt[]): number {
  let n = 0;
  for (const s of list) {
    n += 1;
    if (s.kind === "block" || s.kind === "inline") n += size(s.body);
    if (s.kind === "if") n += size(s.then) + size(s.else);
    if (s.kind === "loop") n += size(s.init) + size(s.body) + size(s.step);
  }
  return n;
}

function maxId(fns: readonly Function[]): number {
  let max = 0;
  for (const f of fns) {
    for (const p of [...f.params, ...f.shared]) max = Math.max(max, p.id);
    visit(f.body, {
      stmt: (s) => {
        if (s.kind === "let") max = Math.max(max, s.var.id);
        if (s.kind === "localArray") max = Math.max(max, s.array.id);
      },
    });
  }
  return max;
}

const callsBarrierFn = (lw: Lowering) => (x: Expr) => x.kind === "call" && lw.barrierFns.has(x.callee);

function callsBarrier(lw: Lowering, e: Expr): boolean {
  return someExpr(e, callsBarrierFn(lw));
}

function reachesBarrier(lw: Lowering, s: Stmt): boolean {
  return someIn([s], { stmt: (x) => x.kind === "barrier", expr: callsBarrierFn(lw) });
}

const plain = (stmt: Stmt): RStmt => ({ kind: "plain", stmt });

function stmts(lw: Lowering, fn: Function, list: readonly Stmt[], path: string): RStmt[] {
  return list.flatMap((s) => stmt(lw, fn, s, path));
}

/** `path` is the chain of calls to `fn` (`"c4.c9."`), the start of the identity of its barriers. */
function stmt(lw: Lowering, fn: Function, s: Stmt, path: string): RStmt[] {
  if (!reachesBarrier(lw, s)) return [plain(s)];
  switch (s.kind) {
    case "barrier": {
      if (lw.points.length > MAX_POINTS) throw new NotCovered("too many barrier points");
      const site = lw.sites.add({ kind: "barrier", fn: fn.name, span: s.span });
      lw.points.push(`${path}b${site}`);
      return [{ kind: "barrier", point: lw.points.length - 1, span: s.span }];
    }
    case "block":
      return [{ kind: "block", body: stmts(lw, fn, s.body, path) }];
    case "if": {
      const [pre, [cond]] = flatten(lw, fn, [s.cond], path);
      return [...pre, { kind: "if", cond: cond!, then: stmts(lw, fn, s.then, path), else: stmts(lw, fn, s.else, path) }];
    }
    case "loop": {
      const init = stmts(lw, fn, s.init, path);
      let body = stmts(lw, fn, s.body, path);
      let step = stmts(lw, fn, s.step, path);
      let cond = s.cond;
      if (cond && callsBarrier(lw, cond)) {
        const [pre, [test]] = flatten(lw, fn, [cond], path);
        const not: Expr = { kind: "unary", type: T.bool, op: "not", operand: test!, span: test!.span };
        const exit = plain({ kind: "if", cond: not, then: [{ kind: "break", span: s.span }], else: [], span: s.span });
        if (s.testFirst) body = [...pre, exit, ...body];
        else step = [...step, ...pre, exit];
        cond = null;
      }
      return [{ kind: "loop", init, cond, step, body, testFirst: s.testFirst, span: s.span }];
    }
    case "let": {
      const [pre, [init]] = flatten(lw, fn, [s.init], path);
      return [...pre, plain({ ...s, init: init! })];
    }
    case "assign": {
      const [pre, [value]] = flatten(lw, fn, [s.value], path);
      return [...pre, plain({ ...s, value: value! })];
    }
    case "store": {
      const [pre, out] = flatten(lw, fn, [...s.indices, s.value], path);
      return [...pre, plain({ ...s, indices: out.slice(0, -1), value: out[out.length - 1]! })];
    }
    case "localArray": {
      const [pre, init] = flatten(lw, fn, s.init ?? [], path);
      return [...pre, plain({ ...s, init })];
    }
    case "return": {
      invariant(s.value, "a return without a value calls a device_fn");
      const [pre, [value]] = flatten(lw, fn, [s.value], path);
      return [...pre, plain({ ...s, value: value! })];
    }
    case "expr": {
      const [pre, rest] = flattenOne(lw, fn, s.expr, path);
      // What is left of `f(x);` is f's return value, read for nothing; anything else (a call, an atomic, a checked load) still runs.
      const idle = rest === null || rest.kind === "var" || rest.kind === "const" || rest.kind === "special";
      return idle ? pre : [...pre, plain({ ...s, expr: rest })];
    }
    case "break":
    case "continue":
    case "fence":
    case "asyncGroup":
      invariant(false, `${s.kind} reaches a barrier`);
      break;
    case "asyncCopy": // kernels with asynchronous copies run on generators (emitKernel.ts)
      throw new NotCovered("an asynchronous copy whose operands call a barrier's device_fn");
  }
}

/**
 * Expressions evaluated in order, the last of which calls a barrier's device_fn: statements
 * that evaluate them up to that call included, and what is left to evaluate after it.
 */
function flatten(lw: Lowering, fn: Function, es: readonly Expr[], path: string): [RStmt[], Expr[]] {
  let last = -1;
  es.forEach((e, i) => (callsBarrier(lw, e) ? (last = i) : undefined));
  if (last < 0) return [[], [...es]];
  const pre: RStmt[] = [];
  const out: Expr[] = [];
  es.forEach((e, i) => {
    if (i > last) return out.push(e);
    let rest: Expr | null = e;
    if (callsBarrier(lw, e)) {
      const [p, r] = flattenOne(lw, fn, e, path);
      pre.push(...p);
      rest = r;
    }
    invariant(rest, "a void call used as a value");
    // Operands before the call are evaluated before it: into a local, unless reading them later gives the same value.
    if (i < last && rest.kind !== "const" && rest.kind !== "var" && rest.kind !== "special") {
      const tmp = fresh(lw, "tmp", rest.type as ValueType, false, rest.span);
      pre.push(plain({ kind: "let", var: tmp, init: rest, span: rest.span }));
      rest = { kind: "var", type: tmp.type, var: tmp, span: rest.span };
    }
    out.push(rest);
  });
  return [pre, out];
}

/** One expression that calls a barrier's device_fn: statements up to the call, and the rest (null: a void call). */
function flattenOne(lw: Lowering, fn: Function, e: Expr, path: string): [RStmt[], Expr | null] {
  const one = (x: Expr): [RStmt[], Expr] => {
    const [pre, [r]] = flatten(lw, fn, [x], path);
    return [pre, r!];
  };
  switch (e.kind) {
    case "call": {
      const [pre, out] = flatten(lw, fn, operands(e), path);
      const args = withOperands(e, out).args;
      if (!lw.barrierFns.has(e.callee)) return [pre, { ...e, args }];
      const [inl, ret] = inline(lw, fn, e, args, path);
      return [[...pre, ...inl], ret];
    }
    case "logical": {
      if (callsBarrier(lw, e.right)) throw new NotCovered("a barrier's device_fn called in the right operand of && or ||");
      const [pre, left] = one(e.left);
      return [pre, { ...e, left }];
    }
    case "select": {
      if (callsBarrier(lw, e.ifTrue) || callsBarrier(lw, e.ifFalse)) throw new NotCovered("a barrier's device_fn called in a branch of ?:");
      const [pre, cond] = one(e.cond);
      return [pre, { ...e, cond }];
    }
    default: {
      // Every other operand is always evaluated, in order.
      invariant(operands(e).length > 0, `a ${e.kind} expression calls a device_fn`);
      const [pre, out] = flatten(lw, fn, operands(e), path);
      return [pre, withOperands(e, out)];
    }
  }
}

function fresh(lw: Lowering, name: string, type: ValueType, mutable: boolean, span: Expr["span"]): ValueVar {
  return { kind: "valueVar", id: lw.nextId++, name, type, mutable, span };
}

/** Statements that run `callee`'s body for the call `e` (its arguments already evaluated as `args`), and its return value. */
function inline(lw: Lowering, caller: Function, e: CallExpr, args: readonly CallArg[], path: string): [RStmt[], Expr | null] {
  const callee = lw.fns.get(e.callee);
  invariant(callee, `call of unknown device function ${e.callee}`);
  const site = lw.sites.add({ kind: "call", callee: callee.name, fn: caller.name, span: e.span });
  const renaming = new Renaming(() => lw.nextId++);
  const pre: RStmt[] = [];
  // A view or a reference would have to live across the callee's barriers as a pointer: the generators run those.
  if (callee.params.some((p) => p.type.kind === "view" || (p.kind === "valueVar" && p.ref))) throw new NotCovered("a barrier's device_fn takes a view or a reference");
  callee.params.forEach((p, i) => {
    const a = args[i];
    invariant(a, `call of ${callee.name} without argument ${i + 1}`);
    if (p.kind === "arrayVar") {
      invariant(a.kind === "arrayArg", `scalar passed to array parameter ${p.name} of ${callee.name}`);
      lw.aliases.push({ param: renaming.array(p), arg: a.array });
    } else {
      invariant(a.kind !== "arrayArg" && a.kind !== "varRef" && a.kind !== "elemRef" && a.kind !== "viewArg", `${a.kind} passed to scalar parameter ${p.name} of ${callee.name}`);
      pre.push(plain({ kind: "let", var: renaming.scalar(p, true), init: a, span: a.span }));
    }
  });
  const type = callee.returnType;
  let ret: ValueVar | null = null;
  if (type.kind !== "void") {
    ret = fresh(lw, `${callee.name}_ret`, type, true, e.span);
    pre.push(plain({ kind: "let", var: ret, init: zero(type, e.span), span: e.span }));
  }
  const body = stmts(lw, callee, renaming.stmts(callee.body), `${path}c${site}.`);
  pre.push({ kind: "inline", fn: callee, label: `$F${lw.nextLabel++}`, ret, body });
  return [pre, ret ? { kind: "var", type: ret.type, var: ret, span: e.span } : null];
}

function zero(t: ValueType, span: Expr["span"]): Expr {
  return t.kind === "scalar" ? { kind: "const", type: t, value: zeroValue(t) as ScalarValue, span } : { kind: "zero", type: t, span };
}

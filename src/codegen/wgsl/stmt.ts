/**
 * Statements: IR → WGSL lines.
 *
 *   let x = e;            `let x: T = e;`, or `var` when assigned later
 *   a[i].f = v;           the same (atomicStore for an atomic array; store2/store4 a helper)
 *   loop (every kind)     for (init; cond; step) { body } where init and step are one
 *                         statement each (`forHeader`); else
 *                         { init; loop { if !(cond) { break; } body; continuing { step; } } }
 *                         (a do-while tests last: `continuing { step; break if !(cond); }`),
 *                         so `continue` runs the step, as gk's does; a small counted loop
 *                         unrolled: { { let i = 0; body } { let i = 1; body } ... } (loops.ts)
 *   barrier()             storageBarrier(); workgroupBarrier(); (gk's barrier orders global
 *                         and shared memory for the block, as CUDA's __syncthreads does);
 *                         workgroupBarrier() alone where no global write can precede it
 *
 * WGSL's `select` evaluates both branches, so a `?:` whose branch writes memory (a call, an
 * atomic), or whose value is a struct (which `select` does not take), is evaluated by the
 * statement first, with an `if`, into a temporary; so is a `&&` or
 * `||` whose right operand holds one; operands evaluated before it that touch memory go into
 * `let`s before it, keeping gk's left-to-right order (`spill`). An assignment whose indices and
 * value both touch memory, one writing, evaluates its indices into `let`s first.
 */
import type { BarrierStmt, Expr, Function, LetStmt, LoopStmt, Stmt, StoreStmt, ValueVar } from "../../ir/nodes.js";
import { operands, someExpr, withOperands } from "../../ir/walk.js";
import { elementCount, memorySpace, type ScalarType, type ValueType } from "../../ir/types.js";
import { memoryAccess } from "../cuda/effects.js";
import { assertNever, invariant } from "../../util.js";
import { laneElement, vectorStoreCall, writtenOut } from "./atomics.js";
import { emitExpr, indexText, operand, pathText, PREC, type Emitted, type ExprContext } from "./expr.js";
import { literal } from "./literals.js";
import { unrollPlan } from "./loops.js";
import { typeName } from "./types.js";

export interface StmtContext extends ExprContext {
  readonly functions: ReadonlyMap<string, Function>;
  /** A fresh temporary of this type (named `gk_t1`, ...). */
  readonly temp: (t: ValueType) => ValueVar;
  /** Ids of the variables some statement assigns (declared `var`, others `let`). */
  readonly assigned: ReadonlySet<number>;
  /** Whether this barrier orders global memory too (`storageBarrier`; loops.ts). */
  readonly storageBarrier: (s: BarrierStmt) => boolean;
}

const IND = "  ";

export function emitStmts(list: readonly Stmt[], cx: StmtContext, depth: number): string[] {
  return list.flatMap((s) => emitStmt(s, cx, depth));
}

function emitStmt(s: Stmt, cx: StmtContext, depth: number): string[] {
  const pad = IND.repeat(depth);
  const pre: string[] = [];
  const sp = (e: Expr) => spill(e, cx, pre, depth);
  const ex = (e: Expr) => emitExpr(sp(e), cx).text;
  const out = (...lines: string[]) => [...pre, ...lines];
  switch (s.kind) {
    case "let":
      return out(letLine(s, ex(s.init), cx, pad));
    case "localArray": {
      const t = s.array.type;
      invariant(t.kind === "array", `local array ${s.array.name} of type ${t.kind}`);
      const name = cx.array(s.array).name;
      if (!s.init) return [`${pad}var ${name}: ${typeName(t, cx.structs)};`];
      const init = s.init.map(ex);
      let k = 0;
      const nest = (level: number): string => {
        const inner = level + 1 < t.dims.length ? () => nest(level + 1) : () => init[k++]!;
        return `${typeName({ ...t, dims: t.dims.slice(level) }, cx.structs)}(${Array.from({ length: t.dims[level]! }, inner).join(", ")})`;
      };
      invariant(init.length === elementCount(t), `local array ${s.array.name}: ${init.length} initializers`);
      return out(`${pad}var ${name} = ${nest(0)};`);
    }
    case "assign": {
      const [path, value] = inOrder(s.path.flatMap((p) => (p.kind === "elem" ? p.indices : [])), s.value, cx, pre, depth);
      let k = 0;
      const withIdx = s.path.map((p) => (p.kind === "elem" ? { ...p, indices: p.indices.map(() => path[k++]!) } : p));
      return out(`${pad}${cx.name(s.var)}${pathText(s.var.type, withIdx, cx)} = ${emitExpr(value, cx).text};`);
    }
    case "store":
      return store(s, cx, pre, depth);
    case "expr": {
      const e = sp(s.expr);
      const text = emitExpr(e, cx).text;
      // A call of a function that returns nothing is a statement; any other value is dropped with `_ =`.
      return out(e.kind === "call" && e.type.kind === "void" ? `${pad}${text};` : `${pad}_ = ${text};`);
    }
    case "if": {
      const cond = ex(s.cond);
      const lines = [...pre, `${pad}if (${cond}) {`, ...emitStmts(s.then, cx, depth + 1)];
      if (s.else.length > 0) lines.push(`${pad}} else {`, ...emitStmts(s.else, cx, depth + 1));
      lines.push(`${pad}}`);
      return lines;
    }
    case "loop":
      return loop(s, cx, depth);
    case "break":
      return [`${pad}break;`];
    case "continue":
      return [`${pad}continue;`];
    case "return":
      return s.value ? out(`${pad}return ${ex(s.value)};`) : [`${pad}return;`];
    case "barrier":
      return cx.storageBarrier(s) ? [`${pad}storageBarrier();`, `${pad}workgroupBarrier();`] : [`${pad}workgroupBarrier();`];
    case "fence":
      return invariant(false, "a fence reached the WGSL backend (legalize refuses it)") as never;
    case "asyncCopy":
    case "asyncGroup":
      return invariant(false, "an asynchronous copy reached the WGSL backend (legalize refuses it)") as never;
    case "block":
      return [`${pad}{`, ...emitStmts(s.body, cx, depth + 1), `${pad}}`];
    default:
      return assertNever(s, "statement");
  }
}

function letLine(s: LetStmt, init: string, cx: StmtContext, pad: string): string {
  const kw = cx.assigned.has(s.var.id) ? "var" : "let";
  return `${pad}${kw} ${cx.name(s.var)}: ${typeName(s.var.type, cx.structs)} = ${init};`;
}

function store(s: StoreStmt, cx: StmtContext, pre: string[], depth: number): string[] {
  const pad = IND.repeat(depth);
  const pathIdx = s.path.flatMap((p) => (p.kind === "elem" ? p.indices : []));
  const [ix, value] = inOrder([...s.indices, ...pathIdx], s.value, cx, pre, depth);
  const a = cx.array(s.array);
  const indices = ix.slice(0, s.indices.length);
  const v = emitExpr(value, cx).text;
  if (s.vector !== null) {
    // 16-byte accesses (8 lanes) are of half data alone, which legalize refuses.
    invariant(s.vector !== 8, "store8 reached the WGSL backend (legalize refuses half data)");
    if (!writtenOut(indices)) return [...pre, `${pad}${vectorStoreCall(indices, v, s.vector, a, cx)}`];
    // Written out (atomics.ts): the value once, in a `let` unless it is a variable; the indices are pure, so evaluating them after it changes nothing.
    let val = v;
    if (value.kind !== "var") {
      const t = cx.temp(value.type as ValueType);
      val = cx.name(t);
      pre.push(`${pad}let ${val}: ${typeName(t.type, cx.structs)} = ${v};`);
    }
    const at = laneElement(indices, a, cx);
    const f32 = a.type.elem.kind === "scalar" && a.type.elem.name === "f32";
    return [
      ...pre,
      ...Array.from({ length: s.vector }, (_, k) => {
        const lane = `${val}.${"xyzw"[k]}`;
        return a.atomic ? `${pad}atomicStore(&${at(k)}, ${f32 ? `bitcast<u32>(${lane})` : lane});` : `${pad}${at(k)} = ${lane};`;
      }),
    ];
  }
  const element = `${a.name}${indexText(indices, cx)}`;
  if (a.atomic) {
    const f32 = a.type.elem.kind === "scalar" && a.type.elem.name === "f32";
    return [...pre, `${pad}atomicStore(&${element}, ${f32 ? `bitcast<u32>(${v})` : v});`];
  }
  let k = s.indices.length;
  const path = s.path.map((p) => (p.kind === "elem" ? { ...p, indices: p.indices.map(() => ix[k++]!) } : p));
  return [...pre, `${pad}${element}${pathText(a.type.elem as ValueType, path, cx)} = ${v};`];
}

/**
 * A target's indices and the value assigned to it, evaluated in gk's order (indices first):
 * where both touch memory and one writes it, the indices go into `let`s first.
 */
function inOrder(indices: readonly Expr[], value: Expr, cx: StmtContext, pre: string[], depth: number): [Expr[], Expr] {
  const ix = indices.map((i) => spill(i, cx, pre, depth));
  const va = memoryAccess(value, cx.functions);
  const ia = ix.map((i) => memoryAccess(i, cx.functions));
  const clash = (va.writes && ia.some((a) => a.reads || a.writes)) || (ia.some((a) => a.writes) && va.reads);
  const fixed = clash ? ix.map((i) => (i.kind === "const" || i.kind === "var" ? i : letTemp(i, cx, pre, depth))) : ix;
  return [fixed, spill(value, cx, pre, depth)];
}

function loop(s: LoopStmt, cx: StmtContext, depth: number): string[] {
  const pad = IND.repeat(depth);
  const inner = IND.repeat(depth + 1);
  const unrolled = unrollPlan(s, (a) => memorySpace(a.type) === "local");
  if (unrolled) {
    const { counter, values } = unrolled;
    const decl = `let ${cx.name(counter)}: ${typeName(counter.type, cx.structs)}`;
    const iterations = values.flatMap((v) => [`${inner}{`, `${inner}${IND}${decl} = ${literal(counter.type as ScalarType, v)};`, ...emitStmts(s.body, cx, depth + 2), `${inner}}`]);
    return [`${pad}{`, ...iterations, `${pad}}`];
  }
  // Each part emitted once (emitting a call again would find its specialization taken), at
  // depth 0 and indented after, in gk's order: init, condition, body, step (a do-while's
  // condition last); the shape is chosen from what they became.
  const alwaysTrue = s.cond === null || (s.cond.kind === "const" && s.cond.value === true);
  const at = (d: number, lines: readonly string[]) => lines.map((l) => IND.repeat(d) + l);
  const init = emitStmts(s.init, cx, 0);
  const condPre: string[] = [];
  const cond = s.testFirst && !alwaysTrue ? emitExpr(spill(s.cond!, cx, condPre, 0), cx) : undefined;
  const body = emitStmts(s.body, cx, 0);
  const step = emitStmts(s.step, cx, 0);
  const testPre: string[] = [];
  const test = !s.testFirst && !alwaysTrue ? emitExpr(spill(s.cond!, cx, testPre, 0), cx) : undefined;
  const asFor = forHeader(s, init, cond, condPre, step);
  if (asFor !== null) return [`${pad}${asFor} {`, ...at(depth + 1, body), `${pad}}`];
  const lines = [`${pad}{`, ...at(depth + 1, init), `${inner}loop {`];
  if (cond) lines.push(...at(depth + 2, condPre), `${inner}${IND}if (!${operand(cond, PREC.primary)}) { break; }`);
  lines.push(...at(depth + 2, body));
  const testLines = test ? [...at(depth + 3, testPre), `${inner}${IND}${IND}break if !${operand(test, PREC.primary)};`] : [];
  if (step.length + testLines.length > 0) lines.push(`${inner}${IND}continuing {`, ...at(depth + 3, step), ...testLines, `${inner}${IND}}`);
  lines.push(`${inner}}`, `${pad}}`);
  return lines;
}

/**
 * `for (init; cond; step)` for a loop that tests first whose init and step (an assignment)
 * each became at most one line and whose condition needs no statements before it; null for
 * other loops. WGSL's compiler (Tint) knows the range of a `for` loop's counter counted
 * between constants and leaves indices made of it unclamped under Dawn's robustness; the same
 * loop as `loop { if !(c) { break; } ... continuing { ... } }` has every such index clamped.
 * `continue` runs the step in both.
 */
function forHeader(s: LoopStmt, init: readonly string[], cond: Emitted | undefined, condPre: readonly string[], step: readonly string[]): string | null {
  if (!s.testFirst || condPre.length > 0 || init.length > 1 || step.length > 1 || init.length + step.length === 0) return null;
  if (s.step.length > 0 && s.step[0]!.kind !== "assign") return null;
  const one = (lines: readonly string[]): string | null => (lines.length === 0 ? "" : lines[0]!.endsWith(";") ? lines[0]!.slice(0, -1) : null);
  const i = one(init);
  const st = one(step);
  if (i === null || st === null) return null;
  return `for (${i};${cond ? ` ${cond.text}` : ""};${st ? ` ${st}` : ""})`;
}

// ---------------------------------------------------------------- spilling

/** Whether evaluating `e` needs statements first: a `?:` with a branch that writes memory, or of structs (WGSL's `select` takes scalars and vectors only). */
function needsSpill(e: Expr, cx: StmtContext): boolean {
  return someExpr(e, (x) => x.kind === "select" && (x.type.kind === "struct" || [x.ifTrue, x.ifFalse].some((b) => memoryAccess(b, cx.functions).writes)));
}

function letTemp(e: Expr, cx: StmtContext, pre: string[], depth: number): Expr {
  const t = cx.temp(e.type as ValueType);
  pre.push(`${IND.repeat(depth)}let ${cx.name(t)}: ${typeName(t.type, cx.structs)} = ${emitExpr(e, cx).text};`);
  return { kind: "var", type: t.type, var: t, span: e.span };
}

/** `e`, with what must run first (see the file comment) emitted into `pre`. */
export function spill(e: Expr, cx: StmtContext, pre: string[], depth: number): Expr {
  if (!needsSpill(e, cx)) return e;
  const pad = IND.repeat(depth);
  if (e.kind === "select" || e.kind === "logical") {
    const t = cx.temp(e.type as ValueType);
    const name = cx.name(t);
    const branch = (x: Expr): string[] => {
      const inner: string[] = [];
      const v = emitExpr(spill(x, cx, inner, depth + 1), cx).text;
      return [...inner, `${pad}${IND}${name} = ${v};`];
    };
    if (e.kind === "select") {
      const cond = emitExpr(spill(e.cond, cx, pre, depth), cx).text;
      pre.push(`${pad}var ${name}: ${typeName(t.type, cx.structs)};`, `${pad}if (${cond}) {`, ...branch(e.ifTrue), `${pad}} else {`, ...branch(e.ifFalse), `${pad}}`);
    } else {
      const left = emitExpr(spill(e.left, cx, pre, depth), cx).text;
      pre.push(`${pad}var ${name}: bool = ${left};`, `${pad}if (${e.op === "and" ? name : `!${name}`}) {`, ...branch(e.right), `${pad}}`);
    }
    return { kind: "var", type: t.type, var: t, span: e.span };
  }
  const ops = operands(e);
  let last = -1;
  ops.forEach((o, i) => needsSpill(o, cx) && (last = i));
  const spilled = ops.map((o, i) => {
    if (i > last) return o;
    const x = spill(o, cx, pre, depth);
    const access = memoryAccess(x, cx.functions);
    return i < last && (access.reads || access.writes) ? letTemp(x, cx, pre, depth) : x;
  });
  const rebuilt = withOperands(e, spilled);
  if (rebuilt !== e) originals.set(rebuilt, originals.get(e) ?? e);
  return rebuilt;
}

/** The node a spilled copy was made from: a call's specialization is planned for the original (specialize.ts). */
const originals = new WeakMap<Expr, Expr>();

/** The expression as the plan knows it: `e`, or the node spilling copied it from. */
export function originalOf(e: Expr): Expr {
  return originals.get(e) ?? e;
}

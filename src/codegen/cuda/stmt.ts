/**
 * Statements. Each becomes one or more lines tagged with its `.gk` line. Loops take the most
 * readable C++ form that keeps the IR's meaning (`continue` goes to `step`, then the test):
 *
 * - `for (init; cond; step)` when testing first with at most one simple statement in `init`
 *   (a `let`, whose scope C++ then limits to the loop, as the IR does) and in `step`;
 *   `while (cond)` when there are neither;
 * - `do { } while (cond);` when testing after the body, with neither;
 * - otherwise `{ init; while (cond) { { body } gk_continue_1:; step } }` (or `do { } while`):
 *   a `continue` of this loop becomes `goto gk_continue_1;`, which leaves the body's block
 *   for the step. The label and the extra block appear only when the body continues.
 */
import { memoryBuiltin } from "../../ir/builtins.js";
import { asyncCopyBuiltin, asyncGroupBuiltin } from "../../ir/asyncCopyBuiltins.js";
import { CUDA_ASYNC_COPY, CUDA_CACHE_HINTS, CUDA_MEMORY, CUDA_SYNC } from "./builtins.js";
import type { Span } from "../../diagnostics/source.js";
import type { ArrayVar, AssignStmt, AsyncCopyStmt, Expr, IfStmt, LetStmt, LocalArrayStmt, LoopStmt, ValueVar, Stmt, StoreStmt } from "../../ir/nodes.js";
import { asScalar, isDense, sizeOf, type ValueType } from "../../ir/types.js";
import { pathType } from "../../ir/paths.js";
import { pathExprs } from "../../ir/walk.js";
import { assertNever, invariant } from "../../util.js";
import { emitExpr, fromTemplate, inOrder, orderedTemplate, PREC, type Emitted } from "./expr.js";
import { braced, pathText } from "./compoundExpr.js";
import { line, type Line, type Loc } from "./lines.js";
import type { FunctionScope } from "./scope.js";
import { CUDA } from "./settings.js";
import { continuesLoop, hoistedBounds } from "./analysis.js";
import { fill } from "../../ir/templates.js";

export interface StmtContext {
  readonly scope: FunctionScope;
  readonly loc: (span: Span) => Loc | undefined;
  /** Whether a declared variable or array is never read (it is then marked `[[maybe_unused]]`). */
  readonly unread: (id: number) => boolean;
  /** Where `continue` jumps in the innermost loop, when that loop cannot use C++'s `continue`. */
  readonly continueLabel?: string | undefined;
  /** The alignment in bytes a local or shared array's declaration states for the vector accesses of it (0: none beyond its elements'). */
  readonly align: (a: ArrayVar) => number;
  /** The function is a kernel: its readonly arrays are memory no thread writes during the launch (a device function's may alias arrays it writes). */
  readonly kernel: boolean;
}

const barrier = CUDA_SYNC.barrier;
invariant(barrier, "the CUDA column has no barrier");

const pad = (depth: number) => CUDA.indent.repeat(depth);

export function emitStmts(stmts: readonly Stmt[], cx: StmtContext, depth: number): Line[] {
  return stmts.flatMap((s) => emitStmt(s, cx, depth));
}

function emitStmt(s: Stmt, cx: StmtContext, depth: number): Line[] {
  const at = cx.loc(s.span);
  const simple = (text: () => string): Line[] => {
    const { value, temps } = cx.scope.collect(text);
    return [...declareTemps(temps, cx, depth, at), line(pad(depth) + value, at)];
  };
  switch (s.kind) {
    case "let":
      return simple(() => `${letText(s, cx)};`);
    case "localArray":
      return simple(() => `${localArrayText(s, cx)};`);
    case "assign":
    case "store":
    case "expr":
      return simple(() => `${headerText(s, cx)};`);
    case "if":
      return emitIf(s, cx, depth);
    case "loop":
      return emitLoop(s, cx, depth);
    case "break":
      return [line(`${pad(depth)}break;`, at)];
    case "continue":
      return [line(`${pad(depth)}${cx.continueLabel ? `goto ${cx.continueLabel};` : "continue;"}`, at)];
    case "return":
      return simple(() => (s.value ? `return ${emitExpr(s.value, cx.scope).text};` : "return;"));
    case "barrier":
      return [line(`${pad(depth)}${fill(barrier, [])};`, at)];
    case "fence":
      return [line(`${pad(depth)}${fill(CUDA_MEMORY[memoryBuiltin(s.scope === "block" ? "fenceBlock" : "fenceDevice").name]!.fence!.template, [])};`, at)];
    case "asyncCopy":
      return simple(() => `${asyncCopyText(s, cx).text};`);
    case "asyncGroup":
      return [line(`${pad(depth)}${fill(CUDA_ASYNC_COPY[asyncGroupBuiltin(s.op)]!(s.pending).template, [])};`, at)];
    case "block":
      return [line(`${pad(depth)}{`, at), ...emitStmts(s.body, cx, depth + 1), line(`${pad(depth)}}`)];
    default:
      return assertNever(s, "statement");
  }
}

function declareTemps(temps: readonly ValueVar[], cx: StmtContext, depth: number, at: Loc | undefined): Line[] {
  return temps.map((t) => line(`${pad(depth)}${cx.scope.types.name(t.type)} ${cx.scope.name(t)};`, at));
}

function maybeUnused(id: number, cx: StmtContext): string {
  return cx.unread(id) ? `${CUDA.maybeUnused} ` : "";
}

/** `const int x = e` (without the semicolon: also a `for` header's init). */
function letText(s: LetStmt, cx: StmtContext): string {
  const init = emitExpr(s.init, cx.scope).text;
  return `${maybeUnused(s.var.id, cx)}${s.var.mutable ? "" : "const "}${cx.scope.types.name(s.var.type)} ${cx.scope.name(s.var)} = ${init}`;
}

/** `float a[2][3] = {{...}, {...}}`, or `= {}` (zero-filled). */
function localArrayText(s: LocalArrayStmt, cx: StmtContext): string {
  const t = s.array.type;
  invariant(t.kind === "array", "a local array of array type");
  const dims = t.dims.map((d) => `[${d}]`).join("");
  let init = "{}";
  if (s.init) {
    // C++ evaluates a braced list left to right, as gk does.
    const values = s.init.map((e) => braced(e, emitExpr(e, cx.scope), cx.scope));
    const nest = (from: number, level: number): string => {
      if (level === t.dims.length) return values[from]!;
      const stride = t.dims.slice(level + 1).reduce((a, b) => a * b, 1);
      const parts = Array.from({ length: t.dims[level]! }, (_, k) => nest(from + k * stride, level + 1));
      return `{${parts.join(", ")}}`;
    };
    init = nest(0, 0);
  }
  const align = cx.align(s.array);
  return `${maybeUnused(s.array.id, cx)}${align ? `__align__(${align}) ` : ""}${cx.scope.types.name(t.elem)} ${cx.scope.name(s.array)}${dims} = ${init}`;
}

/** An assignment, a store or an expression statement, without its semicolon (also a `for` header part). */
function headerText(s: Stmt, cx: StmtContext): string {
  switch (s.kind) {
    case "let":
      return letText(s, cx);
    case "assign":
      return assignText(s, cx).text;
    case "store":
      return storeText(s, cx).text;
    case "expr":
      return emitExpr(s.expr, cx.scope).text;
    default:
      return invariant(false, `${s.kind} in a for header`) as never;
  }
}

/** `x = v`, `p.pos.x = v`: the path's indices before the value, as for a store. */
function assignText(s: AssignStmt, cx: StmtContext): Emitted {
  const ix = pathExprs(s.path);
  return inOrder([...ix, s.value], cx.scope, (ops) => {
    const target = `${cx.scope.name(s.var)}${pathText(s.var.type, s.path, ops.slice(0, ix.length), cx.scope)}`;
    return { text: `${target} = ${emitExpr(ops[ix.length]!, cx.scope).text}`, prec: PREC.cond - 1 };
  });
}

/**
 * `a[i][j] = v`, `a[i].pos.x = v`, or `gk_st_release(&a[i], v)` with an ordering. gk
 * evaluates the indices first; C++17 the value, so an observable order is fixed with
 * temporaries. A vector store writes through a vector pointer (one access); a value with
 * padding stored to global memory goes through its store helper, which leaves the padding
 * alone (types.ts).
 */
function storeText(s: StoreStmt, cx: StmtContext): Emitted {
  const n = s.indices.length;
  const ix = pathExprs(s.path);
  const types = cx.scope.types;
  return inOrder([...s.indices, ...ix, s.value], cx.scope, (ops) => {
    const element = `${cx.scope.name(s.array)}${ops.slice(0, n).map((i) => `[${emitExpr(i, cx.scope).text}]`).join("")}`;
    const emitted = emitExpr(ops[n + ix.length]!, cx.scope);
    const value = emitted.text;
    const store = s.cache && CUDA_CACHE_HINTS[s.cache].store;
    if (store) {
      // storeStreaming: through the helper, at the element or the vector there.
      const at = s.vector !== null ? `reinterpret_cast<${types.name(s.value.type as ValueType)}*>(&${element})` : `&${element}`;
      return { text: `${store}(${at}, ${value})`, prec: PREC.primary };
    }
    if (s.vector !== null) {
      return { text: `*reinterpret_cast<${types.name(s.value.type as ValueType)}*>(&${element}) = ${value}`, prec: PREC.cond - 1 };
    }
    if (s.order) {
      // storeRelease / storeVolatile: of a scalar element (the checker admits only those).
      const tpl = orderedTemplate(s.order === "release" ? "storeRelease" : "storeVolatile", asScalar(s.array.type.elem));
      return fromTemplate(tpl, [{ text: `&${element}`, prec: PREC.unary }, emitted]);
    }
    const target = `${element}${pathText(s.array.type.elem, s.path, ops.slice(n, n + ix.length), cx.scope)}`;
    const t = pathType(s.array.type.elem, s.path) as ValueType;
    if (s.array.type.kind === "global" && !isDense(t)) return { text: `${types.storeHelper(t)}(&${target}, ${value})`, prec: PREC.primary };
    return { text: `${target} = ${value}`, prec: PREC.cond - 1 };
  });
}

/** cpAsync: the two elements' addresses (operands in the IR's order: dst's indices, src's, valid) and the bytes read. */
function asyncCopyText(s: AsyncCopyStmt, cx: StmtContext): Emitted {
  const nd = s.dstIndices.length;
  const ns = s.srcIndices.length;
  const operands = s.valid ? [...s.dstIndices, ...s.srcIndices, s.valid] : [...s.dstIndices, ...s.srcIndices];
  return inOrder(operands, cx.scope, (ops) => {
    const at = (a: ArrayVar, ix: readonly Expr[]) => `&${cx.scope.name(a)}${ix.map((i) => `[${emitExpr(i, cx.scope).text}]`).join("")}`;
    const read = s.valid ? `(unsigned int)(${emitExpr(ops[nd + ns]!, cx.scope).text}) * ${sizeOf(s.dst.type.elem)}u` : `${s.bytes}u`;
    const tpl = CUDA_ASYNC_COPY[asyncCopyBuiltin(s.cache)]!(s.bytes).template;
    return { text: fill(tpl, [at(s.dst, ops.slice(0, nd)), at(s.src, ops.slice(nd, nd + ns)), read]), prec: PREC.primary };
  });
}

// ---------------------------------------------------------------- if

function emitIf(s: IfStmt, cx: StmtContext, depth: number): Line[] {
  // else-if chains read as such.
  const chain: IfStmt[] = [s];
  for (let last = s; last.else.length === 1 && last.else[0]!.kind === "if"; ) {
    last = last.else[0] as IfStmt;
    chain.push(last);
  }
  const { value: conds, temps } = cx.scope.collect(() => chain.map((c) => emitExpr(c.cond, cx.scope).text));
  const lines = declareTemps(temps, cx, depth, cx.loc(s.span));
  chain.forEach((c, k) => {
    lines.push(line(`${pad(depth)}${k === 0 ? "" : "} else "}if (${conds[k]}) {`, cx.loc(c.span)));
    lines.push(...emitStmts(c.then, cx, depth + 1));
  });
  const tail = chain[chain.length - 1]!.else;
  if (tail.length > 0) lines.push(line(`${pad(depth)}} else {`), ...emitStmts(tail, cx, depth + 1));
  lines.push(line(`${pad(depth)}}`));
  return lines;
}

// ---------------------------------------------------------------- loops

type LoopForm = "for" | "while" | "doWhile" | "general";

function loopForm(s: LoopStmt): LoopForm {
  const fits = (list: readonly Stmt[], allowLet: boolean) =>
    list.length === 0 ||
    (list.length === 1 && ["assign", "store", "expr", ...(allowLet ? ["let"] : [])].includes(list[0]!.kind));
  if (s.testFirst && fits(s.init, true) && fits(s.step, false)) return s.init.length + s.step.length === 0 ? "while" : "for";
  if (!s.testFirst && s.init.length === 0 && s.step.length === 0) return "doWhile";
  return "general";
}

function condText(cond: Expr | null, cx: StmtContext): string {
  return cond ? emitExpr(cond, cx.scope).text : "true";
}

/** `#pragma unroll` (or `#pragma unroll N`) for a loop annotated `@unroll`, on the line before the loop's own. */
function unrollPragma(s: LoopStmt, depth: number): Line[] {
  if (s.unroll === undefined) return [];
  return [line(`${pad(depth)}#pragma unroll${s.unroll === "full" ? "" : ` ${s.unroll}`}`)];
}

function emitLoop(s: LoopStmt, cx: StmtContext, depth: number): Line[] {
  const at = cx.loc(s.span);
  const native: StmtContext = { ...cx, continueLabel: undefined };
  const form = loopForm(s);
  switch (form) {
    case "for":
    case "while": {
      const bounds = hoistBounds(s, cx, depth, at);
      const { value: head, temps } = cx.scope.collect(() => {
        if (form === "while") return `while (${condText(s.cond, cx)})`;
        const init = s.init.map((x) => headerText(x, cx)).join("");
        const cond = s.cond ? emitExpr(s.cond, cx.scope).text : "";
        const step = s.step.map((x) => headerText(x, cx)).join("");
        return `for (${init}; ${cond}; ${step})`.replace("; ;", ";;").replace("; )", ")");
      });
      return [
        ...bounds,
        ...declareTemps(temps, cx, depth, at),
        ...unrollPragma(s, depth),
        line(`${pad(depth)}${head} {`, at),
        ...emitStmts(s.body, native, depth + 1),
        line(`${pad(depth)}}`),
      ];
    }
    case "doWhile": {
      const { value: cond, temps } = cx.scope.collect(() => condText(s.cond, cx));
      return [
        ...declareTemps(temps, cx, depth, at),
        ...unrollPragma(s, depth),
        line(`${pad(depth)}do {`, at),
        ...emitStmts(s.body, native, depth + 1),
        line(`${pad(depth)}} while (${cond});`, s.cond ? cx.loc(s.cond.span) : undefined),
      ];
    }
    case "general":
      return emitGeneralLoop(s, cx, depth);
    default:
      return assertNever(form, "loop form");
  }
}

/** `T t; t = abs(a[i]);` before the loop for each part of its condition computed once (analysis.ts, `hoistedBounds`). */
function hoistBounds(s: LoopStmt, cx: StmtContext, depth: number, at: Loc | undefined): Line[] {
  if (!cx.kernel) return [];
  return hoistedBounds(s).flatMap((e) => {
    let name = "";
    const { value, temps } = cx.scope.collect(() => {
      name = cx.scope.name(cx.scope.temp(e.type as ValueType));
      return `${name} = ${emitExpr(e, cx.scope).text};`;
    });
    cx.scope.hoistedValues.set(e, name);
    return [...declareTemps(temps, cx, depth, at), line(`${pad(depth)}${value}`, at)];
  });
}

function emitGeneralLoop(s: LoopStmt, cx: StmtContext, depth: number): Line[] {
  const at = cx.loc(s.span);
  const lines: Line[] = [];
  // Locals declared in init live in a block around the loop.
  const d = s.init.length > 0 ? depth + 1 : depth;
  if (s.init.length > 0) lines.push(line(`${pad(depth)}{`, at), ...emitStmts(s.init, cx, d));
  const { value: cond, temps } = cx.scope.collect(() => condText(s.cond, cx));
  lines.push(...declareTemps(temps, cx, d, at));
  lines.push(...unrollPragma(s, d));
  lines.push(line(`${pad(d)}${s.testFirst ? `while (${cond})` : "do"} {`, at));
  const label = continuesLoop(s.body) ? cx.scope.continueLabel() : undefined;
  const bodyCx: StmtContext = { ...cx, continueLabel: label };
  if (label) {
    lines.push(line(`${pad(d + 1)}{`), ...emitStmts(s.body, bodyCx, d + 2), line(`${pad(d + 1)}}`));
    lines.push(line(`${pad(d + 1)}${label}:;`));
  } else {
    lines.push(...emitStmts(s.body, bodyCx, d + 1));
  }
  lines.push(...emitStmts(s.step, { ...cx, continueLabel: undefined }, d + 1));
  lines.push(line(`${pad(d)}}${s.testFirst ? "" : ` while (${cond});`}`));
  if (s.init.length > 0) lines.push(line(`${pad(depth)}}`));
  return lines;
}

/**
 * The code of one region: what a thread runs from the kernel's start, or from a barrier point,
 * to the next barrier point or its end. It is pasted into the loop over the block's threads
 * (launch.ts) inside the block `$R: { ... }`; stopping at barrier point k is
 *
 *   { <store the locals a later region reads back>; $at = k; break $R; }
 *
 * and ending (the kernel's end or `return`) leaves `$at` at -1.
 *
 * Resuming at a barrier point finishes, innermost first, every statement that encloses it,
 * then goes on with what follows each. A loop is finished by the rest of the current
 * iteration, its step, its back-edge (the step budget) and then the loop itself again:
 *
 *   L7: { C7: { <rest of the body> } <step> [do-while: if (!(cond)) break L7;] <budget>  L8: for (;;) { ... } }
 *
 * so `break` and `continue` in the rest of the body leave L7 or C7 as they would the loop. An
 * inlined device_fn is finished inside its label, so that `return` still leaves it.
 */
import type { Expr, ValueVar, Stmt } from "../../../ir/nodes.js";
import { assertNever, InternalError, invariant } from "../../../util.js";
import { T } from "../../../ir/types.js";
import { visitStmt } from "../../../ir/walk.js";
import { baseArrayName, varName, type FnCtx } from "../context.js";
import { emitExpr } from "../emitExpr.js";
import { budgetCheck, emitStmts } from "../emitStmt.js";
import type { Local, Part, PathStep, Scopes } from "./scopes.js";
import type { RStmt } from "./tree.js";

const STOP = /\u0002(\d+)\u0002/g;

export interface RegionCode {
  /** The code, with a mark where each stop stores its locals (see `placeStores`). */
  readonly lines: readonly string[];
  /** Ids of the locals the code reads or writes, and of those it writes (declares or assigns). */
  readonly uses: ReadonlySet<number>;
  readonly defs: ReadonlySet<number>;
  /** The barrier points where the code can stop. */
  readonly stops: ReadonlySet<number>;
}

/**
 * The code of the region that starts at `point` (0: the kernel's start), for `ctx`'s
 * temporaries and options; `declared`: locals the loop over threads declares before it.
 */
export function emitRegion(ctx: FnCtx, body: readonly RStmt[], scopes: Scopes, point: number, declared: readonly Local[], pad: string): RegionCode {
  const w = new RegionWriter();
  for (const l of declared) w.defs.add(l.id);
  let lines: string[];
  if (point === 0) {
    lines = w.list(ctx, body, pad);
  } else {
    const path = scopes.paths.get(point);
    invariant(path, `no path to barrier point ${point}`);
    lines = w.resume(ctx, path, 0, pad).lines;
  }
  return { lines, uses: w.uses, defs: w.defs, stops: w.stops };
}

/** The code with, at each stop, the stores of `stored(point)`. */
export function placeStores(lines: readonly string[], stored: (point: number) => readonly Local[]): string[] {
  return lines.map((line) => line.replace(STOP, (_, k: string) => stored(Number(k)).map((l) => `${saveLocal(l)} `).join("")));
}

/** Code that stores `l` (a local of this thread) in its per-thread storage. */
export function saveLocal(l: Local): string {
  const n = nameOf(l);
  return l.kind === "valueVar" && l.type === T.bool ? `${n}$p[$i] = ${n} ? 1 : 0;` : `${n}$p[$i] = ${n};`;
}

/** A declaration that reads `l` back from its per-thread storage. */
export function restoreLocal(l: Local): string {
  const n = nameOf(l);
  return l.kind === "valueVar" && l.type === T.bool ? `let ${n} = ${n}$p[$i] !== 0;` : `let ${n} = ${n}$p[$i];`;
}

/** The JavaScript name of a local (a region names local arrays without a function prefix, context.ts). */
export function nameOf(l: Local): string {
  return l.kind === "valueVar" ? varName(l) : baseArrayName(l);
}

/** Whether running `list` can reach its end: not when it stops at a barrier of its own. */
function listEnds(list: readonly RStmt[]): boolean {
  return !list.some((s) => s.kind === "barrier");
}

class RegionWriter {
  readonly uses = new Set<number>();
  readonly defs = new Set<number>();
  readonly stops = new Set<number>();

  /** Records what `s` reads and writes; `ret`: the local that `return` assigns in an inlined device_fn. */
  private note(s: Stmt, ret: ValueVar | null = null): void {
    visitStmt(s, {
      stmt: (x) => {
        if (x.kind === "let") this.defs.add(x.var.id);
        if (x.kind === "assign") this.defs.add(x.var.id);
        // Assigning a part of a value reads the rest of it.
        if (x.kind === "assign" && x.path.length) this.uses.add(x.var.id);
        if (x.kind === "return" && ret) this.defs.add(ret.id);
        if (x.kind === "localArray") this.defs.add(x.array.id);
        if (x.kind === "store") this.uses.add(x.array.id);
      },
      expr: (e) => {
        if (e.kind === "var") this.uses.add(e.var.id);
        if (e.kind === "load" || e.kind === "atomic") this.uses.add(e.array.id);
        if (e.kind !== "call") return;
        for (const a of e.args) {
          // A reference lets the callee write the variable; a view or reference of a local array reaches its elements.
          if (a.kind === "varRef") {
            this.uses.add(a.var.id);
            this.defs.add(a.var.id);
          } else if (a.kind === "arrayArg" || a.kind === "elemRef" || a.kind === "viewArg") {
            this.uses.add(a.array.id);
          }
        }
      },
    });
  }

  private expr(ctx: FnCtx, e: Expr): string {
    this.note({ kind: "expr", expr: e, span: e.span });
    return emitExpr(ctx, e);
  }

  list(ctx: FnCtx, list: readonly RStmt[], pad: string): string[] {
    // What follows a barrier in the same list runs in the region that resumes there.
    const stop = list.findIndex((s) => s.kind === "barrier");
    return (stop < 0 ? list : list.slice(0, stop + 1)).flatMap((s) => this.stmt(ctx, s, pad));
  }

  private stmt(ctx: FnCtx, s: RStmt, pad: string): string[] {
    const inner = pad + "  ";
    switch (s.kind) {
      case "plain":
        this.note(s.stmt, ctx.inlineReturn?.ret ?? null);
        return emitStmts(ctx, [s.stmt], pad);
      case "barrier":
        this.stops.add(s.point);
        return [`${pad}{ \u0002${s.point}\u0002$at = ${s.point}; break $R; }`];
      case "block":
        return [`${pad}{`, ...this.list(ctx, s.body, inner), `${pad}}`];
      case "if": {
        const out = [`${pad}if (${this.expr(ctx, s.cond)}) {`, ...this.list(ctx, s.then, inner)];
        if (s.else.length) out.push(`${pad}} else {`, ...this.list(ctx, s.else, inner));
        out.push(`${pad}}`);
        return out;
      }
      case "loop":
        return this.loop(ctx, s, pad, true);
      case "inline": {
        const sub = this.inlined(ctx, s);
        return [`${pad}${s.label}: {`, ...this.list(sub, s.body, inner), `${pad}}`];
      }
    }
    return assertNever(s, "region statement");
  }

  /** The context of an inlined device_fn's body: sites name the device_fn, `return` leaves the inlined body. */
  private inlined(ctx: FnCtx, s: RStmt & { kind: "inline" }): FnCtx {
    return { ...ctx, fn: s.fn, inlineReturn: { label: s.label, ret: s.ret }, loops: [] };
  }

  /** The loop as emitLoop writes it (emitStmt.ts), its body and step in region code; without `init` when resuming. */
  private loop(ctx: FnCtx, s: RStmt & { kind: "loop" }, pad: string, withInit: boolean): string[] {
    const id = ctx.labels.next++;
    const site = ctx.sites.add({ kind: "loop", fn: ctx.fn.name, span: s.span });
    const [p1, p2, p3] = [pad + "  ", pad + "    ", pad + "      "];
    const out = [`${pad}{`, ...(withInit ? this.list(ctx, s.init, p1) : []), `${p1}L${id}: for (;;) {`];
    const test = s.cond ? `if (!(${this.expr(ctx, s.cond)})) break;` : null;
    if (s.testFirst && test) out.push(`${p2}${test}`);
    ctx.loops.push(id);
    out.push(`${p2}C${id}: {`, ...this.list(ctx, s.body, p3), `${p2}}`);
    const backEdge = listEnds(s.body) || ctx.continued.has(id);
    if (backEdge) out.push(...this.list(ctx, s.step, p2));
    ctx.loops.pop();
    if (backEdge && !s.testFirst && test) out.push(`${p2}${test}`);
    if (backEdge) out.push(`${p2}${budgetCheck(ctx, site)}`);
    out.push(`${p1}}`, `${pad}}`);
    return out;
  }

  /**
   * The code from barrier point `path` on: finish the statement of `path[level]` from inside,
   * then what follows it, when the finished statement can end normally (`ends`).
   */
  resume(ctx: FnCtx, path: readonly PathStep[], level: number, pad: string): { lines: string[]; ends: boolean } {
    const at = path[level]!;
    const rest = at.list.slice(at.index + 1);
    const followedByRest = (lines: string[], ends: boolean) => (ends ? { lines: [...lines, ...this.list(ctx, rest, pad)], ends: listEnds(rest) } : { lines, ends });
    if (at.part === null) return followedByRest([], true);
    const s = at.list[at.index]!;
    const p1 = pad + "  ";
    switch (s.kind) {
      case "block":
      case "if": {
        const inner = this.resume(ctx, path, level + 1, p1);
        return followedByRest([`${pad}{`, ...inner.lines, `${pad}}`], inner.ends);
      }
      case "inline": {
        // `return` leaves the inlined body from anywhere in it: its end is reached.
        const inner = this.resume(this.inlined(ctx, s), path, level + 1, p1);
        return followedByRest([`${pad}${s.label}: {`, ...inner.lines, `${pad}}`], true);
      }
      case "loop":
        return followedByRest(...this.resumeLoop(ctx, s, at.part, path, level, pad));
      case "plain":
      case "barrier":
        break;
      default:
        return assertNever(s, "region statement");
    }
    throw new InternalError(`internal compiler error: a path to a barrier goes into a ${s.kind} statement`);
  }

  /** A loop finished from inside its init, body or step; whether its end is reached. */
  private resumeLoop(ctx: FnCtx, s: RStmt & { kind: "loop" }, part: Part, path: readonly PathStep[], level: number, pad: string): [string[], boolean] {
    const p1 = pad + "  ";
    if (part === "init") {
      const inner = this.resume(ctx, path, level + 1, p1);
      return [[`${pad}{`, ...inner.lines, ...(inner.ends ? this.loop(ctx, s, p1, false) : []), `${pad}}`], true];
    }
    const id = ctx.labels.next++;
    const site = ctx.sites.add({ kind: "loop", fn: ctx.fn.name, span: s.span });
    const out = [`${pad}L${id}: {`];
    ctx.loops.push(id);
    let steps = true;
    if (part === "body") {
      const inner = this.resume(ctx, path, level + 1, pad + "    ");
      out.push(`${p1}C${id}: {`, ...inner.lines, `${p1}}`);
      steps = inner.ends || ctx.continued.has(id);
      if (steps) out.push(...this.list(ctx, s.step, p1));
    } else {
      const inner = this.resume(ctx, path, level + 1, p1);
      out.push(...inner.lines);
      steps = inner.ends;
    }
    ctx.loops.pop();
    if (steps) {
      if (!s.testFirst && s.cond) out.push(`${p1}if (!(${this.expr(ctx, s.cond)})) break L${id};`);
      out.push(`${p1}${budgetCheck(ctx, site)}`, ...this.loop(ctx, s, p1, false));
    }
    return [[...out, `${pad}}`], steps || ctx.broken.has(id)];
  }
}

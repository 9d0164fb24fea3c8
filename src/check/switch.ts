/**
 * `switch` statements, lowered to an `if` / `else if` chain over the value, evaluated once:
 *
 *   switch (v) { case 1: case 2: A; break; case 3: B; return; default: C; }
 *   →  let $v = v;  if ($v == 1 || $v == 2) { A } else if ($v == 3) { B; return; } else { C }
 *
 * gk's switch is C's and TypeScript's in the form people write almost always, and says so
 * where a program leaves that form:
 * - the value is an integer; each label a constant expression of its type, used once
 *   (GK3014 for a label that is not constant, GK2002 for a repeated one);
 * - a case's statements end with `break;` (it is the end of the switch), or leave by
 *   `return` or `continue`; a case with statements that would run on into the next case is
 *   GK4012 (only labels without statements share a body);
 * - `break` elsewhere in a case (inside an `if`, say) is GK4012 too: write the case with
 *   if/else instead. `break` and `continue` inside a loop in the case are that loop's own.
 * Each case's statements are a scope of their own.
 */
import type * as ast from "../parser/ast.js";
import type { Span } from "../diagnostics/source.js";
import type { Expr, ValueVar, Stmt } from "../ir/nodes.js";
import { isInt, T, type ScalarType } from "../ir/types.js";
import { textOf, type FnCtx } from "./context.js";
import { checkAs, checkValue, foldedConstant } from "./expr.js";
import { alwaysLeaves } from "./stmt.js";
import { unknownConstant } from "./typeExpr.js";

/** Checks a switch; `checkBody` checks a case's statements in a scope of their own. */
export function checkSwitch(ctx: FnCtx, s: ast.SwitchStmt, checkBody: (body: readonly ast.Stmt[]) => Stmt[]): Stmt[] {
  const value = checkValue(ctx, s.value);
  if (value && (value.type.kind !== "scalar" || !isInt(value.type))) {
    ctx.log.error("GK3003", s.value.span, `switch takes an integer, but '${textOf(ctx, s.value.span)}' is ${value.type.kind === "scalar" ? value.type.name : value.type.kind}: compare floats or bools with if/else`);
  }
  const type = value && value.type.kind === "scalar" && isInt(value.type) ? value.type : undefined;
  const groups = groupCases(s.cases);
  const seen = new Map<string, Span>();
  let ok = type !== undefined;
  const lowered: { tests: Expr[]; isDefault: boolean; body: Stmt[]; span: Span }[] = [];
  groups.forEach((g, i) => {
    const tests: Expr[] = [];
    for (const label of g.labels) {
      if (!label.test || !type) continue;
      const t = constantLabel(ctx, label.test, type);
      if (!t) {
        ok = false;
        continue;
      }
      // A label of constant parameters not known yet (in a generic definition): its instances check it.
      if (t.kind !== "const") {
        tests.push(t);
        continue;
      }
      const key = String(t.value);
      const first = seen.get(key);
      if (first) {
        ctx.log.error("GK2002", label.test.span, `case ${key} is already a label of this switch`, [{ message: "first here", span: first }]);
        ok = false;
        continue;
      }
      seen.set(key, label.test.span);
      tests.push(t);
    }
    const { stmts, broke } = withoutFinalBreak(g.body);
    const breaksOk = checkBreaks(ctx, stmts);
    if (!breaksOk) ok = false;
    const last = i === groups.length - 1;
    // A misplaced break is reported above; checked as a loop's, it would be reported twice.
    if (!breaksOk) ctx.loopDepth++;
    const body = checkBody(stmts);
    if (!breaksOk) ctx.loopDepth--;
    if (!broke && !last && g.body.length > 0 && !alwaysLeaves(body, true)) {
      const end = g.body[g.body.length - 1]!.span;
      ctx.log.error("GK4012", end, "this case runs on into the next one: end it with 'break;' (or return); gk's switch has no fall-through between cases with statements");
      ok = false;
    }
    lowered.push({ tests, isDefault: g.labels.some((l) => !l.test), body, span: g.span });
  });
  if (!ok || !value || !type) return [];
  return lower(ctx, value, type, lowered, s.span);
}

interface Group {
  readonly labels: readonly ast.SwitchCase[];
  readonly body: readonly ast.Stmt[];
  readonly span: Span;
}

/** Labels without statements share the body of the next case: `case 1: case 2: ...`. */
function groupCases(cases: readonly ast.SwitchCase[]): Group[] {
  const groups: Group[] = [];
  let pending: ast.SwitchCase[] = [];
  for (const c of cases) {
    pending.push(c);
    if (c.body.length > 0) {
      groups.push({ labels: pending, body: c.body, span: pending[0]!.span });
      pending = [];
    }
  }
  if (pending.length) groups.push({ labels: pending, body: [], span: pending[0]!.span });
  return groups;
}

function constantLabel(ctx: FnCtx, e: ast.Expr, type: ScalarType): Expr | undefined {
  const v = checkAs(ctx, e, type, "a case label");
  if (v && unknownConstant(ctx, v)) return v;
  return v && foldedConstant(ctx, v, e, "a case label", ": compare with if/else");
}

/** The statements without a last `break;` (also the last one of a trailing block), and whether there was one. */
function withoutFinalBreak(stmts: readonly ast.Stmt[]): { stmts: readonly ast.Stmt[]; broke: boolean } {
  const last = stmts[stmts.length - 1];
  if (last?.kind === "Break") return { stmts: stmts.slice(0, -1), broke: true };
  if (last?.kind === "Block") {
    const inner = withoutFinalBreak(last.body);
    if (inner.broke) return { stmts: [...stmts.slice(0, -1), { ...last, body: inner.stmts }], broke: true };
  }
  return { stmts, broke: false };
}

/** A `break` left in a case (outside its own loops) would leave the switch from its middle: GK4012. */
function checkBreaks(ctx: FnCtx, stmts: readonly ast.Stmt[]): boolean {
  let ok = true;
  const visit = (s: ast.Stmt): void => {
    switch (s.kind) {
      case "Break":
        ctx.log.error("GK4012", s.span, "'break' leaves a case of a switch only as the case's last statement: write the case with if/else");
        ok = false;
        return;
      case "Block":
        s.body.forEach(visit);
        return;
      case "If":
        visit(s.then);
        if (s.else) visit(s.else);
        return;
      case "Switch":
        return; // its breaks are its own
      default:
        return; // loops own their breaks; other statements have none
    }
  };
  stmts.forEach(visit);
  return ok;
}

function lower(ctx: FnCtx, value: Expr, type: ScalarType, groups: readonly { tests: Expr[]; isDefault: boolean; body: Stmt[]; span: Span }[], span: Span): Stmt[] {
  const v: ValueVar = { kind: "valueVar", id: ctx.nextId++, name: "switch_value", type, mutable: false, span: value.span };
  const ref: Expr = { kind: "var", type, var: v, span: value.span };
  const fallback = groups.find((g) => g.isDefault)?.body ?? [];
  let chain: Stmt[] = fallback;
  for (const g of [...groups].reverse()) {
    if (g.isDefault || g.tests.length === 0) continue;
    const cond = g.tests
      .map((t): Expr => ({ kind: "binary", type: T.bool, op: "eq", left: ref, right: t, span: t.span }))
      .reduce((a, b): Expr => ({ kind: "logical", type: T.bool, op: "or", left: a, right: b, span: g.span }));
    chain = [{ kind: "if", cond, then: g.body, else: chain, span: g.span }];
  }
  return [{ kind: "block", body: [{ kind: "let", var: v, init: value, span: value.span }, ...chain], span }];
}

/**
 * Constant folding with the spec's exact semantics: every folded operation runs through
 * evalOp, the same templates the simulator executes. Operations that would trap at run
 * time (integer division by zero) are left for run time to report.
 */
import { evalBitcast, isBitcastType } from "../bitcast.js";
import { assertNever } from "../../util.js";
import { mathBuiltin, mathJs } from "../builtins.js";
import { compileJs, evalBinary, evalCast, evalUnary, FoldTrap } from "../evalOp.js";
import type { ConstExpr, Expr, Function, Module, Stmt } from "../nodes.js";
import { mapExpr } from "../walk.js";
import { asScalar, type ScalarValue, type ValueType } from "../types.js";
import type { Span } from "../../diagnostics/source.js";
import { fill } from "../templates.js";

/**
 * Folds every function of the module; in a module that flushes f32 subnormals
 * (`@flushToZero;`), with the flushing semantics, as the module's code computes.
 */
export function foldModule(m: Module): Module {
  const ftz = m.flushToZero ?? false;
  return {
    ...m,
    functions: m.functions.map((f) => foldFunction(f, ftz)),
    kernels: m.kernels.map((f) => foldFunction(f, ftz)),
  };
}

export function foldFunction(f: Function, ftz = false): Function {
  return { ...f, body: foldStmts(f.body, ftz) };
}

function isConst(e: Expr): e is ConstExpr {
  return e.kind === "const";
}

function constLike(e: { readonly type: ValueType; readonly span: Span }, value: ScalarValue): ConstExpr {
  return { kind: "const", type: asScalar(e.type), value, span: e.span };
}

export function foldExpr(e: Expr, ftz = false): Expr {
  return mapExpr(e, (x) => foldNode(x, ftz));
}

/** One node whose operands are folded already. */
function foldNode(e: Expr, ftz: boolean): Expr {
  switch (e.kind) {
    case "unary":
      return isConst(e.operand) ? constLike(e, evalUnary(e.op, e.operand.type, e.operand.value, ftz)) : e;
    case "binary": {
      const { left, right } = e;
      if (isConst(left) && isConst(right)) {
        try {
          return constLike(e, evalBinary(e.op, left.type, left.value, right.value, ftz));
        } catch (err) {
          if (!(err instanceof FoldTrap)) throw err;
        }
      }
      return e;
    }
    case "logical": {
      if (!isConst(e.left)) return e;
      // `false && x` is false without evaluating x; `true && x` is x (and the same for ||).
      const decides = e.op === "and" ? e.left.value === false : e.left.value === true;
      return decides ? constLike(e, e.left.value) : e.right;
    }
    case "select":
      return isConst(e.cond) ? (e.cond.value === true ? e.ifTrue : e.ifFalse) : e;
    case "cast":
      return isConst(e.operand) ? constLike(e, evalCast(e.operand.type, asScalar(e.type), e.operand.value, ftz)) : e;
    case "bitcast": {
      // A bitcast of a bitcast is one bitcast (bits move, nothing is computed). A constant
      // scalar's is a constant, unless a NaN: constants of NaN are written as the canonical one.
      const x = e.operand;
      if (x.kind === "bitcast") return x.operand.type === e.type ? x.operand : { ...e, operand: x.operand };
      if (!isConst(x) || x.type.kind !== "scalar" || !isBitcastType(x.type) || e.type.kind !== "scalar") return e;
      const v = evalBitcast(x.type, e.type, x.value) as ScalarValue;
      return v !== v ? e : constLike(e, v);
    }
    case "builtin": {
      const args = e.args;
      if (!args.every(isConst)) return e;
      const operandType = args[0]!.type;
      const entry = mathBuiltin(e.name);
      const js = entry && mathJs(entry, operandType, ftz);
      if (!js) return e;
      const names = ["a", "b", "c"].slice(0, args.length);
      const fn = compileJs(`m:${e.name}:${operandType.name}:${ftz}`, args.length, fill(js, names));
      return constLike(e, fn(...args.map((a) => a.value)));
    }
    case "member": {
      // A lane of a vector of constants (`f32x4(0.0).x`): that constant.
      const [step] = e.path;
      const v = e.operand;
      if (e.path.length !== 1 || step!.kind !== "lane" || v.kind !== "construct" || v.type.kind !== "vector" || !v.args.every(isConst)) return e;
      return laneOf(v.args as readonly ConstExpr[], step!.lane);
    }
    case "swizzle": {
      // Lanes of a vector of constants: a vector of those constants.
      const v = e.operand;
      if (v.kind !== "construct" || v.type.kind !== "vector" || !v.args.every(isConst)) return e;
      return { kind: "construct", type: e.type, args: e.lanes.map((k) => laneOf(v.args as readonly ConstExpr[], k)), span: e.span };
    }
    default:
      // Loads, calls and atomics touch memory; a warp operation is collective (every thread of
      // the warp takes part), so it never folds, though its operands do.
      return e;
  }
}

/** Lane k of a vector constructed from constants (scalars: one for every lane, or one per lane). */
function laneOf(args: readonly ConstExpr[], k: number): ConstExpr {
  return args.length === 1 ? args[0]! : args[k]!;
}

/** Folds a statement list and drops what follows a statement that always jumps away (dead after folding). */
export function foldStmts(stmts: readonly Stmt[], ftz = false): Stmt[] {
  const out: Stmt[] = [];
  for (const s of stmts) {
    for (const f of foldStmt(s, ftz)) {
      out.push(f);
      if (jumpsAway(f)) return out;
    }
  }
  return out;
}

/** Whether control never reaches the statement after this one. */
function jumpsAway(s: Stmt): boolean {
  switch (s.kind) {
    case "return":
    case "break":
    case "continue":
      return true;
    case "block":
      return s.body.length > 0 && jumpsAway(s.body[s.body.length - 1]!);
    case "if":
      return s.then.length > 0 && s.else.length > 0 && jumpsAway(s.then[s.then.length - 1]!) && jumpsAway(s.else[s.else.length - 1]!);
    default:
      return false;
  }
}

function foldStmt(s: Stmt, ftz: boolean): Stmt[] {
  switch (s.kind) {
    case "let":
      return [{ ...s, init: foldExpr(s.init, ftz) }];
    case "localArray":
      return [{ ...s, init: s.init ? s.init.map((x) => foldExpr(x, ftz)) : null }];
    case "assign":
      return [{ ...s, value: foldExpr(s.value, ftz) }];
    case "store":
      return [{ ...s, indices: s.indices.map((x) => foldExpr(x, ftz)), value: foldExpr(s.value, ftz) }];
    case "expr":
      return [{ ...s, expr: foldExpr(s.expr, ftz) }];
    case "if": {
      const cond = foldExpr(s.cond, ftz);
      const then = foldStmts(s.then, ftz);
      const els = foldStmts(s.else, ftz);
      if (isConst(cond)) {
        const taken = cond.value === true ? then : els;
        return taken.length ? [{ kind: "block", body: taken, span: s.span }] : [];
      }
      return [{ ...s, cond, then, else: els }];
    }
    case "loop": {
      const init = foldStmts(s.init, ftz);
      const cond = s.cond ? foldExpr(s.cond, ftz) : null;
      if (s.testFirst && cond && isConst(cond) && cond.value === false) {
        return init.length ? [{ kind: "block", body: init, span: s.span }] : [];
      }
      const alwaysTrue = cond && isConst(cond) && cond.value === true;
      return [{ ...s, init, cond: alwaysTrue ? null : cond, step: foldStmts(s.step, ftz), body: foldStmts(s.body, ftz) }];
    }
    case "return":
      return [{ ...s, value: s.value ? foldExpr(s.value, ftz) : null }];
    case "block":
      return [{ ...s, body: foldStmts(s.body, ftz) }];
    case "asyncCopy": {
      const f = (x: Expr) => foldExpr(x, ftz);
      return [{ ...s, dstIndices: s.dstIndices.map(f), srcIndices: s.srcIndices.map(f), valid: s.valid ? f(s.valid) : null }];
    }
    case "break":
    case "continue":
    case "barrier":
    case "fence":
    case "asyncGroup":
      return [s];
  }
  return assertNever(s, "statement");
}

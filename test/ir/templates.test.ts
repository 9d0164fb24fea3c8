/**
 * The builtin table's templates are data the backends trust without re-parsing them
 * (src/ir/templates.ts): these tests hold every template to what it declares.
 */
import { describe, expect, it } from "vitest";
import { builtins, type AsyncCopyEntry, type AtomicEntry, type IndexEntry, type MathEntry, type SyncEntry, type VectorEntry, type WarpEntry } from "../../src/ir/builtins.js";
import { CUDA_ASYNC_COPY, CUDA_ATOMICS, CUDA_INDEX, CUDA_MATH, CUDA_MEMORY, CUDA_SYNC, CUDA_WARP } from "../../src/codegen/cuda/builtins.js";
import { AsyncCopies } from "../../src/runtime/sim/asyncCopies.js";
import { isComparison, jsBinary, jsCast, jsUnary } from "../../src/ir/evalOp.js";
import type { BinOp, UnOp } from "../../src/ir/nodes.js";
import { evaluatesOnce, fill, precOf, type Template } from "../../src/ir/templates.js";
import { SCALAR_NAMES, T } from "../../src/ir/types.js";
import { assertNever } from "../../src/util.js";

const MARKS = ["\u0001a\u0002", "\u0001b\u0002", "\u0001c\u0002", "\u0001d\u0002"];

/** Where each operand lands in the filled text. */
function positions(text: string, n: number): number[][] {
  return MARKS.slice(0, n).map((m) => {
    const at: number[] = [];
    for (let i = text.indexOf(m); i >= 0; i = text.indexOf(m, i + 1)) at.push(i);
    return at;
  });
}

/** Whether the filled text pastes each operand exactly once, in order, outside any conditional operator. */
function pastesOnce(text: string, n: number): boolean {
  const at = positions(text, n);
  if (at.some((p) => p.length !== 1)) return false;
  const order = at.map((p) => p[0]!);
  if (order.some((p, i) => i > 0 && p < order[i - 1]!)) return false;
  const rest = MARKS.slice(0, n).reduce((t, m) => t.split(m).join(""), text);
  return !/\?|&&|\|\|/.test(rest);
}

/** Whether the operand at `at` sits in an argument slot: after `(` or `,` and before `)` or `,`. */
function inSlot(text: string, at: number, mark: string): boolean {
  const before = text.slice(0, at).trimEnd().slice(-1);
  const after = text.slice(at + mark.length).trimStart().slice(0, 1);
  return (before === "(" || before === ",") && (after === ")" || after === ",");
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** The shape a declared precedence promises: a name, call or parenthesized whole; or a cast of one. */
function looksLike(text: string, prec: "primary" | "unary"): boolean {
  const primary = (t: string): boolean => {
    if (/^[A-Za-z_$][\w.$]*$/.test(t)) return true;
    // A name, or a function template's name with its arguments (`gk_atomic_narrow<gk_op_add>`).
    const callee = /^[A-Za-z_$][\w.$]*(?:<[\w, ]*>)?/.exec(t)?.[0] ?? "";
    return t[callee.length] === "(" && matchingParen(t, callee.length) === t.length - 1;
  };
  if (prec === "primary") return primary(text);
  const close = text.startsWith("(") ? matchingParen(text, 0) : -1;
  return close > 0 && primary(text.slice(close + 1));
}

interface Case {
  readonly where: string;
  readonly template: Template;
  readonly arity: number;
  /** Operand indices that may follow a cast instead of sitting in a slot (an atomic's address). */
  readonly unarySlots?: readonly number[];
}

function cudaCases(): Case[] {
  const out: Case[] = [];
  for (const b of builtins) {
    switch (b.rule.kind) {
      case "math":
        for (const [t, impl] of Object.entries(CUDA_MATH[b.name] ?? {})) out.push({ where: `${b.name} ${t}`, template: impl!.template, arity: b.rule.arity });
        break;
      case "atomic":
        for (const [t, impl] of Object.entries(CUDA_ATOMICS[b.name] ?? {})) {
          out.push({ where: `${b.name} ${t}`, template: impl!.template, arity: b.rule.op === "cas" ? 3 : 2, unarySlots: [0] });
        }
        break;
      case "warp":
        // ldmatrix's one operand is the lane's row (a load4 of its arr, i).
        out.push({ where: b.name, template: CUDA_WARP[(b as WarpEntry).name].template, arity: b.rule.shape === "ldmatrix" ? 1 : b.rule.params.length });
        break;
      case "sync":
        out.push({ where: b.name, template: CUDA_SYNC[b.name]!, arity: 0 });
        break;
      case "memory": {
        const op = b.rule.op;
        const arity = op.startsWith("fence") ? 0 : op.startsWith("load") ? 1 : 2;
        for (const [t, impl] of Object.entries(CUDA_MEMORY[b.name] ?? {})) out.push({ where: `${b.name} ${t}`, template: impl!.template, arity, unarySlots: arity ? [0] : [] });
        break;
      }
      case "asyncCopy": {
        // A copy's operands: the bytes, the two elements' addresses, the bytes read; a wait's: n.
        const copies = b.rule.op === "copy" || b.rule.op === "copyL2";
        out.push({ where: b.name, template: CUDA_ASYNC_COPY[b.name]!(16).template, arity: copies ? 3 : 0, unarySlots: copies ? [0, 1] : [] });
        break;
      }
      case "index":
      case "constant":
      // Vector builtins are IR (src/ir/lanes.ts); their lanes use the math templates above.
      case "vector":
      case "vectorMemory":
      case "cacheHint":
        break;
      default:
        assertNever(b.rule, "builtin rule");
    }
  }
  return out;
}

function jsCases(): Case[] {
  const out: Case[] = [];
  for (const b of builtins) {
    if (b.rule.kind === "math") {
      for (const [t, tpl] of Object.entries((b as MathEntry).js)) out.push({ where: `${b.name} ${t}`, template: tpl!, arity: b.rule.arity });
    } else if (b.rule.kind === "atomic") {
      for (const [t, tpl] of Object.entries((b as AtomicEntry).js)) {
        for (const space of ["global", "shared"] as const) out.push({ where: `${b.name} ${t} ${space}`, template: tpl!(space), arity: b.rule.op === "cas" ? 3 : 2 });
      }
    }
  }
  return out;
}

describe("CUDA templates", () => {
  const cases = cudaCases();

  it("put every operand in an argument slot (an atomic's address may follow a cast), once", () => {
    expect(cases.length).toBeGreaterThan(60);
    for (const c of cases) {
      const text = fill(c.template, MARKS.slice(0, c.arity));
      positions(text, c.arity).forEach((at, i) => {
        expect(at.length, `${c.where}: operand ${i + 1} in ${text}`).toBe(1);
        const slot = inSlot(text, at[0]!, MARKS[i]!);
        const afterCast = c.unarySlots?.includes(i) && text.slice(0, at[0]!).trimEnd().endsWith(")");
        expect(slot || afterCast, `${c.where}: operand ${i + 1} in ${text}`).toBe(true);
      });
      expect(evaluatesOnce(c.template), c.where).toBe(true);
    }
  });

  it("bind as tightly as they declare", () => {
    for (const c of cases) {
      const text = fill(c.template, MARKS.slice(0, c.arity));
      expect(looksLike(text, precOf(c.template)), `${c.where}: ${text} is not ${precOf(c.template)}`).toBe(true);
    }
  });

  it("spell each thread index as a primary unsigned expression", () => {
    for (const b of builtins) {
      if (b.rule.kind !== "index") continue;
      for (const axis of [0, 1, 2] as const) expect(looksLike(CUDA_INDEX[(b as IndexEntry).name].value(axis), "primary"), b.name).toBe(true);
    }
  });
});

describe("JavaScript templates", () => {
  it("declare exactly whether they evaluate each operand once, in order", () => {
    const cases = jsCases();
    expect(cases.length).toBeGreaterThan(100);
    for (const c of cases) {
      const text = fill(c.template, MARKS.slice(0, c.arity));
      expect(evaluatesOnce(c.template), `${c.where}: ${text}`).toBe(pastesOnce(text, c.arity));
    }
  });

  it("the operators of evalOp evaluate each operand once, in order (the simulator pastes them directly)", () => {
    const binOps: BinOp[] = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor", "eq", "ne", "lt", "le", "gt", "ge"];
    const unOps: UnOp[] = ["neg", "not", "bitnot"];
    let n = 0;
    for (const name of SCALAR_NAMES) {
      const t = T[name];
      for (const op of binOps) {
        const tpl = jsBinary(op, t);
        if (!tpl) continue;
        n++;
        expect(pastesOnce(tpl(MARKS[0]!, MARKS[1]!, "7"), 2), `${op} ${name}${isComparison(op) ? " (comparison)" : ""}`).toBe(true);
      }
      for (const op of unOps) {
        const tpl = jsUnary(op, t);
        if (tpl) {
          n++;
          expect(pastesOnce(tpl(MARKS[0]!), 1), `${op} ${name}`).toBe(true);
        }
      }
      for (const to of SCALAR_NAMES) {
        n++;
        const text = jsCast(t, T[to])(MARKS[0]!);
        // `x ? 1 : 0` evaluates its condition once, unconditionally: the only conditional allowed.
        expect(positions(text, 1)[0]!.length, `${name} -> ${to}: ${text}`).toBe(1);
        expect(/&&|\|\|/.test(text) || (text.includes("?") && !text.startsWith(`(${MARKS[0]} ?`)), `${name} -> ${to}: ${text}`).toBe(false);
      }
    }
    expect(n).toBeGreaterThan(100);
  });
});

describe("every builtin has the simulator's definition", () => {
  // Each backend's column has a completeness test of its own (CUDA: test/codegen/cuda/builtins.test.ts).
  it("JavaScript for each type a builtin admits", () => {
    for (const b of builtins) {
      switch (b.rule.kind) {
        case "math":
        case "atomic": {
          const e = b as MathEntry | AtomicEntry;
          const types = b.rule.kind === "atomic" ? b.rule.types : Object.keys((b as MathEntry).js);
          expect(types.length, b.name).toBeGreaterThan(0);
          for (const t of types) {
            expect(e.js[t as "f32"], `${b.name}: JavaScript for ${t}`).toBeDefined();
          }
          break;
        }
        case "warp":
          expect((b as WarpEntry).js.kind, b.name).toBe(b.rule.shape);
          break;
        case "sync":
          expect((b as SyncEntry).js, b.name).toBe("barrier");
          break;
        case "memory":
          // The simulator runs every access in one order (it is sequentially consistent): a plain access.
          expect(b.rule.op, b.name).toBeDefined();
          break;
        case "index":
          expect(typeof (b as IndexEntry).js(0), b.name).toBe("string");
          break;
        case "constant":
          // A value, folded where it is used: no backend code of its own.
          expect(b.rule.value, b.name).toBeDefined();
          break;
        case "vector":
          // Defined as IR over its operands (src/ir/lanes.ts), which both backends emit.
          expect(typeof (b as VectorEntry).expand, b.name).toBe("function");
          break;
        case "vectorMemory":
          // A load or store in the IR, which both backends emit as one access.
          expect([2, 4, 8], b.name).toContain(b.rule.lanes);
          break;
        case "cacheHint":
          // A load or store in the IR with a hint, which the simulator ignores (a plain access).
          expect([1, 2, 4], b.name).toContain(b.rule.lanes);
          break;
        case "asyncCopy":
          // A statement the simulator's tracker of copies runs (src/runtime/sim/asyncCopies.ts).
          expect(typeof AsyncCopies.prototype[(b as AsyncCopyEntry).js], b.name).toBe("function");
          break;
        default:
          assertNever(b.rule, "builtin rule");
      }
    }
  });
});

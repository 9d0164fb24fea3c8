/**
 * Printing a generated program as `.gk` text, indented and with parentheses only where
 * precedence or readability asks for them.
 *
 * Literals: gk types a bare literal by its context, so a literal is printed bare only next
 * to an operand that has a type (`x * 2`, `min(y, 0.5)`, `v = 3`); elsewhere it is printed
 * as a conversion of itself (`i32(2) * u32(7)` would not check, so `i32(2) * 7`). A bare
 * shift count must be a constant in range, so other counts are printed typed too.
 */
import { assertNever } from "../../util.js";
import type { CallArg, ConstDef, Expr, FnDef, LitForm, LitParts, LValue, NumTy, Param, ParamType, PathStep, Program, Stmt, StructDef, TableDef, Ty, ValTy, Value } from "./ast.js";
import { genericArgsText, printGenericFn } from "./generic.js";
import { isFloatTy, isIntTy, isStructTy, laneType, widthOf } from "./ast.js";

export interface PrintedProgram {
  /** The whole `.gk` text. */
  readonly source: string;
  readonly kernel: string;
  /** The kernel's parameters as printed: those of `Program.params` that its body uses, in order. */
  readonly params: readonly Param[];
}

/** Prints `p` with kernel name `name`; device functions, constants and structs are named `<name>_f0`, `<name>_C0`, `<name>_S0`. */
export function printProgram(p: Program, name: string): PrintedProgram {
  const pr = new Printer(name, p.constants, new Set(p.constantArrays.map((a) => a.name)), p.structs, p.tables, p.sizeParam);
  const lines: string[] = [];
  for (const s of p.structs) lines.push(...pr.struct(s));
  for (const c of p.constants) lines.push(`const ${pr.global(c.name)}${c.t ? `: ${c.t}` : ""} = ${literalText(c.t ?? untypedTy(c.v), c.v)};`);
  for (const a of p.constantArrays) lines.push(`constant ${pr.global(a.name)}: ${a.t}[${a.length}];`);
  for (const t of p.tables) lines.push(`const ${pr.global(t.name)}: ${t.t}${t.dims.map((d) => `[${d}]`).join("")} = ${arrayLiteral(t.t, t.values, t.dims)};`);
  (p.generics ?? []).forEach((g, i) => {
    if (lines.length) lines.push("");
    lines.push(...printGenericFn(`${name}_g${i}`, g));
  });
  p.fns.forEach((f, i) => {
    if (lines.length) lines.push("");
    lines.push(...pr.fn(`${name}_f${i}`, f));
  });
  const used = usedNames(p.body);
  const params = p.params.filter((q) => used.has(q.name));
  if (lines.length) lines.push("");
  const generics = p.sizeParam ? `<${p.sizeParam.name}: i32>` : "";
  if (p.launchBounds) lines.push(`@launchBounds(${p.launchBounds.join(", ")})`);
  lines.push(`device_kernel ${name}${generics}(${params.map((q) => pr.param(q)).join(", ")}) {`, ...pr.stmts(p.body, 1), "}");
  return { source: lines.join("\n") + "\n", kernel: name, params };
}

function untypedTy(v: Value): Ty {
  return typeof v === "number" && !Number.isInteger(v) ? "f64" : "i64";
}

// ---------------------------------------------------------------- literals

/** A literal's text, untyped: `5`, `-3`, `0.5`, `-0.0`, `1e+30`, `true`; in another spelling when `form` says so. */
export function literalText(t: Ty, v: Value, form?: LitForm): string {
  if (typeof v === "boolean") return v ? "true" : "false";
  if (isFloatTy(t)) {
    const x = v as number;
    if (Object.is(x, -0)) return "-0.0";
    const s = String(x);
    if (form === "exp") return x.toExponential();
    if (form === "dot" && !s.includes("e")) return s.includes(".") ? s.replace(/^(-?)0\./, "$1.") : `${s}.`;
    return /[.e]/.test(s) ? s : `${s}.0`;
  }
  const n = BigInt(v as number | bigint);
  const sign = n < 0n ? "-" : "";
  const abs = n < 0n ? -n : n;
  switch (form) {
    case "hex":
      return `${sign}0x${abs.toString(16).toUpperCase()}`;
    case "bin":
      return `${sign}0b${abs.toString(2)}`;
    case "oct":
      return `${sign}0o${abs.toString(8)}`;
    case "sep":
      return `${sign}${abs.toString().replace(/\B(?=(\d{3})+(?!\d))/g, "_")}`;
    default:
      return n.toString();
  }
}

/** An untyped constant expression: `(a op b)`. */
function partsText(p: LitParts): string {
  return `(${p.a} ${p.op} ${p.b < 0n && p.op !== "^" ? `(${p.b})` : p.b})`;
}

// ---------------------------------------------------------------- expressions

/** Binding strength of gk's operators, loosest first (spec/language.md, Expressions). */
const PREC: Record<string, number> = {
  "?:": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6,
  "==": 7, "!=": 7, "===": 7, "!==": 7, "<": 8, "<=": 8, ">": 8, ">=": 8,
  "<<": 9, ">>": 9, ">>>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
};
const UNARY = 12;
const PRIMARY = 13;

interface Printed {
  readonly text: string;
  readonly prec: number;
}

const ARITH = new Set(["+", "-", "*", "/", "%"]);

/** True when `child` inside `parent` reads better in parentheses even where precedence does not need them. */
function clarity(parent: string, child: Expr): boolean {
  if (child.k === "select") return true;
  if (child.k !== "binary") return false;
  if (ARITH.has(parent) && ARITH.has(child.op)) return false;
  if ((parent === "&&" || parent === "||") && PREC[child.op]! >= PREC["=="]!) return false;
  return child.op !== parent || !["&", "|", "^", "&&", "||", "+", "*"].includes(parent);
}

class Printer {
  private readonly constants: ReadonlyMap<string, ConstDef>;
  private readonly structs: ReadonlyMap<string, StructDef>;
  private readonly tables: ReadonlySet<string>;

  constructor(
    private readonly prefix: string,
    constants: readonly ConstDef[],
    /** Module-level constant arrays: their names take the prefix. */
    private readonly constantArrays: ReadonlySet<string>,
    structs: readonly StructDef[],
    tables: readonly TableDef[],
    private readonly sizeParam?: Program["sizeParam"],
  ) {
    this.constants = new Map(constants.map((c) => [c.name, c]));
    this.structs = new Map(structs.map((s) => [s.name, s]));
    this.tables = new Set(tables.map((t) => t.name));
  }

  private arrayName(name: string): string {
    return this.constantArrays.has(name) || this.tables.has(name) ? this.global(name) : name;
  }

  global(name: string): string {
    return `${this.prefix}_${name}`;
  }

  /** A type's name: a struct's with the prefix. */
  type(t: ValTy): string {
    return isStructTy(t) ? this.global(t) : t;
  }

  param(p: Param): string {
    return `${p.name}: ${this.paramType(p.type)}`;
  }

  private paramType(t: ParamType): string {
    switch (t.kind) {
      case "scalar":
        return this.type(t.t);
      case "global":
        return `${t.readonly ? "readonly " : ""}global<${this.type(t.t)}>`;
      case "view":
        return `${t.readonly ? "readonly " : ""}view<${t.t}>`;
      case "ref":
        return `${t.mode} ${t.t}`;
      default:
        return assertNever(t, "generated parameter type");
    }
  }

  /** `struct <prefix>_S0 { f: T; taps: T[2]; }`, with `,` between fields now and then. */
  struct(s: StructDef): string[] {
    const sep = s.fields.length % 2 === 0 ? ";" : ",";
    return [`struct ${this.global(s.name)} {`, ...s.fields.map((f) => `  ${f.name}: ${this.type(f.t)}${f.dims.map((d) => `[${d}]`).join("")}${sep}`), "}", ""];
  }

  /** `e` where it needs at least precedence `min`; a literal is bare when `bare` allows it. */
  operand(e: Expr, min: number, bare: boolean, parentOp?: string): string {
    const p = this.expr(e, bare);
    const paren = p.prec < min || (parentOp !== undefined && clarity(parentOp, e));
    return paren ? `(${p.text})` : p.text;
  }

  expr(e: Expr, bare = false): Printed {
    switch (e.k) {
      case "lit":
        return this.literal(e, bare);
      case "name":
        // A constant table named as an array (`load2(tab0, i)`) is a module global.
        return { text: this.arrayName(e.name), prec: PRIMARY };
      case "special":
        return { text: `${e.name}.${e.axis}`, prec: PRIMARY };
      case "unary": {
        let inner = this.operand(e.e, UNARY, false);
        if ((e.op === "-" || e.op === "+") && /^[-+]/.test(inner)) inner = `(${inner})`;
        return { text: `${e.op}${inner}`, prec: UNARY };
      }
      case "binary":
        return this.binary(e);
      case "select": {
        const [a, b] = this.siblings([e.a, e.b]);
        return {
          text: `${this.operand(e.c, PREC["||"]!, false)} ? ${this.operand(e.a, PREC["||"]!, a!)} : ${this.operand(e.b, PREC["||"]!, b!)}`,
          prec: PREC["?:"]!,
        };
      }
      case "cast":
        return { text: `${this.type(e.t)}(${this.operand(e.e, 0, true)})`, prec: PRIMARY };
      case "bitcast":
        return { text: `bitcast<${this.type(e.t)}>(${this.operand(e.e, 0, false)})`, prec: PRIMARY };
      case "path":
        return { text: `${this.operand(e.e, PRIMARY, false)}${this.path(e.path)}`, prec: PRIMARY };
      case "vec":
        // Untyped constants take the lane type: every part may be a bare literal.
        return { text: `${e.t}(${e.parts.map((x) => this.operand(x, 0, true)).join(", ")})`, prec: PRIMARY };
      case "struct":
        return { text: this.structValue(e), prec: PRIMARY };
      case "builtin": {
        const bare = this.siblings(e.args);
        return { text: `${e.fn}(${e.args.map((a, i) => this.operand(a, 0, bare[i]!)).join(", ")})`, prec: PRIMARY };
      }
      case "atomic": {
        const [last, ...outer] = [...e.idx].reverse();
        const target = `${e.array}${outer.reverse().map((i) => `[${this.operand(i, 0, true)}]`).join("")}`;
        const args = [target, this.operand(last!, 0, true), ...e.args.map((a) => this.operand(a, 0, true))];
        return { text: `${e.fn}(${args.join(", ")})`, prec: PRIMARY };
      }
      case "call": {
        if (!e.generic) return { text: `${this.prefix}_f${e.fn}(${e.args.map((a) => this.callArg(a)).join(", ")})`, prec: PRIMARY };
        // T inferred from the first argument: printed typed (never a bare literal).
        const inferred = !e.generic.explicit && e.generic.size === undefined;
        const args = e.args.map((a, i) => (inferred && i === 0 && a.k !== "arrayRef" && a.k !== "ref" && a.k !== "view" ? this.operand(a, 0, false) : this.callArg(a)));
        return { text: `${this.prefix}_g${e.fn}${genericArgsText(e.t as NumTy, e.generic)}(${args.join(", ")})`, prec: PRIMARY };
      }
      case "index":
        return { text: `${this.arrayName(e.array)}${e.idx.map((i) => `[${this.operand(i, 0, true)}]`).join("")}`, prec: PRIMARY };
      default:
        return assertNever(e, "generated expression");
    }
  }

  private path(steps: readonly PathStep[]): string {
    return steps.map((s) => (s.k === "field" ? `.${s.name}` : `[${this.operand(s.idx, 0, true)}]`)).join("");
  }

  /** `{ f0: e, taps: [[a, b], [c, d]] }`: fields take bare literals (their types are known). */
  private structValue(e: Expr & { k: "struct" }): string {
    const def = this.structs.get(e.t);
    if (!def) throw new Error(`internal error: no struct ${e.t} in the printed program`);
    const fields = def.fields.map((f, i) => {
      const v = e.fields[i]!;
      if (!Array.isArray(v)) return `${f.name}: ${this.operand(v as Expr, 0, true)}`;
      const texts = (v as readonly Expr[]).map((x) => this.operand(x, 0, true));
      return `${f.name}: ${nested(texts, f.dims)}`;
    });
    return `{ ${fields.join(", ")} }`;
  }

  private callArg(a: CallArg): string {
    switch (a.k) {
      case "arrayRef":
        return a.name;
      case "ref":
        return this.lvalue(a.target);
      case "view": {
        const array = `${this.arrayName(a.array)}${a.row ? `[${this.operand(a.row, 0, true)}]` : ""}`;
        if (a.whole) return array;
        return `view(${array}, ${this.operand(a.offset, 0, true)}, ${a.length}${a.stride !== 1 ? `, ${a.stride}` : ""})`;
      }
      default:
        return this.operand(a, 0, true);
    }
  }

  /** Which of these sibling operands may be bare literals: all of them when one is not a literal, else all but the first. */
  private siblings(es: readonly Expr[]): boolean[] {
    const anyTyped = es.some((x) => x.k !== "lit" || this.typedConstant(x));
    return es.map((_, i) => anyTyped || i > 0);
  }

  private typedConstant(e: Expr): boolean {
    return e.k === "lit" && e.constant !== undefined && this.constants.get(e.constant)?.t !== undefined;
  }

  private literal(e: Expr & { k: "lit" }, bare: boolean): Printed {
    const text = e.constant !== undefined ? this.global(e.constant) : e.parts ? partsText(e.parts) : literalText(e.t, e.v, e.form);
    if (e.t === "bool" || this.typedConstant(e)) return { text, prec: PRIMARY };
    if (bare) return { text, prec: text.startsWith("-") ? UNARY : PRIMARY };
    return { text: `${e.t}(${e.parts ? text.slice(1, -1) : text})`, prec: PRIMARY };
  }

  private binary(e: Expr & { k: "binary" }): Printed {
    const p = PREC[e.op]!;
    let lBare: boolean;
    let rBare: boolean;
    if (e.op === "<<" || e.op === ">>" || e.op === ">>>") {
      lBare = false;
      rBare = countFits(e.r, laneType(e.t as ValTy));
    } else {
      [lBare, rBare] = this.siblings([e.l, e.r]) as [boolean, boolean];
    }
    const l = this.operand(e.l, p, lBare, e.op);
    const r = this.operand(e.r, p + 1, rBare, e.op);
    return { text: `${l} ${e.op} ${r}`, prec: p };
  }

  // ---------------------------------------------------------------- statements

  fn(name: string, f: FnDef): string[] {
    const params = f.params.map((q) => this.param(q)).join(", ");
    return [`device_fn ${name}(${params})${f.ret === "void" ? "" : `: ${this.type(f.ret)}`} {`, ...this.stmts(f.body, 1), "}"];
  }

  stmts(ss: readonly Stmt[], depth: number): string[] {
    return ss.flatMap((s) => this.stmt(s, depth));
  }

  private lvalue(t: LValue): string {
    return `${this.arrayName(t.name)}${t.idx.map((i) => `[${this.operand(i, 0, true)}]`).join("")}${this.path(t.path ?? [])}`;
  }

  /** A statement without indentation or `;`, for a `for` header. */
  private simple(s: Stmt): string {
    switch (s.k) {
      case "let":
        if (s.decl === "const") return `const ${s.name} = ${this.operand(s.init!, 0, false)}`;
        return s.init ? `let ${s.name}: ${this.type(s.t)} = ${this.operand(s.init, 0, true)}` : `let ${s.name}: ${this.type(s.t)}`;
      case "assign": {
        const shift = s.op === "<<=" || s.op === ">>=" || s.op === ">>>=";
        return `${this.lvalue(s.target)} ${s.op} ${this.operand(s.value, 0, shift ? countFits(s.value, laneType(s.target.t)) : true)}`;
      }
      case "step":
        return s.prefix ? `${s.op}${this.lvalue(s.target)}` : `${this.lvalue(s.target)}${s.op}`;
      case "do":
        return this.operand(s.e, 0, true);
      default:
        throw new Error(`internal error: ${s.k} is not a simple statement`);
    }
  }

  private stmt(s: Stmt, depth: number): string[] {
    const ind = "  ".repeat(depth);
    const block = (body: readonly Stmt[]) => this.stmts(body, depth + 1);
    switch (s.k) {
      case "let":
      case "assign":
      case "step":
      case "do":
        return [`${ind}${this.simple(s)};`];
      case "localArray": {
        const type = `${this.type(s.t)}${s.dims.map((d) => `[${d}]`).join("")}`;
        return [`${ind}let ${s.name}: ${type}${s.init ? ` = ${arrayLiteral(s.t as Ty, s.init, s.flat ? [s.init.length] : s.dims)}` : ""};`];
      }
      case "shared": {
        // The kernel's constant parameter sizes this array (Program.sizeParam).
        const sized = this.sizeParam?.array === s.name && s.dims.length === 1 && !s.dynamic;
        return [`${ind}shared ${s.name}: ${this.type(s.t)}${s.dynamic ? "[]" : sized ? `[${this.sizeParam!.name}]` : s.dims.map((d) => `[${d}]`).join("")};`];
      }
      case "vstore":
        return [`${ind}${s.fn}(${this.arrayName(s.array)}, ${this.operand(s.idx, 0, true)}, ${this.operand(s.value, 0, true)});`];
      case "if": {
        const out = [`${ind}if (${this.operand(s.c, 0, false)}) {`, ...block(s.then)];
        let rest = s.else;
        while (rest && rest.length === 1 && rest[0]!.k === "if") {
          const inner = rest[0] as Stmt & { k: "if" };
          out.push(`${ind}} else if (${this.operand(inner.c, 0, false)}) {`, ...block(inner.then));
          rest = inner.else;
        }
        if (rest && rest.length) out.push(`${ind}} else {`, ...block(rest));
        return [...out, `${ind}}`];
      }
      case "for": {
        const head = `${s.init ? this.simple(s.init) : ""}; ${s.cond ? this.operand(s.cond, 0, false) : ""}; ${s.step ? this.simple(s.step) : ""}`;
        const unroll = s.unroll === undefined ? [] : [`${ind}@unroll${s.unroll === "full" ? "" : `(${s.unroll})`}`];
        return [...unroll, `${ind}for (${head}) {`, ...block(s.body), `${ind}}`];
      }
      case "while":
        return [`${ind}while (${this.operand(s.c, 0, false)}) {`, ...block(s.body), `${ind}}`];
      case "doWhile":
        return [`${ind}do {`, ...block(s.body), `${ind}} while (${this.operand(s.c, 0, false)});`];
      case "jump":
        return [`${ind}${s.word};`];
      case "return":
        return [`${ind}return${s.e ? ` ${this.operand(s.e, 0, true)}` : ""};`];
      case "barrier":
        return [`${ind}barrier();`];
      case "block":
        return [`${ind}{`, ...block(s.body), `${ind}}`];
      case "comment":
        return [`${ind}// ${s.text}`];
      default:
        return assertNever(s, "generated statement");
    }
  }
}

/** A literal shift count can be printed bare only when it is an integer in 0..width-1 of the shifted type (of a vector's lanes). */
function countFits(count: Expr, shifted: Ty | undefined): boolean {
  if (count.k !== "lit" || shifted === undefined || !isIntTy(shifted) || typeof count.v === "boolean") return false;
  const v = BigInt(count.v);
  return v >= 0n && v < BigInt(widthOf(shifted));
}

function arrayLiteral(t: Ty, values: readonly Value[], dims: readonly number[]): string {
  return nested(values.map((v) => literalText(t, v)), dims);
}

/** Elements' texts as an array literal of one or two dimensions, row by row. */
function nested(texts: readonly string[], dims: readonly number[]): string {
  if (dims.length === 1) return `[${texts.join(", ")}]`;
  const inner = dims[1]!;
  const rows = Array.from({ length: dims[0]! }, (_, r) => `[${texts.slice(r * inner, (r + 1) * inner).join(", ")}]`);
  return `[${rows.join(", ")}]`;
}

// ---------------------------------------------------------------- names a kernel uses

/** Every name that statements refer to (variables, arrays, atomic targets, arrays passed to calls). */
export function usedNames(body: readonly Stmt[]): Set<string> {
  const names = new Set<string>();
  const expr = (e: Expr | CallArg): void => {
    switch (e.k) {
      case "lit":
      case "special":
        return;
      case "name":
      case "arrayRef":
        names.add(e.name);
        return;
      case "view":
        names.add(e.array);
        if (e.row) expr(e.row);
        return expr(e.offset);
      case "ref":
        names.add(e.target.name);
        e.target.idx.forEach(expr);
        return;
      case "unary":
      case "cast":
      case "bitcast":
        return expr(e.e);
      case "binary":
        expr(e.l);
        return expr(e.r);
      case "select":
        [e.c, e.a, e.b].forEach(expr);
        return;
      case "builtin":
      case "call":
        e.args.forEach(expr);
        return;
      case "atomic":
      case "index":
        names.add(e.array);
        e.idx.forEach(expr);
        if (e.k === "atomic") e.args.forEach(expr);
        return;
      case "path":
        expr(e.e);
        return path(e.path);
      case "vec":
        e.parts.forEach(expr);
        return;
      case "struct":
        e.fields.forEach((f) => (Array.isArray(f) ? (f as readonly Expr[]).forEach(expr) : expr(f as Expr)));
        return;
      default:
        return assertNever(e, "generated expression");
    }
  };
  const path = (steps: readonly PathStep[] | undefined): void => steps?.forEach((s) => s.k === "elem" && expr(s.idx));
  const stmt = (s: Stmt | null): void => {
    if (!s) return;
    switch (s.k) {
      case "let":
        if (s.init) expr(s.init);
        return;
      case "assign":
        names.add(s.target.name);
        s.target.idx.forEach(expr);
        path(s.target.path);
        return expr(s.value);
      case "step":
        names.add(s.target.name);
        path(s.target.path);
        return s.target.idx.forEach(expr);
      case "vstore":
        names.add(s.array);
        expr(s.idx);
        return expr(s.value);
      case "do":
        return expr(s.e);
      case "if":
        expr(s.c);
        s.then.forEach(stmt);
        return s.else?.forEach(stmt);
      case "for":
        stmt(s.init);
        if (s.cond) expr(s.cond);
        stmt(s.step);
        return s.body.forEach(stmt);
      case "while":
      case "doWhile":
        expr(s.c);
        return s.body.forEach(stmt);
      case "return":
        if (s.e) expr(s.e);
        return;
      case "block":
        return s.body.forEach(stmt);
      case "localArray":
      case "shared":
      case "jump":
      case "barrier":
      case "comment":
        return;
      default:
        return assertNever(s, "generated statement");
    }
  };
  body.forEach(stmt);
  return names;
}

/**
 * What a generated program exercises, as feature names ("op:i32:<<", "cast:f32->u64",
 * "builtin:fma:f64", "atomic:atomicCAS:f32:own", "mem:shared:f16", "stmt:doWhile",
 * "view:shared:row", "ref:own", "stmt:shared:dynamic", "constant:read", ...), so that a test
 * can state that the generator reaches every operator, conversion, builtin, statement form,
 * kind of memory and memory space of every element type.
 */
import { assertNever } from "../../util.js";
import type { CallArg, Expr, Program, Stmt } from "./ast.js";

/** The memory space of an array of a generated program, by its name (kernel.ts names them). */
export function spaceOf(array: string): "global" | "shared" | "local" | "table" {
  if (/^(sh|ss|sacc)/.test(array)) return "shared";
  if (/^la\d/.test(array)) return "local";
  if (/^tab\d/.test(array)) return "table";
  return "global";
}

export function features(p: Program): Set<string> {
  const out = new Set<string>();
  const constantArrays = new Set(p.constantArrays.map((a) => a.name));
  for (const f of p.fns) for (const q of f.params) if (q.type.kind === "view" || q.type.kind === "ref") out.add(`param:${q.type.kind === "view" ? `view${q.type.readonly ? ":readonly" : ""}` : q.type.mode}`);
  if (p.tables.length) out.add("const:table");
  const expr = (e: Expr | CallArg): void => {
    switch (e.k) {
      case "lit":
        out.add(e.constant ? `const:${p.constants.find((c) => c.name === e.constant)?.t ? "typed" : "untyped"}` : `lit:${e.t}`);
        return;
      case "name":
      case "arrayRef":
        return;
      case "view":
        out.add(`view:${e.source}${e.row ? ":row" : ""}${e.whole ? ":whole" : e.stride > 1 ? ":stride" : ""}`);
        if (e.row) expr(e.row);
        return expr(e.offset);
      case "ref":
        out.add(`ref:${e.source}`);
        return e.target.idx.forEach(expr);
      case "special":
        out.add(`special:${e.name}.${e.axis}`);
        return;
      case "unary":
        out.add(`unary:${e.t}:${e.op}`);
        return expr(e.e);
      case "binary":
        out.add(`op:${e.l.t}:${e.op}`);
        expr(e.l);
        return expr(e.r);
      case "select":
        out.add(`select:${e.t}`);
        return [e.c, e.a, e.b].forEach(expr);
      case "cast":
        out.add(`cast:${e.e.t}->${e.t}`);
        return expr(e.e);
      case "builtin":
        out.add(`builtin:${e.fn}:${e.args[0]!.t}`);
        return e.args.forEach(expr);
      case "atomic":
        out.add(`atomic:${e.fn}:${e.t}:${e.array.startsWith("out_") ? "own" : e.array.startsWith("sacc") ? "shared" : "global"}`);
        if (e.idx.length > 1) out.add("atomic:partly-indexed");
        e.idx.forEach(expr);
        return e.args.forEach(expr);
      case "call":
        out.add(`call:${e.t === "void" ? "void" : "value"}`);
        if (e.generic) {
          out.add(`generic:call:${e.generic.size !== undefined ? "sized" : e.generic.explicit ? "explicit" : "inferred"}`);
          out.add(`generic:instance:${e.t}`);
        }
        return e.args.forEach(expr);
      case "index":
        if (constantArrays.has(e.array)) out.add("constant:read");
        else {
          out.add(`index:${e.array.replace(/\d+$/, "").replace(/_.*$/, "")}:${e.idx.length}d`);
          out.add(`mem:${spaceOf(e.array)}:${e.t}`);
        }
        return e.idx.forEach(expr);
      default:
        return assertNever(e, "generated expression");
    }
  };
  const stmts = (ss: readonly Stmt[], where: string): void => ss.forEach((s) => stmt(s, where));
  const stmt = (s: Stmt | null, where: string): void => {
    if (!s) return;
    switch (s.k) {
      case "let":
        out.add(`stmt:${s.decl}${s.init ? "" : ":zero"}`);
        if (s.init) expr(s.init);
        return;
      case "localArray":
        out.add(`stmt:localArray:${s.dims.length}d${s.init ? (s.flat && s.dims.length > 1 ? ":flat" : ":init") : ""}`);
        out.add(`mem:local:${s.t}`);
        return;
      case "shared":
        out.add(s.dynamic ? "stmt:shared:dynamic" : `stmt:shared:${s.dims.length}d`);
        out.add(`mem:shared:${s.t}`);
        return;
      case "assign":
        out.add(`assign:${s.op}:${s.target.t}`);
        if (s.target.idx.length || /^(ss|sacc)/.test(s.target.name)) out.add(`mem:${spaceOf(s.target.name)}:${s.target.t}`);
        s.target.idx.forEach(expr);
        return expr(s.value);
      case "step":
        out.add(`step:${s.prefix ? "prefix" : "postfix"}${s.op}`);
        return s.target.idx.forEach(expr);
      case "do":
        return expr(s.e);
      case "if":
        out.add(s.else ? (s.else.length === 1 && s.else[0]!.k === "if" ? "stmt:else-if" : "stmt:if-else") : "stmt:if");
        expr(s.c);
        stmts(s.then, where);
        return stmts(s.else ?? [], where);
      case "for":
        out.add(s.cond ? "stmt:for" : "stmt:for(;;)");
        if (s.unroll !== undefined) out.add(s.unroll === "full" ? "unroll:full" : "unroll:N");
        stmt(s.init, where);
        if (s.cond) expr(s.cond);
        stmt(s.step, where);
        if (s.body.some((b) => b.k === "barrier")) out.add("barrier:in-loop");
        return stmts(s.body, where);
      case "while":
      case "doWhile":
        out.add(`stmt:${s.k}`);
        expr(s.c);
        return stmts(s.body, where);
      case "jump":
        out.add(`stmt:${s.word}`);
        return;
      case "return":
        out.add(`stmt:return:${where}${s.e ? ":value" : ""}`);
        if (s.e) expr(s.e);
        return;
      case "barrier":
        out.add("stmt:barrier");
        return;
      case "block":
        out.add("stmt:block");
        if (s.body[0]?.k === "let" && !/^[bc]\d+$/.test(s.body[0].name)) out.add("stmt:shadowing");
        return stmts(s.body, where);
      case "comment":
        return;
      default:
        return assertNever(s, "generated statement");
    }
  };
  p.fns.forEach((f) => stmts(f.body, "fn"));
  stmts(p.body, "kernel");
  for (const g of p.generics ?? []) out.add(`generic:fn:${g.constraint.text}${g.sized ? ":sized" : ""}`);
  if (p.sizeParam) out.add("generic:kernel");
  return out;
}

/** How many of these programs use generics, as a line for a test's log. */
export function genericUse(programs: readonly Program[]): string {
  let define = 0;
  let call = 0;
  let types = 0;
  let kernel = 0;
  for (const p of programs) {
    const f = [...features(p)];
    if (f.some((x) => x.startsWith("generic:fn:"))) define++;
    const instances = new Set(f.filter((x) => x.startsWith("generic:instance:")));
    if (instances.size) call++;
    if (instances.size > 1) types++;
    if (f.includes("generic:kernel")) kernel++;
  }
  return `generics in ${programs.length} kernels: ${define} define generic device functions, ${call} make instances of them (${types} at two types or more), ${kernel} are generic kernels run as an instance`;
}

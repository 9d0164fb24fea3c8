/**
 * What a generated program exercises, as feature names ("op:i32:<<", "cast:f32->u64",
 * "builtin:fma:f64", "atomic:atomicCAS:f32:own", "mem:shared:f16", "stmt:doWhile",
 * "vector:swizzle", "struct:array:shared", "view:shared:row", "ref:own", "stmt:shared:dynamic",
 * "constant:read", ...), so that a test can state that the generator reaches every operator,
 * conversion, builtin, statement form, kind of memory and memory space of every element type,
 * on scalars, vectors and structs.
 */
import { assertNever } from "../../util.js";
import { isScalarTy, isStructTy, isVecTy, type CallArg, type Expr, type LValue, type PathStep, type Program, type Stmt, type ValTy } from "./ast.js";

/** What kind of array a name is: in, out, la (local), sh/ss (shared), acc/sacc, approx; a parameter of a device function otherwise. */
function arrayKind(name: string): string {
  const m = /^(in|out|la|sh|ss|sacc|acc|approx)(?=\d|_|$)/.exec(name);
  return m ? { in: "global", out: "global", approx: "global", acc: "global", la: "local", sh: "shared", ss: "shared", sacc: "shared" }[m[1]!]! : "param";
}

/** The memory space of an array of a generated program, by its name (kernel.ts names them). */
export function spaceOf(array: string): "global" | "shared" | "local" | "table" {
  if (/^(sh|ss|sacc)/.test(array)) return "shared";
  if (/^la\d/.test(array)) return "local";
  if (/^tab\d/.test(array)) return "table";
  return "global";
}

export function features(p: Program): Set<string> {
  const out = new Set<string>();
  /** The dynamic shared arrays declared so far (their declarations come before their reads). */
  const dynamic = new Set<string>();
  const constantArrays = new Set(p.constantArrays.map((a) => a.name));
  for (const f of p.fns) for (const q of f.params) if (q.type.kind === "view" || q.type.kind === "ref") out.add(`param:${q.type.kind === "view" ? `view${q.type.readonly ? ":readonly" : ""}` : q.type.mode}`);
  if (p.tables.length) out.add("const:table");
  if (p.launchBounds) out.add(`kernel:launchBounds${p.launchBounds.length === 2 ? ":minBlocks" : ""}`);
  /** `vector:…` or `struct:…` for a value of a vector or struct type. */
  const kind = (t: ValTy | "void"): string | undefined => (t === "void" || isScalarTy(t) ? undefined : isVecTy(t) ? "vector" : "struct");
  const steps = (base: ValTy | undefined, path: readonly PathStep[]): void => {
    for (const s of path) {
      if (s.k === "elem") {
        out.add("struct:field:array");
        expr(s.idx);
      } else if (base !== undefined && isVecTy(base)) {
        out.add(s.name.length === 1 ? "vector:lane" : "vector:swizzle");
        if (/[rgba]/.test(s.name)) out.add("vector:rgba");
      } else out.add("struct:field");
    }
  };
  const lvalue = (l: LValue): void => {
    if (l.path?.length) {
      const last = l.path[l.path.length - 1]!;
      out.add(last.k === "field" && /^[xyzw]$/.test(last.name) && isScalarTy(l.t) ? "assign:lane" : "assign:field");
      l.path.forEach((s) => s.k === "elem" && expr(s.idx));
    }
    l.idx.forEach(expr);
  };
  const expr = (e: Expr | CallArg): void => {
    if (e.k !== "arrayRef" && e.k !== "lit" && e.k !== "special" && e.k !== "view" && e.k !== "ref") {
      const k = kind(e.t);
      if (k) out.add(`${k}:type:${isStructTy(e.t as ValTy) ? "struct" : e.t}`);
    }
    switch (e.k) {
      case "lit":
        out.add(e.constant ? `const:${p.constants.find((c) => c.name === e.constant)?.t ? "typed" : "untyped"}` : `lit:${e.t}`);
        return;
      case "name":
        if (/^s_/.test(e.name) && kind(e.t)) out.add(`${kind(e.t)}:kernel-value`);
        return;
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
        out.add(isVecTy(e.t) ? `vector:unary:${e.op}` : `unary:${e.t}:${e.op}`);
        return expr(e.e);
      case "binary":
        if (isVecTy(e.l.t as ValTy) || isVecTy(e.r.t as ValTy)) {
          out.add(`vector:op:${e.op}`);
          const shift = e.op === "<<" || e.op === ">>" || e.op === ">>>";
          if (!isVecTy(e.l.t as ValTy) || (!shift && !isVecTy(e.r.t as ValTy))) out.add("vector:broadcast");
        } else out.add(`op:${e.l.t}:${e.op}`);
        expr(e.l);
        return expr(e.r);
      case "select":
        out.add(`select:${e.t}`);
        return [e.c, e.a, e.b].forEach(expr);
      case "cast":
        out.add(isVecTy(e.t) ? "vector:convert" : `cast:${e.e.t}->${e.t}`);
        return expr(e.e);
      case "bitcast":
        out.add(`bitcast:${e.e.t}->${e.t}`);
        return expr(e.e);
      case "builtin":
        out.add(`builtin:${e.fn}:${e.args[0]?.t ?? "void"}`);
        if (e.fn === "load2" || e.fn === "load4" || e.fn === "load8") {
          const array = (e.args[0] as Expr & { k: "name" }).name;
          out.add(`vector:${e.fn}:${arrayKind(array)}`);
          if (dynamic.has(array)) out.add("vector:load:dynamic");
        }
        return e.args.forEach(expr);
      case "atomic":
        // `v` is a device function's view parameter (functions.ts), updated atomically by a view-atomic function.
        out.add(`atomic:${e.fn}:${e.t}:${e.array === "v" ? "view" : e.array.startsWith("out_") ? "own" : e.array.startsWith("sacc") ? "shared" : "global"}`);
        if (e.idx.length > 1) out.add("atomic:partly-indexed");
        e.idx.forEach(expr);
        return e.args.forEach(expr);
      case "call":
        out.add(`call:${e.t === "void" ? "void" : "value"}`);
        if (kind(e.t)) out.add(`${kind(e.t)}:call`);
        if (e.generic) {
          out.add(`generic:call:${e.generic.size !== undefined ? "sized" : e.generic.explicit ? "explicit" : "inferred"}`);
          out.add(`generic:instance:${e.t}`);
        }
        return e.args.forEach(expr);
      case "index":
        if (constantArrays.has(e.array)) out.add("constant:read");
        else {
          out.add(`index:${e.array.replace(/\d+$/, "").replace(/_.*$/, "")}:${e.idx.length}d`);
          if (kind(e.t)) out.add(`${kind(e.t)}:array:${arrayKind(e.array)}`);
          out.add(`mem:${spaceOf(e.array)}:${e.t}`);
        }
        return e.idx.forEach(expr);
      case "path":
        expr(e.e);
        return steps(e.e.t as ValTy, e.path);
      case "vec":
        out.add(e.parts.length === 1 && isScalarTy(e.parts[0]!.t as ValTy) ? "vector:splat" : e.parts.every((x) => isScalarTy(x.t as ValTy)) ? "vector:lanes" : "vector:parts");
        return e.parts.forEach(expr);
      case "struct":
        out.add("struct:value");
        return e.fields.forEach((f) => (Array.isArray(f) ? (f as readonly Expr[]).forEach(expr) : expr(f as Expr)));
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
        if (kind(s.t)) out.add(`${kind(s.t)}:local${s.init ? "" : ":zero"}`);
        if (s.init) expr(s.init);
        return;
      case "localArray":
        out.add(`stmt:localArray:${s.dims.length}d${s.init ? (s.flat && s.dims.length > 1 ? ":flat" : ":init") : ""}`);
        if (kind(s.t)) out.add(`${kind(s.t)}:array:local`);
        out.add(`mem:local:${s.t}`);
        return;
      case "shared":
        out.add(s.dynamic ? "stmt:shared:dynamic" : `stmt:shared:${s.dims.length}d`);
        if (s.dynamic) dynamic.add(s.name);
        if (kind(s.t)) out.add(`${kind(s.t)}:array:shared`);
        out.add(`mem:shared:${s.t}`);
        return;
      case "assign":
        out.add(kind(s.target.t) ? `${kind(s.target.t)}:assign:${s.op}` : `assign:${s.op}:${s.target.t}`);
        if (!s.target.path?.length && (s.target.idx.length || /^(ss|sacc)/.test(s.target.name))) out.add(`mem:${spaceOf(s.target.name)}:${s.target.t}`);
        lvalue(s.target);
        return expr(s.value);
      case "step":
        out.add(`step:${s.prefix ? "prefix" : "postfix"}${s.op}`);
        if (kind(s.target.t)) out.add(`${kind(s.target.t)}:step`);
        return lvalue(s.target);
      case "vstore":
        out.add(`vector:${s.fn}:${arrayKind(s.array)}`);
        out.add(`builtin:${s.fn}:${s.t}`);
        expr(s.idx);
        return expr(s.value);
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
  for (const f of p.fns) {
    stmts(f.body, "fn");
    for (const q of f.params) if (kind(q.type.t)) out.add(`${kind(q.type.t)}:fn-${q.type.kind === "global" ? "array" : "param"}`);
    if (kind(f.ret)) out.add(`${kind(f.ret)}:fn-return`);
  }
  for (const s of p.structs) {
    if (s.fields.some((f) => isStructTy(f.t))) out.add("struct:nested");
    for (const f of s.fields) if (isVecTy(f.t)) out.add("struct:vector-field");
  }
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

/** Test helpers for the parser: a compact S-expression printer of the AST, and diagnostics as lines. */
import { formatDiagnostic } from "../../src/diagnostics/format.js";
import { lineColOf, makeSourceFile, SourceMap, type Span } from "../../src/diagnostics/source.js";
import type { Expr, GenericArgs, GenericParam, Item, Module, Stmt, TypeExpr } from "../../src/parser/ast.js";
import { parse, type ParseResult } from "../../src/parser/index.js";

export const FILE = "test.gk";

export function parseText(src: string): ParseResult {
  return parse(makeSourceFile(FILE, src));
}

/** The AST of a program that must parse without diagnostics, printed one item per line. */
export function ast(src: string): string {
  const r = parseText(src);
  if (r.diagnostics.length > 0) throw new Error(`expected no diagnostics, got:\n${lines(src).join("\n")}`);
  return printModule(r.module);
}

/** The first statement of `device_kernel k() { <body> }`, printed. */
export function stmt(body: string): string {
  const item = parseClean(`device_kernel k() { ${body} }`).items[0];
  if (item?.kind !== "Kernel" || item.body.body.length !== 1) throw new Error(`expected one statement in ${body}`);
  return printStmt(item.body.body[0]!);
}

/** An expression, printed: parsed as the initializer of a module constant. */
export function expr(src: string): string {
  return printExpr(constInit(`const x = ${src};`));
}

export function constInit(src: string): Expr {
  const item = parseClean(src).items[0];
  if (item?.kind !== "Const") throw new Error("expected a const");
  return item.init;
}

export function parseClean(src: string): Module {
  const r = parseText(src);
  if (r.diagnostics.length > 0) throw new Error(`expected no diagnostics, got:\n${lines(src).join("\n")}`);
  return r.module;
}

/** Diagnostics as `CODE line:col message`. */
export function lines(src: string): string[] {
  const file = makeSourceFile(FILE, src);
  return parse(file).diagnostics.map((d) => {
    const at = d.span ? lineColOf(file, d.span.start) : { line: 0, col: 0 };
    return `${d.code} ${at.line}:${at.col} ${d.message}`;
  });
}

/** Every diagnostic formatted as `tsc --pretty` would (without colours). */
export function formatted(src: string): string {
  const sources = new SourceMap();
  const file = sources.add(makeSourceFile(FILE, src));
  return parse(file).diagnostics.map((d) => formatDiagnostic(d, sources)).join("\n");
}

/** The source text a span covers. */
export function textOf(src: string, s: Span): string {
  return src.slice(s.start, s.end);
}

// ---------------------------------------------------------------- printer

export function printModule(m: Module): string {
  return m.items.map(printItem).join("\n");
}

function list(head: string, ...parts: (string | undefined)[]): string {
  return `(${[head, ...parts.map((p) => p ?? "_")].join(" ")})`;
}

function printItem(i: Item): string {
  const exp = "exported" in i && i.exported ? "export " : "";
  switch (i.kind) {
    case "Kernel":
      return list(`${exp}kernel`, `${i.name.name}${generics(i.generics)}`, list("params", ...i.params.map((p) => `${p.name.name}:${printType(p.type)}`)), printStmt(i.body));
    case "Function":
      return list(
        `${exp}fn`,
        `${i.name.name}${generics(i.generics)}`,
        list("params", ...i.params.map((p) => `${p.name.name}:${printType(p.type)}`)),
        i.returnType && printType(i.returnType),
        printStmt(i.body),
      );
    case "Const":
      return list(`${exp}const`, i.name.name, i.type && printType(i.type), printExpr(i.init));
    case "Import":
      return list("import", list("names", ...i.names.map((n) => n.name)), JSON.stringify(i.path));
    case "Launch":
      return list(
        "launch",
        `${i.kernel.name}${typeArgs(i.typeArgs)}`,
        list("args", ...i.args.map((a) => `${a.name.name}=${printExpr(a.value)}`)),
        list("grid", ...i.grid.map(printExpr)),
        list("block", ...i.block.map(printExpr)),
      );
  }
}

/** `<T:f32|f64,N:i32,OP:device_fn(a:T,b:T):T>`, or nothing for a plain definition. */
function generics(ps: readonly GenericParam[] | undefined): string {
  const constraint = (p: GenericParam) => (p.fn ? `device_fn(${p.fn.params.map((q) => `${q.name.name}:${printType(q.type)}`).join(",")}):${printType(p.fn.returnType)}` : p.constraint.map((c) => c.name).join("|"));
  return ps ? `<${ps.map((p) => `${p.name.name}:${constraint(p)}`).join(",")}>` : "";
}

/** `<f32,256>`, or nothing. */
function typeArgs(a: GenericArgs | undefined): string {
  return a ? `<${a.args.map(printExpr).join(",")}>` : "";
}

export function printType(t: TypeExpr): string {
  switch (t.kind) {
    case "NamedType":
      return t.name.name;
    case "GlobalType":
      return `${t.readonly ? "readonly " : ""}global<${printType(t.elem)}>`;
    case "ArrayType":
      return `${printType(t.elem)}${t.sizes.map((s) => `[${printExpr(s)}]`).join("")}`;
  }
}

export function printStmt(s: Stmt): string {
  switch (s.kind) {
    case "VarDecl":
      return list(s.mutable ? "let" : "const", s.name.name, s.type && printType(s.type), s.init && printExpr(s.init));
    case "SharedDecl":
      return list("shared", s.name.name, printType(s.type));
    case "Assign":
      return list(s.op, printExpr(s.target), printExpr(s.value));
    case "IncDec":
      return list(s.op, printExpr(s.target));
    case "ExprStmt":
      return list("expr", printExpr(s.expr));
    case "If":
      return list("if", printExpr(s.cond), printStmt(s.then), s.else && printStmt(s.else));
    case "For":
      return list("for", s.init && printStmt(s.init), s.cond && printExpr(s.cond), s.step && printStmt(s.step), printStmt(s.body));
    case "While":
      return list("while", printExpr(s.cond), printStmt(s.body));
    case "DoWhile":
      return list("do", printStmt(s.body), printExpr(s.cond));
    case "Break":
      return "(break)";
    case "Continue":
      return "(continue)";
    case "Return":
      return s.value ? list("return", printExpr(s.value)) : "(return)";
    case "Block":
      return `{${s.body.map((b) => ` ${printStmt(b)}`).join("")} }`;
    case "Empty":
      return "(empty)";
  }
}

export function printExpr(e: Expr): string {
  switch (e.kind) {
    case "Number":
      return e.isFloat ? `${e.text}f` : e.text;
    case "Bool":
      return String(e.value);
    case "Name":
      return e.name;
    case "Unary":
      return list(e.op, printExpr(e.operand));
    case "Binary":
      return list(e.op, printExpr(e.left), printExpr(e.right));
    case "Conditional":
      return list("?", printExpr(e.cond), printExpr(e.then), printExpr(e.else));
    case "Call":
      return list("call", `${e.callee.name}${typeArgs(e.typeArgs)}`, ...e.args.map(printExpr));
    case "Index":
      return list("at", printExpr(e.object), printExpr(e.index));
    case "Member":
      return list(".", printExpr(e.object), e.property.name);
    case "ArrayLit":
      return `[${e.elements.map(printExpr).join(" ")}]`;
    case "Paren":
      return list("paren", printExpr(e.expr));
  }
}

/** Every span in a tree (the module, its nodes, and their names), for span-wide checks. */
export function allSpans(node: unknown, out: Span[] = []): Span[] {
  if (node === null || typeof node !== "object") return out;
  if (Array.isArray(node)) {
    for (const n of node) allSpans(n, out);
    return out;
  }
  for (const [key, value] of Object.entries(node)) {
    if ((key === "span" || key === "opSpan" || key === "pathSpan") && value && typeof value === "object") out.push(value as Span);
    else allSpans(value, out);
  }
  return out;
}

/**
 * How deep a program may nest (spec/language.md, "Limits"): every later step (checker,
 * passes, CUDA backend, simulator) walks the AST or IR recursively, so the parser refuses
 * what would overflow their stacks, with GK1014 at the place where the limit is crossed.
 *
 *   - brackets `( [ {` nest at most MAX_NESTING (100) deep (checked on tokens, index.ts),
 *     and structs as deep (checked by the checker, src/check/fileScope.ts);
 *   - a chain of binary operators has at most MAX_CHAIN_OPERANDS (500) operands (checked
 *     while the chain is built, expressions.ts);
 *   - an expression nests at most MAX_EXPR_DEPTH (500) operations deep: operators, casts
 *     and calls, indexing, `?:`, parentheses (`- - - x`, `!!!c`, chained `?:`);
 *   - statements nest at most MAX_STMT_DEPTH (100) compound statements deep: `if`, `else
 *     if`, `for`, `while`, `do`, `switch`, braced or not.
 *
 * The numbers leave room: the simulator's generated JavaScript, compiled by V8, is the
 * deepest consumer (a chain of about 900 operands ran it out of stack in a test worker).
 * The walk keeps its own stack, so it is safe on any AST the parser can build. An item that
 * nests too deeply is reported once and dropped from the module, so nothing after the parser
 * ever sees it.
 */
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import { assertNever } from "../util.js";
import type * as ast from "./ast.js";

/** How deep brackets ( [ { may nest (index.ts): the recursive-descent parser and the passes after it stay well within the stack. Structs nest as deep (the checker): a struct's value is written with one brace per level. */
export const MAX_NESTING = 100;
export const MAX_EXPR_DEPTH = 500;
export const MAX_CHAIN_OPERANDS = 500;
export const MAX_STMT_DEPTH = 100;

/** A node still to visit, with the depth of what encloses it (operations for an expression, compound statements for a statement). */
type Node = { readonly expr: ast.Expr; readonly depth: number } | { readonly stmt: ast.Stmt; readonly depth: number };

/** The expressions directly inside `e`. */
function exprChildren(e: ast.Expr): readonly ast.Expr[] {
  switch (e.kind) {
    case "Number":
    case "Bool":
    case "Name":
      return [];
    case "Unary":
      return [e.operand];
    case "Binary":
      return [e.left, e.right];
    case "Conditional":
      return [e.cond, e.then, e.else];
    case "Call":
      return e.args;
    case "Index":
      return [e.object, e.index];
    case "Member":
      return [e.object];
    case "ArrayLit":
      return e.elements;
    case "ObjectLit":
      return e.fields.map((f) => f.value);
    case "Paren":
      return [e.expr];
    default:
      return assertNever(e, "expression");
  }
}

function typeExprs(t: ast.TypeExpr | undefined): readonly ast.Expr[] {
  if (!t) return [];
  if (t.kind === "ArrayType") return [...t.sizes, ...typeExprs(t.elem)];
  if (t.kind === "GlobalType" || t.kind === "ViewType" || t.kind === "RefType") return typeExprs(t.elem);
  return [];
}

/** The statements and the expressions directly inside `s`; `compound` when `s` counts toward the statement depth. */
function stmtChildren(s: ast.Stmt): { stmts: readonly ast.Stmt[]; exprs: readonly ast.Expr[]; compound: boolean } {
  switch (s.kind) {
    case "VarDecl":
      return { stmts: [], exprs: [...typeExprs(s.type), ...(s.init ? [s.init] : [])], compound: false };
    case "VarDecls":
      return { stmts: s.decls, exprs: [], compound: false };
    case "Switch":
      return { stmts: s.cases.flatMap((c) => c.body), exprs: [s.value, ...s.cases.flatMap((c) => (c.test ? [c.test] : []))], compound: true };
    case "SharedDecl":
      return { stmts: [], exprs: typeExprs(s.type), compound: false };
    case "Assign":
      return { stmts: [], exprs: [s.target, s.value], compound: false };
    case "IncDec":
      return { stmts: [], exprs: [s.target], compound: false };
    case "ExprStmt":
      return { stmts: [], exprs: [s.expr], compound: false };
    case "If":
      return { stmts: s.else ? [s.then, s.else] : [s.then], exprs: [s.cond], compound: true };
    case "For":
      return { stmts: [...(s.init ? [s.init] : []), ...(s.step ? [s.step] : []), s.body], exprs: s.cond ? [s.cond] : [], compound: true };
    case "While":
    case "DoWhile":
      return { stmts: [s.body], exprs: [s.cond], compound: true };
    case "Return":
      return { stmts: [], exprs: s.value ? [s.value] : [], compound: false };
    case "Block":
      return { stmts: s.body, exprs: [], compound: false };
    case "Annotated":
      return { stmts: [s.body], exprs: s.annotation.args ?? [], compound: false };
    case "Break":
    case "Continue":
    case "Empty":
      return { stmts: [], exprs: [], compound: false };
    default:
      return assertNever(s, "statement");
  }
}

/** A span covering only the first characters of a node, so the code frame points at where it starts. */
function head(span: Span, length: number): Span {
  return { file: span.file, start: span.start, end: Math.min(span.end, span.start + length) };
}

/** The first place in `roots` (depth-first, in source order) that nests past a limit, as GK1014. */
function tooDeep(roots: { stmts: readonly ast.Stmt[]; exprs: readonly ast.Expr[] }): Diagnostic | undefined {
  const stack: Node[] = [];
  const push = (stmts: readonly ast.Stmt[], exprs: readonly ast.Expr[], stmtDepth: number) => {
    // Pushed in reverse, so the walk meets nodes roughly in source order (a statement's own
    // expressions first) and reports the first place.
    for (let i = stmts.length - 1; i >= 0; i--) stack.push({ stmt: stmts[i]!, depth: stmtDepth });
    for (let i = exprs.length - 1; i >= 0; i--) stack.push({ expr: exprs[i]!, depth: 0 });
  };
  push(roots.stmts, roots.exprs, 0);
  while (stack.length) {
    const n = stack.pop()!;
    if ("expr" in n) {
      const kids = exprChildren(n.expr);
      if (kids.length === 0) continue;
      const depth = n.depth + 1;
      if (depth > MAX_EXPR_DEPTH) {
        return error("GK1014", head(n.expr.span, 1), `this expression nests more than ${MAX_EXPR_DEPTH} operations deep here: compute part of it in a variable first (let t = ...;)`);
      }
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ expr: kids[i]!, depth });
      continue;
    }
    const { stmts, exprs, compound } = stmtChildren(n.stmt);
    const depth = n.depth + (compound ? 1 : 0);
    if (depth > MAX_STMT_DEPTH) {
      const what = n.stmt.kind === "If" ? "if" : n.stmt.kind === "For" ? "for" : n.stmt.kind === "While" ? "while" : n.stmt.kind === "DoWhile" ? "do" : "switch";
      return error(
        "GK1014",
        head(n.stmt.span, what.length),
        `statements nest more than ${MAX_STMT_DEPTH} deep here ('if', 'else if', loops and 'switch' together): split the code into device functions${what === "if" ? ", or turn a long 'else if' chain into a switch" : ""}`,
      );
    }
    push(stmts, exprs, depth);
  }
  return undefined;
}

/** The module without its items that nest too deeply, and one GK1014 for each of them. */
export function checkNesting(module: ast.Module): { module: ast.Module; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const items = module.items.filter((item) => {
    const d = tooDeep(itemRoots(item));
    if (d) diagnostics.push(d);
    return d === undefined;
  });
  return { module: diagnostics.length ? { ...module, items } : module, diagnostics };
}

function itemRoots(item: ast.Item): { stmts: readonly ast.Stmt[]; exprs: readonly ast.Expr[] } {
  switch (item.kind) {
    case "Kernel":
    case "Function":
      return { stmts: [item.body], exprs: item.params.flatMap((p) => typeExprs(p.type)) };
    case "Const":
      return { stmts: [], exprs: [...typeExprs(item.type), item.init] };
    case "Struct":
      return { stmts: [], exprs: item.fields.flatMap((f) => typeExprs(f.type)) };
    case "Import":
      return { stmts: [], exprs: [] };
    case "Constant":
      return { stmts: [], exprs: typeExprs(item.type) };
    case "ModuleAnnotation":
      return { stmts: [], exprs: item.annotation.args ?? [] };
    case "Launch":
      return { stmts: [], exprs: [...item.args.map((a) => a.value), ...item.grid, ...item.block, ...item.shared.map((a) => a.value)] };
    default:
      return assertNever(item, "item");
  }
}

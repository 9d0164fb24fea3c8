/**
 * CST → AST: module items, statements and types (expressions are in `expressions.ts`).
 *
 * The CST may be partial or patched after error recovery. A statement or declaration
 * that recovery touched is left out without a word: its syntax error is reported, and
 * what recovery made of it would only give misleading follow-on errors. Statements
 * nested in it are still visited, for errors of their own. Blocks keep the statements
 * that parsed, so a kernel whose closing `}` is missing still appears, with them.
 */
import type { IToken } from "chevrotain";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../diagnostics/source.js";
import type {
  Annotation, BlockStmt, ConstantDecl, ConstDecl, Expr, FieldDecl, FunctionDecl, GenericParam, ImportDecl, Item, KernelDecl, LaunchArg, LaunchDecl, Module, Param, Stmt,
  StructDecl, SwitchCase, TypeExpr, VarDecl, VarDecls,
} from "./ast.js";
import { all, cover, declaredName, ident, last, one, real, touchedByRecovery, untouched, type BuildContext } from "./build.js";
import type {
  AnnotationCst, ArgListCst, BlockCst, ConstantDeclCst, LaunchArgCst, ConstDeclCst, DeclaratorCst, ForStmtCst, FunctionDeclCst, GenericParamsCst, IfStmtCst, ImportDeclCst, ItemCst, KernelDeclCst, LaunchDeclCst,
  ExpressionCst, ModuleCst, ParamListCst, StatementCst, StructDeclCst, SwitchStmtCst, TypeAtomCst, TypeCst, VarDeclCst,
} from "./cst.js";
import { argList, expression, genericArgs, statementExpression } from "./expressions.js";
import { tokenSpan } from "./lexer.js";
import { readString } from "./literals.js";
import { Let } from "./tokens.js";

/** How the parse went, as far as building the AST cares. */
export interface ParseOutcome {
  /** Whether the parser met any syntax error (and so may have left partial or patched nodes). */
  readonly recovered: boolean;
  /** Opening brackets of groups in which the parser skipped stray tokens (see `GkParser.strayGroups`). */
  readonly strayGroups: ReadonlySet<IToken>;
}

export function toAst(cst: ModuleCst, file: SourceFile, log: DiagnosticLog, outcome: ParseOutcome): Module {
  const cx: BuildContext = { file: file.path, log, strayGroups: outcome.strayGroups, recovered: outcome.recovered };
  const items = (cst.children.item ?? []).map((i) => item(cx, i)).filter((i): i is Item => i !== undefined);
  return { kind: "Module", file: file.path, items, span: { file: file.path, start: 0, end: file.text.length } };
}

// ---------------------------------------------------------------- module items

function item(cx: BuildContext, cst: ItemCst): Item | undefined {
  const c = cst.children;
  const exported = real(one(c.Export));
  const kernel = one(c.kernelDecl);
  if (kernel) return kernelDecl(cx, kernel, exported);
  const fn = one(c.functionDecl);
  if (fn) return functionDecl(cx, fn, exported);
  const constant = one(c.constDecl);
  if (constant) return touchedByRecovery(cx, constant) ? undefined : constDecl(cx, constant, exported);
  const struct = one(c.structDecl);
  if (struct) return touchedByRecovery(cx, struct) ? undefined : structDecl(cx, struct, exported);
  const constantMemory = one(c.constantDecl);
  if (constantMemory) return touchedByRecovery(cx, constantMemory) ? undefined : constantDecl(cx, constantMemory, exported);
  const option = one(c.moduleAnnotation);
  if (option) {
    if (touchedByRecovery(cx, option)) return undefined;
    if (exported && !option.children.kernelDecl) {
      cx.log.error("GK1010", tokenSpan(cx.file, exported), "a module option cannot be exported: only device_kernel, device_fn, const, constant and struct declarations can");
      return undefined;
    }
    const a = annotation(cx, one(option.children.annotation));
    const annotated = one(option.children.kernelDecl);
    if (annotated) {
      // `@launchBounds(256) device_kernel k(...)`: exported by `export` before the annotation or after it.
      const k = a && kernelDecl(cx, annotated, exported ?? one(option.children.kernelExport));
      return k && { ...k, annotation: a, span: cover(cx, exported, a.span, k.span) };
    }
    return a && { kind: "ModuleAnnotation", annotation: a, span: cover(cx, a.span, one(option.children.Semi)) };
  }
  const imp = one(c.importDecl);
  const launch = one(c.launchDecl);
  if ((imp && touchedByRecovery(cx, imp)) || (launch && touchedByRecovery(cx, launch))) return undefined;
  if (exported && (imp || launch)) {
    const what = imp ? "an import" : "a launch";
    cx.log.error("GK1010", tokenSpan(cx.file, exported), `${what} cannot be exported: only device_kernel, device_fn, struct and const declarations can`);
    return undefined;
  }
  if (imp) return importDecl(cx, imp);
  return launch && launchDecl(cx, launch);
}

function kernelDecl(cx: BuildContext, cst: KernelDeclCst, exported: IToken | undefined): KernelDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.DeviceKernel));
  const name = declaredName(cx, one(c.name));
  const generics = c.genericParams ? genericParams(cx, untouched(cx, one(c.genericParams))) : undefined;
  const params = paramList(cx, untouched(cx, one(c.paramList)));
  const body = block(cx, one(c.body));
  if (!keyword || !name || !params || !body || (c.genericParams && !generics)) return undefined;
  return { kind: "Kernel", exported: exported !== undefined, name, ...(generics && { generics }), params, body, span: cover(cx, exported, keyword, body.span) };
}

function functionDecl(cx: BuildContext, cst: FunctionDeclCst, exported: IToken | undefined): FunctionDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.DeviceFn));
  const name = declaredName(cx, one(c.name));
  const generics = c.genericParams ? genericParams(cx, untouched(cx, one(c.genericParams))) : undefined;
  const params = paramList(cx, untouched(cx, one(c.paramList)));
  const returnType = c.Colon ? typeExpr(cx, untouched(cx, one(c.returnType))) : undefined;
  const body = block(cx, one(c.body));
  if (!keyword || !name || !params || !body || (c.Colon && !returnType) || (c.genericParams && !generics)) return undefined;
  return {
    kind: "Function",
    exported: exported !== undefined,
    name,
    ...(generics && { generics }),
    params,
    ...(returnType && { returnType }),
    body,
    span: cover(cx, exported, keyword, body.span),
  };
}

/** `<T: f32 | f64, N: i32>`: each parameter's name and the names of its constraint. */
function genericParams(cx: BuildContext, cst: GenericParamsCst | undefined): GenericParam[] | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  return all(cst.children.genericParam, (p): GenericParam | undefined => {
    const name = declaredName(cx, one(p.children.name));
    if (p.children.fnKeyword) {
      const keyword = real(one(p.children.fnKeyword));
      const params = paramList(cx, untouched(cx, one(p.children.fnParams)));
      const returnType = typeExpr(cx, untouched(cx, one(p.children.fnReturn)));
      if (!name || !keyword || !params || !returnType || p.recoveredNode) return undefined;
      const fn = { params, returnType, span: cover(cx, keyword, returnType.span) };
      return { name, constraint: [], fn, span: cover(cx, name.span, returnType.span) };
    }
    const constraint = all(p.children.constraint, (t) => ident(cx, t));
    if (!name || !constraint || constraint.length === 0 || p.recoveredNode) return undefined;
    return { name, constraint, span: cover(cx, name.span, constraint[constraint.length - 1]!.span) };
  });
}

function paramList(cx: BuildContext, cst: ParamListCst | undefined): Param[] | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  return all(cst.children.param, (p): Param | undefined => {
    const name = declaredName(cx, one(p.children.name));
    const type = typeExpr(cx, one(p.children.type));
    return name && type && !p.recoveredNode ? { name, type, span: cover(cx, name.span, type.span) } : undefined;
  });
}

function constDecl(cx: BuildContext, cst: ConstDeclCst, exported: IToken | undefined): ConstDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.Const));
  const name = declaredName(cx, one(c.name));
  const type = c.Colon ? typeExpr(cx, one(c.type)) : undefined;
  const init = expression(cx, one(c.init));
  if (!keyword || !name || !init || (c.Colon && !type)) return undefined;
  return {
    kind: "Const",
    exported: exported !== undefined,
    name,
    ...(type && { type }),
    init,
    span: cover(cx, exported, keyword, init.span, one(c.Semi)),
  };
}

function structDecl(cx: BuildContext, cst: StructDeclCst, exported: IToken | undefined): StructDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.CtxStruct));
  const name = declaredName(cx, one(c.name));
  const fields = all(c.fieldDecl, (f): FieldDecl | undefined => {
    const fname = declaredName(cx, one(f.children.name));
    const type = typeExpr(cx, one(f.children.type));
    return fname && type && !f.recoveredNode ? { name: fname, type, span: cover(cx, fname.span, type.span) } : undefined;
  });
  if (!keyword || !name || !fields || !real(one(c.LCurly))) return undefined;
  return { kind: "Struct", exported: exported !== undefined, name, fields, span: cover(cx, exported, keyword, one(c.RCurly)) };
}

function constantDecl(cx: BuildContext, cst: ConstantDeclCst, exported: IToken | undefined): ConstantDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.CtxConstant));
  const name = declaredName(cx, one(c.name));
  const type = typeExpr(cx, one(c.type));
  if (!keyword || !name || !type) return undefined;
  return { kind: "Constant", exported: exported !== undefined, name, type, span: cover(cx, exported, keyword, type.span, one(c.Semi)) };
}

/** `@name` or `@name(args)`. */
function annotation(cx: BuildContext, cst: AnnotationCst | undefined): Annotation | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  const at = real(one(cst.children.At));
  const name = ident(cx, one(cst.children.name));
  const list = cst.children.args ? argList(cx, one(cst.children.args)) : undefined;
  if (!at || !name || (cst.children.args && !list)) return undefined;
  return { name, ...(list && { args: list.args }), span: cover(cx, at, name.span, list?.span) };
}

function importDecl(cx: BuildContext, cst: ImportDeclCst): ImportDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.Import));
  const names = all(c.names, (n) => ident(cx, n));
  const path = real(one(c.path));
  if (!keyword || !names || !path || !real(one(c.LCurly))) return undefined;
  const pathSpan = tokenSpan(cx.file, path);
  return { kind: "Import", names, path: readString(path.image).value, pathSpan, span: cover(cx, keyword, pathSpan, one(c.Semi)) };
}

function launchDecl(cx: BuildContext, cst: LaunchDeclCst): LaunchDecl | undefined {
  const c = cst.children;
  const keyword = real(one(c.Launch));
  const kernel = ident(cx, one(c.kernel));
  const typeArgs = c.typeArgs ? genericArgs(cx, one(c.typeArgs)) : undefined;
  const args = all(c.launchArg, (a) => launchArg(cx, a));
  const grid = launchSizes(cx, "grid", one(c.CtxGrid), one(c.grid));
  const blockSizes = launchSizes(cx, "block", one(c.CtxBlock), one(c.block));
  const clause = one(c.sharedClause);
  const shared = clause ? (clause.recoveredNode ? undefined : all(clause.children.lengths, (a) => launchArg(cx, a))) : [];
  if (!keyword || !kernel || !args || !grid || !blockSizes || !shared || !real(one(c.LParen)) || (c.typeArgs && !typeArgs)) return undefined;
  const end = clause ? one(clause.children.RParen) : one(c.block)?.children.RParen?.[0];
  return { kind: "Launch", kernel, ...(typeArgs && { typeArgs }), args, grid, block: blockSizes, shared, span: cover(cx, keyword, end, one(c.Semi)) };
}

function launchArg(cx: BuildContext, a: LaunchArgCst): LaunchArg | undefined {
  const name = declaredName(cx, one(a.children.name));
  const value = expression(cx, one(a.children.value));
  return name && value && !a.recoveredNode ? { name, value, span: cover(cx, name.span, value.span) } : undefined;
}

function launchSizes(cx: BuildContext, what: string, keyword: IToken | undefined, cst: ArgListCst | undefined): Expr[] | undefined {
  const list = argList(cx, cst);
  if (!real(keyword) || list === undefined) return undefined;
  if (list.args.length < 1 || list.args.length > 3) {
    const found = list.args.length === 0 ? "none" : String(list.args.length);
    cx.log.error("GK1010", cover(cx, keyword, list.span), `${what}(...) takes one to three sizes, as in ${what}(x), ${what}(x, y) or ${what}(x, y, z); found ${found}`);
    return undefined;
  }
  return list.args;
}

// ---------------------------------------------------------------- types

function typeExpr(cx: BuildContext, cst: TypeCst | undefined): TypeExpr | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  const shared = real(one(cst.children.Shared));
  const elem = typeAtom(cx, one(cst.children.typeAtom));
  const sizes = all(cst.children.sizes, (s) => expression(cx, s));
  const brackets = cst.children.LBracket ?? [];
  if (!elem || !sizes || (cst.children.RBracket ?? []).length !== brackets.length) return undefined;
  const span = cover(cx, shared, elem.span, last(sizes)?.span, last(cst.children.RBracket));
  const unsized = sizes.length < brackets.length;
  if (unsized && (brackets.length > 1 || shared)) {
    cx.log.error("GK1010", span, "only a one-dimensional shared array declared in a kernel may leave out its size, which each launch gives: `shared buf: f32[];`");
    return undefined;
  }
  if (shared && (brackets.length === 0 || elem.kind !== "NamedType")) {
    cx.log.error("GK1010", cover(cx, shared, elem.span), "'shared' in a type marks a device_fn parameter that is a shared array, with its sizes: `s: shared f32[256]`");
    return undefined;
  }
  if (brackets.length === 0) return elem;
  return { kind: "ArrayType", elem, sizes, unsized, shared: shared !== undefined, span };
}

function typeAtom(cx: BuildContext, cst: TypeAtomCst | undefined): TypeExpr | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  const c = cst.children;
  const readonlyTok = real(one(c.CtxReadonly));
  if (readonlyTok) {
    const inner = typeAtom(cx, one(c.qualified));
    if ((inner?.kind === "GlobalType" || inner?.kind === "ViewType") && !inner.readonly) return { ...inner, readonly: true, span: cover(cx, readonlyTok, inner.span) };
    if (inner) cx.log.error("GK1010", tokenSpan(cx.file, readonlyTok), "'readonly' applies only to global memory and views, as in `readonly global<f32>` or `readonly view<f32>`");
    return undefined;
  }
  const global = real(one(c.CtxGlobal));
  if (global) {
    const elem = typeExpr(cx, one(c.elem));
    return elem && { kind: "GlobalType", readonly: false, elem, span: cover(cx, global, elem.span, one(c.Greater)) };
  }
  const view = real(one(c.CtxView));
  if (view) {
    const elem = typeExpr(cx, one(c.viewElem));
    return elem && { kind: "ViewType", readonly: false, elem, span: cover(cx, view, elem.span, one(c.Greater)) };
  }
  const mode = real(one(c.mode));
  if (mode) {
    const elem = typeAtom(cx, one(c.referenced));
    return elem && { kind: "RefType", mode: mode.image === "out" ? "out" : "inout", elem, span: cover(cx, mode, elem.span) };
  }
  const name = ident(cx, one(c.name));
  return name && { kind: "NamedType", name, span: name.span };
}

// ---------------------------------------------------------------- statements

function block(cx: BuildContext, cst: BlockCst | undefined): BlockStmt | undefined {
  const open = real(one(cst?.children.LCurly));
  if (!cst || !open) return undefined;
  const body = (cst.children.statement ?? []).map((s) => statement(cx, s)).filter((s): s is Stmt => s !== undefined);
  return { kind: "Block", body, span: cover(cx, open, last(body)?.span, one(cst.children.RCurly)) };
}

function statement(cx: BuildContext, cst: StatementCst | undefined): Stmt | undefined {
  if (!cst) return undefined;
  if (touchedByRecovery(cx, cst)) {
    // Left out: its syntax error is reported. Statements nested in it may have errors of their own.
    for (const nested of nestedStatements(cst)) statement(cx, nested);
    return undefined;
  }
  const c = cst.children;
  if (c.block) return block(cx, one(c.block));
  if (c.annotatedStmt) {
    const s = one(c.annotatedStmt)!;
    const a = annotation(cx, one(s.children.annotation));
    const body = statement(cx, one(s.children.body));
    return a && body && { kind: "Annotated", annotation: a, body, span: cover(cx, a.span, body.span) };
  }
  if (c.varStatement) {
    const s = one(c.varStatement);
    return s && !s.recoveredNode ? varDecl(cx, one(s.children.varDecl), one(s.children.Semi)) : undefined;
  }
  if (c.sharedDecl) {
    const s = one(c.sharedDecl)!;
    const keyword = real(one(s.children.Shared));
    const name = declaredName(cx, one(s.children.name));
    const type = typeExpr(cx, one(s.children.type));
    return keyword && name && type && { kind: "SharedDecl", name, type, span: cover(cx, keyword, type.span, one(s.children.Semi)) };
  }
  if (c.ifStmt) return ifStmt(cx, one(c.ifStmt));
  if (c.switchStmt) return switchStmt(cx, one(c.switchStmt));
  if (c.forStmt) return forStmt(cx, one(c.forStmt));
  if (c.whileStmt) {
    const s = one(c.whileStmt)!;
    const keyword = real(one(s.children.While));
    const cond = expression(cx, one(s.children.cond));
    const body = statement(cx, one(s.children.body));
    return keyword && cond && body && { kind: "While", cond, body, span: cover(cx, keyword, body.span) };
  }
  if (c.doWhileStmt) {
    const s = one(c.doWhileStmt)!;
    const keyword = real(one(s.children.Do));
    const body = statement(cx, one(s.children.body));
    const cond = expression(cx, one(s.children.cond));
    if (s.recoveredNode || !keyword || !body || !cond) return undefined;
    return { kind: "DoWhile", body, cond, span: cover(cx, keyword, cond.span, one(s.children.RParen), one(s.children.Semi)) };
  }
  if (c.breakStmt) {
    const s = one(c.breakStmt)!;
    const keyword = real(one(s.children.Break));
    return keyword && { kind: "Break", span: cover(cx, keyword, one(s.children.Semi)) };
  }
  if (c.continueStmt) {
    const s = one(c.continueStmt)!;
    const keyword = real(one(s.children.Continue));
    return keyword && { kind: "Continue", span: cover(cx, keyword, one(s.children.Semi)) };
  }
  if (c.returnStmt) {
    const s = one(c.returnStmt)!;
    const keyword = real(one(s.children.Return));
    const value = s.children.value ? expression(cx, one(s.children.value)) : undefined;
    if (s.recoveredNode || !keyword || (s.children.value && !value)) return undefined;
    return { kind: "Return", ...(value && { value }), span: cover(cx, keyword, value?.span, one(s.children.Semi)) };
  }
  const empty = real(one(c.empty));
  if (empty) return { kind: "Empty", span: tokenSpan(cx.file, empty) };
  const s = one(c.exprStmt);
  return s && !s.recoveredNode ? statementExpression(cx, one(s.children.expression), one(s.children.Semi)) : undefined;
}

/** The statements directly inside a block, an `if` or a loop. */
function nestedStatements(cst: StatementCst): readonly StatementCst[] {
  const c = cst.children;
  const branches = one(c.ifStmt)?.children;
  const loop = one(c.forStmt) ?? one(c.whileStmt) ?? one(c.doWhileStmt);
  return [
    ...(one(c.block)?.children.statement ?? []),
    ...(one(c.annotatedStmt)?.children.body ?? []),
    ...(branches?.then ?? []),
    ...(branches?.else ?? []),
    ...(loop?.children.body ?? []),
  ];
}

/**
 * `let`/`const` declarations; `end` is the `;` when the declaration is a statement of its own.
 * One name is a VarDecl; several (`let a = 1, b = 2;`) are VarDecls, each with its own span
 * (the first's from the keyword).
 */
function varDecl(cx: BuildContext, cst: VarDeclCst | undefined, end: IToken | undefined): VarDecl | VarDecls | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  const c = cst.children;
  const keyword = real(one(c.Let) ?? one(c.Const));
  const declarators = c.declarator ?? [];
  if (!keyword || declarators.length === 0) return undefined;
  const mutable = keyword.tokenType === Let;
  const decls: VarDecl[] = [];
  for (const [i, d] of declarators.entries()) {
    const last = i === declarators.length - 1;
    const decl = declarator(cx, d, mutable, i === 0 ? keyword : undefined, last ? end : undefined);
    if (!decl) return undefined;
    decls.push(decl);
  }
  if (decls.length === 1) return decls[0];
  return { kind: "VarDecls", decls, span: cover(cx, keyword, decls[decls.length - 1]!.span, end) };
}

function declarator(cx: BuildContext, cst: DeclaratorCst, mutable: boolean, keyword: IToken | undefined, end: IToken | undefined): VarDecl | undefined {
  if (cst.recoveredNode) return undefined;
  const c = cst.children;
  const name = declaredName(cx, one(c.name));
  const type = c.Colon ? typeExpr(cx, one(c.type)) : undefined;
  const init = c.Eq ? expression(cx, one(c.init)) : undefined;
  if (!name || (c.Colon && !type) || (c.Eq && !init)) return undefined;
  return {
    kind: "VarDecl",
    mutable,
    name,
    ...(type && { type }),
    ...(init && { init }),
    span: keyword ? cover(cx, keyword, name.span, type?.span, init?.span, end) : cover(cx, name.span, type?.span, init?.span, end),
  };
}

function switchStmt(cx: BuildContext, cst: SwitchStmtCst | undefined): Stmt | undefined {
  if (!cst || cst.recoveredNode) return undefined;
  const c = cst.children;
  const keyword = real(one(c.CtxSwitch));
  const value = expression(cx, one(c.value));
  const cases: SwitchCase[] = [];
  for (const k of c.switchCase ?? []) {
    if (k.recoveredNode) return undefined;
    const label = real(one(k.children.CtxCase) ?? one(k.children.CtxDefault));
    const test = k.children.CtxCase ? expression(cx, one(k.children.test)) : undefined;
    if (!label || (k.children.CtxCase && !test)) return undefined;
    const body = (k.children.body ?? []).map((s) => statement(cx, s)).filter((s): s is Stmt => s !== undefined);
    cases.push({ ...(test && { test }), body, span: cover(cx, label, one(k.children.Colon), last(body)?.span) });
  }
  if (!keyword || !value) return undefined;
  return { kind: "Switch", value, cases, span: cover(cx, keyword, one(c.RCurly)) };
}

function ifStmt(cx: BuildContext, cst: IfStmtCst | undefined): Stmt | undefined {
  if (!cst) return undefined;
  const c = cst.children;
  const keyword = real(one(c.If));
  const cond = expression(cx, one(c.cond));
  const then = statement(cx, one(c.then));
  const otherwise = c.Else ? statement(cx, one(c.else)) : undefined;
  if (cst.recoveredNode || !keyword || !cond || !then || (c.Else && !otherwise)) return undefined;
  return { kind: "If", cond, then, ...(otherwise && { else: otherwise }), span: cover(cx, keyword, (otherwise ?? then).span) };
}

/** A for header's `a, b, c` (statement expressions): one statement, or a block of them in order. */
function statementList(cx: BuildContext, csts: readonly ExpressionCst[] | undefined): Stmt | undefined {
  if (!csts?.length) return undefined;
  const stmts = csts.map((e) => statementExpression(cx, e, undefined));
  if (stmts.some((x) => !x)) return undefined;
  const list = stmts as Stmt[];
  return list.length === 1 ? list[0] : { kind: "Block", body: list, span: cover(cx, list[0]!.span, list[list.length - 1]!.span) };
}

function forStmt(cx: BuildContext, cst: ForStmtCst | undefined): Stmt | undefined {
  if (!cst) return undefined;
  const c = cst.children;
  const keyword = real(one(c.For));
  const initCst = one(c.initDecl) ?? one(c.init);
  const init = c.initDecl ? varDecl(cx, one(c.initDecl), undefined) : statementList(cx, c.init);
  const cond = c.cond ? expression(cx, one(c.cond)) : undefined;
  const step = statementList(cx, c.step);
  const body = statement(cx, one(c.body));
  if (cst.recoveredNode || !keyword || !body || (initCst && !init) || (c.cond && !cond) || (c.step && !step)) return undefined;
  return {
    kind: "For",
    ...(init && { init }),
    ...(cond && { cond }),
    ...(step && { step }),
    body,
    span: cover(cx, keyword, body.span),
  };
}

/**
 * A TypeScript file's top level, lowered to a gk module: `kernel(...)` and `deviceFn(...)`
 * initializing top-level consts are device_kernels and device_fns, top-level consts that gk
 * can compute (literals, other such constants, conversions) and `table(...)` are module
 * constants, and imports of .gk files and other kernel files that kernels use are gk imports.
 * Everything else is host code, which gk leaves alone: it is an error only when a kernel
 * uses it (GK2050, GK2051).
 */
import type { ts as TS } from "ts-morph";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type * as ast from "../parser/ast.js";
import { isReservedName } from "../ir/names.js";
import { isScalarName } from "../ir/types.js";
import { refuse, spanOf, type HostKind, type Lowering, type RelativeImport, type Ts } from "./context.js";
import { annotationMarker, annotationOf, arrayShape, functionBody } from "./body.js";
import { expr, gkCall, ident, typeExpr } from "./expr.js";
import { ANNOTATION_CALLS, GK_MODULE, ITEM_CALLS, type ItemCall } from "./spellings.js";
import { isPackagePath, isRelativePath } from "../parser/importPaths.js";

/** The gk module of a TypeScript file that the TypeScript compiler has parsed. */
export function lowerFile(ts: Ts, sf: TS.SourceFile, file: string, log: DiagnosticLog): ast.Module {
  const cx: Lowering = {
    ts, sf, file, log,
    gk: new Map(), gkNamespaces: new Set(), imports: new Map(), items: new Set(), host: new Map(), itemCalls: new Set(),
    interfaces: new Map(), typeAliases: new Set(), structs: new Set(),
    scopes: [],
  };
  const decls: { stmt: TS.VariableStatement; decl: TS.VariableDeclaration; name: string; call?: ItemCall }[] = [];
  const options: TS.Statement[] = [];
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s)) importDecl(cx, s);
    else if (annotationMarker(cx, s)) options.push(s);
    else if (ts.isVariableStatement(s)) {
      const isConst = (s.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const d of s.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) {
          for (const n of boundNames(ts, d.name)) hostName(cx, n, "variable");
          continue;
        }
        const call = isConst ? (gkCall(cx, d.initializer, ITEM_CALLS) as ItemCall | undefined) : undefined;
        if (isConst) decls.push({ stmt: s, decl: d, name: d.name.text, ...(call && { call }) });
        else hostName(cx, d.name, "variable");
      }
    } else if (ts.isFunctionDeclaration(s) && s.name) hostName(cx, s.name, "function");
    else if (ts.isClassDeclaration(s) && s.name) hostName(cx, s.name, "class");
    else if (ts.isEnumDeclaration(s)) hostName(cx, s.name, "constant");
    else if (ts.isInterfaceDeclaration(s)) cx.interfaces.set(s.name.text, s);
    else if (ts.isTypeAliasDeclaration(s)) cx.typeAliases.add(s.name.text);
  }

  // Which consts gk can compute: found by rounds, since a constant may use one declared after it.
  const constants = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const d of decls) {
      if (d.call || constants.has(d.name) || !isConstantDecl(cx, d.decl, constants)) continue;
      constants.add(d.name);
      grew = true;
    }
  }
  for (const d of decls) {
    if (d.call || constants.has(d.name)) cx.items.add(d.name);
    else hostName(cx, d.decl.name as TS.Identifier, "constant");
  }

  const items: ast.Item[] = [];
  for (const d of decls) {
    if (!cx.items.has(d.name)) continue;
    // One declaration per statement spans the statement (`export const k = ...;`); several, each its own.
    const at = d.stmt.declarationList.declarations.length === 1 ? d.stmt : d.decl;
    const item = d.call ? functionItem(cx, d.stmt, d.decl, d.call, at) : constItem(cx, d.stmt, d.decl, at);
    if (item) items.push(item);
  }
  for (const s of options) {
    const option = moduleOption(cx, s);
    if (option) items.push(option);
  }
  // The interfaces kernel code names are structs (a struct's fields may name more).
  const lowered = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of [...cx.structs]) {
      if (lowered.has(n)) continue;
      lowered.add(n);
      grew = true;
      const struct = structItem(cx, cx.interfaces.get(n)!);
      if (struct) items.push(struct);
    }
  }
  strayItemCalls(cx, sf);
  const imports = gkImports(cx);
  const all = [...imports, ...items].sort((a, b) => a.span.start - b.span.start);
  return { kind: "Module", file, items: all, span: { file, start: 0, end: sf.text.length } };
}

function boundNames(ts: Ts, n: TS.BindingName): TS.Identifier[] {
  if (ts.isIdentifier(n)) return [n];
  return n.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(ts, e.name)));
}

function hostName(cx: Lowering, id: TS.Identifier, kind: HostKind): void {
  cx.host.set(id.text, { kind, span: spanOf(cx, id) });
}

function exported(cx: Lowering, s: TS.VariableStatement): boolean {
  return s.modifiers?.some((m) => m.kind === cx.ts.SyntaxKind.ExportKeyword) ?? false;
}

// ---------------------------------------------------------------- imports

/** `import { a } from "gk"`, from a .gk file or a kernel file (relative), or from anything else (the host's). */
function importDecl(cx: Lowering, s: TS.ImportDeclaration): void {
  const ts = cx.ts;
  const clause = s.importClause;
  if (!clause || !ts.isStringLiteral(s.moduleSpecifier)) return;
  const from = s.moduleSpecifier.text;
  const named = clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
  const namespace = clause.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? clause.namedBindings.name : undefined;
  if (from === GK_MODULE) {
    for (const el of named) {
      const gk = (el.propertyName ?? el.name).text;
      // kernel() and deviceFn() are called outside kernels, where the check of renamed names in kernel code cannot see them; gk/vite finds kernel() by its name.
      if (gk !== el.name.text && Object.hasOwn(ITEM_CALLS, gk)) {
        cx.log.error("GK1020", spanOf(cx, el), `${gk}() keeps its name: import { ${gk} } from "gk" (not '${gk} as ${el.name.text}')`);
        continue;
      }
      cx.gk.set(el.name.text, gk);
    }
    if (namespace) cx.gkNamespaces.add(namespace.text);
    return;
  }
  const relative = isRelativePath(from) || isPackagePath(from);
  if (clause.isTypeOnly || !relative) {
    if (clause.name) hostName(cx, clause.name, "import");
    if (namespace) hostName(cx, namespace, "import");
    for (const el of named) hostName(cx, el.name, "import");
    return;
  }
  if (clause.name) hostName(cx, clause.name, "import");
  if (namespace) hostName(cx, namespace, "import");
  const path = kernelSourcePath(from);
  for (const el of named) {
    if (el.isTypeOnly) continue;
    const imp: RelativeImport = {
      local: el.name.text,
      imported: (el.propertyName ?? el.name).text,
      path,
      pathSpan: spanOf(cx, s.moduleSpecifier),
      span: spanOf(cx, el),
      used: false,
    };
    cx.imports.set(imp.local, imp);
  }
}

/**
 * The file gk reads for a relative import of a TypeScript file: TypeScript's own rule, a
 * `.js` path names the `.ts` source (`.mjs` the `.mts`), and a path without an extension is
 * the `.ts` file; `.gk` and `.ts` paths are themselves.
 */
export function kernelSourcePath(spec: string): string {
  if (isPackagePath(spec)) return spec;
  const ext = /\.(gk|ts|mts|cts)$/.exec(spec);
  if (ext) return spec;
  const js = /\.(js|mjs|cjs)$/.exec(spec);
  if (js) return `${spec.slice(0, -js[0].length)}.${js[1] === "js" ? "ts" : js[1] === "mjs" ? "mts" : "cts"}`;
  return `${spec}.ts`;
}

/** The gk imports: names that kernels, device functions and constants use, one import per path. */
function gkImports(cx: Lowering): ast.ImportDecl[] {
  const byPath = new Map<string, RelativeImport[]>();
  for (const imp of cx.imports.values()) {
    if (!imp.used) continue;
    const list = byPath.get(imp.path) ?? [];
    list.push(imp);
    byPath.set(imp.path, list);
  }
  return [...byPath.entries()].map(([path, list]) => ({
    kind: "Import",
    names: list.map((i) => ({ name: i.local, span: i.span })),
    path,
    pathSpan: list[0]!.pathSpan,
    span: list[0]!.pathSpan,
  }));
}

// ---------------------------------------------------------------- constants

/** Whether a top-level const is one gk computes: `const N = 16;`, `const S: f32 = 0.5;`, `const W = table(f32, [...]);`. */
function isConstantDecl(cx: Lowering, d: TS.VariableDeclaration, constants: ReadonlySet<string>): boolean {
  const ts = cx.ts;
  if (!d.initializer || !ts.isIdentifier(d.name) || isReservedName(d.name.text)) return false;
  if (gkCall(cx, d.initializer, { table: true, constant: true })) return d.type === undefined;
  if (d.type && !(ts.isTypeReferenceNode(d.type) && ts.isIdentifier(d.type.typeName) && cx.gk.has(d.type.typeName.text))) return false;
  const computable = (e: TS.Expression): boolean => {
    if (ts.isNumericLiteral(e) || ts.isBigIntLiteral(e) || e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return true;
    if (ts.isIdentifier(e)) return constants.has(e.text) || e.text === "Infinity" || e.text === "NaN" || (cx.gk.get(e.text) === e.text && e.text === "warpSize");
    if (ts.isParenthesizedExpression(e)) return computable(e.expression);
    if (ts.isPrefixUnaryExpression(e)) return ["-", "+", "!", "~"].includes(cx.ts.tokenToString(e.operator) ?? "") && computable(e.operand);
    if (ts.isBinaryExpression(e)) return e.operatorToken.kind !== ts.SyntaxKind.CommaToken && computable(e.left) && computable(e.right);
    if (ts.isConditionalExpression(e)) return computable(e.condition) && computable(e.whenTrue) && computable(e.whenFalse);
    if (ts.isCallExpression(e)) {
      const callee = e.expression;
      return ts.isIdentifier(callee) && cx.gk.get(callee.text) === callee.text && isScalarName(callee.text) && e.arguments.length === 1 && computable(e.arguments[0]!);
    }
    return false;
  };
  return computable(d.initializer);
}

function constItem(cx: Lowering, s: TS.VariableStatement, d: TS.VariableDeclaration, at: TS.Node): ast.ConstDecl | ast.ConstantDecl | undefined {
  cx.scopes = [];
  const name = ident(cx, d.name as TS.Identifier);
  const span = spanOf(cx, at);
  const init = d.initializer!;
  if (gkCall(cx, init, { constant: true })) {
    const shape = arrayShape(cx, "constant", init as TS.CallExpression);
    if (!shape) return undefined;
    const type: ast.ArrayTypeExpr = { kind: "ArrayType", elem: shape.elem, sizes: shape.sizes, unsized: false, shared: false, span: spanOf(cx, init) };
    return { kind: "Constant", exported: exported(cx, s), name, type, span };
  }
  const table = gkCall(cx, init, { table: true });
  if (table) {
    const shape = arrayShape(cx, "table", init as TS.CallExpression);
    if (!shape?.values) return undefined;
    const type: ast.ArrayTypeExpr = { kind: "ArrayType", elem: shape.elem, sizes: shape.sizes, unsized: false, shared: false, span: spanOf(cx, init) };
    return { kind: "Const", exported: exported(cx, s), name, type, init: shape.values, span };
  }
  const type = d.type && typeExpr(cx, d.type);
  const value = expr(cx, init);
  if ((d.type && !type) || !value) return undefined;
  return { kind: "Const", exported: exported(cx, s), name, ...(type && { type }), init: value, span };
}

/** `flushToZero();` at the top level: `@flushToZero;`. `unroll()` there annotates no loop (GK4013). */
function moduleOption(cx: Lowering, s: TS.Statement): ast.ModuleAnnotation | undefined {
  const [call, name] = annotationMarker(cx, s)!;
  if (name === "unroll") {
    cx.log.error("GK4013", spanOf(cx, call), "unroll() stands right before a loop in a kernel or device function (@unroll), not at the top level of the file");
    return undefined;
  }
  if (ANNOTATION_CALLS[name] === "kernel") {
    cx.log.error("GK4013", spanOf(cx, call), `${name}() annotates a kernel (@${name}): call it as the first statement of the kernel's body, not at the top level of the file`);
    return undefined;
  }
  cx.scopes = [];
  const annotation = annotationOf(cx, call, name);
  return annotation && { kind: "ModuleAnnotation", annotation, span: spanOf(cx, s) };
}

// ---------------------------------------------------------------- structs

/**
 * `interface Particle { pos: f32x3; vel: f32x3; bounces: i32; }`: `struct Particle { ... }`,
 * its fields in order. An interface that kernel code names is all fields of gk types.
 */
function structItem(cx: Lowering, s: TS.InterfaceDeclaration): ast.StructDecl | undefined {
  const ts = cx.ts;
  cx.scopes = [];
  if (s.typeParameters?.length) return refuse(cx, s.typeParameters[0]!, "a struct has no type parameters: declare one interface per struct");
  if (s.heritageClauses?.length) return refuse(cx, s.heritageClauses[0]!, "a struct extends nothing: write each of its fields");
  const fields: ast.FieldDecl[] = [];
  let ok = true;
  for (const m of s.members) {
    if (!ts.isPropertySignature(m) || !ts.isIdentifier(m.name)) {
      refuse(cx, m, "a struct's members are fields, each named with its gk type (pos: f32x3;): no methods, index signatures or computed names");
      ok = false;
      continue;
    }
    if (m.questionToken) {
      refuse(cx, m, "a struct's fields are all there: no optional fields");
      ok = false;
      continue;
    }
    if (!m.type) {
      cx.log.error("GK4007", spanOf(cx, m), `field '${m.name.text}' needs a gk type: ${m.name.text}: f32, ${m.name.text}: f32x3, ...`);
      ok = false;
      continue;
    }
    const type = typeExpr(cx, m.type);
    if (!type) ok = false;
    else fields.push({ name: ident(cx, m.name), type, span: spanOf(cx, m) });
  }
  if (!ok) return undefined;
  const isExported = s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  return { kind: "Struct", exported: isExported, name: ident(cx, s.name), fields, span: spanOf(cx, s) };
}

// ---------------------------------------------------------------- kernels and device functions

function functionItem(cx: Lowering, s: TS.VariableStatement, d: TS.VariableDeclaration, call: ItemCall, at: TS.Node): ast.KernelDecl | ast.FunctionDecl | undefined {
  const ts = cx.ts;
  const c = d.initializer as TS.CallExpression;
  cx.itemCalls.add(c);
  const name = ident(cx, d.name as TS.Identifier);
  const span = spanOf(cx, at);
  const fn = c.arguments[0];
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
    return refuse(cx, fn ?? c, `${call}() takes the ${call === "kernel" ? "kernel" : "function"} itself: ${call}((x: f32, ...) => { ... })`);
  }
  if (c.arguments.length > 2) return refuse(cx, c.arguments[2]!, `${call}() takes one function`);
  if (d.type) return refuse(cx, d.type, `the type of ${call}() comes from the function it takes: leave out the annotation`);
  if (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return refuse(cx, fn, "kernels and device functions are not async: they run to their end on the device");
  if (ts.isFunctionExpression(fn) && fn.asteriskToken) return refuse(cx, fn, "kernels and device functions are not generators");
  if (ts.isFunctionExpression(fn) && fn.name) return refuse(cx, fn.name, `the ${call === "kernel" ? "kernel" : "function"} is named by its const ('${name.name}'): leave out the function's own name`);
  if (fn.typeParameters?.length) return refuse(cx, fn.typeParameters[0]!, "generic kernels and device functions cannot be written in TypeScript yet: write them in a .gk file");
  cx.scopes = [new Set()];
  const params: ast.Param[] = [];
  let ok = true;
  for (const p of fn.parameters) {
    const param = parameter(cx, p);
    if (param) params.push(param);
    else ok = false;
  }
  let returnType: ast.TypeExpr | undefined;
  if (fn.type) {
    returnType = typeExpr(cx, fn.type);
    if (!returnType) ok = false;
    else if (call === "kernel" && !(returnType.kind === "NamedType" && returnType.name.name === "void")) {
      refuse(cx, fn.type, "a kernel returns nothing: its results are the arrays it writes");
      ok = false;
    }
  }
  const returnsValue = returnType !== undefined && !(returnType.kind === "NamedType" && returnType.name.name === "void");
  // `launchBounds(256, 2);` as the body's first statement: the kernel's `@launchBounds(256, 2)`.
  const first = ts.isBlock(fn.body) ? fn.body.statements[0] : undefined;
  const marker = first && annotationMarker(cx, first);
  const kernelMarker = marker && ANNOTATION_CALLS[marker[1]] === "kernel" ? marker : undefined;
  if (kernelMarker && call !== "kernel") {
    cx.log.error("GK4013", spanOf(cx, kernelMarker[0]), `${kernelMarker[1]}() annotates a kernel (@${kernelMarker[1]}); a device function runs in its caller's launch`);
    return undefined;
  }
  const annotation = kernelMarker && annotationOf(cx, kernelMarker[0], kernelMarker[1]);
  if (kernelMarker && !annotation) ok = false;
  const body = functionBody(cx, fn.body, returnsValue, kernelMarker ? 1 : 0);
  cx.scopes = [];
  if (!ok || !body) return undefined;
  if (call === "kernel") return { kind: "Kernel", exported: exported(cx, s), name, params, body, ...(annotation && { annotation }), span };
  return { kind: "Function", exported: exported(cx, s), name, params, ...(returnType && { returnType }), body, span };
}

function parameter(cx: Lowering, p: TS.ParameterDeclaration): ast.Param | undefined {
  const ts = cx.ts;
  if (!ts.isIdentifier(p.name)) return refuse(cx, p.name, "kernels have no destructuring: name each parameter");
  if (p.dotDotDotToken) return refuse(cx, p, "a kernel's parameters are each named: there are no rest parameters");
  if (p.questionToken || p.initializer) return refuse(cx, p, "every parameter of a kernel or device function is given at each call: there are no optional or default parameters");
  if (p.name.text === "this") return refuse(cx, p, "a kernel has no `this`");
  const name = ident(cx, p.name);
  cx.scopes[0]!.add(name.name);
  if (!p.type) {
    cx.log.error("GK4007", spanOf(cx, p), `parameter '${name.name}' needs a gk type: ${name.name}: i32, ${name.name}: f32, ${name.name}: Global<f32>, ...`);
    return undefined;
  }
  const type = typeExpr(cx, p.type);
  return type && { name, type, span: spanOf(cx, p) };
}

/** kernel() and deviceFn() anywhere but as the initializer of a top-level const, or called through `import * as gk` (gk.kernel(...)). */
function strayItemCalls(cx: Lowering, sf: TS.SourceFile): void {
  const ts = cx.ts;
  const visit = (n: TS.Node): void => {
    const call = gkCall(cx, n, ITEM_CALLS);
    if (call && !cx.itemCalls.has(n)) {
      cx.log.error("GK1020", spanOf(cx, n), `${call}() declares a ${call === "kernel" ? "kernel" : "device function"} only as the initializer of a top-level const: export const name = ${call}(...)`);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression) && cx.gkNamespaces.has(n.expression.expression.text)) {
      const name = n.expression.name.text;
      if (Object.hasOwn(ITEM_CALLS, name)) {
        const what = name === "kernel" ? "a kernel" : "a device function";
        cx.log.error("GK1020", spanOf(cx, n), `${name}() declares ${what} imported by its name: import { ${name} } from "gk", then ${name === "kernel" ? "export " : ""}const name = ${name}(...)`);
      }
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
}

/**
 * TypeScript expressions and type annotations of kernel code, lowered to gk's AST
 * (src/parser/ast.ts) node for node: the checker then reads them exactly as it reads the
 * same .gk code. What a kernel cannot use is refused where it stands (GK1020), and a name
 * of the host (a variable, a function) is refused too (GK2050, GK2051): kernels run on the
 * device, which has none of the host's values.
 */
import type { ts as TS } from "ts-morph";
import type { Span } from "../diagnostics/source.js";
import type * as ast from "../parser/ast.js";
import { isFloatLiteral, numberProblem, numberText } from "../parser/literals.js";
import { gkNameOf, isLocal, refuse, spanOf, type Lowering } from "./context.js";
import { ANNOTATION_CALLS, ARRAY_CALLS, ITEM_CALLS, MEMORY_TYPES, REFUSED_OPERATORS, TS_KEYWORD_TYPES, type AnnotationCall } from "./spellings.js";

const BINARY: Readonly<Record<string, ast.BinaryOp>> = {
  "+": "+", "-": "-", "*": "*", "/": "/", "%": "%",
  "<<": "<<", ">>": ">>", ">>>": ">>>",
  "&": "&", "|": "|", "^": "^",
  "==": "==", "!=": "!=", "===": "===", "!==": "!==",
  "<": "<", "<=": "<=", ">": ">", ">=": ">=",
  "&&": "&&", "||": "||",
};

export const ASSIGN: Readonly<Record<string, ast.AssignOp>> = {
  "=": "=", "+=": "+=", "-=": "-=", "*=": "*=", "/=": "/=", "%=": "%=",
  "&=": "&=", "|=": "|=", "^=": "^=", "<<=": "<<=", ">>=": ">>=", ">>>=": ">>>=",
};

const UNARY: Readonly<Record<string, ast.UnaryOp>> = { "-": "-", "+": "+", "!": "!", "~": "~" };

export function tokenText(cx: Lowering, kind: TS.SyntaxKind): string {
  return cx.ts.tokenToString(kind) ?? "";
}

export function ident(cx: Lowering, id: TS.Identifier): ast.Ident {
  return { name: id.text, span: spanOf(cx, id) };
}

/** Whether `node` is a call of one of gk's functions named in `names` (kernel, shared, ...). */
export function gkCall(cx: Lowering, node: TS.Node | undefined, names: Readonly<Record<string, unknown>>): string | undefined {
  if (!node || !cx.ts.isCallExpression(node)) return undefined;
  const name = gkNameOf(cx, node.expression);
  return name !== undefined && Object.prototype.hasOwnProperty.call(names, name) ? name : undefined;
}

/** An expression of kernel code; undefined when it was refused (and reported). */
export function expr(cx: Lowering, e: TS.Expression): ast.Expr | undefined {
  const ts = cx.ts;
  const span = spanOf(cx, e);
  if (ts.isNumericLiteral(e)) return number(cx, e, e.getText(cx.sf));
  if (ts.isBigIntLiteral(e)) return number(cx, e, e.getText(cx.sf).slice(0, -1));
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return { kind: "Bool", value: e.kind === ts.SyntaxKind.TrueKeyword, span };
  if (ts.isIdentifier(e)) return name(cx, e, "value");
  if (ts.isParenthesizedExpression(e)) {
    const inner = expr(cx, e.expression);
    return inner && { kind: "Paren", expr: inner, span };
  }
  // `x!`: TypeScript's "not undefined" (noUncheckedIndexedAccess asks it of every element read) means nothing in a kernel.
  if (ts.isNonNullExpression(e)) return expr(cx, e.expression);
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken) return incDecValue(cx, e);
    const op = UNARY[tokenText(cx, e.operator)];
    const operand = expr(cx, e.operand);
    if (!op) return refuse(cx, e);
    return operand && { kind: "Unary", op, operand, span };
  }
  if (ts.isPostfixUnaryExpression(e)) return incDecValue(cx, e);
  if (ts.isBinaryExpression(e)) return binary(cx, e, span);
  if (ts.isConditionalExpression(e)) {
    const cond = expr(cx, e.condition);
    const then = expr(cx, e.whenTrue);
    const otherwise = expr(cx, e.whenFalse);
    return cond && then && otherwise && { kind: "Conditional", cond, then, else: otherwise, span };
  }
  if (ts.isCallExpression(e)) return call(cx, e, span);
  if (ts.isElementAccessExpression(e)) {
    if (e.questionDotToken) return refuse(cx, e, "kernels have no optional chaining (?.): every value exists");
    const object = expr(cx, e.expression);
    const index = expr(cx, e.argumentExpression);
    return object && index && { kind: "Index", object, index, span };
  }
  if (ts.isPropertyAccessExpression(e)) {
    if (e.questionDotToken) return refuse(cx, e, "kernels have no optional chaining (?.): every value exists");
    if (ts.isIdentifier(e.expression) && cx.gkNamespaces.has(e.expression.text) && !isLocal(cx, e.expression.text)) {
      return refuse(cx, e, `import gk's names by name for kernels: import { ${e.name.text} } from "gk"`);
    }
    if (!ts.isIdentifier(e.name)) return refuse(cx, e.name);
    const object = expr(cx, e.expression);
    return object && { kind: "Member", object, property: ident(cx, e.name), span };
  }
  if (ts.isObjectLiteralExpression(e)) return objectLiteral(cx, e, span);
  if (ts.isArrayLiteralExpression(e)) {
    const elements: ast.Expr[] = [];
    let ok = true;
    for (const el of e.elements) {
      if (ts.isOmittedExpression(el)) {
        refuse(cx, e, "an array literal in a kernel has no holes: write every element");
        ok = false;
        continue;
      }
      const x = ts.isSpreadElement(el) ? refuse(cx, el) : expr(cx, el);
      if (!x) ok = false;
      else elements.push(x);
    }
    return ok ? { kind: "ArrayLit", elements, span } : undefined;
  }
  if (e.kind === ts.SyntaxKind.NullKeyword || e.kind === ts.SyntaxKind.ThisKeyword || e.kind === ts.SyntaxKind.SuperKeyword) return refuse(cx, e);
  return refuse(cx, e);
}

/** `{ pos: p, vel: v, bounces: 0 }` (or `{ pos, vel, bounces }`): a struct value, typed where it is used. */
function objectLiteral(cx: Lowering, e: TS.ObjectLiteralExpression, span: Span): ast.ObjectLit | undefined {
  const ts = cx.ts;
  const fields: ast.ObjectField[] = [];
  let ok = true;
  for (const p of e.properties) {
    let field: ast.ObjectField | undefined;
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
      const value = expr(cx, p.initializer);
      field = value && { name: ident(cx, p.name), value, span: spanOf(cx, p) };
    } else if (ts.isShorthandPropertyAssignment(p) && !p.objectAssignmentInitializer) {
      const value = name(cx, p.name, "value");
      field = value && { name: ident(cx, p.name), value, span: spanOf(cx, p) };
    } else {
      refuse(cx, p, "a struct value names each field: { pos: p, bounces: 0 } (no spread, methods, getters or computed names)");
    }
    if (field) fields.push(field);
    else ok = false;
  }
  return ok ? { kind: "ObjectLit", fields, span } : undefined;
}

function number(cx: Lowering, e: TS.Node, image: string): ast.NumberLit | undefined {
  const problem = numberProblem(image);
  if (problem) {
    cx.log.error("GK1003", spanOf(cx, e), problem);
    return undefined;
  }
  return { kind: "Number", text: numberText(image), isFloat: isFloatLiteral(image), span: spanOf(cx, e) };
}

/** `i++` or `++i` where a value is expected: a statement in gk (GK1013), as in a .gk file. */
function incDecValue(cx: Lowering, e: TS.PrefixUnaryExpression | TS.PostfixUnaryExpression): undefined {
  cx.log.error("GK1013", spanOf(cx, e), `'${tokenText(cx, e.operator)}' is a statement in gk, not a value: write it on a line of its own (or use '+= 1')`);
  return undefined;
}

function binary(cx: Lowering, e: TS.BinaryExpression, span: Span): ast.Expr | undefined {
  const op = tokenText(cx, e.operatorToken.kind);
  const refused = REFUSED_OPERATORS[op];
  if (refused) return refuse(cx, e.operatorToken, refused);
  if (ASSIGN[op]) {
    expr(cx, e.right);
    const message = op === "=" ? "assignment is a statement in gk, not an expression: did you mean '=='?" : `'${op}' is a statement in gk, not an expression: write it on a line of its own`;
    cx.log.error("GK1010", spanOf(cx, e.operatorToken), message);
    return undefined;
  }
  const gkOp = BINARY[op];
  if (!gkOp) return refuse(cx, e.operatorToken, `gk has no '${op}' operator`);
  const left = expr(cx, e.left);
  const right = expr(cx, e.right);
  return left && right && { kind: "Binary", op: gkOp, left, right, opSpan: spanOf(cx, e.operatorToken), span };
}

function call(cx: Lowering, e: TS.CallExpression, span: Span): ast.Expr | undefined {
  const ts = cx.ts;
  if (e.questionDotToken) return refuse(cx, e, "kernels have no optional chaining (?.): every value exists");
  const callee = e.expression;
  // kernel() and deviceFn() out of place are reported once, by module.ts.
  if (gkCall(cx, e, ITEM_CALLS)) return undefined;
  const array = gkCall(cx, e, ARRAY_CALLS);
  if (array) return refuse(cx, e, `${array}() declares an array, and only as a declaration: const name = ${array}(...)`);
  const marker = gkCall(cx, e, ANNOTATION_CALLS);
  if (marker) {
    const where = marker === "unroll" ? "a statement of its own right before a loop" : ANNOTATION_CALLS[marker as AnnotationCall] === "kernel" ? "the first statement of a kernel's body" : "a statement of its own at the top level of the file";
    cx.log.error("GK4013", spanOf(cx, e), `${marker}() stands for the annotation @${marker}: it is ${where}, not a value`);
    return undefined;
  }
  if (!ts.isIdentifier(callee)) {
    const text = callee.getText(cx.sf);
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && cx.gkNamespaces.has(callee.expression.text)) {
      return refuse(cx, callee, `import gk's names by name for kernels: import { ${callee.name.text} } from "gk"`);
    }
    const short = text.length > 40 ? `${text.slice(0, 40)}...` : text;
    cx.log.error("GK2051", spanOf(cx, callee), `'${short}' is a host function: a kernel calls only device functions (deviceFn), gk's builtins and conversions`);
    return undefined;
  }
  const typeArgs = cx.gk.get(callee.text) === "bitcast" && !isLocal(cx, callee.text) ? bitcastType(cx, e) : undefined;
  if (e.typeArguments?.length && !typeArgs) return refuse(cx, e.typeArguments[0]!, "type arguments have no meaning here: gk infers a call's types from its arguments");
  const calleeName = name(cx, callee, "call");
  const args: ast.Expr[] = [];
  let ok = calleeName !== undefined;
  for (const a of e.arguments) {
    const x = ts.isSpreadElement(a) ? refuse(cx, a) : expr(cx, a);
    if (!x) ok = false;
    else args.push(x);
  }
  return ok ? { kind: "Call", callee: { name: callee.text, span: spanOf(cx, callee) }, ...(typeArgs && { typeArgs }), args, span } : undefined;
}

/** `bitcast<u32>(x)`: its one type argument, a type's name, as the generic argument gk's checker reads (src/check/bitcast.ts). */
function bitcastType(cx: Lowering, e: TS.CallExpression): ast.GenericArgs | undefined {
  const ts = cx.ts;
  const given = e.typeArguments;
  if (!given) return undefined;
  const span = { ...spanOf(cx, given[0]!), end: spanOf(cx, given.at(-1)!).end };
  const args = given.map((t): ast.Expr => {
    const named = ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && !t.typeArguments ? t.typeName.text : undefined;
    // A name of gk's types is gk's spelling (imported under its own name); anything else reaches the checker as written.
    return { kind: "Name", name: named ? (cx.gk.get(named) ?? named) : t.getText(cx.sf), span: spanOf(cx, t) };
  });
  return { args, span };
}

/**
 * A name in kernel code: a local, one of gk's names, an item of this file, a name imported
 * from a .gk or kernel file, or else one gk's checker will call unknown. A name of the host
 * is refused here: kernels cannot close over host variables or call host functions.
 */
export function name(cx: Lowering, id: TS.Identifier, use: "value" | "call"): ast.NameExpr | undefined {
  const text = id.text;
  const span = spanOf(cx, id);
  if (text === "undefined") return refuse(cx, id, "kernels have no undefined: every variable has a value of its gk type");
  if (isLocal(cx, text)) return { kind: "Name", name: text, span };
  const gk = cx.gk.get(text);
  if (gk !== undefined) {
    if (gk !== text) return refuse(cx, id, `gk's names keep their own names in kernels: import { ${gk} } from "gk" (not '${gk} as ${text}')`);
    return { kind: "Name", name: text, span };
  }
  const imp = cx.imports.get(text);
  if (imp) {
    if (imp.imported !== text) return refuse(cx, id, `an imported kernel, device function or constant keeps its name: import { ${imp.imported} } from "${imp.path}"`);
    imp.used = true;
    return { kind: "Name", name: text, span };
  }
  if (cx.items.has(text)) return { kind: "Name", name: text, span };
  const host = cx.host.get(text);
  if (host) {
    const where = `'${text}' is a ${host.kind === "import" ? "name imported" : host.kind} of the host`;
    if (use === "call" || host.kind === "function" || host.kind === "class") {
      cx.log.error("GK2051", span, `${where}: a kernel calls only device functions (deviceFn), gk's builtins and conversions`, [{ message: "declared here", span: host.span }]);
    } else {
      const hint = host.kind === "constant" ? "a kernel reads only constants gk can compute (literals, other constants, conversions) and tables (table(f32, [...])): pass other values as parameters" : "pass it to the kernel as a parameter";
      cx.log.error("GK2050", span, `${where}, which a kernel cannot use: ${hint}`, [{ message: "declared here", span: host.span }]);
    }
    return undefined;
  }
  return { kind: "Name", name: text, span };
}

// ---------------------------------------------------------------- types

/** A type annotation of kernel code. */
export function typeExpr(cx: Lowering, t: TS.TypeNode): ast.TypeExpr | undefined {
  const ts = cx.ts;
  const span = spanOf(cx, t);
  if (ts.isTypeReferenceNode(t)) {
    if (!ts.isIdentifier(t.typeName)) return unknownType(cx, t, "name gk's types directly: import type { f32 } from \"gk\"");
    const local = t.typeName.text;
    const gk = cx.gk.get(local);
    if (gk !== undefined && gk !== local) return refuse(cx, t.typeName, `gk's types keep their own names in kernels: import type { ${gk} } from "gk" (not '${gk} as ${local}')`);
    const memory = gk !== undefined && Object.prototype.hasOwnProperty.call(MEMORY_TYPES, gk) ? MEMORY_TYPES[gk as keyof typeof MEMORY_TYPES] : undefined;
    const args = t.typeArguments ?? [];
    if (memory?.kind === "global") {
      if (args.length !== 1) return refuse(cx, t, `${local}<T> takes one element type, as in ${local}<f32>`);
      const elem = typeExpr(cx, args[0]!);
      return elem && { kind: "GlobalType", readonly: memory.readonly, elem, span };
    }
    if (memory?.kind === "shared") {
      const dims = args[1];
      if (args.length !== 2 || !dims || !ts.isTupleTypeNode(dims) || dims.elements.length === 0) return refuse(cx, t, "a shared array parameter is Shared<T, [sizes]>, as in Shared<f32, [256]> or Shared<f32, [16, 16]>");
      const elem = typeExpr(cx, args[0]!);
      const sizes = dims.elements.map((d) => typeSize(cx, d));
      if (!elem || sizes.some((s) => !s)) return undefined;
      return { kind: "ArrayType", elem, sizes: sizes as ast.Expr[], unsized: false, shared: true, span };
    }
    if (memory?.kind === "view" || memory?.kind === "ref") {
      if (args.length !== 1) return refuse(cx, t, `${local}<T> takes one element type, as in ${local}<f32>`);
      const elem = typeExpr(cx, args[0]!);
      if (!elem) return undefined;
      return memory.kind === "view" ? { kind: "ViewType", readonly: memory.readonly, elem, span } : { kind: "RefType", mode: memory.mode, elem, span };
    }
    if (args.length) return refuse(cx, args[0]!, `'${local}' takes no type arguments`);
    if (gk === undefined && cx.interfaces.has(local)) cx.structs.add(local);
    else if (gk === undefined && cx.typeAliases.has(local)) return unknownType(cx, t, `'${local}' is a type alias, which names no gk type: a struct is an interface (interface ${local} { x: f32; ... })`);
    else if (gk === undefined && (cx.imports.has(local) || cx.host.get(local)?.kind === "import")) {
      return unknownType(cx, t, `'${local}' is imported: a TypeScript kernel names the structs of its own file (declare interface ${local} { ... } here; a .gk file's structs are for .gk kernels)`);
    }
    return { kind: "NamedType", name: { name: local, span: spanOf(cx, t.typeName) }, span };
  }
  if (t.kind === ts.SyntaxKind.VoidKeyword) return { kind: "NamedType", name: { name: "void", span }, span };
  const keyword = t.getText(cx.sf);
  const hint = TS_KEYWORD_TYPES[keyword];
  if (hint) return unknownType(cx, t, `'${keyword}' is TypeScript's type: ${hint}`);
  return unknownType(cx, t, "this TypeScript type names no gk type; a kernel's values are gk scalars (f32, i32, bool, ...), its array parameters Global<T> or ReadonlyGlobal<T>");
}

function unknownType(cx: Lowering, t: TS.Node, message: string): undefined {
  cx.log.error("GK2003", spanOf(cx, t), message);
  return undefined;
}

/** A size in `Shared<f32, [256, typeof N]>`: a number, or a constant's name. */
function typeSize(cx: Lowering, t: TS.TypeNode): ast.Expr | undefined {
  const ts = cx.ts;
  if (ts.isLiteralTypeNode(t) && ts.isNumericLiteral(t.literal)) return number(cx, t.literal, t.literal.getText(cx.sf));
  if (ts.isTypeQueryNode(t) && ts.isIdentifier(t.exprName)) return name(cx, t.exprName, "value");
  return refuse(cx, t, "a size is a number or `typeof` a constant, as in Shared<f32, [256]> or Shared<f32, [typeof TILE]>");
}

/** A type passed as a value, as the first argument of shared(), local() and table(): `f32`. */
export function typeFromValue(cx: Lowering, e: TS.Expression | undefined, call: TS.Node): ast.TypeExpr | undefined {
  if (!e || !cx.ts.isIdentifier(e)) return refuse(cx, e ?? call, "the first argument names the element type, as in shared(f32, 256)");
  const n = name(cx, e, "value");
  return n && { kind: "NamedType", name: { name: n.name, span: n.span }, span: n.span };
}

/**
 * Syntax problems (see `problems.ts`) to diagnostics, in the user's terms: what was
 * expected where, what was found, and for a missing closer where its opener is.
 *
 * One mistake should give one message. Problems are taken in the order the parser met
 * them and dropped when another error already sits at the same token (recovery often
 * trips twice on one token), when they point at a token the lexer already reported,
 * when an unterminated comment swallowed the rest of the file, or when they fall in
 * the quiet stretch after an earlier error (see `cascade.ts`).
 */
import { EOF, type IToken, type TokenType } from "chevrotain";
import { error, type Diagnostic, type RelatedNote } from "../diagnostics/diagnostic.js";
import { lineColOf, type SourceFile, type Span } from "../diagnostics/source.js";
import { foreignScalar } from "../diagnostics/foreignTypes.js";
import { tokenEnd, tokenSpan } from "./lexer.js";
import type { BracketMap } from "./cascade.js";
import type { StatementContext, SyntaxProblem } from "./problems.js";
import {
  AnyName, Break, Const, Continue, Do, For, If, Return, CtxBlock, CtxFrom, CtxGrid, DeviceFn, DeviceKernel, Else, Eq, Export, Identifier, Import, Launch, LCurly,
  Colon, keywords, Let, LParen, NumberLit, RBracket, RCurly, RParen, Greater, Semi, Shared, StringLit, While,
} from "./tokens.js";

export interface SyntaxErrorContext {
  readonly file: SourceFile;
  readonly tokens: readonly IToken[];
  /** Bracket structure of the tokens, for openers of missing closers and for cascades. */
  readonly brackets: BracketMap;
  /** What the lexer reported: the parser does not report again at those places. */
  readonly lexDiagnostics: readonly Diagnostic[];
  /** An unterminated comment ran to the end of the file. */
  readonly swallowedEnd: boolean;
}

/** How a problem reads: `text` then ", found X" (or "unexpected end of file: " then `text`), unless `full`. */
interface Explanation {
  readonly text: string;
  readonly full?: boolean;
  readonly notes?: RelatedNote[];
  /** Point just after the previous token (a missing `;`), rather than at the token found. */
  readonly afterPrevious?: boolean;
}

export function syntaxDiagnostics(problems: readonly SyntaxProblem[], cx: SyntaxErrorContext): Diagnostic[] {
  const end = cx.file.text.length;
  const reported = new Set(cx.lexDiagnostics.map((d) => d.span?.start ?? -1));
  let quietUntil = -1;
  const out: Diagnostic[] = [];
  for (const p of problems) {
    const at = isEof(p.actual) ? end : p.actual.startOffset;
    if (reported.has(at) || at <= quietUntil || (cx.swallowedEnd && at === end)) continue;
    if (p.kind === "missingSemicolon" && !isEof(p.previous) && reported.has(p.previous.startOffset)) continue;
    reported.add(at);
    out.push(diagnose(p, cx));
    if (at < end && opensQuietStretch(p, cx)) {
      const topLevel = p.kind === "redundantInput" || (p.kind === "mismatch" && p.expected === EOF);
      quietUntil = Math.max(quietUntil, cx.brackets.quietUntil(cx.brackets.indexAt(at), topLevel));
    }
  }
  return out;
}

/**
 * Whether the tokens after this problem are likely to trip the parser again. The parser
 * resumes cleanly at a keyword that starts a statement or declaration (`let`, `if`,
 * `device_fn`, ...) when it stopped there, and after a `;` missing at the end of a line.
 */
function opensQuietStretch(p: SyntaxProblem, cx: SyntaxErrorContext): boolean {
  if (p.kind !== "reservedName" && constructStarters.has(p.actual.tokenType)) return false;
  if (p.kind !== "missingSemicolon" || isEof(p.previous)) return true;
  return lineColOf(cx.file, p.actual.startOffset).line === lineColOf(cx.file, tokenEnd(p.previous)).line;
}

const constructStarters: ReadonlySet<TokenType> = new Set([
  DeviceKernel, DeviceFn, Const, Let, Shared, If, For, While, Do, Break, Continue, Return, Import, Export, Launch,
]);

function diagnose(p: SyntaxProblem, cx: SyntaxErrorContext): Diagnostic {
  const eof = isEof(p.actual);
  const e = explain(p, cx);
  const message = e.full ? e.text : eof ? `unexpected end of file: ${e.text}` : `${e.text}, found ${found(p.actual)}`;
  const span: Span =
    (eof || e.afterPrevious) && !isEof(p.previous)
      ? { file: cx.file.path, start: tokenEnd(p.previous), end: tokenEnd(p.previous) }
      : eof
        ? { file: cx.file.path, start: cx.file.text.length, end: cx.file.text.length }
        : tokenSpan(cx.file.path, p.actual);
  return error(eof ? "GK1011" : "GK1010", span, message, e.notes ?? []);
}

function explain(p: SyntaxProblem, cx: SyntaxErrorContext): Explanation {
  switch (p.kind) {
    case "missingSemicolon":
      return semicolon(p.context, p.actual, p.previous, cx);
    case "mismatch":
      return mismatch(p.expected, p.rule, p.actual, p.previous, cx);
    case "noAlternative":
      return noAlternative(p.rule, p.actual, p.previous);
    case "redundantInput":
      return topLevel(p.actual);
    case "reservedName":
      return { text: `'${p.actual.image}' is a reserved word and cannot be used as a name`, full: true };
  }
}

const statementNoun: Record<StatementContext, string> = {
  statement: "the statement",
  declaration: "the declaration",
  shared: "the declaration",
  import: "the import",
  launch: "the launch",
  annotation: "the module option",
};

function semicolon(context: StatementContext, actual: IToken, previous: IToken, cx: SyntaxErrorContext): Explanation {
  if (context === "shared" && actual.tokenType === Eq) {
    return { text: "shared memory cannot be initialized where it is declared: assign it in the kernel's body instead", full: true };
  }
  const text = `expected ';' after ${statementNoun[context]}`;
  if (context === "annotation" && actual.tokenType === DeviceFn) {
    return { text: "a device function takes no annotation: @launchBounds and @maxRegisters stand right before a device_kernel, and a module option ends with ';'", full: true, afterPrevious: true };
  }
  if (context === "annotation") {
    return { text: `${text} (@flushToZero;), or a device_kernel after a kernel's annotation (@launchBounds, @maxRegisters)`, afterPrevious: true };
  }
  if (actual.image === "as" && actual.tokenType === Identifier) {
    return { text: `${text}, found 'as': gk has no 'as' casts; convert with the type's name, as in f64(x)`, full: true, afterPrevious: true };
  }
  if (context === "statement" && previous.image === "constant" && atStatementStart(previous, cx)) {
    return { text: "constant memory is declared at the top level of a module (`constant TAPS: f32[17];`), not inside a function", full: true };
  }
  if (context === "statement" && looksLikeCDeclaration(actual, previous, cx)) {
    const name = actual.image;
    const type = foreignScalar(previous.image) ?? previous.image;
    return { text: `${text}, found '${name}': gk declares variables as \`let ${name}: ${type} = ...;\``, full: true, afterPrevious: true };
  }
  return { text, afterPrevious: true };
}

/** `int i ...`: a type name then a name, at the start of a statement. */
function looksLikeCDeclaration(actual: IToken, previous: IToken, cx: SyntaxErrorContext): boolean {
  if (isEof(previous) || previous.tokenType !== Identifier || actual.tokenType !== Identifier) return false;
  return atStatementStart(previous, cx);
}

/** The token starts a statement: nothing, `;`, a brace or `(` before it. */
function atStatementStart(token: IToken, cx: SyntaxErrorContext): boolean {
  if (isEof(token)) return false;
  const before = cx.tokens[cx.brackets.indexAt(token.startOffset) - 1];
  return before === undefined || [Semi, LCurly, RCurly, LParen].includes(before.tokenType);
}

function mismatch(expected: TokenType, rule: string, actual: IToken, previous: IToken, cx: SyntaxErrorContext): Explanation {
  const prev = isEof(previous) ? "" : previous.image;
  switch (expected) {
    case EOF:
      return topLevel(actual);
    case Semi:
      return rule === "forStmt"
        ? { text: "expected ';' in the for header, as in `for (let i = 0; i < n; i += 1)`", afterPrevious: true }
        : { text: "expected ';'", afterPrevious: true };
    case AnyName:
      return { text: nameExpected(rule, prev) };
    case Identifier:
      if (rule === "genericParam") return withReservedWord(`expected a type after '${prev}', as in \`T: f32 | f64\` or \`N: i32\``, actual);
      return withReservedWord(nameExpected(rule, prev), actual);
    case RParen:
    case RBracket:
    case RCurly:
    case Greater:
      return closer(expected, rule, actual, prev, cx);
    case Colon:
      if (rule === "param") return { text: `expected ':' and a type after parameter '${prev}', as in \`${prev}: f32\`` };
      if (rule === "genericParam" && prev === ")") return { text: "expected ':' and the result type after a function parameter's parameters, as in `OP: device_fn(a: T, b: T): T`" };
      if (rule === "genericParam") return { text: `expected ':' and a constraint after '${prev}': a type parameter lists the types it admits, as in \`${prev}: f32 | f64\`, a constant parameter has one type, as in \`${prev}: i32\``, full: true };
      if (rule === "sharedDecl") return { text: "expected ':' and a type, as in `shared tile: f32[16][16];`" };
      if (rule === "conditional") return { text: "expected ':' in the conditional expression `cond ? a : b`" };
      return { text: "expected ':'" };
    case Eq:
      if (rule === "constDecl") return { text: "expected '=' and a value: a module constant needs one, as in `const N = 16;`" };
      if (rule === "launchArg") return { text: `expected '=' after '${prev}': launch arguments are written \`name = value\`` };
      return { text: "expected '='" };
    case LParen:
      return { text: prev ? `expected '(' after '${prev}'` : "expected '('" };
    case LCurly:
      if (rule === "importDecl") return { text: "expected '{' after 'import', as in `import { f } from \"./lib.gk\";`" };
      return { text: "expected '{' to begin the body" };
    case CtxFrom:
      return { text: "expected 'from' and the module's path after the imported names" };
    case StringLit:
      return { text: "expected the module's path as a quoted string, as in \"./lib.gk\"" };
    case CtxGrid:
      return { text: "expected 'grid(...)' after the launch arguments, as in `grid(1) block(256)`" };
    case CtxBlock:
      return { text: "expected 'block(...)' after 'grid(...)', as in `grid(1) block(256)`" };
    case While:
      return { text: "expected 'while (condition);' after the body of 'do'" };
    default:
      return { text: `expected ${spelling(expected)}` };
  }
}

function nameExpected(rule: string, prev: string): string {
  switch (rule) {
    case "kernelDecl":
      return "expected a kernel name after 'device_kernel'";
    case "functionDecl":
      return "expected a function name after 'device_fn'";
    case "param":
      return "expected a parameter name";
    case "genericParam":
      return "expected the name of a generic parameter, as in `<T: f32 | f64>`";
    case "constDecl":
    case "varDecl":
    case "declarator":
    case "sharedDecl":
      return `expected a name after '${prev}'`;
    case "importDecl":
      return "expected a name to import";
    case "launchDecl":
      return "expected the name of a kernel after 'launch'";
    case "launchArg":
      return "expected the name of a kernel parameter, as in `n = 8`";
    case "postfixOp":
      return "expected a member name after '.'";
    default:
      return "expected a name";
  }
}

const reservedWords: ReadonlySet<TokenType> = new Set(keywords);

function withReservedWord(text: string, actual: IToken): Explanation {
  return reservedWords.has(actual.tokenType) ? { text: `${text}, found '${actual.image}', which is a reserved word`, full: true } : { text };
}

/** `&x[i]` or `*p` where an expression starts: C's address-of and dereference. */
function pointerSyntax(actual: IToken, prev: string): boolean {
  return actual.image === "&" || (actual.image === "*" && (prev === "" || prev === "(" || prev === "," || prev === "="));
}

function noPointers(actual: IToken): Explanation {
  return { text: `gk has no pointers ('${actual.image}' here): pass an array by its name and index it; atomics take the array and the index, as in atomicAdd(a, i, v)`, full: true };
}

/** Comma-separated lists: their opener, what an item is called, and what may start one. */
const listItems: Record<string, { readonly open: string; readonly item: string; readonly first: string }> = {
  paramList: { open: "(", item: "parameter", first: "a parameter name" },
  launchDecl: { open: "(", item: "launch argument", first: "a launch argument, as in `n = 8`" },
  argList: { open: "(", item: "argument", first: "an expression" },
  arrayLit: { open: "[", item: "array element", first: "an expression" },
  importDecl: { open: "{", item: "imported name", first: "a name to import" },
};

function closer(expected: TokenType, rule: string, actual: IToken, prev: string, cx: SyntaxErrorContext): Explanation {
  const close = spelling(expected);
  if (rule === "block") return missingBrace(actual, cx);
  const list = listItems[rule];
  if (list !== undefined) {
    if (pointerSyntax(actual, prev)) return noPointers(actual);
    if (prev !== list.open && prev !== ",") return { text: `expected ',' or ${close} after the ${list.item}` };
    return withReservedWord(`expected ${list.first}`, actual);
  }
  switch (rule) {
    case "ifStmt":
    case "whileStmt":
    case "doWhileStmt":
      return { text: `expected ${close} after the condition` };
    case "forStmt":
      return { text: `expected ${close} to end the for header` };
    case "postfixOp":
      return { text: `expected ${close} after the index` };
    case "type":
      return { text: `expected ${close} after the array size` };
    case "typeAtom":
      return { text: `expected ${close} to close 'global<'` };
    case "genericParams":
      return { text: `expected ',' or ${close} after the generic parameter, as in \`<T: f32 | f64, N: i32>\`` };
    case "genericArgs":
      return { text: `expected ',' or ${close} after the generic argument (a constant expression other than a number or a name goes in parentheses: \`<(N * 2)>\`)` };
    case "parenExpr": {
      const open = openerOf(cx, actual, LParen);
      return open ? { text: `expected ${close} to match the '(' at ${where(cx, open)}`, notes: [{ message: "the '(' is here", span: tokenSpan(cx.file.path, open) }] } : { text: `expected ${close}` };
    }
    default:
      return { text: `expected ${close}` };
  }
}

const itemStarters: readonly TokenType[] = [DeviceKernel, DeviceFn, Import, Launch, Export];

function missingBrace(actual: IToken, cx: SyntaxErrorContext): Explanation {
  const open = openerOf(cx, actual, LCurly);
  const opened = open ? ` opened at ${where(cx, open)}` : "";
  const notes = open ? [{ message: "the block starts here", span: tokenSpan(cx.file.path, open) }] : [];
  if (isEof(actual)) return { text: `unexpected end of file: a '}' is missing to close the block${opened}`, full: true, notes };
  if (itemStarters.includes(actual.tokenType)) return { text: `expected '}' to close the block${opened}`, notes };
  if (actual.tokenType === Else) {
    return { text: "'else' without an 'if': an 'else' must follow the statement of an 'if' (use { } to group several statements)", full: true };
  }
  return { text: `unexpected ${found(actual)}: expected a statement or '}'`, full: true };
}

function noAlternative(rule: string, actual: IToken, previous: IToken): Explanation {
  switch (rule) {
    case "primary":
      if (actual.image === "*" && !isEof(previous) && previous.image === "*" && tokenEnd(previous) === actual.startOffset) {
        return { text: "gk has no '**' operator: write pow(x, y)", full: true };
      }
      if (pointerSyntax(actual, previous.image)) return noPointers(actual);
      return actual.tokenType === StringLit
        ? { text: "expected an expression (strings are used only as import paths)" }
        : { text: "expected an expression" };
    case "typeAtom":
      return { text: "expected a type, such as f32, f32x4, i32[4] or global<f32>" };
    case "item":
      return { text: "expected device_kernel, device_fn, struct or const after 'export'" };
    case "statement":
      return { text: "expected a statement" };
    case "genericParam":
      return withReservedWord(`expected a type after '${isEof(previous) ? ":" : previous.image}', as in \`T: f32 | f64\` or \`N: i32\` (or a function's signature, as in \`OP: device_fn(a: T, b: T): T\`)`, actual);
    default:
      return { text: `unexpected ${found(actual)}`, full: true };
  }
}

function topLevel(actual: IToken): Explanation {
  if (actual.tokenType === Let) {
    return { text: "'let' cannot be used at the top level: use 'const' for a module constant, or move the code into a device_kernel or device_fn", full: true };
  }
  if (actual.tokenType === Shared) return { text: "shared memory is declared inside a device_kernel, not at the top level", full: true };
  if (actual.tokenType === RCurly) return { text: "unexpected '}' at the top level: it has no matching '{'", full: true };
  if (actual.image === "__global__" || actual.image === "__device__" || actual.image === "__host__") {
    const what = actual.image === "__global__" ? "a kernel as `device_kernel name(n: i32, x: global<f32>) { ... }`" : "a device function as `device_fn name(x: f32): f32 { ... }`";
    return { text: `gk has no '${actual.image}': write ${what} (spec/language.md)`, full: true };
  }
  if (actual.image === "function" || actual.image === "fn") {
    return { text: `gk has no '${actual.image}': declare a device function with 'device_fn' (or a kernel with 'device_kernel')`, full: true };
  }
  return { text: `unexpected ${found(actual)} at the top level: expected device_kernel, device_fn, struct, const, import or launch`, full: true };
}

// ---------------------------------------------------------------- words and places

const spellings = new Map<TokenType, string>([
  [Identifier, "a name"],
  [NumberLit, "a number"],
  [StringLit, "a string"],
  [CtxGrid, "'grid'"],
  [CtxBlock, "'block'"],
  [EOF, "end of file"],
]);

/** How an expected token type reads in a message: `';'`, `'while'`, `a name`. */
function spelling(t: TokenType): string {
  return spellings.get(t) ?? t.LABEL ?? t.name;
}

function found(t: IToken): string {
  if (isEof(t)) return "end of file";
  const oneLine = t.image.replace(/\s+/g, " ");
  return `'${oneLine.length > 24 ? `${oneLine.slice(0, 21)}...` : oneLine}'`;
}

function isEof(t: IToken): boolean {
  return t.tokenType === EOF || !Number.isFinite(t.startOffset);
}

function where(cx: SyntaxErrorContext, t: IToken): string {
  const { line, col } = lineColOf(cx.file, t.startOffset);
  return `${line}:${col}`;
}

/** The innermost unclosed `kind` bracket where `at` stands. */
function openerOf(cx: SyntaxErrorContext, at: IToken, kind: TokenType): IToken | undefined {
  return cx.brackets.openAround(isEof(at) ? cx.tokens.length : cx.brackets.indexAt(at.startOffset), kind);
}

/**
 * The gk parser: `.gk` source text to an AST and diagnostics.
 *
 *   lex (lexer.ts) → parse with recovery (grammar.ts) → CST → AST (toAst.ts)
 *
 * Every problem is a diagnostic; `parse` never throws. A node is in the AST only when
 * it parsed completely, so when there are errors the AST is partial.
 */
import { DiagnosticLog, error, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../diagnostics/source.js";
import type { Module } from "./ast.js";
import type { ModuleCst } from "./cst.js";
import { GkParser } from "./grammar.js";
import { EOF, type IToken } from "chevrotain";
import { lex, tokenEnd, tokenSpan } from "./lexer.js";
import { makeSourceFile } from "../diagnostics/source.js";
import { LBracket, LCurly, LParen, RBracket, RCurly, RParen } from "./tokens.js";
import { BracketMap } from "./cascade.js";
import { checkNesting, MAX_NESTING } from "./nesting.js";
import { ProblemRecorder } from "./problems.js";
import { syntaxDiagnostics } from "./syntaxErrors.js";
import { toAst } from "./toAst.js";

export type * from "./ast.js";

export interface ParseResult {
  readonly module: Module;
  /** Sorted by position. */
  readonly diagnostics: Diagnostic[];
}

/** Built once, on first use: building a chevrotain parser analyses the whole grammar. */
let parserInstance: GkParser | undefined;

/** The first opening bracket at a depth past MAX_NESTING, if any. */
function deepestOpener(tokens: readonly IToken[]): IToken | undefined {
  let depth = 0;
  for (const t of tokens) {
    if (t.tokenType === LParen || t.tokenType === LBracket || t.tokenType === LCurly) {
      if (++depth > MAX_NESTING) return t;
    } else if (t.tokenType === RParen || t.tokenType === RBracket || t.tokenType === RCurly) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

export function parse(file: SourceFile): ParseResult {
  try {
    return parseFile(file);
  } catch (e) {
    const at = { file: file.path, start: 0, end: 0 };
    // The parser itself reports running out of stack where it happened (parseFile); the
    // steps after it are kept within their stack by checkNesting. Should one still run out,
    // say so at the top of the file rather than as a crash.
    if (e instanceof RangeError) {
      const message = "the file nests too deeply for gk (hundreds of nested expressions or statements): split it into several statements or device functions";
      return { module: { kind: "Module", file: file.path, items: [], span: at }, diagnostics: [error("GK1014", at, message)] };
    }
    // Only a bug in the parser lands here; say so, and hand back an empty module.
    const reason = e instanceof Error ? e.message : String(e);
    const message = `internal compiler error while parsing: ${reason}. This is a bug in gk; please report it with the file that caused it`;
    return { module: { kind: "Module", file: file.path, items: [], span: at }, diagnostics: [error("GK9001", at, message)] };
  }
}


function parseFile(file: SourceFile): ParseResult {
  const lexed = lex(file);
  const tooDeep = deepestOpener(lexed.tokens);
  if (tooDeep) {
    const at = tokenSpan(file.path, tooDeep);
    const message = `brackets nest more than ${MAX_NESTING} deep here ('(', '[' and '{' together): split the expression into several statements, or the code into device functions`;
    return { module: { kind: "Module", file: file.path, items: [], span: at }, diagnostics: [...lexed.diagnostics, error("GK1014", at, message)] };
  }
  parserInstance ??= new GkParser(new ProblemRecorder());
  const parser = parserInstance;
  const brackets = new BracketMap(lexed.tokens);
  parser.start(lexed.tokens, brackets);
  let cst: ModuleCst;
  try {
    // The grammar's rules are typed as returning a plain CstNode; cst.ts describes what they build.
    cst = parser.module() as unknown as ModuleCst;
  } catch (e) {
    // Nesting within MAX_NESTING brackets that is still too deep for a recursive-descent
    // parser (hundreds of chained '?:', 'else if' or nested loops): the parser stopped
    // where its stack ran out, which is the place to show.
    if (!(e instanceof RangeError)) throw e;
    const deep = parser.nextToken();
    const at = deep.tokenType === EOF ? { file: file.path, start: 0, end: 0 } : tokenSpan(file.path, deep);
    const message = "the code nests too deeply here to parse (hundreds of chained '?:', 'else if' or nested statements): split it into several statements or device functions";
    return { module: { kind: "Module", file: file.path, items: [], span: at }, diagnostics: [...lexed.diagnostics, error("GK1014", at, message)] };
  }

  // The problems to report: the recognition errors chevrotain kept, and those the grammar noted itself.
  const problems = parser.recorder.reportable(new Set(parser.errors.map((e) => e.message)));
  const syntax = syntaxDiagnostics(problems, {
    file,
    tokens: lexed.tokens,
    brackets,
    lexDiagnostics: lexed.diagnostics,
    swallowedEnd: lexed.swallowedEnd,
  });

  const log = new DiagnosticLog();
  const built = toAst(cst, file, log, { recovered: problems.length > 0, strayGroups: parser.strayGroups });
  // Items nested too deeply for the steps after the parser are reported and dropped.
  const { module, diagnostics: deep } = checkNesting(built);
  return { module, diagnostics: sortDiagnostics([...lexed.diagnostics, ...syntax, ...log.all, ...deep]) };
}

/**
 * Whether `text` is exactly one expression: all of it read by the grammar's expression rule,
 * with no error and no comment. For text that is pasted into generated source (`gkc run
 * --arg` values into a launch statement), which must not end what it is pasted into: add a
 * clause, a statement, or a comment that hides what follows.
 */
export function isOneExpression(text: string): boolean {
  const lexed = lex(makeSourceFile("<expression>", text));
  if (lexed.diagnostics.length || lexed.tokens.length === 0 || deepestOpener(lexed.tokens)) return false;
  // Between tokens (the lexer found nothing it could not read) is white space or a comment, which starts with '/'.
  let at = 0;
  for (const t of lexed.tokens) {
    if (text.slice(at, t.startOffset).includes("/")) return false;
    at = tokenEnd(t);
  }
  if (text.slice(at).includes("/")) return false;
  parserInstance ??= new GkParser(new ProblemRecorder());
  const parser = parserInstance;
  parser.start(lexed.tokens, new BracketMap(lexed.tokens));
  try {
    parser.expression();
  } catch (e) {
    if (e instanceof RangeError) return false; // nested too deeply to parse: not a value for a flag
    throw e;
  }
  return parser.errors.length === 0 && parser.recorder.reportable(new Set()).length === 0 && parser.nextToken().tokenType === EOF;
}

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
import { lex } from "./lexer.js";
import { BracketMap } from "./cascade.js";
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

export function parse(file: SourceFile): ParseResult {
  try {
    return parseFile(file);
  } catch (e) {
    // Only a bug in the parser lands here; say so, and hand back an empty module.
    const reason = e instanceof Error ? e.message : String(e);
    const at = { file: file.path, start: 0, end: 0 };
    const message = `internal compiler error while parsing: ${reason}. This is a bug in gk; please report it with the file that caused it`;
    return { module: { kind: "Module", file: file.path, items: [], span: at }, diagnostics: [error("GK9001", at, message)] };
  }
}

function parseFile(file: SourceFile): ParseResult {
  const lexed = lex(file);
  parserInstance ??= new GkParser(new ProblemRecorder());
  const parser = parserInstance;
  const brackets = new BracketMap(lexed.tokens);
  parser.start(lexed.tokens, brackets);
  // The grammar's rules are typed as returning a plain CstNode; cst.ts describes what they build.
  const cst = parser.module() as unknown as ModuleCst;

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
  const module = toAst(cst, file, log, { recovered: problems.length > 0, strayGroups: parser.strayGroups });
  return { module, diagnostics: sortDiagnostics([...lexed.diagnostics, ...syntax, ...log.all]) };
}

/**
 * The TypeScript front end: a `.ts` file's kernels, device functions, constants and kernel
 * imports as gk's AST (src/parser/ast.ts), which the checker reads as it reads a .gk file's.
 * Registered by extension in src/load/frontEnds.ts.
 *
 *   text ──(memory, then the disk cache, by content)──▶ AST + diagnostics
 *        └─(otherwise) TypeScript's parser (ts-morph) ──▶ module.ts ──▶ nesting limits ──┘
 *
 * TypeScript (through ts-morph) is loaded on the first file that is not in a cache, never at
 * start-up: programs and gkc commands that read no TypeScript kernel never load it. A file
 * lowered once is kept on disk by its content (cache.ts), so a program whose kernel files
 * have not changed does not load TypeScript at all; a bundler plugin hands over what it
 * lowered at build time (rememberLowered), so bundled code never needs TypeScript.
 */
import { createRequire } from "node:module";
import { DiagnosticLog, error, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../diagnostics/source.js";
import type { ParseResult } from "../parser/index.js";
import { checkNesting } from "../parser/nesting.js";
import { loweringKey, readLowered, writeLowered } from "./cache.js";
import type { Ts } from "./context.js";
import { lowerFile } from "./module.js";

export const TS_EXTENSIONS: readonly string[] = [".ts", ".mts", ".cts"];

/** Files lowered in this process, or handed over by a bundler plugin, by name and text. */
const lowered = new Map<string, ParseResult>();
const memoryKey = (file: string, text: string) => `${file}\0${text}`;
let typescript: Ts | undefined;

/** TypeScript's compiler, loaded on first use (about a second). */
export function loadTypeScript(): Ts {
  typescript ??= (createRequire(import.meta.url)("ts-morph") as { ts: Ts }).ts;
  return typescript;
}

/** Whether TypeScript has been loaded in this process (tests check that it stays unloaded). */
export function typeScriptLoaded(): boolean {
  return typescript !== undefined;
}

/** What a bundler plugin lowered at build time: found by the file's name and text, without TypeScript. */
export function rememberLowered(file: string, text: string, result: ParseResult): void {
  lowered.set(memoryKey(file, text), result);
}

/** The front end's entry: never throws. */
export function parseTypeScript(src: SourceFile): ParseResult {
  const memo = memoryKey(src.path, src.text);
  const inMemory = lowered.get(memo);
  if (inMemory) return inMemory;
  const key = loweringKey(src.path, src.text);
  const known = readLowered(key);
  if (known) {
    lowered.set(memo, known);
    return known;
  }
  const result = lowerTypeScript(src);
  lowered.set(memo, result);
  // A compiler error is not kept: the next run tries again (and reports it again).
  if (!result.diagnostics.some((d) => d.code === "GK9001")) writeLowered(key, result);
  return result;
}

/** Lowers a file with TypeScript's parser, every time (parseTypeScript caches). */
export function lowerTypeScript(src: SourceFile): ParseResult {
  const at = { file: src.path, start: 0, end: 0 };
  const empty = { kind: "Module" as const, file: src.path, items: [], span: at };
  try {
    const ts = loadTypeScript();
    const sf = ts.createSourceFile(src.path, src.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const log = new DiagnosticLog();
    const parseErrors = (sf as unknown as { parseDiagnostics?: readonly { start?: number; length?: number; messageText: unknown }[] }).parseDiagnostics ?? [];
    for (const d of parseErrors) {
      const start = d.start ?? 0;
      const message = ts.flattenDiagnosticMessageText(d.messageText as string, "\n");
      log.error("GK1010", { file: src.path, start, end: start + (d.length ?? 0) }, `syntax error: ${message}`);
    }
    const module = lowerFile(ts, sf, src.path, log);
    const { module: kept, diagnostics: deep } = checkNesting(module);
    return { module: kept, diagnostics: sortDiagnostics([...log.all, ...deep]) };
  } catch (e) {
    if (e instanceof RangeError) return { module: empty, diagnostics: [tooDeep(src)] };
    if (isMissingModule(e)) {
      return { module: empty, diagnostics: [error("GK7004", at, "reading kernels written in TypeScript needs ts-morph, which is not installed: npm install ts-morph")] };
    }
    const reason = e instanceof Error ? e.message : String(e);
    return { module: empty, diagnostics: [error("GK9001", at, `internal compiler error while reading TypeScript: ${reason}. This is a bug in gk; please report it with the file that caused it`)] };
  }
}

/**
 * GK1014 for a file that ran TypeScript's parser (or the lowering) out of stack: at the
 * outermost bracket of the deepest nest of ( [ {, found with TypeScript's scanner, which
 * keeps no stack (tsc itself cannot read such a file).
 */
function tooDeep(src: SourceFile): Diagnostic {
  const ts = loadTypeScript();
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, src.text);
  const opens: number[] = [];
  let deepest = 0;
  let outermost = 0;
  for (let t = scanner.scan(); t !== ts.SyntaxKind.EndOfFileToken; t = scanner.scan()) {
    if (t === ts.SyntaxKind.OpenParenToken || t === ts.SyntaxKind.OpenBracketToken || t === ts.SyntaxKind.OpenBraceToken) {
      opens.push(scanner.getTokenStart());
      if (opens.length > deepest) [deepest, outermost] = [opens.length, opens[0]!];
    } else if (t === ts.SyntaxKind.CloseParenToken || t === ts.SyntaxKind.CloseBracketToken || t === ts.SyntaxKind.CloseBraceToken) {
      opens.pop();
    }
  }
  return error("GK1014", { file: src.path, start: outermost, end: outermost + 1 }, `brackets nest ${deepest} deep here, more than TypeScript's parser can read (tsc cannot read this file either): build the value in steps, or split the code into functions`);
}

function isMissingModule(e: unknown): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" && e.message.includes("ts-morph");
}

/**
 * Lexing: source text to tokens, with every lexical problem turned into a diagnostic
 * and lexing carried on past it. Unknown characters become `BadChar` tokens (one per
 * run), so the parser sees that something stood there and its recovery can step over it.
 */
import { createTokenInstance, Lexer, type IToken } from "chevrotain";
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile, Span } from "../diagnostics/source.js";
import { isTerminatedComment, numberProblem, readString } from "./literals.js";
import { BadChar, BlockComment, lexerTokens, NumberLit, StringLit } from "./tokens.js";

export interface LexResult {
  /** Significant tokens in source order (comments and whitespace left out), `BadChar` included. */
  readonly tokens: IToken[];
  readonly diagnostics: Diagnostic[];
  /**
   * True when an unterminated comment ran to the end of the file. Whatever the parser
   * then finds missing at the end is a consequence, and not reported again.
   */
  readonly swallowedEnd: boolean;
}

let lexerInstance: Lexer | undefined;

/**
 * A chevrotain lexer for gk's tokens. `validate` runs chevrotain's checks of the token
 * definitions, which only report mistakes in them and change nothing else; gkc starts
 * faster without them, and test/parser/grammar.test.ts runs them, so the definitions
 * they would check are known to be sound.
 */
export function newLexer(opts: { readonly validate?: boolean } = {}): Lexer {
  return new Lexer(lexerTokens, { positionTracking: "onlyOffset", ensureOptimizations: true, skipValidations: !opts.validate });
}

function lexer(): Lexer {
  lexerInstance ??= newLexer();
  return lexerInstance;
}

/** One past the token's last character. */
export function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}

export function tokenSpan(file: string, t: IToken): Span {
  return { file, start: t.startOffset, end: tokenEnd(t) };
}

export function lex(file: SourceFile): LexResult {
  const result = lexer().tokenize(file.text);
  const diagnostics: Diagnostic[] = [];
  const bad: IToken[] = [];
  for (const e of result.errors) {
    const image = file.text.slice(e.offset, e.offset + e.length);
    bad.push(createTokenInstance(BadChar, image, e.offset, e.offset + e.length - 1, NaN, NaN, NaN, NaN));
    diagnostics.push(error("GK1001", { file: file.path, start: e.offset, end: e.offset + e.length }, unexpectedCharacters(image)));
  }
  for (const t of result.tokens) {
    if (t.tokenType === NumberLit) {
      const problem = numberProblem(t.image);
      if (problem !== undefined) diagnostics.push(error("GK1003", tokenSpan(file.path, t), problem));
    } else if (t.tokenType === StringLit && !readString(t.image).terminated) {
      const quote = t.image.charAt(0);
      diagnostics.push(error("GK1002", tokenSpan(file.path, t), `unterminated string: add the closing ${quote} on the same line`));
    }
  }
  let swallowedEnd = false;
  for (const c of result.groups["comments"] ?? []) {
    if (c.tokenType === BlockComment && !isTerminatedComment(c.image)) {
      swallowedEnd = true;
      const start = { file: file.path, start: c.startOffset, end: c.startOffset + 2 };
      diagnostics.push(error("GK1002", start, "unterminated comment: this '/*' has no closing '*/'"));
    }
  }
  return { tokens: mergeByOffset(result.tokens, bad), diagnostics, swallowedEnd };
}

function unexpectedCharacters(image: string): string {
  const chars = [...image];
  const invisible = chars.some((ch) => /[\p{C}\p{Z}]/u.test(ch));
  const shown = invisible ? chars.map(codePoint).join(" ") : `'${image}'`;
  const hint = image.includes("#")
    ? "; gk has no preprocessor: use `const N = 16;` for constants"
    : chars.some((ch) => /\p{L}/u.test(ch))
      ? "; names are ASCII letters, digits and '_'"
      : "";
  return `unexpected ${chars.length === 1 ? "character" : "characters"} ${shown}${hint}`;
}

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

function mergeByOffset(a: IToken[], b: IToken[]): IToken[] {
  if (b.length === 0) return a;
  const out: IToken[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.startOffset < b[j]!.startOffset)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/**
 * The base of gk's parser (`grammar.ts`): chevrotain's set-up, the per-parse state, the
 * recovery hook, and the helpers that rules of every area use: `declaredName`, `closeWith`
 * and `endOfStatement`. The rules themselves are defined by the layers above it
 * (`declarationRules.ts`, `statementRules.ts`, `expressionRules.ts`).
 */
import { CstParser, tokenMatcher, type IToken, type TokenType } from "chevrotain";
import type { BracketMap } from "./cascade.js";
import type { ProblemRecorder, StatementContext } from "./problems.js";
import { AnyName, keywords, parserVocabulary, Semi } from "./tokens.js";

const reserved: ReadonlySet<TokenType> = new Set(keywords);

export abstract class GrammarBase extends CstParser {
  /** Bracket structure of the current input, for skipping to a matching closer. */
  private brackets: BracketMap | undefined;
  /** Opening brackets of the groups in which stray tokens were skipped, in the current parse. */
  strayGroups = new Set<IToken>();

  /**
   * `recorder` receives every problem met, chevrotain's and the grammar's own. `validate`
   * runs chevrotain's grammar validations (ambiguities, left recursion, ...), a third of the
   * parser's start-up: they only report mistakes in the grammar and leave what the parser
   * computes and does unchanged, so gkc leaves them out and test/parser/grammar.test.ts
   * runs them.
   */
  constructor(readonly recorder: ProblemRecorder, opts: { readonly validate?: boolean } = {}) {
    super(parserVocabulary, { recoveryEnabled: true, maxLookahead: 3, errorMessageProvider: recorder, skipValidations: !opts.validate });
  }

  /** Feeds a new token list (and its bracket map) and forgets everything about the previous parse. */
  start(tokens: IToken[], brackets: BracketMap): void {
    this.recorder.reset();
    this.brackets = brackets;
    this.strayGroups = new Set();
    this.input = tokens;
  }

  /** The next token to read: after a parse that ran out of stack, where it stopped. */
  nextToken(): IToken {
    return this.LA(1);
  }

  /**
   * Chevrotain repairs a missing token by pretending it is there (insertion) before it
   * tries skipping one stray token (deletion). When the expected token comes right after
   * the stray one, as in `f(a b)`, skipping is the better repair: it resumes in step.
   */
  protected override canTokenTypeBeInsertedInRecovery(tokType: TokenType): boolean {
    return !tokenMatcher(this.LA(2), tokType);
  }

  /**
   * The name a declaration introduces. Any word is taken, so that `let if = 1;` is one
   * clear error ("'if' is a reserved word") and parsing goes on undisturbed.
   * Uses occurrence index 7, which no rule uses for itself.
   */
  protected declaredName(): void {
    const name = this.CONSUME7(AnyName, { LABEL: "name" });
    this.ACTION(() => {
      if (reserved.has(name.tokenType)) this.recorder.report({ kind: "reservedName", actual: name, previous: name });
    });
  }

  /**
   * The closer of a bracket group. When stray tokens stand before the closer that matches
   * `open` (`if (a b) {`, `f(x: i32 y: i32)`), they are reported once and skipped, `open`
   * is noted in `strayGroups`, and parsing resumes after the group as if it were well
   * formed. Otherwise this is a plain CONSUME, with chevrotain's recovery when the closer
   * is missing. Uses occurrence index 8, which no rule uses for itself.
   */
  protected closeWith(open: IToken, close: TokenType, rule: string): void {
    this.ACTION(() => {
      const target = this.brackets?.closerAhead(open, this.LA(1).startOffset);
      if (target === undefined) return;
      this.recorder.report({ kind: "mismatch", expected: close, rule, actual: this.LA(1), previous: this.LA(0) });
      this.strayGroups.add(open);
      while (this.LA(1).startOffset < target) this.SKIP_TOKEN();
    });
    this.CONSUME8(close);
  }

  /**
   * The `;` that ends a statement or declaration. When it is missing, the problem is
   * recorded and parsing goes on as if it were there (a `;` has no content to recover).
   * Uses occurrence index 9 so that it never collides with a rule's own `;` or OPTION.
   */
  protected endOfStatement(context: StatementContext): void {
    const semi = this.OPTION9(() => this.CONSUME9(Semi));
    this.ACTION(() => {
      if (semi === undefined) this.recorder.report({ kind: "missingSemicolon", context, actual: this.LA(1), previous: this.LA(0) });
    });
  }
}

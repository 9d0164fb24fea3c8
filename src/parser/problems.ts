/**
 * What the parser found wrong, as structured records rather than chevrotain's English.
 * Chevrotain asks an `IParserErrorMessageProvider` for a message whenever it raises a
 * recognition error; ours stores what it is told (the expected token, the token found,
 * the rule) and answers with the record's index, which comes back to us as the error's
 * `message`. `syntaxErrors.ts` turns the records that chevrotain kept into diagnostics.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";

/** Where a `;` was due, for the wording of "expected ';' after the ...". */
export type StatementContext = "statement" | "declaration" | "shared" | "import" | "launch" | "annotation";

interface Located {
  /** The token the parser was looking at (chevrotain's EOF token at the end of the input). */
  readonly actual: IToken;
  /** The last token consumed before it (chevrotain's EOF token when there is none). */
  readonly previous: IToken;
}

export type SyntaxProblem =
  | (Located & { readonly kind: "mismatch"; readonly expected: TokenType; readonly rule: string })
  | (Located & { readonly kind: "noAlternative"; readonly rule: string })
  | (Located & { readonly kind: "redundantInput" })
  /** A reserved word where a declaration's name belongs (`let if = 1;`). */
  | (Located & { readonly kind: "reservedName" })
  | (Located & { readonly kind: "missingSemicolon"; readonly context: StatementContext });

export class ProblemRecorder implements IParserErrorMessageProvider {
  private records: SyntaxProblem[] = [];
  /** Ids of the problems the grammar found itself (not chevrotain): always reported. */
  private own = new Set<string>();

  reset(): void {
    this.records = [];
    this.own = new Set();
  }

  /** Records a problem that the grammar's own recovery dealt with. */
  report(p: SyntaxProblem): void {
    this.own.add(this.add(p));
  }

  /**
   * The problems to report, in the order the parser met them: the grammar's own, and
   * those of chevrotain's errors that it kept (`kept`: the errors' messages, i.e. ids).
   */
  reportable(kept: ReadonlySet<string>): SyntaxProblem[] {
    return this.records.filter((_, i) => this.own.has(String(i)) || kept.has(String(i)));
  }

  /** Records a problem and returns its id (its index, as a string). */
  private add(p: SyntaxProblem): string {
    this.records.push(p);
    return String(this.records.length - 1);
  }


  buildMismatchTokenMessage(o: { expected: TokenType; actual: IToken; previous: IToken; ruleName: string }): string {
    return this.add({ kind: "mismatch", expected: o.expected, rule: o.ruleName, actual: o.actual, previous: o.previous });
  }

  buildNotAllInputParsedMessage(o: { firstRedundant: IToken; ruleName: string }): string {
    return this.add({ kind: "redundantInput", actual: o.firstRedundant, previous: o.firstRedundant });
  }

  buildNoViableAltMessage(o: { actual: IToken[]; previous: IToken; ruleName: string }): string {
    return this.noAlternative(o);
  }

  buildEarlyExitMessage(o: { actual: IToken[]; previous: IToken; ruleName: string }): string {
    return this.noAlternative(o);
  }

  private noAlternative(o: { actual: IToken[]; previous: IToken; ruleName: string }): string {
    const actual = o.actual[0] ?? o.previous;
    return this.add({ kind: "noAlternative", rule: o.ruleName, actual, previous: o.previous });
  }
}

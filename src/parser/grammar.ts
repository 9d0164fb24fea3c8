/**
 * gk's grammar as a chevrotain CstParser, with error recovery on. The CST it builds is
 * described by `cst.ts` (child names here, LABELs included, are the keys there) and
 * turned into the AST by `toAst.ts`.
 *
 * A few choices keep the grammar small and its errors clear:
 * - Binary operators are one flat rule, `unary (BinaryOp unary)*`; precedence and
 *   associativity are applied when building the AST.
 * - An expression may end in `= e` (or `+= e`, ...) and postfix and prefix `++`/`--` are
 *   accepted anywhere: the AST builder keeps them at statement level and says clearly
 *   why they are wrong inside an expression, instead of a generic "expected ')'".
 * - A missing `;` is not a recognition error: `endOfStatement` notes it and parsing goes
 *   on as if it were there, which is what the user meant almost every time.
 * - A declaration's name may be any word (`declaredName`), so that a reserved word there
 *   is one clear error rather than a parse that goes astray.
 * - Before a closing bracket, stray tokens are skipped up to the bracket that matches the
 *   opening one (`closeWith`), so `if (a b) {` resumes at the `{` in step.
 * Chevrotain's own recovery (single-token insertion and deletion, re-sync at rule
 * boundaries) handles the rest.
 *
 * The parser is built in layers, each a class that adds the rules of one area, in the
 * order chevrotain records them: GrammarBase (set-up and shared helpers), DeclarationRules
 * (module items and types), StatementRules, ExpressionRules, and GkParser, which runs
 * chevrotain's self-analysis once every rule is defined.
 */
import type { ProblemRecorder } from "./problems.js";
import { ExpressionRules } from "./expressionRules.js";

export class GkParser extends ExpressionRules {
  /** `recorder` and `opts` as for GrammarBase; the rules of every layer are defined when the analysis runs. */
  constructor(recorder: ProblemRecorder, opts: { readonly validate?: boolean } = {}) {
    super(recorder, opts);
    this.performSelfAnalysis();
  }
}

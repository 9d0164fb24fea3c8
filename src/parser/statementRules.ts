/**
 * The statement rules of gk's grammar: blocks, declarations of locals and shared arrays,
 * `if`, loops, `switch`, jumps and expression statements. The second layer of the parser
 * (`grammar.ts`), defined after the module items and types.
 */
import { tokenMatcher } from "chevrotain";
import { DeclarationRules } from "./declarationRules.js";
import {
  AnyName, AssignOp, Break, Colon, Comma, Const, Continue, CtxCase, CtxDefault, CtxSwitch, Do, Else, Eq, For, If, LCurly, Let, LParen, RCurly,
  Return, RParen, Semi, Shared, While,
} from "./tokens.js";

export abstract class StatementRules extends DeclarationRules {
  readonly block = this.RULE("block", () => {
    this.CONSUME(LCurly);
    this.MANY(() => this.SUBRULE(this.statement));
    this.CONSUME(RCurly);
  });

  readonly statement = this.RULE("statement", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.block) },
      { ALT: () => this.SUBRULE(this.annotatedStmt) },
      { ALT: () => this.SUBRULE(this.varStatement) },
      { ALT: () => this.SUBRULE(this.sharedDecl) },
      { ALT: () => this.SUBRULE(this.ifStmt) },
      // `switch (` starts a switch statement; `switch` is an ordinary name elsewhere.
      { GATE: () => tokenMatcher(this.LA(2), LParen), ALT: () => this.SUBRULE(this.switchStmt) },
      { ALT: () => this.SUBRULE(this.forStmt) },
      { ALT: () => this.SUBRULE(this.whileStmt) },
      { ALT: () => this.SUBRULE(this.doWhileStmt) },
      { ALT: () => this.SUBRULE(this.breakStmt) },
      { ALT: () => this.SUBRULE(this.continueStmt) },
      { ALT: () => this.SUBRULE(this.returnStmt) },
      { ALT: () => this.CONSUME(Semi, { LABEL: "empty" }) },
      // `{` starts a block, never an expression statement (an object literal there means nothing).
      { GATE: () => !tokenMatcher(this.LA(1), LCurly), ALT: () => this.SUBRULE(this.exprStmt), IGNORE_AMBIGUITIES: true },
    ]);
  });

  /** `@unroll for (...) ...`: an annotation and the statement it applies to. */
  readonly annotatedStmt = this.RULE("annotatedStmt", () => {
    this.SUBRULE(this.annotation);
    this.SUBRULE(this.statement, { LABEL: "body" });
  });

  readonly varStatement = this.RULE("varStatement", () => {
    this.SUBRULE(this.varDecl);
    this.endOfStatement("statement");
  });

  /** `let`/`const` without its `;`, shared by statements and `for` initializers: `let a = 1, b: f32;`. */
  readonly varDecl = this.RULE("varDecl", () => {
    this.OR([{ ALT: () => this.CONSUME(Let) }, { ALT: () => this.CONSUME(Const) }]);
    this.SUBRULE(this.declarator);
    // Only `, name` followed by `=`, `:`, `,` or `;` goes on. Otherwise the `,` is where a
    // `;` is missing (`for (let i = 0, i < n; ...)`), which says more than a recovery that
    // takes the next word as a name.
    this.MANY({
      GATE: () => tokenMatcher(this.LA(2), AnyName) && [Eq, Colon, Comma, Semi].some((t) => tokenMatcher(this.LA(3), t)),
      DEF: () => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.declarator);
      },
    });
  });

  /** One name of a `let`/`const`: `a`, `a: T`, `a = e`, `a: T = e`. */
  readonly declarator = this.RULE("declarator", () => {
    this.declaredName();
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.type);
    });
    this.OPTION2(() => {
      this.CONSUME(Eq);
      this.SUBRULE(this.expression, { LABEL: "init" });
    });
  });

  readonly sharedDecl = this.RULE("sharedDecl", () => {
    this.CONSUME(Shared);
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
    this.endOfStatement("shared");
  });

  readonly ifStmt = this.RULE("ifStmt", () => {
    this.CONSUME(If);
    const open = this.CONSUME(LParen);
    this.SUBRULE(this.expression, { LABEL: "cond" });
    this.closeWith(open, RParen, "ifStmt");
    this.SUBRULE(this.statement, { LABEL: "then" });
    this.OPTION(() => {
      this.CONSUME(Else);
      this.SUBRULE2(this.statement, { LABEL: "else" });
    });
  });

  readonly forStmt = this.RULE("forStmt", () => {
    this.CONSUME(For);
    const open = this.CONSUME(LParen);
    this.OPTION(() =>
      this.OR([
        { ALT: () => this.SUBRULE(this.varDecl, { LABEL: "initDecl" }) },
        {
          ALT: () => {
            this.SUBRULE(this.expression, { LABEL: "init" });
            this.MANY(() => {
              this.CONSUME(Comma);
              this.SUBRULE4(this.expression, { LABEL: "init" });
            });
          },
        },
      ]),
    );
    this.CONSUME(Semi);
    this.OPTION2(() => this.SUBRULE2(this.expression, { LABEL: "cond" }));
    this.CONSUME2(Semi);
    // `i++, j--`: the step (and an initializer that is not a declaration) may be a list.
    this.OPTION3(() => {
      this.SUBRULE3(this.expression, { LABEL: "step" });
      this.MANY2(() => {
        this.CONSUME2(Comma);
        this.SUBRULE5(this.expression, { LABEL: "step" });
      });
    });
    this.closeWith(open, RParen, "forStmt");
    this.SUBRULE(this.statement, { LABEL: "body" });
  });

  readonly switchStmt = this.RULE("switchStmt", () => {
    this.CONSUME(CtxSwitch);
    const open = this.CONSUME(LParen);
    this.SUBRULE(this.expression, { LABEL: "value" });
    this.closeWith(open, RParen, "switchStmt");
    this.CONSUME(LCurly);
    this.MANY(() => this.SUBRULE(this.switchCase));
    this.CONSUME(RCurly);
  });

  /** `case e:` or `default:`, then the statements up to the next label or the switch's `}`. */
  readonly switchCase = this.RULE("switchCase", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(CtxCase);
          this.SUBRULE(this.expression, { LABEL: "test" });
          this.CONSUME(Colon);
        },
      },
      {
        ALT: () => {
          this.CONSUME(CtxDefault);
          this.CONSUME2(Colon);
        },
      },
    ]);
    this.MANY({ GATE: () => !this.atCaseLabel(), DEF: () => this.SUBRULE(this.statement, { LABEL: "body" }) });
  });

  /** `case` followed by something other than an assignment, or `default:`: a label, not a statement about a variable of that name. */
  private atCaseLabel(): boolean {
    const next = this.LA(2);
    if (tokenMatcher(this.LA(1), CtxDefault)) return tokenMatcher(next, Colon);
    return tokenMatcher(this.LA(1), CtxCase) && !tokenMatcher(next, Eq) && !tokenMatcher(next, AssignOp) && !tokenMatcher(next, Semi);
  }

  readonly whileStmt = this.RULE("whileStmt", () => {
    this.CONSUME(While);
    const open = this.CONSUME(LParen);
    this.SUBRULE(this.expression, { LABEL: "cond" });
    this.closeWith(open, RParen, "whileStmt");
    this.SUBRULE(this.statement, { LABEL: "body" });
  });

  readonly doWhileStmt = this.RULE("doWhileStmt", () => {
    this.CONSUME(Do);
    this.SUBRULE(this.statement, { LABEL: "body" });
    this.CONSUME(While);
    const open = this.CONSUME(LParen);
    this.SUBRULE(this.expression, { LABEL: "cond" });
    this.closeWith(open, RParen, "doWhileStmt");
    this.endOfStatement("statement");
  });

  readonly breakStmt = this.RULE("breakStmt", () => {
    this.CONSUME(Break);
    this.endOfStatement("statement");
  });

  readonly continueStmt = this.RULE("continueStmt", () => {
    this.CONSUME(Continue);
    this.endOfStatement("statement");
  });

  readonly returnStmt = this.RULE("returnStmt", () => {
    this.CONSUME(Return);
    this.OPTION(() => this.SUBRULE(this.expression, { LABEL: "value" }));
    this.endOfStatement("statement");
  });

  /** An expression, assignment or increment used as a statement; `toAst` tells them apart. */
  readonly exprStmt = this.RULE("exprStmt", () => {
    this.SUBRULE(this.expression);
    this.endOfStatement("statement");
  });
}

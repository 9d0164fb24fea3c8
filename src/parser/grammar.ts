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
 */
import { CstParser, EOF, tokenMatcher, type IToken, type TokenType } from "chevrotain";
import type { BracketMap } from "./cascade.js";
import { ProblemRecorder, type StatementContext } from "./problems.js";
import {
  AnyName, AssignOp, At, BinaryOp, Break, Colon, Comma, Const, Continue, CtxBlock, CtxCase, CtxConstant, CtxDefault, CtxFrom, CtxGlobal, CtxGrid,
  CtxInout, CtxOut, CtxStruct, CtxSwitch, CtxReadonly, CtxView, DeviceFn, DeviceKernel, Do, Dot, Else, Eq, Export, False, For, Greater, Identifier, If,
  Import, keywords, LBracket, LCurly, Less, Let, Launch, LParen, MinusMinus, NumberLit, parserVocabulary, Pipe, PlusPlus,
  PrefixOp, Question, RBracket, RCurly, Return, RParen, Semi, Shared, StringLit, True, While,
} from "./tokens.js";

/** Tokens that may stand between a generic call's `<` and `>` outside parentheses: names, numbers, signs, commas. */
const GENERIC_ARG_TOKENS: readonly TokenType[] = [Identifier, NumberLit, True, False, Comma, PrefixOp, Dot];
/** How far the parser looks for the `>` of a generic call before deciding `<` is less-than. */
const GENERIC_LOOKAHEAD = 64;

const reserved: ReadonlySet<TokenType> = new Set(keywords);

export class GkParser extends CstParser {
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
    this.performSelfAnalysis();
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

  // ------------------------------------------------------------------ module items

  readonly module = this.RULE("module", () => {
    this.MANY(() => this.SUBRULE(this.item));
  });

  readonly item = this.RULE("item", () => {
    this.OPTION(() => this.CONSUME(Export));
    this.OR([
      { ALT: () => this.SUBRULE(this.kernelDecl) },
      { ALT: () => this.SUBRULE(this.functionDecl) },
      { ALT: () => this.SUBRULE(this.constDecl) },
      { ALT: () => this.SUBRULE(this.structDecl) },
      { ALT: () => this.SUBRULE(this.importDecl) },
      { ALT: () => this.SUBRULE(this.launchDecl) },
      { ALT: () => this.SUBRULE(this.constantDecl) },
      { ALT: () => this.SUBRULE(this.moduleAnnotation) },
    ]);
  });

  /** `constant TAPS: f32[17];`: constant memory, filled by each launch. */
  readonly constantDecl = this.RULE("constantDecl", () => {
    this.CONSUME(CtxConstant);
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
    this.endOfStatement("declaration");
  });

  /** `@flushToZero;`: an option of the whole module. */
  readonly moduleAnnotation = this.RULE("moduleAnnotation", () => {
    this.SUBRULE(this.annotation);
    this.endOfStatement("declaration");
  });

  /** `@unroll`, `@unroll(4)`. */
  readonly annotation = this.RULE("annotation", () => {
    this.CONSUME(At);
    this.CONSUME(Identifier, { LABEL: "name" });
    this.OPTION(() => this.SUBRULE(this.argList, { LABEL: "args" }));
  });

  readonly kernelDecl = this.RULE("kernelDecl", () => {
    this.CONSUME(DeviceKernel);
    this.declaredName();
    this.OPTION(() => this.SUBRULE(this.genericParams));
    this.SUBRULE(this.paramList);
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  readonly functionDecl = this.RULE("functionDecl", () => {
    this.CONSUME(DeviceFn);
    this.declaredName();
    this.OPTION2(() => this.SUBRULE(this.genericParams));
    this.SUBRULE(this.paramList);
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.type, { LABEL: "returnType" });
    });
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  readonly paramList = this.RULE("paramList", () => {
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.param);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.param);
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "paramList");
  });

  /** `<T: f32 | f64, BLOCK: i32>` after a kernel's or function's name. */
  readonly genericParams = this.RULE("genericParams", () => {
    const open = this.CONSUME(Less);
    this.SUBRULE(this.genericParam);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.genericParam);
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.closeWith(open, Greater, "genericParams");
  });

  /** `T: f32 | f64`: a name and its constraint, one or more names separated by `|`. */
  readonly genericParam = this.RULE("genericParam", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.CONSUME(Identifier, { LABEL: "constraint" });
    this.MANY(() => {
      this.CONSUME(Pipe);
      this.CONSUME2(Identifier, { LABEL: "constraint" });
    });
  });

  /** `<f32, 256>`: an instance's arguments, each a unary expression (a type is a name; `(N * 2)` needs its parentheses). */
  readonly genericArgs = this.RULE("genericArgs", () => {
    const open = this.CONSUME(Less);
    this.SUBRULE(this.unary, { LABEL: "args" });
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.unary, { LABEL: "args" });
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.closeWith(open, Greater, "genericArgs");
  });

  readonly param = this.RULE("param", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
  });

  readonly constDecl = this.RULE("constDecl", () => {
    this.CONSUME(Const);
    this.declaredName();
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.type);
    });
    this.CONSUME(Eq);
    this.SUBRULE(this.expression, { LABEL: "init" });
    this.endOfStatement("declaration");
  });

  /** `struct Name { a: T; b: U, ... }`: fields separated (or ended) by `;` or `,`. */
  readonly structDecl = this.RULE("structDecl", () => {
    this.CONSUME(CtxStruct);
    this.declaredName();
    const open = this.CONSUME(LCurly);
    this.MANY(() => {
      this.SUBRULE(this.fieldDecl);
      this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(Semi) }, { ALT: () => this.CONSUME(Comma) }]));
    });
    this.closeWith(open, RCurly, "structDecl");
  });

  readonly fieldDecl = this.RULE("fieldDecl", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
  });

  readonly importDecl = this.RULE("importDecl", () => {
    this.CONSUME(Import);
    const open = this.CONSUME(LCurly);
    this.OPTION(() => {
      this.CONSUME(Identifier, { LABEL: "names" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.CONSUME2(Identifier, { LABEL: "names" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RCurly, "importDecl");
    this.CONSUME(CtxFrom);
    this.CONSUME(StringLit, { LABEL: "path" });
    this.endOfStatement("import");
  });

  readonly launchDecl = this.RULE("launchDecl", () => {
    this.CONSUME(Launch);
    this.CONSUME(Identifier, { LABEL: "kernel" });
    this.OPTION3(() => this.SUBRULE(this.genericArgs, { LABEL: "typeArgs" }));
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.launchArg);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.launchArg);
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "launchDecl");
    this.CONSUME(CtxGrid);
    this.SUBRULE(this.argList, { LABEL: "grid" });
    this.CONSUME(CtxBlock);
    this.SUBRULE2(this.argList, { LABEL: "block" });
    this.OPTION4(() => this.SUBRULE(this.sharedClause));
    this.endOfStatement("launch");
  });

  /** `shared(buf = 256)`: the lengths of a launched kernel's dynamic shared arrays. */
  readonly sharedClause = this.RULE("sharedClause", () => {
    this.CONSUME(Shared);
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.launchArg, { LABEL: "lengths" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.launchArg, { LABEL: "lengths" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "sharedClause");
  });

  readonly launchArg = this.RULE("launchArg", () => {
    this.declaredName();
    this.CONSUME(Eq);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  // ------------------------------------------------------------------ types

  readonly type = this.RULE("type", () => {
    // `shared f32[256]`: a device_fn parameter that is a shared array of the caller's.
    this.OPTION(() => this.CONSUME(Shared));
    this.SUBRULE(this.typeAtom);
    this.MANY(() => {
      const open = this.CONSUME(LBracket);
      // Left out in `shared buf: f32[];`, whose length each launch gives.
      this.OPTION2(() => this.SUBRULE(this.expression, { LABEL: "sizes" }));
      this.closeWith(open, RBracket, "type");
    });
  });

  readonly typeAtom = this.RULE("typeAtom", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(CtxReadonly);
          this.SUBRULE(this.typeAtom, { LABEL: "qualified" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(CtxGlobal);
          this.CONSUME(Less);
          this.SUBRULE(this.type, { LABEL: "elem" });
          this.CONSUME(Greater);
        },
      },
      {
        // `view<f32>`: a device_fn parameter that is part of an array in any memory.
        GATE: () => tokenMatcher(this.LA(2), Less),
        ALT: () => {
          this.CONSUME(CtxView);
          this.CONSUME2(Less);
          this.SUBRULE2(this.type, { LABEL: "viewElem" });
          this.CONSUME2(Greater);
        },
      },
      {
        // `inout f32`, `out f32`: a device_fn parameter that is a reference to the caller's variable or element.
        GATE: () => tokenMatcher(this.LA(2), AnyName),
        ALT: () => {
          this.OR2([{ ALT: () => this.CONSUME(CtxInout, { LABEL: "mode" }) }, { ALT: () => this.CONSUME(CtxOut, { LABEL: "mode" }) }]);
          this.SUBRULE2(this.typeAtom, { LABEL: "referenced" });
        },
      },
      { ALT: () => this.CONSUME(Identifier, { LABEL: "name" }) },
    ]);
  });

  // ------------------------------------------------------------------ statements

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

  // ------------------------------------------------------------------ expressions

  readonly expression = this.RULE("expression", () => {
    this.SUBRULE(this.conditional);
    this.OPTION(() => {
      this.CONSUME(AssignOp);
      this.SUBRULE(this.expression, { LABEL: "value" });
    });
  });

  readonly conditional = this.RULE("conditional", () => {
    this.SUBRULE(this.binary);
    this.OPTION(() => {
      this.CONSUME(Question);
      this.SUBRULE(this.expression, { LABEL: "then" });
      this.CONSUME(Colon);
      this.SUBRULE2(this.expression, { LABEL: "else" });
    });
  });

  readonly binary = this.RULE("binary", () => {
    this.SUBRULE(this.unary);
    this.MANY(() => {
      this.CONSUME(BinaryOp);
      this.SUBRULE2(this.unary);
    });
  });

  readonly unary = this.RULE("unary", () => {
    this.MANY(() => this.CONSUME(PrefixOp));
    this.SUBRULE(this.postfix);
  });

  readonly postfix = this.RULE("postfix", () => {
    this.SUBRULE(this.primary);
    // A `<` continues the postfix only as a generic call's arguments; otherwise it is less-than.
    this.MANY({ GATE: () => !tokenMatcher(this.LA(1), Less) || this.genericCallAhead(), DEF: () => this.SUBRULE(this.postfixOp) });
  });

  readonly postfixOp = this.RULE("postfixOp", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.argList, { LABEL: "call" }) },
      {
        ALT: () => {
          this.SUBRULE(this.genericArgs, { LABEL: "typeArgs" });
          this.SUBRULE2(this.argList, { LABEL: "call" });
        },
      },
      {
        ALT: () => {
          const open = this.CONSUME(LBracket);
          this.SUBRULE(this.expression, { LABEL: "index" });
          this.closeWith(open, RBracket, "postfixOp");
        },
      },
      {
        ALT: () => {
          this.CONSUME(Dot);
          this.CONSUME(Identifier, { LABEL: "member" });
        },
      },
      { ALT: () => this.CONSUME(PlusPlus) },
      { ALT: () => this.CONSUME(MinusMinus) },
    ]);
  });

  readonly primary = this.RULE("primary", () => {
    this.OR([
      { ALT: () => this.CONSUME(NumberLit) },
      { ALT: () => this.CONSUME(True) },
      { ALT: () => this.CONSUME(False) },
      { ALT: () => this.CONSUME(Identifier) },
      { ALT: () => this.SUBRULE(this.parenExpr) },
      { ALT: () => this.SUBRULE(this.arrayLit) },
      { ALT: () => this.SUBRULE(this.objectLit) },
    ]);
  });

  /** `{ a: 1, b: x }`: a struct value. */
  readonly objectLit = this.RULE("objectLit", () => {
    const open = this.CONSUME(LCurly);
    this.OPTION(() => {
      this.SUBRULE(this.objectField, { LABEL: "fields" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.objectField, { LABEL: "fields" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RCurly, "objectLit");
  });

  readonly objectField = this.RULE("objectField", () => {
    this.CONSUME(Identifier, { LABEL: "name" });
    this.CONSUME(Colon);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  readonly parenExpr = this.RULE("parenExpr", () => {
    const open = this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.closeWith(open, RParen, "parenExpr");
  });

  readonly arrayLit = this.RULE("arrayLit", () => {
    const open = this.CONSUME(LBracket);
    this.OPTION(() => {
      this.SUBRULE(this.expression, { LABEL: "elements" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.expression, { LABEL: "elements" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RBracket, "arrayLit");
  });

  /** `(a, b, c)`: call arguments, and the sizes in `grid(...)` and `block(...)`. */
  readonly argList = this.RULE("argList", () => {
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.expression, { LABEL: "args" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.expression, { LABEL: "args" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "argList");
  });

  // ------------------------------------------------------------------ helpers

  /**
   * Whether the `<` ahead opens a generic call's arguments: `f<f32>(x)`, `g<T, (N * 2)>(a)`.
   * As in TypeScript, it does when a matching `>` follows, with only names, numbers, signs
   * and commas before it (anything inside parentheses), and a `(` right after it; otherwise
   * the `<` is less-than. (`a < b > (c)` compares a bool with `>`, which gk refuses anyway.)
   */
  private genericCallAhead(): boolean {
    if (!tokenMatcher(this.LA(1), Less)) return false;
    let depth = 0;
    for (let k = 2; k < GENERIC_LOOKAHEAD; k++) {
      const t = this.LA(k);
      if (tokenMatcher(t, EOF)) return false;
      if (depth === 0 && tokenMatcher(t, Greater)) return tokenMatcher(this.LA(k + 1), LParen);
      if (tokenMatcher(t, LParen)) depth++;
      else if (tokenMatcher(t, RParen)) depth--;
      else if (depth === 0 ? !GENERIC_ARG_TOKENS.some((g) => tokenMatcher(t, g)) : [Semi, LCurly, RCurly].some((g) => tokenMatcher(t, g))) return false;
      if (depth < 0) return false;
    }
    return false;
  }

  /**
   * The name a declaration introduces. Any word is taken, so that `let if = 1;` is one
   * clear error ("'if' is a reserved word") and parsing goes on undisturbed.
   * Uses occurrence index 7, which no rule uses for itself.
   */
  private declaredName(): void {
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
  private closeWith(open: IToken, close: TokenType, rule: string): void {
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
  private endOfStatement(context: StatementContext): void {
    const semi = this.OPTION9(() => this.CONSUME9(Semi));
    this.ACTION(() => {
      if (semi === undefined) this.recorder.report({ kind: "missingSemicolon", context, actual: this.LA(1), previous: this.LA(0) });
    });
  }
}

/**
 * The expression rules of gk's grammar: assignment-ended expressions, `?:`, the flat
 * binary rule, prefix and postfix operators, generic calls, literals and argument lists.
 * The last layer of rules of the parser (`grammar.ts`).
 */
import { EOF, tokenMatcher, type TokenType } from "chevrotain";
import { StatementRules } from "./statementRules.js";
import {
  AssignOp, BinaryOp, Colon, Comma, Dot, False, Greater, Identifier, LBracket, LCurly, Less, LParen, MinusMinus, NumberLit, PlusPlus, PrefixOp,
  Question, RBracket, RCurly, RParen, Semi, True,
} from "./tokens.js";

/** Tokens that may stand between a generic call's `<` and `>` outside parentheses: names, numbers, signs, commas. */
const GENERIC_ARG_TOKENS: readonly TokenType[] = [Identifier, NumberLit, True, False, Comma, PrefixOp, Dot];
/** How far the parser looks for the `>` of a generic call before deciding `<` is less-than. */
const GENERIC_LOOKAHEAD = 64;

export abstract class ExpressionRules extends StatementRules {
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
}

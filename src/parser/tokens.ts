/**
 * gk's token types. Keywords are reserved; `from`, `grid`, `block`, `global`,
 * `readonly`, `switch`, `case`, `default`, `struct`, `constant`, `view`, `inout` and `out` are contextual: they lex as their own types but belong to the
 * `Identifier` category, so anywhere a name is accepted they are names too.
 * `BinaryOp`, `PrefixOp` and `AssignOp` are categories that let the grammar consume
 * "any binary operator" in one step; the CST keeps the concrete token.
 */
import { createToken, Lexer, type TokenType } from "chevrotain";
import { scanBlockComment, scanNumber, scanString } from "./literals.js";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: "LineComment", pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });
/** `/* ... *\/`, or `/*` up to the end of the file when unterminated (reported by the lexer). */
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: { exec: scanBlockComment },
  line_breaks: true,
  start_chars_hint: ["/"],
  group: "comments",
});

/** Anything that starts like a number, including malformed ones such as `0x` or `08x`: validated after lexing. */
export const NumberLit = createToken({
  name: "NumberLit",
  pattern: { exec: scanNumber },
  line_breaks: false,
  start_chars_hint: [".", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
});
/** A quoted string (imports only), possibly unterminated at the end of its line. */
export const StringLit = createToken({
  name: "StringLit",
  pattern: { exec: scanString },
  line_breaks: false,
  start_chars_hint: ['"', "'"],
});

/**
 * Where a declaration names something, the grammar takes any word, reserved or not, so
 * that `let if = 1;` is one clear error ("'if' is a reserved word") from the AST
 * builder instead of a parse that goes astray.
 */
export const AnyName = createToken({ name: "AnyName", pattern: Lexer.NA });
export const Identifier = createToken({ name: "Identifier", pattern: /[A-Za-z_][A-Za-z0-9_]*/, categories: [AnyName] });

function keyword(name: string, word: string): TokenType {
  return createToken({ name, pattern: new RegExp(word), longer_alt: Identifier, categories: [AnyName], label: `'${word}'` });
}
function contextual(name: string, word: string): TokenType {
  return createToken({ name, pattern: new RegExp(word), longer_alt: Identifier, categories: [Identifier], label: `'${word}'` });
}

export const DeviceKernel = keyword("DeviceKernel", "device_kernel");
export const DeviceFn = keyword("DeviceFn", "device_fn");
export const Const = keyword("Const", "const");
export const Let = keyword("Let", "let");
export const Shared = keyword("Shared", "shared");
export const If = keyword("If", "if");
export const Else = keyword("Else", "else");
export const For = keyword("For", "for");
export const While = keyword("While", "while");
export const Do = keyword("Do", "do");
export const Break = keyword("Break", "break");
export const Continue = keyword("Continue", "continue");
export const Return = keyword("Return", "return");
export const Import = keyword("Import", "import");
export const Export = keyword("Export", "export");
export const Launch = keyword("Launch", "launch");
export const True = keyword("True", "true");
export const False = keyword("False", "false");

export const CtxFrom = contextual("CtxFrom", "from");
export const CtxGrid = contextual("CtxGrid", "grid");
export const CtxBlock = contextual("CtxBlock", "block");
export const CtxGlobal = contextual("CtxGlobal", "global");
export const CtxReadonly = contextual("CtxReadonly", "readonly");
export const CtxSwitch = contextual("CtxSwitch", "switch");
export const CtxCase = contextual("CtxCase", "case");
export const CtxDefault = contextual("CtxDefault", "default");
export const CtxStruct = contextual("CtxStruct", "struct");
export const CtxConstant = contextual("CtxConstant", "constant");
export const CtxView = contextual("CtxView", "view");
export const CtxInout = contextual("CtxInout", "inout");
export const CtxOut = contextual("CtxOut", "out");

export const BinaryOp = createToken({ name: "BinaryOp", pattern: Lexer.NA });
export const PrefixOp = createToken({ name: "PrefixOp", pattern: Lexer.NA });
export const AssignOp = createToken({ name: "AssignOp", pattern: Lexer.NA });

function punct(name: string, spelling: string, categories: TokenType[] = []): TokenType {
  const pattern = new RegExp(spelling.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return createToken({ name, pattern, categories, label: `'${spelling}'` });
}

// Longer spellings come before their prefixes: the lexer takes the first pattern that matches.
export const ShrUAssign = punct("ShrUAssign", ">>>=", [AssignOp]);
export const ShrU = punct("ShrU", ">>>", [BinaryOp]);
export const ShrAssign = punct("ShrAssign", ">>=", [AssignOp]);
export const Shr = punct("Shr", ">>", [BinaryOp]);
export const GreaterEq = punct("GreaterEq", ">=", [BinaryOp]);
export const Greater = punct("Greater", ">", [BinaryOp]);
export const ShlAssign = punct("ShlAssign", "<<=", [AssignOp]);
export const Shl = punct("Shl", "<<", [BinaryOp]);
export const LessEq = punct("LessEq", "<=", [BinaryOp]);
export const Less = punct("Less", "<", [BinaryOp]);
export const StrictEq = punct("StrictEq", "===", [BinaryOp]);
export const EqEq = punct("EqEq", "==", [BinaryOp]);
export const Eq = punct("Eq", "=", [AssignOp]);
export const StrictNotEq = punct("StrictNotEq", "!==", [BinaryOp]);
export const NotEq = punct("NotEq", "!=", [BinaryOp]);
export const Bang = punct("Bang", "!", [PrefixOp]);
export const PlusPlus = punct("PlusPlus", "++", [PrefixOp]);
export const PlusAssign = punct("PlusAssign", "+=", [AssignOp]);
export const Plus = punct("Plus", "+", [BinaryOp, PrefixOp]);
export const MinusMinus = punct("MinusMinus", "--", [PrefixOp]);
export const MinusAssign = punct("MinusAssign", "-=", [AssignOp]);
export const Minus = punct("Minus", "-", [BinaryOp, PrefixOp]);
export const StarAssign = punct("StarAssign", "*=", [AssignOp]);
export const Star = punct("Star", "*", [BinaryOp]);
export const SlashAssign = punct("SlashAssign", "/=", [AssignOp]);
export const Slash = punct("Slash", "/", [BinaryOp]);
export const PercentAssign = punct("PercentAssign", "%=", [AssignOp]);
export const Percent = punct("Percent", "%", [BinaryOp]);
export const AmpAmp = punct("AmpAmp", "&&", [BinaryOp]);
export const AmpAssign = punct("AmpAssign", "&=", [AssignOp]);
export const Amp = punct("Amp", "&", [BinaryOp]);
export const PipePipe = punct("PipePipe", "||", [BinaryOp]);
export const PipeAssign = punct("PipeAssign", "|=", [AssignOp]);
export const Pipe = punct("Pipe", "|", [BinaryOp]);
export const CaretAssign = punct("CaretAssign", "^=", [AssignOp]);
export const Caret = punct("Caret", "^", [BinaryOp]);
export const Tilde = punct("Tilde", "~", [PrefixOp]);
export const Question = punct("Question", "?");
export const Colon = punct("Colon", ":");
export const Semi = punct("Semi", ";");
export const Comma = punct("Comma", ",");
export const Dot = punct("Dot", ".");
export const At = punct("At", "@");
export const LParen = punct("LParen", "(");
export const RParen = punct("RParen", ")");
export const LBracket = punct("LBracket", "[");
export const RBracket = punct("RBracket", "]");
export const LCurly = punct("LCurly", "{");
export const RCurly = punct("RCurly", "}");

/**
 * Characters no pattern matches. The lexer never produces these itself: `lex` turns each
 * run of unknown characters into one such token (and a GK1001), so the parser sees
 * something where the user wrote something and can resynchronize around it.
 */
export const BadChar = createToken({ name: "BadChar", pattern: Lexer.NA });

/** The reserved words: never names. */
export const keywords: readonly TokenType[] = [
  DeviceKernel, DeviceFn, Const, Let, Shared, If, Else, For, While, Do, Break, Continue,
  Return, Import, Export, Launch, True, False,
];

/** Patterns in the order the lexer tries them. */
export const lexerTokens: TokenType[] = [
  WhiteSpace, LineComment, BlockComment, StringLit, NumberLit,
  // `constant` before the keyword `const`, which would otherwise take its first five letters.
  CtxConstant,
  ...keywords,
  CtxFrom, CtxGrid, CtxBlock, CtxGlobal, CtxReadonly, CtxSwitch, CtxCase, CtxDefault, CtxStruct,
  CtxView, CtxInout, CtxOut,
  Identifier,
  ShrUAssign, ShrU, ShrAssign, Shr, GreaterEq, Greater, ShlAssign, Shl, LessEq, Less,
  StrictEq, EqEq, Eq, StrictNotEq, NotEq, Bang,
  PlusPlus, PlusAssign, Plus, MinusMinus, MinusAssign, Minus,
  StarAssign, Star, SlashAssign, Slash, PercentAssign, Percent,
  AmpAmp, AmpAssign, Amp, PipePipe, PipeAssign, Pipe, CaretAssign, Caret, Tilde,
  Question, Colon, Semi, Comma, Dot, At, LParen, RParen, LBracket, RBracket, LCurly, RCurly,
];

/** Every token type the parser may meet: the lexer's, the categories, and `BadChar`. */
export const parserVocabulary: TokenType[] = [...lexerTokens, AnyName, BinaryOp, PrefixOp, AssignOp, BadChar];

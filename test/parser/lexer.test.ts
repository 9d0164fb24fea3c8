/** The lexer: tokens, keywords against names, comments, and lexical errors as diagnostics. */
import { describe, expect, it } from "vitest";
import { makeSourceFile } from "../../src/diagnostics/source.js";
import { lex } from "../../src/parser/lexer.js";
import { lines } from "./helpers.js";

function kinds(src: string): string[] {
  return lex(makeSourceFile("t.gk", src)).tokens.map((t) => `${t.tokenType.name}:${t.image}`);
}

describe("tokens", () => {
  it("splits a declaration into keywords, names, punctuation and literals", () => {
    expect(kinds("device_kernel k(x: readonly global<f32>) { let a = 1.5; }")).toEqual([
      "DeviceKernel:device_kernel", "Identifier:k", "LParen:(", "Identifier:x", "Colon::", "CtxReadonly:readonly",
      "CtxGlobal:global", "Less:<", "Identifier:f32", "Greater:>", "RParen:)", "LCurly:{", "Let:let", "Identifier:a",
      "Eq:=", "NumberLit:1.5", "Semi:;", "RCurly:}",
    ]);
  });

  it("tells keywords from names that start with one", () => {
    expect(kinds("let letter do double device_fn device_fn2 iffy grid grids")).toEqual([
      "Let:let", "Identifier:letter", "Do:do", "Identifier:double", "DeviceFn:device_fn", "Identifier:device_fn2",
      "Identifier:iffy", "CtxGrid:grid", "Identifier:grids",
    ]);
  });

  it("takes the longest operator", () => {
    expect(kinds("a >>>= b >>= c >>> d >> e >= f > g").filter((k) => !k.startsWith("Identifier"))).toEqual([
      "ShrUAssign:>>>=", "ShrAssign:>>=", "ShrU:>>>", "Shr:>>", "GreaterEq:>=", "Greater:>",
    ]);
    expect(kinds("=== == = !== != ! ++ += + -- -= - && &= & || |= | <<= << <= <").map((k) => k.split(":")[1])).toEqual(
      "=== == = !== != ! ++ += + -- -= - && &= & || |= | <<= << <= <".split(" "),
    );
  });

  it("skips whitespace and both kinds of comments", () => {
    expect(kinds("a // line comment\n/* block\n comment */ b /**/ c")).toEqual(["Identifier:a", "Identifier:b", "Identifier:c"]);
  });

  it("reads numbers whole, malformed ones included", () => {
    expect(kinds("0xFF 1_000 .5 1. 1e-3 2.5E+4 08x 1__0 0x")).toEqual(
      ["0xFF", "1_000", ".5", "1.", "1e-3", "2.5E+4", "08x", "1__0", "0x"].map((n) => `NumberLit:${n}`),
    );
    expect(kinds("a.x 1-2 0x1e+5")).toEqual([
      "Identifier:a", "Dot:.", "Identifier:x", "NumberLit:1", "Minus:-", "NumberLit:2", "NumberLit:0x1e", "Plus:+", "NumberLit:5",
    ]);
  });

  it("reads strings in either quote", () => {
    expect(kinds(`"a\\"b" 'c'`)).toEqual([`StringLit:"a\\"b"`, "StringLit:'c'"]);
  });
});

describe("lexical errors are diagnostics, and lexing goes on after them", () => {
  it("GK1001 names the character (or its code point when it is invisible)", () => {
    expect(lines("const a = 1 \\ 2;")).toEqual(["GK1001 1:13 unexpected character '\\'"]);
    expect(lines("const a = 1 \\\\ 2;")).toEqual(["GK1001 1:13 unexpected characters '\\\\'"]);
    expect(lines("const a = 1 \u0007 2;")).toEqual(["GK1001 1:13 unexpected character U+0007"]);
    expect(lines("const café = 1;")).toEqual(["GK1001 1:10 unexpected character 'é'; names are ASCII letters, digits and '_'"]);
    expect(lines("const a = 1 😀 2;")).toEqual(["GK1001 1:13 unexpected character '😀'"]);
    expect(lines("#define N 4")).toEqual([
      "GK1001 1:1 unexpected character '#'; gk has no preprocessor: use `const N = 16;` for constants",
    ]);
  });

  it("GK1002 for strings and comments that never end", () => {
    expect(lines("import { a } from 'x.gk;")).toEqual(["GK1002 1:19 unterminated string: add the closing ' on the same line"]);
    expect(lines("device_kernel k() { /* no end")).toEqual(["GK1002 1:21 unterminated comment: this '/*' has no closing '*/'"]);
  });

  it("GK1003 says what is wrong with the number", () => {
    expect(lines("const a = 0x;")).toEqual(["GK1003 1:11 '0x' has no digits after '0x': write, for example, 0xFF"]);
    expect(lines("const a = 1e;")).toEqual(["GK1003 1:11 '1e' is missing the exponent's digits: write, for example, 1e3"]);
    expect(lines("const a = 08x;")).toEqual(["GK1003 1:11 '08x' is not a valid number: unexpected 'x'"]);
    expect(lines("const a = 1__0;")).toEqual(["GK1003 1:11 '_' in '1__0' must stand between two digits, as in 1_000_000"]);
  });

  it("reports every problem in one run, each once", () => {
    expect(lines("const a = 0x;\nconst b = 1 ¤ 2;\nconst c = 1.5.5;\nconst d = \"x;")).toEqual([
      "GK1003 1:11 '0x' has no digits after '0x': write, for example, 0xFF",
      "GK1001 2:13 unexpected character '¤'",
      "GK1003 3:11 '1.5.5' has more than one '.'",
      'GK1002 4:11 unterminated string: add the closing " on the same line',
    ]);
  });
});

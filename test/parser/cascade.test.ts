/** Error recovery: every independent mistake is reported once, and no mistake is reported twice. */
import type { IToken } from "chevrotain";
import { describe, expect, it } from "vitest";
import { makeSourceFile } from "../../src/diagnostics/source.js";
import { BracketMap } from "../../src/parser/cascade.js";
import { lex } from "../../src/parser/lexer.js";
import { LCurly, LParen } from "../../src/parser/tokens.js";
import { lines, parseText, printModule } from "./helpers.js";

describe("independent errors are all reported, each where it is", () => {
  it("three errors in statements of one kernel", () => {
    const src = [
      "device_kernel k(n: i32, out: global<f32>) {",
      "  let x = n * 2",
      "  let y = x + 1;",
      "  if (y > 1 {",
      "    out[0] = f32(y);",
      "  }",
      "  out[1] = (x + );",
      "  out[2] = 3.0;",
      "}",
    ].join("\n");
    expect(lines(src)).toEqual([
      "GK1010 2:16 expected ';' after the statement, found 'let'",
      "GK1010 4:13 expected ')' after the condition, found '{'",
      "GK1010 7:17 expected an expression, found ')'",
    ]);
    // Everything that parsed is still there.
    expect(printModule(parseText(src).module)).toBe(
      "(kernel k (params n:i32 out:global<f32>) { (let x _ (* n 2)) (let y _ (+ x 1)) (= (at out 2) 3.0f) })",
    );
  });

  it("three errors in three declarations: a missing '}', a missing ',' and a missing ';' at the end", () => {
    const src = [
      "device_kernel a(n: i32) {",
      "  if (n > 0) {",
      "    n = 0;",
      "}",
      "device_fn f(x: i32 y: i32): i32 { return x; }",
      "const N = 4;",
      "launch a(n = N) grid(1) block(32)",
    ].join("\n");
    expect(lines(src)).toEqual([
      "GK1010 5:1 expected '}' to close the block opened at 1:25, found 'device_fn'",
      "GK1010 5:20 expected ',' or ')' after the parameter, found 'y'",
      "GK1011 7:34 unexpected end of file: expected ';' after the launch",
    ]);
    expect(printModule(parseText(src).module)).toBe(
      ["(kernel a (params n:i32) { (if (> n 0) { (= n 0) } _) })", "(const N _ 4)", "(launch a (args n=N) (grid 1) (block 32))"].join("\n"),
    );
  });

  it("lexical and syntax errors together", () => {
    const src = ["const A = 0x;", "const B = 2 $ 3;", "device_kernel k() {", "  let z = ;", "}"].join("\n");
    expect(lines(src)).toEqual([
      "GK1003 1:11 '0x' has no digits after '0x': write, for example, 0xFF",
      "GK1001 2:13 unexpected character '$'",
      "GK1010 4:11 expected an expression, found ';'",
    ]);
  });

  it("errors on consecutive lines are independent when each line is a statement of its own", () => {
    expect(lines("device_kernel k() {\n  a = ;\n  b = ;\n  c = ;\n}")).toEqual([
      "GK1010 2:7 expected an expression, found ';'",
      "GK1010 3:7 expected an expression, found ';'",
      "GK1010 4:7 expected an expression, found ';'",
    ]);
  });
});

describe("one mistake, one message", () => {
  const one = (src: string): number => lines(src).length;

  it("a missing '}' at the end of the file", () => {
    const src = "device_kernel k() {\n  for (;;) {\n    x = 1;\n  }\n";
    expect(lines(src)).toEqual(["GK1011 4:4 unexpected end of file: a '}' is missing to close the block opened at 1:19"]);
    // The kernel keeps the statements that parsed.
    expect(printModule(parseText(src).module)).toBe("(kernel k (params) { (for _ _ _ { (= x 1) }) })");
  });

  it("garbage in the middle of a statement", () => {
    expect(one("device_kernel k() { x = a b c d; }")).toBe(1);
    expect(one("device_kernel k() { return x < lo lo : x; }")).toBe(1);
    expect(one("device_kernel k() { shared t: f32 N][N]; }")).toBe(1);
    expect(one("device_kernel k() { x = a ? ? b : c; }")).toBe(1);
  });

  it("a broken declaration header", () => {
    expect(one("device_fn (x: i32, lo: i32): i32 { return x; }")).toBe(1);
    expect(one("device_kernel k( : i32, n: i32) { }")).toBe(1);
    expect(one("device_kernel device_kernel k() { }")).toBe(1);
    expect(one("const const N = 1;")).toBe(1);
  });

  it("a broken loop or condition header", () => {
    expect(one("device_kernel k() { for (let i = 0, i < n; i++) { } }")).toBe(1);
    expect(one("device_kernel k() { if (a b) { x = 1; } else { x = 2; } }")).toBe(1);
    expect(one("device_kernel k() { while (i < n { i += 1; } }")).toBe(1);
  });

  it("a deleted keyword at the top level", () => {
    expect(one("matmul(a: i32) {\n  let s = 0;\n  const t = 1;\n}\nconst N = 1;")).toBe(1);
  });

  it("what the lexer reported is not reported again by the parser", () => {
    expect(lines("device_kernel k() { x = 1; /* never closed\n y = 2; }")).toEqual([
      "GK1002 1:28 unterminated comment: this '/*' has no closing '*/'",
    ]);
    expect(lines('import { a } from "./a.gk;\nconst b = 1;')).toEqual(['GK1002 1:19 unterminated string: add the closing " on the same line']);
    expect(lines("device_kernel k() { x = 3 \\ 4; }")).toEqual(["GK1001 1:27 unexpected character '\\'"]);
    expect(lines("device_kernel k(a: i32 \\ b: i32) { }")).toEqual(["GK1001 1:24 unexpected character '\\'"]);
  });

  it("a node that recovery patched gives no follow-on errors from the AST builder", () => {
    // `]` is missing: recovery closes the index at the `;`, and the `=` inside it is not reported as well.
    expect(lines("device_kernel k() { a[i = 1; }")).toEqual(["GK1010 1:28 expected ']' after the index, found ';'"]);
  });
});

describe("BracketMap", () => {
  const tokens = lex(makeSourceFile("t.gk", "f(a, [b { c } ]) x ( y")).tokens;
  const map = new BracketMap(tokens);
  const token = (image: string, nth = 0): IToken => tokens.filter((t) => t.image === image)[nth]!;

  it("finds the innermost open bracket of a kind around a token, and at the end of the input", () => {
    expect(map.openAround(map.indexAt(token("c").startOffset), LCurly)).toBe(token("{"));
    expect(map.openAround(map.indexAt(token("c").startOffset), LParen)).toBe(token("("));
    expect(map.openAround(tokens.length, LParen)).toBe(token("(", 1));
    expect(map.openAround(tokens.length, LCurly)).toBeUndefined();
  });

  it("finds the matching closer ahead, but not across a statement boundary", () => {
    const simple = lex(makeSourceFile("t.gk", "if (a b c) {")).tokens;
    expect(new BracketMap(simple).closerAhead(simple[1]!, simple[3]!.startOffset)).toBe(simple[5]!.startOffset);
    expect(map.closerAhead(token("("), token("a").startOffset)).toBeUndefined();
    expect(map.closerAhead(token("(", 1), token("y").startOffset)).toBeUndefined();
  });
});

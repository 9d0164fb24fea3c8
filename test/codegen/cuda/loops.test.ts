/**
 * Loops: the readable C++ form where it keeps the IR's meaning (`continue` goes to the step,
 * then the test), and a general form with a label where it does not.
 */
import { describe, expect, it } from "vitest";
import type { Stmt } from "../../../src/ir/nodes.js";
import { T } from "../../../src/ir/types.js";
import { bodyOf, kernelBody } from "./helpers.js";
import { assign, bin, i32, Ids, kernelFn, letS, moduleOf, ref, span, store } from "./ir.js";

const k = (body: string) => `device_kernel k(n: i32, a: global<i32>) {\n${body}\n}\n`;

describe("loops", () => {
  it("writes a counting loop as for, scoping its variable to the loop", () => {
    expect(kernelBody(k("for (let i = 0; i < n; i++) { if (i == 3) { continue; } a[i] = i; }"))).toBe(
      [
        "for (int i = 0; i < n; i = (int)((unsigned int)i + 1u)) {",
        "if (i == 3) {",
        "continue;",
        "}",
        "a[i] = i;",
        "}",
      ].join("\n"),
    );
  });

  it("writes while, do-while and for (;;) as such", () => {
    expect(kernelBody(k("let j = 0;\ndo { j++; if (j == 2) { continue; } } while (j < n);\nwhile (j > 0) { j--; }\nfor (;;) { break; }"))).toBe(
      [
        "int j = 0;",
        "do {",
        "j = (int)((unsigned int)j + 1u);",
        "if (j == 2) {",
        "continue;",
        "}",
        "} while (j < n);",
        "while (j > 0) {",
        "j = (int)((unsigned int)j - 1u);",
        "}",
        "while (true) {",
        "break;",
        "}",
      ].join("\n"),
    );
  });

  it("leaves out what a for header does not have", () => {
    expect(kernelBody(k("for (let q = 0; ; q++) { if (q > n) { break; } }"))).toBe(
      ["for (int q = 0;; q = (int)((unsigned int)q + 1u)) {", "if (q > n) {", "break;", "}", "}"].join("\n"),
    );
  });

  it("sends continue to a multi-statement step through a label", () => {
    const src = `device_fn f(a: global<i32>, i: i32): i32 { a[i] += 1; return i; }
device_kernel k(n: i32, a: global<i32>) {
  for (let i = 0; i < n; a[f(a, i)] += 1) { if (i == 3) { i += 2; continue; } i += 1; }
}`;
    expect(kernelBody(src)).toBe(
      [
        "{",
        "int i = 0;",
        "while (i < n) {",
        "{",
        "if (i == 3) {",
        "i = (int)((unsigned int)i + 2u);",
        "goto gk_continue_1;",
        "}",
        "i = (int)((unsigned int)i + 1u);",
        "}",
        "gk_continue_1:;",
        "{",
        "const int a_i0 = f(a, i);",
        "a[a_i0] = (int)((unsigned int)a[a_i0] + 1u);",
        "}",
        "}",
        "}",
      ].join("\n"),
    );
  });

  it("tests after the body with init and step, and continues only the inner loop from a nested one", () => {
    const ids = new Ids();
    const n = ids.scalar("n", T.i32);
    const a = ids.global("a", T.i32);
    const i = ids.scalar("i", T.i32);
    const j = ids.scalar("j", T.i32);
    const cont: Stmt = { kind: "continue", span };
    const inner: Stmt = {
      kind: "loop",
      init: [letS(j, i32(0))],
      cond: bin("lt", ref(j), ref(n)),
      step: [assign(j, bin("add", ref(j), i32(1))), store(a, [ref(j)], ref(i))],
      body: [{ kind: "if", cond: bin("eq", ref(j), i32(2)), then: [cont], else: [], span }],
      testFirst: true,
      span,
    };
    const outer: Stmt = {
      kind: "loop",
      init: [letS(i, i32(0))],
      cond: bin("lt", ref(i), ref(n)),
      step: [assign(i, bin("add", ref(i), i32(1))), store(a, [i32(0)], ref(i))],
      body: [inner, { kind: "if", cond: bin("gt", ref(i), i32(5)), then: [cont], else: [], span }],
      testFirst: false,
      span,
    };
    expect(bodyOf(moduleOf([kernelFn("k", [n, a], [outer])]))).toBe(
      [
        "{",
        "int i = 0;",
        "do {",
        "{",
        "{",
        "int j = 0;",
        "while (j < n) {",
        "{",
        "if (j == 2) {",
        "goto gk_continue_2;",
        "}",
        "}",
        "gk_continue_2:;",
        "j = (int)((unsigned int)j + 1u);",
        "a[j] = i;",
        "}",
        "}",
        "if (i > 5) {",
        "goto gk_continue_1;",
        "}",
        "}",
        "gk_continue_1:;",
        "i = (int)((unsigned int)i + 1u);",
        "a[0] = i;",
        "} while (i < n);",
        "}",
      ].join("\n"),
    );
  });
});

/** Golden ASTs for every construct of the language, and the spans of key nodes. */
import { describe, expect, it } from "vitest";
import type { KernelDecl } from "../../src/parser/ast.js";
import { allSpans, ast, parseClean, stmt, textOf } from "./helpers.js";

describe("module items", () => {
  it("an empty file, or one with only comments, has none", () => {
    expect(ast("")).toBe("");
    expect(ast("\ufeff// nothing here\n/* at all */\n")).toBe("");
  });

  it("kernels, with parameters of every type form", () => {
    expect(ast("device_kernel k(n: i32, x: readonly global<f32>, out: global<f32>, t: f32[4][2]) { }")).toBe(
      "(kernel k (params n:i32 x:readonly global<f32> out:global<f32> t:f32[4][2]) { })",
    );
    expect(ast("device_kernel k() {}")).toBe("(kernel k (params) { })");
  });

  it("device functions, with and without a return type", () => {
    expect(ast("device_fn f(a: f32): f32 { return a; }")).toBe("(fn f (params a:f32) f32 { (return a) })");
    expect(ast("device_fn g() { }")).toBe("(fn g (params) _ { })");
    expect(ast("device_fn h(): void { return; }")).toBe("(fn h (params) void { (return) })");
  });

  it("module constants, typed or not", () => {
    expect(ast("const N = 16;")).toBe("(const N _ 16)");
    expect(ast("const M: i32 = N * 2;")).toBe("(const M i32 (* N 2))");
  });

  it("`export` on kernels, functions and constants", () => {
    expect(ast("export device_kernel k() {}\nexport device_fn f() {}\nexport const N = 1;")).toBe(
      "(export kernel k (params) { })\n(export fn f (params) _ { })\n(export const N _ 1)",
    );
  });

  it("imports, with either quote and escapes resolved", () => {
    expect(ast('import { a, b } from "./lib.gk";')).toBe('(import (names a b) "./lib.gk")');
    expect(ast("import { c } from './dir/c.gk';")).toBe('(import (names c) "./dir/c.gk")');
    expect(ast('import { d } from "./a\\"b.gk";')).toBe('(import (names d) "./a\\"b.gk")');
  });

  it("launches with every kind of value and one to three sizes", () => {
    const src =
      "launch saxpy(n = 8, alpha = 2.5, x = [1, 2, -3], y = fill(8, 1), out = zeros(8), i = iota(n), r = rand(n, 7), m = N * 2) grid(1) block(256);";
    expect(ast(src)).toBe(
      "(launch saxpy (args n=8 alpha=2.5f x=[1 2 (- 3)] y=(call fill 8 1) out=(call zeros 8) i=(call iota n) r=(call rand n 7) m=(* N 2)) (grid 1) (block 256))",
    );
    expect(ast("launch k() grid(2, 3, 4) block(8, 8);")).toBe("(launch k (args) (grid 2 3 4) (block 8 8))");
  });

  it("trailing commas in lists", () => {
    expect(ast("device_kernel k(a: i32,) { f(1, 2,); let v = [1, 2,]; }\nimport { a, } from './a.gk';\nlaunch k(a = 1,) grid(1,) block(1,);")).toBe(
      [
        "(kernel k (params a:i32) { (expr (call f 1 2)) (let v _ [1 2]) })",
        '(import (names a) "./a.gk")',
        "(launch k (args a=1) (grid 1) (block 1))",
      ].join("\n"),
    );
  });

  it("contextual words stay usable as names", () => {
    expect(ast("device_kernel k(block: i32, grid: i32, from: i32, global: i32, readonly: i32) { let block2 = block + grid; }")).toBe(
      "(kernel k (params block:i32 grid:i32 from:i32 global:i32 readonly:i32) { (let block2 _ (+ block grid)) })",
    );
    expect(ast("import { from, grid } from './x.gk';")).toBe('(import (names from grid) "./x.gk")');
    expect(ast("launch k(block = 1, grid = 2) grid(1) block(1);")).toBe("(launch k (args block=1 grid=2) (grid 1) (block 1))");
  });
});

describe("statements", () => {
  it("variable declarations", () => {
    expect(stmt("let x = 1;")).toBe("(let x _ 1)");
    expect(stmt("let x: f32 = 1;")).toBe("(let x f32 1)");
    expect(stmt("let x: i32;")).toBe("(let x i32 _)");
    expect(stmt("const y = x;")).toBe("(const y _ x)");
    expect(stmt("let a: f32[8];")).toBe("(let a f32[8] _)");
    expect(stmt("let a: i32[3] = [1, 2, 3];")).toBe("(let a i32[3] [1 2 3])");
  });

  it("shared declarations", () => {
    expect(stmt("shared tile: f32[16][16];")).toBe("(shared tile f32[16][16])");
    expect(stmt("shared total: f32;")).toBe("(shared total f32)");
  });

  it("assignment with every operator", () => {
    for (const op of ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="]) {
      expect(stmt(`a[i] ${op} v;`)).toBe(`(${op} (at a i) v)`);
    }
    expect(stmt("p.x = 1;")).toBe("(= (. p x) 1)");
  });

  it("increment and decrement, postfix and prefix", () => {
    expect(stmt("i++;")).toBe("(++ i)");
    expect(stmt("i--;")).toBe("(-- i)");
    expect(stmt("++i;")).toBe("(++ i)");
    expect(stmt("--a[j];")).toBe("(-- (at a j))");
  });

  it("expression statements", () => {
    expect(stmt("barrier();")).toBe("(expr (call barrier))");
    expect(stmt("atomicAdd(out, 0, 1.0);")).toBe("(expr (call atomicAdd out 0 1.0f))");
  });

  it("if, with and without else, and a dangling else binding to the nearest if", () => {
    expect(stmt("if (a) b();")).toBe("(if a (expr (call b)) _)");
    expect(stmt("if (a) { b(); } else c = 1;")).toBe("(if a { (expr (call b)) } (= c 1))");
    expect(stmt("if (a) if (b) x = 1; else x = 2;")).toBe("(if a (if b (= x 1) (= x 2)) _)");
    expect(stmt("if (a) x = 1; else if (b) x = 2; else x = 3;")).toBe("(if a (= x 1) (if b (= x 2) (= x 3)))");
  });

  it("for, with every part optional", () => {
    expect(stmt("for (let i = 0; i < n; i++) { }")).toBe("(for (let i _ 0) (< i n) (++ i) { })");
    expect(stmt("for (i = 0; i < n; i += 2) x();")).toBe("(for (= i 0) (< i n) (+= i 2) (expr (call x)))");
    expect(stmt("for (;;) { break; }")).toBe("(for _ _ _ { (break) })");
    expect(stmt("for (--i; ; f()) ;")).toBe("(for (-- i) _ (expr (call f)) (empty))");
    expect(stmt("for (const j: u32 = 1; j; ) {}")).toBe("(for (const j u32 1) j _ { })");
  });

  it("while and do-while", () => {
    expect(stmt("while (i < n) { i += 1; continue; }")).toBe("(while (< i n) { (+= i 1) (continue) })");
    expect(stmt("do { i--; } while (i > 0);")).toBe("(do { (-- i) } (> i 0))");
    expect(stmt("do x(); while (true);")).toBe("(do (expr (call x)) true)");
  });

  it("break, continue, return, blocks and empty statements", () => {
    expect(stmt("break;")).toBe("(break)");
    expect(stmt("continue;")).toBe("(continue)");
    expect(stmt("return;")).toBe("(return)");
    expect(stmt("return a + 1;")).toBe("(return (+ a 1))");
    expect(stmt("{ { } ; }")).toBe("{ { } (empty) }");
    expect(stmt(";")).toBe("(empty)");
  });
});

describe("types", () => {
  it("named, global, readonly global and arrays (sizes outermost first)", () => {
    const types = ["i32", "void", "bool", "global<f32>", "readonly global<u32>", "f32[TILE]", "f32[4][N * 2]", "global<f32[4]>"];
    for (const t of types) expect(stmt(`let x: ${t};`)).toBe(`(let x ${t.replace("N * 2", "(* N 2)")} _)`);
  });
});

describe("spans", () => {
  const src = [
    "export device_kernel k(n: i32, x: readonly global<f32>) {",
    "  let a: f32[4] = [1, 2, 3, 4];",
    "  a[n] += -x[0] * (n + 1);",
    "  for (let i = 0; i < n; i++) { f(i); }",
    "  if (n > 0) return; else { n--; }",
    "}",
    "launch k(n = 1, x = zeros(4)) grid(1) block(32);",
  ].join("\n");
  const m = parseClean(src);
  const k = m.items[0] as KernelDecl;
  const [decl, assign, loop, cond] = k.body.body;

  it("cover exactly the tokens of each node", () => {
    expect(textOf(src, k.span)).toBe(src.slice(0, src.indexOf("}\nlaunch") + 1));
    expect(textOf(src, k.name.span)).toBe("k");
    expect(textOf(src, k.params[1]!.span)).toBe("x: readonly global<f32>");
    expect(textOf(src, k.params[1]!.type.span)).toBe("readonly global<f32>");
    expect(textOf(src, decl!.span)).toBe("let a: f32[4] = [1, 2, 3, 4];");
    expect(textOf(src, assign!.span)).toBe("a[n] += -x[0] * (n + 1);");
    expect(textOf(src, loop!.span)).toBe("for (let i = 0; i < n; i++) { f(i); }");
    expect(textOf(src, cond!.span)).toBe("if (n > 0) return; else { n--; }");
    expect(textOf(src, m.items[1]!.span)).toBe("launch k(n = 1, x = zeros(4)) grid(1) block(32);");
  });

  it("cover sub-expressions and operators", () => {
    if (assign?.kind !== "Assign" || assign.value.kind !== "Binary") throw new Error("expected an assignment of a product");
    expect(textOf(src, assign.opSpan)).toBe("+=");
    expect(textOf(src, assign.target.span)).toBe("a[n]");
    expect(textOf(src, assign.value.span)).toBe("-x[0] * (n + 1)");
    expect(textOf(src, assign.value.opSpan)).toBe("*");
    expect(textOf(src, assign.value.left.span)).toBe("-x[0]");
    expect(textOf(src, assign.value.right.span)).toBe("(n + 1)");
    if (loop?.kind !== "For") throw new Error("expected a for");
    expect(textOf(src, loop.init!.span)).toBe("let i = 0");
    expect(textOf(src, loop.step!.span)).toBe("i++");
  });

  it("of imports point at the path", () => {
    const text = "import { a } from './lib.gk';";
    const imp = parseClean(text).items[0]!;
    if (imp.kind !== "Import") throw new Error("expected an import");
    expect(textOf(text, imp.pathSpan)).toBe("'./lib.gk'");
    expect(textOf(text, imp.span)).toBe(text);
  });

  it("never start or end in whitespace, and lie within the file", () => {
    for (const s of allSpans(m)) {
      const text = textOf(src, s);
      expect(s.start >= 0 && s.end <= src.length && s.start <= s.end).toBe(true);
      if (s !== m.span) expect(text.trim()).toBe(text);
    }
    expect(m.span).toEqual({ file: "test.gk", start: 0, end: src.length });
  });
});

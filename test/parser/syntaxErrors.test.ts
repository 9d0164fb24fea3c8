/** Parse diagnostics: one test per code (exact message, line:col, code frame), then the wording of the common mistakes. */
import { describe, expect, it } from "vitest";
import { makeSourceFile } from "../../src/diagnostics/source.js";
import { parse } from "../../src/parser/index.js";
import { formatted, lines, printModule } from "./helpers.js";

const frame = (...rows: string[]): string => rows.join("\n");

describe("one test per code", () => {
  it("GK1001 unexpected character", () => {
    expect(formatted("const a = 1 § 2;")).toBe(
      frame("test.gk:1:13 - error GK1001: unexpected character '§'", "", "1 const a = 1 § 2;", "              ~", ""),
    );
  });

  it("GK1002 unterminated string or comment", () => {
    expect(formatted('import { a } from "./a.gk;\nconst b = 1;')).toBe(
      frame(
        'test.gk:1:19 - error GK1002: unterminated string: add the closing " on the same line',
        "",
        '1 import { a } from "./a.gk;',
        "                    ~~~~~~~~",
        "",
      ),
    );
    expect(formatted("const a = 1; /* never\nclosed")).toBe(
      frame("test.gk:1:14 - error GK1002: unterminated comment: this '/*' has no closing '*/'", "", "1 const a = 1; /* never", "               ~~", ""),
    );
  });

  it("GK1003 malformed number literal", () => {
    expect(formatted("const a = 0b102;")).toBe(
      frame("test.gk:1:11 - error GK1003: '2' is not a binary digit in '0b102'", "", "1 const a = 0b102;", "            ~~~~~", ""),
    );
  });

  it("GK1010 syntax error (a missing ';' points just after the previous token)", () => {
    expect(formatted("device_kernel k() {\n  let x = 1\n  let y = 2;\n}")).toBe(
      frame("test.gk:2:12 - error GK1010: expected ';' after the statement, found 'let'", "", "2   let x = 1", "             ^", ""),
    );
  });

  it("GK1011 unexpected end of file, with a note on the unclosed block", () => {
    expect(formatted("device_kernel k() {\n  if (x) {\n    y = 1;\n  }\n")).toBe(
      frame(
        "test.gk:4:4 - error GK1011: unexpected end of file: a '}' is missing to close the block opened at 1:19",
        "",
        "4   }",
        "     ^",
        "",
        "  note: the block starts here (test.gk:1:19)",
        "",
        "  1 device_kernel k() {",
        "                      ~",
        "",
      ),
    );
  });

  it("GK1013 increment or decrement used as an expression", () => {
    expect(formatted("device_kernel k() {\n  let y = x++ + 1;\n}")).toBe(
      frame(
        "test.gk:2:12 - error GK1013: '++' cannot be used inside an expression: increment and decrement are statements in gk; write `x += 1;` on a line of its own",
        "",
        "2   let y = x++ + 1;",
        "             ~~",
        "",
      ),
    );
    expect(lines("device_kernel k() { a[--i] = 0; }")).toEqual([
      "GK1013 1:23 '--' cannot be used inside an expression: increment and decrement are statements in gk; write `i -= 1;` on a line of its own",
    ]);
  });

  it("GK9001 internal compiler error: a bug inside the parser is caught and reported, never thrown", () => {
    const broken = { path: "bad.gk", lineStarts: [0], get text(): string { throw new Error("boom"); } };
    const r = parse(broken);
    expect(r.module.items).toEqual([]);
    expect(r.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "GK9001 internal compiler error while parsing: boom. This is a bug in gk; please report it with the file that caused it",
    ]);
  });
});

/** The errors of a kernel body on line 2 (the kernel header is line 1). */
function inKernel(body: string): string[] {
  return lines(`device_kernel k(n: i32) {\n${body}\n}`);
}

describe("messages say what is wrong, in the user's terms", () => {
  it("missing or stray tokens in statements", () => {
    expect(inKernel("  x = (1 + );")).toEqual(["GK1010 2:12 expected an expression, found ')'"]);
    expect(inKernel("  if (n > 1 { n = 0; }")).toEqual(["GK1010 2:13 expected ')' after the condition, found '{'"]);
    expect(inKernel("  if n > 1) { n = 0; }")).toEqual(["GK1010 2:6 expected '(' after 'if', found 'n'"]);
    expect(inKernel("  if (n m) { n = 0; } else { n = 1; }")).toEqual(["GK1010 2:9 expected ')' after the condition, found 'm'"]);
    expect(inKernel("  for (let i = 0, i < n; i++) { }")).toEqual([
      "GK1010 2:17 expected ';' in the for header, as in `for (let i = 0; i < n; i += 1)`, found ','",
    ]);
    expect(inKernel("  for (let i = 0; i < n; i++, n--) { }")).toEqual([]);
    expect(inKernel("  for (let i = 0; i < n; i++ n--) { }")).toEqual(["GK1010 2:30 expected ')' to end the for header, found 'n'"]);
    expect(inKernel("  let a = 1, ;")).toEqual(["GK1010 2:12 expected ';' after the statement, found ','"]);
    expect(inKernel("  do { } while (n)")).toEqual(["GK1010 2:19 expected ';' after the statement, found '}'"]);
    expect(inKernel("  let = 5;")).toEqual(["GK1010 2:7 expected a name after 'let', found '='"]);
    expect(inKernel("  let x: = 5;")).toEqual(["GK1010 2:10 expected a type, such as f32, f32x4, i32[4] or global<f32>, found '='"]);
    expect(inKernel("  x = a ? b;")).toEqual(["GK1010 2:12 expected ':' in the conditional expression `cond ? a : b`, found ';'"]);
    expect(inKernel("  x = p.;")).toEqual(["GK1010 2:9 expected a member name after '.', found ';'"]);
  });

  it("lists: parameters, arguments, array elements", () => {
    expect(lines("device_kernel k(1) { }")).toEqual(["GK1010 1:17 expected a parameter name, found '1'"]);
    expect(lines("device_kernel k(a: i32 b: f32) { }")).toEqual(["GK1010 1:24 expected ',' or ')' after the parameter, found 'b'"]);
    expect(lines("device_kernel k(a, b: f32) { }")).toEqual([
      "GK1010 1:18 expected ':' and a type after parameter 'a', as in `a: f32`, found ','",
    ]);
    expect(inKernel("  f(a b);")).toEqual(["GK1010 2:7 expected ',' or ')' after the argument, found 'b'"]);
    expect(inKernel("  f(a, b;")).toEqual(["GK1010 2:9 expected ',' or ')' after the argument, found ';'"]);
    expect(inKernel("  x = [1 2];")).toEqual(["GK1010 2:10 expected ',' or ']' after the array element, found '2'"]);
    expect(inKernel("  x = a[i j];")).toEqual(["GK1010 2:11 expected ']' after the index, found 'j'"]);
  });

  it("a missing '}' before the next declaration names the block it should close", () => {
    const r = parse(makeSourceFile("test.gk", "device_kernel a() {\n  if (x) {\n    y = 1;\n}\ndevice_kernel b() { }"));
    expect(r.diagnostics.map((d) => d.message)).toEqual(["expected '}' to close the block opened at 1:19, found 'device_kernel'"]);
    expect(r.diagnostics[0]!.notes.map((n) => [n.message, n.span?.start])).toEqual([["the block starts here", 18]]);
    expect(printModule(r.module)).toContain("(kernel b (params) { })");
  });

  it("stray tokens in a block, and an 'else' without its 'if'", () => {
    expect(inKernel("  n = 1; ) n = 2;")).toEqual(["GK1010 2:10 unexpected ')': expected a statement or '}'"]);
    expect(inKernel("  n = 1; else { }")).toEqual([
      "GK1010 2:10 'else' without an 'if': an 'else' must follow the statement of an 'if' (use { } to group several statements)",
    ]);
  });

  it("assignment inside an expression", () => {
    expect(inKernel("  if (n = 1) { }")).toEqual(["GK1010 2:9 assignment is a statement in gk, not an expression: did you mean '=='?"]);
    expect(inKernel("  f(n += 1);")).toEqual(["GK1010 2:7 '+=' is a statement in gk, not an expression: write it on a line of its own"]);
  });

  it("reserved words as names", () => {
    expect(inKernel("  let if = 2;")).toEqual(["GK1010 2:7 'if' is a reserved word and cannot be used as a name"]);
    expect(inKernel("  let let x = 2;")).toEqual(["GK1010 2:7 'let' is a reserved word and cannot be used as a name"]);
    expect(lines("import { a, if } from './a.gk';")).toEqual(["GK1010 1:13 expected a name to import, found 'if', which is a reserved word"]);
  });

  it("habits from other languages", () => {
    expect(inKernel("  int i = 0;")).toEqual(["GK1010 2:6 expected ';' after the statement, found 'i': gk declares variables as `let i: i32 = ...;`"]);
    expect(inKernel("  atomicAdd(&x[0], 1.0);")).toEqual([
      "GK1010 2:13 gk has no pointers ('&' here): pass an array by its name and index it; atomics take the array and the index, as in atomicAdd(a, i, v)",
    ]);
    expect(inKernel("  n = *x;")).toEqual(["GK1010 2:7 gk has no pointers ('*' here): pass an array by its name and index it; atomics take the array and the index, as in atomicAdd(a, i, v)"]);
    expect(inKernel("  x = \"text\";")).toEqual(["GK1010 2:7 expected an expression (strings are used only as import paths), found '\"text\"'"]);
    expect(inKernel("  shared t: f32[4] = 0;")).toEqual([
      "GK1010 2:20 shared memory cannot be initialized where it is declared: assign it in the kernel's body instead",
    ]);
    expect(lines("function f() { }")).toEqual([
      "GK1010 1:1 gk has no 'function': declare a device function with 'device_fn' (or a kernel with 'device_kernel')",
    ]);
    expect(lines("__global__ void add(int n, float *x) { }")).toEqual([
      "GK1010 1:1 gk has no '__global__': write a kernel as `device_kernel name(n: i32, x: global<f32>) { ... }` (spec/language.md)",
    ]);
    expect(lines("device_kernel k(x: readonly f32) { }")).toEqual(["GK1010 1:20 'readonly' applies only to global memory and views, as in `readonly global<f32>` or `readonly view<f32>`"]);
    expect(inKernel("  y = Math.sqrt(y);")).toEqual(["GK1010 2:7 gk has no Math object: call the math functions by name, as in sqrt(x)"]);
    expect(inKernel("  y = y ** 2;")).toEqual(["GK1010 2:10 gk has no '**' operator: write pow(x, y)"]);
    expect(inKernel("  let z = y as f64;")).toEqual(["GK1010 2:12 expected ';' after the statement, found 'as': gk has no 'as' casts; convert with the type's name, as in f64(x)"]);
  });

  it("the top level", () => {
    expect(lines("let x = 1;")).toEqual([
      "GK1010 1:1 'let' cannot be used at the top level: use 'const' for a module constant, or move the code into a device_kernel or device_fn",
    ]);
    expect(lines("shared t: f32;")).toEqual(["GK1010 1:1 shared memory is declared inside a device_kernel, not at the top level"]);
    expect(lines("device_kernel k() { } }")).toEqual(["GK1010 1:23 unexpected '}' at the top level: it has no matching '{'"]);
    expect(lines("x = 1;")).toEqual(["GK1010 1:1 unexpected 'x' at the top level: expected device_kernel, device_fn, struct, const, import or launch"]);
    expect(lines("const N: i32;")).toEqual(["GK1010 1:13 expected '=' and a value: a module constant needs one, as in `const N = 16;`, found ';'"]);
    expect(lines("export let x = 1;")).toEqual(["GK1010 1:8 expected device_kernel, device_fn, struct or const after 'export', found 'let'"]);
    expect(lines("export import { a } from './a.gk';")).toEqual([
      "GK1010 1:1 an import cannot be exported: only device_kernel, device_fn, struct and const declarations can",
    ]);
  });

  it("imports and launches", () => {
    expect(lines("import a from './a.gk';")).toEqual([
      "GK1010 1:8 expected '{' after 'import', as in `import { f } from \"./lib.gk\";`, found 'a'",
    ]);
    expect(lines("import { a } './a.gk';")).toEqual(["GK1010 1:14 expected 'from' and the module's path after the imported names, found ''./a.gk''"]);
    expect(lines("launch k(n 8) grid(1) block(1);")).toEqual([
      "GK1010 1:12 expected '=' after 'n': launch arguments are written `name = value`, found '8'",
    ]);
    expect(lines("launch k(n = 8) block(1);")).toEqual([
      "GK1010 1:17 expected 'grid(...)' after the launch arguments, as in `grid(1) block(256)`, found 'block'",
    ]);
    expect(lines("launch k() grid() block(1, 2, 3, 4);")).toEqual([
      "GK1010 1:12 grid(...) takes one to three sizes, as in grid(x), grid(x, y) or grid(x, y, z); found none",
      "GK1010 1:19 block(...) takes one to three sizes, as in block(x), block(x, y) or block(x, y, z); found 4",
    ]);
  });

  it("line and column count CRLF line ends as one", () => {
    expect(lines("device_kernel k() {\r\n  let x = 1\r\n  let y = 2;\r\n}\r\n")).toEqual(["GK1010 2:12 expected ';' after the statement, found 'let'"]);
  });

  it("the end of the file", () => {
    expect(lines("device_kernel k(n: i32) {\n  let y = n +")).toEqual(["GK1011 2:14 unexpected end of file: expected an expression"]);
    expect(lines("device_kernel k(")).toEqual(["GK1011 1:17 unexpected end of file: expected a parameter name"]);
    expect(lines("import { a } from")).toEqual(["GK1011 1:18 unexpected end of file: expected the module's path as a quoted string, as in \"./lib.gk\""]);
    expect(lines("const x = (1 + 2")).toEqual(["GK1011 1:17 unexpected end of file: expected ')' to match the '(' at 1:11"]);
  });
});

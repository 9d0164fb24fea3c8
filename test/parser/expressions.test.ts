/** Expressions: literals, precedence and associativity (as TypeScript has them), postfix forms. */
import { describe, expect, it } from "vitest";
import { constInit, expr, lines, textOf } from "./helpers.js";

describe("literals", () => {
  it("numbers keep their text (separators removed) and say whether they are floats", () => {
    const cases: [string, string][] = [
      ["42", "42"],
      ["0", "0"],
      ["0xFF", "0xFF"],
      ["0X1f", "0X1f"],
      ["0b101", "0b101"],
      ["0o17", "0o17"],
      ["1_000_000", "1000000"],
      ["0xFF_FF", "0xFFFF"],
      ["1.5", "1.5f"],
      [".5", ".5f"],
      ["1.", "1.f"],
      ["0.25", "0.25f"],
      ["1e-3", "1e-3f"],
      ["2.5E+4", "2.5E+4f"],
      ["1_0.0_1e1_0", "10.01e10f"],
      ["0x1e5", "0x1e5"],
    ];
    for (const [src, printed] of cases) expect(expr(src), src).toBe(printed);
  });

  it("booleans, names, array literals and parentheses", () => {
    expect(expr("true")).toBe("true");
    expect(expr("false")).toBe("false");
    expect(expr("threadIdx")).toBe("threadIdx");
    expect(expr("[1, [2], []]")).toBe("[1 [2] []]");
    expect(expr("(a)")).toBe("(paren a)");
    expect(expr("((a + b))")).toBe("(paren (paren (+ a b)))");
  });
});

describe("precedence, loosest to tightest", () => {
  it("?: < || < && < | < ^ < & < equality < relational < shift < additive < multiplicative < unary < postfix", () => {
    expect(expr("a ? b || c : d")).toBe("(? a (|| b c) d)");
    expect(expr("a || b && c")).toBe("(|| a (&& b c))");
    expect(expr("a && b | c")).toBe("(&& a (| b c))");
    expect(expr("a | b ^ c")).toBe("(| a (^ b c))");
    expect(expr("a ^ b & c")).toBe("(^ a (& b c))");
    expect(expr("a & b == c")).toBe("(& a (== b c))");
    expect(expr("a != b < c")).toBe("(!= a (< b c))");
    expect(expr("a <= b << c")).toBe("(<= a (<< b c))");
    expect(expr("a >> b + c")).toBe("(>> a (+ b c))");
    expect(expr("a - b * c")).toBe("(- a (* b c))");
    expect(expr("-a * b")).toBe("(* (- a) b)");
    expect(expr("-a[i]")).toBe("(- (at a i))");
    expect(expr("!f(x).y")).toBe("(! (. (call f x) y))");
  });

  it("the same, written the other way round", () => {
    expect(expr("a * b - c")).toBe("(- (* a b) c)");
    expect(expr("a + b >>> c")).toBe("(>>> (+ a b) c)");
    expect(expr("a << b >= c")).toBe("(>= (<< a b) c)");
    expect(expr("a > b === c")).toBe("(=== (> a b) c)");
    expect(expr("a !== b & c")).toBe("(& (!== a b) c)");
    expect(expr("a & b ^ c | d && e || f ? g : h")).toBe("(? (|| (&& (| (^ (& a b) c) d) e) f) g h)");
  });

  it("parentheses override it", () => {
    expect(expr("(a + b) * c")).toBe("(* (paren (+ a b)) c)");
  });
});

describe("associativity", () => {
  it("binary operators are left-associative", () => {
    expect(expr("a - b - c")).toBe("(- (- a b) c)");
    expect(expr("a / b % c * d")).toBe("(* (% (/ a b) c) d)");
    expect(expr("a << b >> c >>> d")).toBe("(>>> (>> (<< a b) c) d)");
    expect(expr("a == b != c")).toBe("(!= (== a b) c)");
    expect(expr("a || b || c")).toBe("(|| (|| a b) c)");
  });

  it("the conditional is right-associative, and its branches are full expressions", () => {
    expect(expr("a ? b : c ? d : e")).toBe("(? a b (? c d e))");
    expect(expr("a ? b ? c : d : e")).toBe("(? a (? b c d) e)");
  });

  it("unary operators nest from the inside out", () => {
    expect(expr("- -a")).toBe("(- (- a))");
    expect(expr("!~+-a")).toBe("(! (~ (+ (- a))))");
  });
});

describe("postfix forms", () => {
  it("calls (the callee is a name, casts included), indexes and members chain left to right", () => {
    expect(expr("f32(x)")).toBe("(call f32 x)");
    expect(expr("f()")).toBe("(call f)");
    expect(expr("a[i][j]")).toBe("(at (at a i) j)");
    expect(expr("blockIdx.x * blockDim.x + threadIdx.x")).toBe("(+ (* (. blockIdx x) (. blockDim x)) (. threadIdx x))");
    expect(expr("g(a[0], b.y)[2].z")).toBe("(. (at (call g (at a 0) (. b y)) 2) z)");
  });

  it("spans of calls, members and indexes cover the whole form", () => {
    const src = "const x = g(a[0], b.y)[2].z;";
    const e = constInit(src);
    expect(textOf(src, e.span)).toBe("g(a[0], b.y)[2].z");
    if (e.kind !== "Member" || e.object.kind !== "Index" || e.object.object.kind !== "Call") throw new Error("unexpected shape");
    expect(textOf(src, e.object.span)).toBe("g(a[0], b.y)[2]");
    expect(textOf(src, e.object.object.span)).toBe("g(a[0], b.y)");
    expect(textOf(src, e.object.object.callee.span)).toBe("g");
    expect(textOf(src, e.property.span)).toBe("z");
  });

  it("only a name can be called", () => {
    expect(lines("const x = a.b(1);")).toEqual([
      "GK1010 1:11 only a function can be called, by its name, as in `f(x)`: gk has no methods or function values",
    ]);
    expect(lines("const x = (f)(1);")).toEqual([
      "GK1010 1:11 only a function can be called, by its name, as in `f(x)`: gk has no methods or function values",
    ]);
  });
});

/** Generic definitions (`<T: f32 | f64, N: i32>`), generic calls (`f<f32>(x)`) and launches of instances. */
import { describe, expect, it } from "vitest";
import { ast, expr, lines } from "./helpers.js";

describe("generic parameters", () => {
  it("follow a kernel's or a function's name", () => {
    expect(ast("device_kernel k<T: f32 | i32 | f64, BLOCK: i32>(x: global<T>) {}")).toBe("(kernel k<T:f32|i32|f64,BLOCK:i32> (params x:global<T>) { })");
    expect(ast("device_fn f<T: float,>(a: T): T { return a; }")).toBe("(fn f<T:float> (params a:T) T { (return a) })");
  });

  it("take a function's signature as a function parameter's constraint", () => {
    expect(ast("device_fn f<T: float, OP: device_fn(a: T, b: T): T>(a: T): T { return OP(a, a); }")).toContain("OP:device_fn(a:T,b:T):T");
  });

  it("need a constraint", () => {
    expect(lines("device_fn f<T>(a: T) {}")[0]).toBe("GK1010 1:14 expected ':' and a constraint after 'T': a type parameter lists the types it admits, as in `T: f32 | f64`, a constant parameter has one type, as in `T: i32`");
    expect(lines("device_fn f<T: >(a: T) {}")[0]).toBe("GK1010 1:16 expected a type after ':', as in `T: f32 | f64` or `N: i32` (or a function's signature, as in `OP: device_fn(a: T, b: T): T`), found '>'");
    expect(lines("device_fn f<OP: device_fn(a: f32)>(a: f32) {}")[0]).toMatch(/^GK1010 1:34 expected ':' and the result type after a function parameter's parameters/);
    expect(lines("device_fn f<T: f32 | >(a: T) {}")[0]).toBe("GK1010 1:22 expected a type after '|', as in `T: f32 | f64` or `N: i32`, found '>'");
  });

  it("a missing '>' is reported where it is missing", () => {
    expect(lines("device_fn f<T: f32(a: T) {}")[0]).toMatch(/^GK1010 1:19 /);
  });
});

describe("generic calls", () => {
  it("take arguments between < and > before the call's parentheses", () => {
    expect(expr("f<f32>(x)")).toBe("(call f<f32> x)");
    expect(expr("g<T, 256, -1, (N * 2)>(a, b)")).toBe("(call g<T,256,(- 1),(paren (* N 2))> a b)");
    expect(expr("h<true>()")).toBe("(call h<true>)");
  });

  it("bind as a postfix, inside other expressions", () => {
    expect(expr("1 + f<f32>(x) * 2")).toBe("(+ 1 (* (call f<f32> x) 2))");
    expect(expr("f<i32>(x)[0]")).toBe("(at (call f<i32> x) 0)");
  });

  it("leave '<' a comparison when no '>(' follows", () => {
    expect(expr("a < b")).toBe("(< a b)");
    expect(expr("a < b && c > d")).toBe("(&& (< a b) (> c d))");
    expect(expr("a < b > c")).toBe("(> (< a b) c)");
    expect(expr("a < (b) && c > (d)")).toBe("(&& (< a (paren b)) (> c (paren d)))");
    expect(expr("f(a < b, c >= d)")).toBe("(call f (< a b) (>= c d))");
    expect(expr("i < n ? x : y")).toBe("(? (< i n) x y)");
  });
});

describe("launches of instances", () => {
  it("name the instance after the kernel", () => {
    expect(ast("launch reduce<f32, 256>(n = 1) grid(1) block(BLOCK);")).toBe("(launch reduce<f32,256> (args n=1) (grid 1) (block BLOCK))");
  });
});

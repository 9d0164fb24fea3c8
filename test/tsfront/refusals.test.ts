/**
 * What TypeScript allows and a kernel cannot do is a located GK error, never a crash or a
 * silent miscompile (spec/typescript.md lists these). One entry per construct: the kernel
 * body (line 3 of its file is the body's first line) and the one error expected.
 */
import { describe, expect, it } from "vitest";
import { checkTs, GK_IMPORTS, lines } from "./helpers.js";

const HEAD = `${GK_IMPORTS}const hostData = new Float32Array(4);\nlet hostCount = 0;\nfunction hostFn(v: number): number { return v; }\nclass Host {}\nexport const k = kernel((n: i32, x: ReadonlyGlobal<f32>, out: Global<f32>) => {\n`;
const FIRST = HEAD.split("\n").length;

/** The kernel body's statements, on lines FIRST, FIRST + 1, ... */
function kernelWith(body: string): string {
  return `${HEAD}${body}\n});\nvoid hostData; void hostCount; void hostFn; void Host;\n`;
}

interface Refusal {
  readonly what: string;
  readonly body: string;
  /** `CODE line-offset:col message-prefix`: the line counted from the body's first. */
  readonly expected: readonly [code: string, line: number, col: number, message: string];
}

const REFUSALS: readonly Refusal[] = [
  { what: "a closure over a host variable", body: "out[0] = hostData[0];", expected: ["GK2050", 0, 10, "'hostData' is a constant of the host, which a kernel cannot use"] },
  { what: "a host let", body: "out[0] = f32(hostCount);", expected: ["GK2050", 0, 14, "'hostCount' is a variable of the host"] },
  { what: "a call of a host function", body: "out[0] = f32(hostFn(1));", expected: ["GK2051", 0, 14, "'hostFn' is a function of the host"] },
  { what: "a call of a method (Math.sqrt)", body: "out[0] = Math.sqrt(x[0]);", expected: ["GK2051", 0, 10, "'Math.sqrt' is a host function"] },
  { what: "console.log", body: "console.log(n);", expected: ["GK2051", 0, 1, "'console.log' is a host function"] },
  { what: "a string", body: 'const s = "a";', expected: ["GK1020", 0, 11, "kernels have no strings"] },
  { what: "a template string", body: "const s = `a${n}`;", expected: ["GK1020", 0, 11, "kernels have no strings"] },
  { what: "an object literal without its struct type: gk's checker, as in .gk", body: "const o = { a: 1 };", expected: ["GK3040", 0, 11, "a struct value needs its type written here"] },
  { what: "a struct value with a spread", body: "const o = { ...x };", expected: ["GK1020", 0, 13, "a struct value names each field"] },
  { what: "a struct value with a method", body: "const o = { f() { return 1; } };", expected: ["GK1020", 0, 13, "a struct value names each field"] },
  { what: "new", body: "const a = new Float32Array(4);", expected: ["GK1020", 0, 11, "kernels create no objects"] },
  { what: "any", body: "let a: any = 1;", expected: ["GK2003", 0, 8, "'any' is TypeScript's type"] },
  { what: "number", body: "let a: number = 1;", expected: ["GK2003", 0, 8, "'number' is TypeScript's type: a kernel names gk's number types: i32 for a count or an index, f32 or f64 for a real number (import type { i32, f32 } from \"gk\"; all of them: i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64)"] },
  { what: "a union type", body: "let a: f32 | i32 = 1;", expected: ["GK2003", 0, 8, "this TypeScript type names no gk type"] },
  { what: "an array type", body: "let a: f32[] = [1];", expected: ["GK2003", 0, 8, "this TypeScript type names no gk type"] },
  { what: "a function inside a kernel", body: "const f = (v: f32) => v;", expected: ["GK1020", 0, 11, "a kernel cannot define functions inside it"] },
  { what: "await", body: "await n;", expected: ["GK1020", 0, 1, "kernels are not async"] },
  { what: "var", body: "var a = 1;", expected: ["GK1020", 0, 1, "`var` has no meaning in a kernel"] },
  { what: "destructuring", body: "const [a, b] = [1, 2];", expected: ["GK1020", 0, 7, "kernels have no destructuring"] },
  { what: "for...of", body: "for (const v of [1, 2]) { out[0] = f32(v); }", expected: ["GK1020", 0, 1, "for...of walks a JavaScript iterable"] },
  { what: "try/catch", body: "try { out[0] = 1.0; } catch { out[0] = 2.0; }", expected: ["GK1020", 0, 1, "kernels have no exceptions"] },
  { what: "throw", body: "throw 1;", expected: ["GK1020", 0, 1, "kernels have no exceptions"] },
  { what: "a label", body: "outer: for (;;) { break outer; }", expected: ["GK1020", 0, 1, "kernels have no labels"] },
  { what: "**", body: "out[0] = x[0] ** 2.0;", expected: ["GK1020", 0, 15, "gk has no `**`: write pow(a, b)"] },
  { what: "??", body: "out[0] = x[0] ?? 1.0;", expected: ["GK1020", 0, 15, "`??` has no meaning in a kernel"] },
  { what: "the comma operator", body: "let a = (1, 2);", expected: ["GK1020", 0, 11, "the comma operator is only for a for loop's steps"] },
  { what: "a type assertion", body: "out[0] = n as f32;", expected: ["GK1020", 0, 10, "a type assertion converts nothing: convert with f32(x)"] },
  { what: "optional chaining", body: "out[0] = x?.[0];", expected: ["GK1020", 0, 10, "kernels have no optional chaining"] },
  { what: "typeof", body: "const t = typeof n;", expected: ["GK1020", 0, 11, "typeof has no meaning in a kernel"] },
  { what: "null", body: "const t = null;", expected: ["GK1020", 0, 11, "kernels have no null"] },
  { what: "undefined", body: "const t = undefined;", expected: ["GK1020", 0, 11, "kernels have no undefined"] },
  { what: "this", body: "const t = this;", expected: ["GK1020", 0, 11, "a kernel has no `this`"] },
  { what: "a spread argument", body: "out[0] = min(...[1.0, 2.0]);", expected: ["GK1020", 0, 14, "kernels have no spread"] },
  { what: "an assignment used as a value", body: "let a = 0;\nout[(a = 1)] = 1.0;", expected: ["GK1010", 1, 8, "assignment is a statement in gk, not an expression"] },
  { what: "i++ used as a value", body: "let a = 0;\nout[a++] = 1.0;", expected: ["GK1013", 1, 5, "'++' is a statement in gk, not a value"] },
  { what: "kernel() inside a kernel", body: "const inner = kernel(() => {});", expected: ["GK1020", 0, 15, "kernel() declares a kernel only as the initializer of a top-level const"] },
  { what: "shared() used as a value", body: "out[0] = shared(f32, 4)[0];", expected: ["GK1020", 0, 10, "shared() declares an array, and only as a declaration"] },
  { what: "dynamicShared() with sizes", body: "const b = dynamicShared(f32, 4);", expected: ["GK1020", 0, 30, "a dynamic shared array has no sizes (each launch gives its length)"] },
  { what: "constant() inside a kernel", body: "const c = constant(f32, 4);", expected: ["GK1020", 0, 11, "constant() declares an array of constant memory at the top level of the file"] },
  { what: "unroll() with no loop after it", body: "out[0] = 1.0;\nunroll();", expected: ["GK4013", 1, 1, "unroll() stands before the loop it unrolls"] },
  { what: "unroll() before what is not a loop, as @unroll in .gk", body: "unroll();\nout[0] = 1.0;", expected: ["GK4013", 0, 1, ""] },
  { what: "unroll() used as a value", body: "const u = unroll();", expected: ["GK4013", 0, 11, "unroll() stands for the annotation @unroll"] },
  { what: "flushToZero() in a kernel", body: "flushToZero();", expected: ["GK4013", 0, 1, "flushToZero() is an option of the whole file"] },
  { what: "launchBounds() after the first statement of a kernel", body: "out[0] = 1.0;\nlaunchBounds(256);", expected: ["GK4013", 1, 1, "launchBounds() annotates a kernel (@launchBounds): call it as the first statement of the kernel's body"] },
  { what: "maxRegisters() used as a value", body: "const r = maxRegisters(64);", expected: ["GK4013", 0, 11, "maxRegisters() stands for the annotation @maxRegisters: it is the first statement of a kernel's body"] },
  { what: "view() used as a value, as in .gk", body: "const v = view(x, 0, 2);", expected: ["GK3013", 0, 11, "view(array, offset, length) makes a view"] },
  { what: "gk's checker: mixed types, as in a .gk file", body: "out[0] = x[0] + n;", expected: ["GK3001", 0, 10, "mixed types"] },
  { what: "gk's checker: an unknown name", body: "out[0] = y[0];", expected: ["GK2001", 0, 10, "unknown name 'y'"] },
];

describe("TypeScript a kernel cannot use is a located error", () => {
  for (const r of REFUSALS) {
    it(r.what, () => {
      const got = lines(checkTs(kernelWith(r.body)));
      const [code, line, col, message] = r.expected;
      expect(got.length, got.join("\n")).toBe(1);
      expect(got[0]!.startsWith(`${code} ${FIRST + line}:${col} ${message}`), `got:      ${got[0]}\nexpected: ${code} ${FIRST + line}:${col} ${message}`).toBe(true);
    });
  }
});

describe("declarations gk refuses", () => {
  const cases: [string, string, string][] = [
    ["an async kernel", `${GK_IMPORTS}export const k = kernel(async (out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK1020 5:25 kernels and device functions are not async"],
    ["a parameter without a type", `${GK_IMPORTS}export const k = kernel((out) => {\n  out[0] = 1.0;\n});\n`, "GK4007 5:26 parameter 'out' needs a gk type"],
    ["an optional parameter", `${GK_IMPORTS}export const k = kernel((n?: i32) => {\n});\n`, "GK1020 5:26 every parameter of a kernel or device function is given at each call"],
    ["a kernel that is not a top-level const", `${GK_IMPORTS}export function make() {\n  return kernel((out: Global<f32>) => {\n    out[0] = 1.0;\n  });\n}\n`, "GK1020 6:10 kernel() declares a kernel only as the initializer of a top-level const"],
    ["a kernel returning a value", `${GK_IMPORTS}export const k = kernel((n: i32): i32 => n);\n`, "GK1020 5:35 a kernel returns nothing"],
    ["a generic kernel", `${GK_IMPORTS}export const k = kernel(<T,>(out: Global<f32>) => {\n});\n`, "GK1020 5:26 generic kernels and device functions cannot be written in TypeScript yet"],
    ["recursion, reported by gk's checker as in .gk", `${GK_IMPORTS}const f = deviceFn((v: i32): i32 => f(v - 1));\nexport const k = kernel((out: Global<i32>) => {\n  out[0] = f(1);\n});\n`, "GK4002"],
    ["kernel() renamed on import: gk/vite and gkc check find kernels by its name", `import { kernel as K, type Global, type f32 } from "gk";\nexport const k = K((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK1020 1:10 kernel() keeps its name: import { kernel } from \"gk\" (not 'kernel as K')"],
    ["deviceFn() renamed on import", `import { deviceFn as D, kernel, type Global, type f32 } from "gk";\nconst f = D((x: f32): f32 => x);\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = f(1.0);\n});\n`, "GK1020 1:10 deviceFn() keeps its name: import { deviceFn } from \"gk\" (not 'deviceFn as D')"],
    ["kernel() through import * as gk", `import * as gk from "gk";\nexport const k = gk.kernel((out: gk.Global<gk.f32>) => {\n  out[0] = 1.0;\n});\n`, "GK1020 2:18 kernel() declares a kernel imported by its name: import { kernel } from \"gk\", then export const name = kernel(...)"],
    ["a host array literal nested deeper than TypeScript's parser reads", `${GK_IMPORTS}export const data = ${"[".repeat(1000)}1${"]".repeat(1000)};\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK1014 5:21 brackets nest 1000 deep here, more than TypeScript's parser can read (tsc cannot read this file either)"],
    ["gk's names renamed", `import { kernel, barrier as sync, type Global, type f32 } from "gk";\nexport const k = kernel((out: Global<f32>) => {\n  sync();\n});\n`, "GK1020 3:3 gk's names keep their own names in kernels"],
    ["a kernel named then (GK2010, as in .gk)", `${GK_IMPORTS}export const then = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK2010 5:14 a kernel cannot be named 'then'"],
    ["a kernel named free: its CUDA symbol would clash with the C library's (GK2011, as in .gk)", `${GK_IMPORTS}export const free = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK2011 5:14 a kernel's name is its CUDA symbol (extern \"C\"), and 'free' cannot be one"],
    ["a kernel named __k (GK2011)", `${GK_IMPORTS}export const __k = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK2011 5:14 a kernel's name is its CUDA symbol"],
    ["a kernel named close: the module shape rule (GK2010) holds beside GK2011", `${GK_IMPORTS}export const close = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK2010 5:14 a kernel cannot be named 'close'"],
    ["unroll() at the top level", `${GK_IMPORTS}unroll();\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`, "GK4013 5:1 unroll() stands right before a loop in a kernel or device function"],
    ["constant() without sizes", `${GK_IMPORTS}const C = constant(f32);\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = C[0];\n});\n`, "GK1020 5:11 an array of constant memory has sizes, and no values"],
    ["a syntax error", `${GK_IMPORTS}export const k = kernel((out: Global<f32>) => {\n  out[0] = ;\n});\n`, "GK1010 6:12 syntax error: Expression expected."],
    ["a struct with a method", `${GK_IMPORTS}interface P {\n  x: f32;\n  f(): f32;\n}\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK1020 7:3 a struct's members are fields, each named with its gk type"],
    ["a struct with an optional field", `${GK_IMPORTS}interface P {\n  x?: f32;\n}\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK1020 6:3 a struct's fields are all there"],
    ["a struct that extends an interface", `${GK_IMPORTS}interface Q {\n  y: f32;\n}\ninterface P extends Q {\n  x: f32;\n}\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK1020 8:13 a struct extends nothing"],
    ["a generic struct", `${GK_IMPORTS}interface P<T> {\n  x: T;\n}\nexport const k = kernel((ps: Global<P<f32>>) => {\n});\n`, "GK1020 8:39 'P' takes no type arguments"],
    ["a struct field of a TypeScript type", `${GK_IMPORTS}interface P {\n  x: number;\n}\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK2003 6:6 'number' is TypeScript's type"],
    ["an array field (write it in a .gk file)", `${GK_IMPORTS}interface P {\n  x: f32[];\n}\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK2003 6:6 this TypeScript type names no gk type"],
    ["a type alias for a struct (an interface is one)", `${GK_IMPORTS}type P = {\n  x: f32;\n};\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK2003 8:37 'P' is a type alias, which names no gk type: a struct is an interface"],
    ["a struct imported from another file", `${GK_IMPORTS}import type { P } from "./lib.js";\nexport const k = kernel((ps: Global<P>) => {\n});\n`, "GK2003 6:37 'P' is imported: a TypeScript kernel names the structs of its own file"],
    ["a tuple type for a vector (f32x2 is one)", `${GK_IMPORTS}export const k = kernel((v: [f32, f32]) => {\n});\n`, "GK2003 5:29 this TypeScript type names no gk type"],
    ["an import from a package", `${GK_IMPORTS}import { helper } from "kernels";\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = helper(1.0);\n});\n`, "GK2051 7:12 'helper' is a name imported of the host"],
  ];
  for (const [what, src, expected] of cases) {
    it(what, () => {
      const got = lines(checkTs(src)).filter((l) => !l.startsWith("GK4006") && !l.startsWith("GK4011"));
      expect(got.length, got.join("\n")).toBeGreaterThanOrEqual(1);
      expect(got[0]!.startsWith(expected), `got:      ${got[0]}\nexpected: ${expected}`).toBe(true);
    });
  }
});

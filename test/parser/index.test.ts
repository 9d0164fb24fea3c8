/** `parse` as a whole: it never throws, whatever the input, and one parse never leaks into the next; `isOneExpression`. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeSourceFile, type Span } from "../../src/diagnostics/source.js";
import { isOneExpression, parse } from "../../src/parser/index.js";
import { lex } from "../../src/parser/lexer.js";
import { allSpans } from "./helpers.js";

const program = `// a kernel that uses most of the language
import { helper } from "./lib.gk";
const TILE = 16;
export device_fn clampi(x: i32, lo: i32, hi: i32): i32 {
  return x < lo ? lo : x > hi ? hi : x;
}
device_kernel tiles(A: readonly global<f32>, C: global<f32>, n: i32) {
  shared t: f32[TILE][TILE];
  let sum = 0.0;
  for (let k = 0; k < n; k++) { sum += A[k] * 2.5e-1; }
  if (threadIdx.x == 0 && !(n < 0)) { C[0] = sum; } else { ; }
  let i = 0x1F;
  while (i > 0) { i -= 1; if (i == 3) continue; else break; }
  do { --i; } while (i >= -1);
  let a: i32[3] = [1, 2, 3];
  barrier();
  return;
}
launch tiles(A = iota(256), C = zeros(1), n = TILE * 2) grid(1) block(256);
`;

const programTokens = lex(makeSourceFile("p.gk", program)).tokens.map((t) => t.image);

const alphabet = [
  ...new Set(programTokens),
  "device_kernel", "device_fn", "import", "export", "launch", "shared", "do", "grid", "block", "from", "global", "readonly",
  "{", "}", "(", ")", "[", "]", ";", ",", ":", "?", ".", "=", "+=", ">>>=", "++", "--", "<", ">", ">>", "=>",
  "0x", "1e", "08x", "1__0", ".5", '"', "'", "/*", "*/", "//", "\n", "@", "#", "é", "\\",
];

function spanIsInside(s: Span | undefined, length: number): boolean {
  return s === undefined || (Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start <= s.end && s.end <= length);
}

/** The law: parsing never throws, never reports an internal error, and every span lies within the file. */
function parsesSafely(src: string): boolean {
  const r = parse(makeSourceFile("f.gk", src));
  for (const d of r.diagnostics) {
    if (d.code === "GK9001") return false;
    if (!spanIsInside(d.span, src.length) || !d.notes.every((n) => spanIsInside(n.span, src.length))) return false;
  }
  return allSpans(r.module).every((s) => spanIsInside(s, src.length));
}

type Mutation = { kind: "delete" | "duplicate" | "swap" | "insert"; at: number; other: number; token: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("delete", "duplicate", "swap", "insert"),
  at: fc.nat(),
  other: fc.nat(),
  token: fc.constantFrom(...alphabet),
});

function mutate(tokens: string[], ms: Mutation[]): string {
  const out = [...tokens];
  for (const m of ms) {
    const i = m.at % out.length;
    const j = m.other % out.length;
    if (m.kind === "delete") out.splice(i, 1);
    else if (m.kind === "duplicate") out.splice(i, 0, out[i]!);
    else if (m.kind === "insert") out.splice(i, 0, m.token);
    else [out[i], out[j]] = [out[j]!, out[i]!];
    if (out.length === 0) out.push(";");
  }
  return out.join(" ");
}

describe("parse never throws", () => {
  it("the example program parses cleanly", () => {
    expect(parse(makeSourceFile("p.gk", program)).diagnostics).toEqual([]);
  });

  it("for any string", () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), parsesSafely), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), parsesSafely), { numRuns: 300 });
  });

  it("for any sequence of gk tokens", () => {
    const soup = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((ts) => ts.join(" "));
    fc.assert(fc.property(soup, parsesSafely), { numRuns: 400 });
  });

  it("for deletions, duplications, swaps and insertions of tokens in a valid program", () => {
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => parsesSafely(mutate(programTokens, ms))), {
      numRuns: 400,
    });
  });
});

describe("parse is reentrant", () => {
  it("gives the same result for the same file, whatever was parsed in between", () => {
    const a = makeSourceFile("a.gk", program);
    const b = makeSourceFile("b.gk", "device_kernel k( { let = ; }\nconst x = 0x;");
    const first = parse(a);
    const broken = parse(b);
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(parse(a)).toEqual(first);
    expect(parse(b)).toEqual(broken);
  });
});

describe("programs nested too deeply", () => {
  const codes = (src: string) => parse(makeSourceFile("deep.gk", src)).diagnostics.map((d) => d.code);
  it("reports brackets nested past the limit, and chains of hundreds of ternaries or operands, as GK1014", () => {
    expect(codes(`device_kernel k(o: global<i32>) { o[0] = ${"(".repeat(101)}1${")".repeat(101)}; }`)).toEqual(["GK1014"]);
    expect(codes(`device_kernel k(o: global<i32>) { o[0] = ${"(".repeat(95)}1${")".repeat(95)}; }`)).toEqual([]);
    expect(codes(`device_kernel k(o: global<i32>) { o[0] = ${"o[0] > 1 ? 1 : ".repeat(3000)}0; }`)).toEqual(["GK1014"]);
    expect(codes(`device_kernel k(o: global<i32>) { o[0] = 1${" + 1".repeat(1000)}; }`)).toEqual(["GK1014"]);
  });
});

describe("isOneExpression", () => {
  it("takes one expression, spaced and nested as one likes", () => {
    for (const e of ["1", " -1.5e3 ", "zeros(8)", "[1, 2, 3]", "{ x: 1, y: 2 }", "f32x4(1, 2, 3, 4)", "(a + b) * c[i]", "a ? b : c", "iota(8)\n"]) expect(isOneExpression(e), e).toBe(true);
  });
  it("refuses what is not exactly one expression, and comments", () => {
    for (const e of ["", " ", "1, 2", "zeros(1)) grid(1) block(7);", "zeros(1);", "1 // c", "/* c */ 1", "1 /* c */", "(1", "1)", "'a", "`", "let x = 1", "1 2", "[".repeat(200) + "]".repeat(200)]) {
      expect(isOneExpression(e), e).toBe(false);
    }
  });
  it("leaves the next parse undisturbed", () => {
    isOneExpression("zeros(1)) grid(1");
    expect(parse(makeSourceFile("t.gk", "const A = 1;\n")).diagnostics).toEqual([]);
  });
});

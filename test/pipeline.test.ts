/**
 * The front end never crashes: random token-level mutations (deletions, duplications,
 * swaps) of valid programs either check cleanly or give at least one error, and every
 * diagnostic is located inside the file. A crash would show up as GK9001.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emitCuda } from "../src/codegen/cuda/index.js";
import { memoryHost } from "../src/load/program.js";
import { frontEnd } from "../src/pipeline.js";

const programs = [
  ...readdirSync("examples").filter((f) => f.endsWith(".gk")).map((f) => join("examples", f)),
  ...readdirSync("spec/ok").filter((f) => f.endsWith(".gk")).map((f) => join("spec/ok", f)),
].map((path) => ({ path, text: readFileSync(path, "utf8") }));

/** Tokens as the mutations see them: words, numbers, strings, operators and single characters. */
function tokens(text: string): string[] {
  return text.match(/\s+|\/\/[^\n]*|"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|>>>=?|<<=?|>>=?|[=!]==?|&&|\|\||[-+*/%&|^<>]=|\+\+|--|./g) ?? [];
}

type Mutation = { kind: "delete" | "duplicate" | "swap"; at: number; to: number };

function mutate(toks: string[], muts: Mutation[]): string {
  const t = [...toks];
  for (const m of muts) {
    if (t.length < 2) break;
    const i = m.at % t.length;
    const j = m.to % t.length;
    if (m.kind === "delete") t.splice(i, 1);
    else if (m.kind === "duplicate") t.splice(i, 0, t[i]!);
    else [t[i], t[j]] = [t[j]!, t[i]!];
  }
  return t.join("");
}

const mutation = fc.record({
  kind: fc.constantFrom("delete" as const, "duplicate" as const, "swap" as const),
  at: fc.nat(),
  to: fc.nat(),
});

describe("the front end on mutated programs", () => {
  it("never crashes and always locates its errors", () => {
    const toks = programs.map((p) => ({ path: p.path, toks: tokens(p.text).filter((x) => x.trim() !== "" || x.includes("\n")) }));
    fc.assert(
      fc.property(fc.nat({ max: toks.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (which, muts) => {
        const { path, toks: t } = toks[which]!;
        const text = mutate(t.map((x) => (x.trim() === "" ? x : x + " ")), muts);
        const r = frontEnd(path, { host: memoryHost({ [path]: text, "spec/ok/lib/math.gk": readFileSync("spec/ok/lib/math.gk", "utf8") }) });
        expect(r.diagnostics.filter((d) => d.code === "GK9001")).toEqual([]);
        const errors = r.diagnostics.filter((d) => d.severity === "error");
        if (errors.length === 0) {
          expect(r.ir).toBeDefined();
          emitCuda(r.ir!, { sources: r.sources });
        } else {
          expect(r.ir).toBeUndefined();
        }
        for (const d of r.diagnostics) {
          expect(d.span, `${d.code} ${d.message}`).toBeDefined();
          const len = r.sources.get(d.span!.file)!.text.length;
          expect(d.span!.start >= 0 && d.span!.end <= len && d.span!.start <= d.span!.end).toBe(true);
        }
      }),
      { numRuns: 600, seed: Number(process.env.GK_FUZZ_SEED ?? 20261122) },
    );
  });
});

describe("programs nested too deeply", () => {
  // Every shape of deep nesting is GK1014 at a place in the deep statement (line 2), never
  // an unlocated error, a GK9001, or a program that checks and then overflows the stack of
  // a later step (the simulator, the CUDA backend).
  const kernel = (body: string) => `device_kernel k(out: global<i32>) {\n  let x = out[0]; let c = x == 3; ${body}\n}\n`;
  const shapes: [string, string][] = [
    ["5000 chained '!'", `out[0] = ${"!".repeat(5000)}c ? 1 : 0;`],
    ["5000 chained unary '-'", `out[0] = ${"- ".repeat(5000)}x;`],
    ["5000 chained '~'", `out[0] = ${"~".repeat(5000)}x;`],
    ["100 brackets, each with 100 '!'", `out[0] = ${"!".repeat(100) + "(".repeat(98)}c${")".repeat(98)} ? 1 : 0;`.replace(/\(/g, `(${"!".repeat(100)}`)],
    ["3000 chained '?:'", `out[0] = ${"x > 5 ? 1 : ".repeat(3000)}0;`],
    ["3000 chained 'else if'", `${"if (x == 0) { out[0] = 1; } else ".repeat(3000)}{ out[0] = 2; }`],
    ["3000 nested 'if' without braces", `${"if (c) ".repeat(3000)}out[0] = 1;`],
    ["3000 nested 'for' without braces", `${"for (let i = 0; i < 1; i++) ".repeat(3000)}out[0] = 1;`],
    ["750 nested 'for' without braces", `${"for (let i = 0; i < 1; i++) ".repeat(750)}out[0] = 1;`],
    ["3000 nested 'while' without braces", `${"while (c) ".repeat(3000)}out[0] = 1;`],
    // Once accepted by a chain limit of 1000 operands, then GK9001 in the simulator: V8 ran out of stack compiling it.
    ["a chain of 999 '+'", `out[0] = x${" + x".repeat(998)};`],
  ];
  for (const [what, body] of shapes) {
    it(`reports ${what} as one GK1014 in the deep statement`, () => {
      const src = kernel(body);
      const r = frontEnd("deep.gk", { host: memoryHost({ "deep.gk": src }) });
      expect(r.diagnostics.map((d) => d.code), r.diagnostics.map((d) => d.message).join("\n")).toEqual(["GK1014"]);
      const span = r.diagnostics[0]!.span;
      expect(span, "GK1014 has a place").toBeDefined();
      const line2 = src.indexOf("\n") + 1;
      expect(span!.start).toBeGreaterThan(line2 + "  let x = out[0]; let c = x == 3; ".length - 1);
      expect(span!.start).toBeLessThan(src.indexOf("\n", line2));
      expect(r.ir).toBeUndefined();
    });
  }
});

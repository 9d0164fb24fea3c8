/** The builtin table (src/ir/builtins.ts): names, docs, and the simulator's definition of every type each entry accepts. The CUDA column has its own test, test/codegen/cuda/builtins.test.ts. */
import { describe, expect, it } from "vitest";
import { builtins, operandTypes } from "../../src/ir/builtins.js";
import { fill } from "../../src/ir/templates.js";
import { makeRuntime } from "../../src/ir/evalOp.js";

const $ = makeRuntime(() => {
  throw new Error("division by zero");
});

describe("the builtin table", () => {
  it("has unique names and a doc line for every entry", () => {
    const names = builtins.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    for (const b of builtins) expect(b.doc.length, b.name).toBeGreaterThan(10);
  });

  it("defines every type a math builtin accepts, in JavaScript", () => {
    for (const b of builtins) {
      if (b.rule.kind !== "math") continue;
      for (const t of operandTypes(b.rule)) {
        const mb = b as Extract<typeof b, { rule: { kind: "math" } }>;
        expect(mb.js[t], `${b.name}: JavaScript for ${t}`).toBeDefined();
        const args = ["a", "b", "c"].slice(0, b.rule.arity);
        expect(() => new Function("$", ...args, `return ${fill(mb.js[t]!, args)};`), `${b.name} ${t}`).not.toThrow();
      }
    }
  });

  it("defines every element type an atomic accepts", () => {
    for (const b of builtins) {
      if (b.rule.kind !== "atomic") continue;
      const ab = b as Extract<typeof b, { rule: { kind: "atomic" } }>;
      for (const t of b.rule.types) {
        expect(ab.js[t], `${b.name}: JavaScript for ${t}`).toBeDefined();
        const operands = b.rule.op === "cas" ? ["c", "v"] : ["v"];
        const fn = new Function("$", "old", ...operands, `return ${fill(ab.js[t]!("global"), ["old", ...operands])};`);
        expect(typeof fn).toBe("function");
      }
    }
  });

  it("computes what its doc lines say", () => {
    const run = (name: string, t: string, ...args: unknown[]) => {
      const b = builtins.find((x) => x.name === name) as Extract<(typeof builtins)[number], { rule: { kind: "math" } }>;
      const names = args.map((_, i) => "abc"[i]!);
      return new Function("$", ...names, `return ${fill(b.js[t as "f32"]!, names)};`)($, ...args);
    };
    expect(run("min", "f32", NaN, 1)).toBe(1);
    expect(run("clamp", "i32", 7, 0, 5)).toBe(5);
    expect(run("abs", "i32", -2147483648)).toBe(-2147483648);
    expect(run("round", "f64", 2.5)).toBe(3);
    expect(run("sqrt", "f32", 2)).toBe(Math.fround(Math.SQRT2));
    expect(run("isinf", "f64", -Infinity)).toBe(true);
    expect(run("max", "u64", 3n, 5n)).toBe(5n);
  });
});

/**
 * The nesting limits (src/parser/nesting.ts): an expression nests at most 500 operations
 * deep, a chain of binary operators has at most 500 operands, statements nest at most
 * 100 compound statements deep. The limits are exact, and a
 * program at every limit at once still goes through every later step: the checker, the
 * CUDA backend and the simulator, in this process (whose stack is smaller than gkc's).
 */
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../src/codegen/cuda/index.js";
import { memoryHost } from "../../src/load/program.js";
import { MAX_CHAIN_OPERANDS, MAX_EXPR_DEPTH, MAX_STMT_DEPTH } from "../../src/parser/nesting.js";
import { frontEnd } from "../../src/pipeline.js";
import { compileKernel, runKernel } from "../../src/runtime/sim/index.js";
import { diagnosticLines } from "../helpers.js";

const check = (src: string) => frontEnd("deep.gk", { host: memoryHost({ "deep.gk": src }) });
const kernel = (body: string) => `device_kernel k(out: global<i32>) {\n  let x = out[0]; let c = x == 3;\n  ${body}\n}\n`;

describe("nesting limits", () => {
  it("allows expressions exactly 500 operations deep, of every shape, and refuses 501", () => {
    expect(MAX_EXPR_DEPTH).toBe(500);
    const shapes = [(n: number) => `${"- ".repeat(n)}x`, (n: number) => `${"~".repeat(n)}x`, (n: number) => `${"!".repeat(n - 1)}c ? 1 : 0`, (n: number) => `${"i32(".repeat(90)}${"- ".repeat(n - 90)}x${")".repeat(90)}`];
    for (const shape of shapes) {
      expect(diagnosticLines(check(kernel(`out[0] = ${shape(500)};`)))).toEqual([]);
      expect(diagnosticLines(check(kernel(`out[0] = ${shape(501)};`)))).toEqual([expect.stringMatching(/^GK1014 3:\d+ this expression nests more than 500 operations deep here/)]);
    }
  });

  it("allows chains of 500 operands and refuses 501", () => {
    expect(MAX_CHAIN_OPERANDS).toBe(500);
    expect(diagnosticLines(check(kernel(`out[0] = x${" + x".repeat(499)};`)))).toEqual([]);
    expect(diagnosticLines(check(kernel(`out[0] = x${" + x".repeat(500)};`)))).toEqual([expect.stringMatching(/^GK1014 3:\d+ this expression chains more than 500 operands/)]);
  });

  it("allows 100 nested compound statements, braced or not, and refuses 101", () => {
    expect(MAX_STMT_DEPTH).toBe(100);
    // The kernel's brace, 98 more and out[0]'s stay within the 100 brackets that may nest.
    const nested = (n: number) => `${"if (c) ".repeat(n - 98)}${"while (c) { ".repeat(98)}out[0] = 1; c = false;${" }".repeat(98)}`;
    const elseIfs = (n: number) => `${"if (x == 0) { out[0] = 1; } else ".repeat(n)}{ out[0] = 2; }`;
    for (const shape of [nested, elseIfs]) {
      expect(diagnosticLines(check(kernel(shape(100))))).toEqual([]);
      expect(diagnosticLines(check(kernel(shape(101))))).toEqual([expect.stringMatching(/^GK1014 3:\d+ statements nest more than 100 deep here/)]);
    }
  });

  it("reports the first place in a file, drops only the item that nests too deeply, and keeps checking the rest", () => {
    const src = `device_fn f(): i32 { return ${"- ".repeat(501)}1; }\ndevice_kernel k(out: global<i32>) { out[0] = 1.5; }\n`;
    // The 501st '-' is where the limit is crossed.
    expect(diagnosticLines(check(src))).toEqual([expect.stringMatching(/^GK1014 1:1029 /), expect.stringMatching(/^GK3007 2:46 /)]);
  });

  it("keeps a program at every limit at once within the stack of the checker, the CUDA backend and the simulator", () => {
    // 100 ifs (98 braced), and an expression 500 deep: 249 '+', then 250 '-' and an index.
    const body = `if (c) ${"if (c) { ".repeat(98)}if (c) out[0] = ${"- ".repeat(250)}out[0]${" + x".repeat(249)};${" }".repeat(98)}`;
    const r = check(kernel(body));
    expect(diagnosticLines(r)).toEqual([]);
    expect(emitCuda(r.ir!, { sources: r.sources }).source).toContain("extern \"C\"");
    const out = Int32Array.from([3]);
    runKernel(compileKernel(r.ir!, "k", r.sources), { grid: [1], block: [1] }, [out]);
    expect(out[0]).toBe(3 + 3 * 249);
  });
});

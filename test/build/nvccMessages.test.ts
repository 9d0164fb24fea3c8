/** nvcc's output as messages and diagnostics (src/build/nvccMessages.ts); no nvcc needed. */
import { describe, expect, it } from "vitest";
import { makeSourceFile, SourceMap } from "../../src/diagnostics/index.js";
import { dedupe, messageDiagnostic, parseNvccOutput } from "../../src/build/nvccMessages.js";

describe("parseNvccOutput", () => {
  it("reads front-end, host-compiler and tool messages, with their context lines", () => {
    const out = [
      'k.gk(4): error: identifier "x" is undefined',
      "    y[0] = x;",
      "           ^",
      "",
      'kernel.cu(2): warning #177-D: variable "u" was declared but never referenced',
      "    int u;",
      "        ^",
      "",
      'Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"',
      "",
      "a (1).gk(7): catastrophic error: cannot open source file \"m.h\"",
      "k.gk:9:3: fatal error: m.h: No such file or directory",
      "ptxas error   : Entry function 'f' uses too much shared data (0x20000 bytes, 0xc000 max)",
      "nvcc fatal   : Unsupported gpu architecture 'sm_1'",
      '1 error detected in the compilation of "kernel.cu".',
      "something else entirely",
    ].join("\n");
    const { messages, other } = parseNvccOutput(out);
    expect(messages).toEqual([
      { file: "k.gk", line: 4, severity: "error", text: 'identifier "x" is undefined', context: ["    y[0] = x;", "           ^"] },
      { file: "kernel.cu", line: 2, severity: "warning", text: 'variable "u" was declared but never referenced', context: ["    int u;", "        ^"] },
      { file: "a (1).gk", line: 7, severity: "error", text: 'cannot open source file "m.h"', context: [] },
      { file: "k.gk", line: 9, severity: "error", text: "m.h: No such file or directory", context: [] },
      { severity: "error", text: "ptxas error: Entry function 'f' uses too much shared data (0x20000 bytes, 0xc000 max)", context: [] },
      { severity: "error", text: "nvcc fatal: Unsupported gpu architecture 'sm_1'", context: [] },
    ]);
    expect(other).toEqual(["something else entirely"]);
  });
});

describe("messageDiagnostic", () => {
  it("puts a message on its .gk line, from its first non-blank character, with the generated CUDA line as a note", () => {
    const sources = new SourceMap();
    sources.add(makeSourceFile("k.gk", "device_kernel k(y: global<f32>) {\n    y[0] = x;\n}\n"));
    const [m] = parseNvccOutput('k.gk(2): error: identifier "x" is undefined\n    y[0] = x;\n           ^').messages;
    expect(messageDiagnostic(m!, { sourceMap: sources, cuName: "kernel.cu", sourceName: "kernel.cu" })).toEqual({
      code: "GK7002",
      severity: "error",
      message: 'identifier "x" is undefined',
      span: { file: "k.gk", start: 38, end: 47 },
      notes: [{ message: "in the generated CUDA: y[0] = x;" }],
    });
  });

  it("keeps file:line text without the source, names the .cu by its source's name, and makes a warning GK7005", () => {
    const [m] = parseNvccOutput('kernel.cu(2): warning #177-D: variable "u" was declared but never referenced\n    int u;\n        ^').messages;
    expect(messageDiagnostic(m!, { sourceMap: undefined, cuName: "kernel.cu", sourceName: "saxpy.gk" })).toEqual({
      code: "GK7005",
      severity: "warning",
      message: 'saxpy.gk:2: variable "u" was declared but never referenced',
      span: undefined,
      notes: [],
    });
  });
});

describe("dedupe", () => {
  it("keeps each message once, across calls that share what was seen", () => {
    const { messages } = parseNvccOutput("k.gk(1): error: a\nk.gk(1): error: a\nk.gk(2): error: a");
    const seen = new Set<string>();
    expect(dedupe(messages, seen).map((m) => m.line)).toEqual([1, 2]);
    expect(dedupe(messages, seen)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { SourceMap, makeSourceFile, error, formatDiagnostic, diagnosticToJson } from "../../src/diagnostics/index.js";

describe("formatDiagnostic", () => {
  it("prints file:line:col, the code, a code frame and a caret under the span", () => {
    const sources = new SourceMap();
    sources.add(makeSourceFile("k.gk", "const a = 1;\nlet b = zz + 1;\n"));
    const d = error("GK2001", { file: "k.gk", start: 21, end: 23 }, "unknown name 'zz'");
    expect(formatDiagnostic(d, sources)).toBe(
      ["k.gk:2:9 - error GK2001: unknown name 'zz'", "", "2 let b = zz + 1;", "          ~~", ""].join("\n"),
    );
    expect(diagnosticToJson(d, sources)).toMatchObject({ file: "k.gk", line: 2, col: 9, endLine: 2, endCol: 11 });
  });
});

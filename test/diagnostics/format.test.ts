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
  it("shows a window of a long line around the span, its cut ends marked", () => {
    const sources = new SourceMap();
    const line = `x = ${"a + ".repeat(100)}zz + ${"b + ".repeat(100)}c;`;
    sources.add(makeSourceFile("k.gk", line + "\n"));
    const start = line.indexOf("zz");
    const frame = formatDiagnostic(error("GK2001", { file: "k.gk", start, end: start + 2 }, "unknown name 'zz'"), sources).split("\n");
    expect(frame[2]!.length).toBeLessThan(170);
    expect(frame[2]).toMatch(/^1 …[a +]+zz[b +]+…$/);
    expect(frame[3]!.indexOf("~~")).toBe(frame[2]!.indexOf("zz"));
  });
});

describe("file names in a diagnostic's location", () => {
  const at = (name: string) => {
    const sources = new SourceMap();
    sources.add(makeSourceFile(name, "let x = 1;\n"));
    return formatDiagnostic(error("GK1001", { file: name, start: 4, end: 5 }, "oops"), sources).split("\n")[0]!;
  };
  it("print as they are when they hold nothing a terminal would act on (backslashes too)", () => {
    expect(at("src/a b.gk")).toBe("src/a b.gk:1:5 - error GK1001: oops");
    expect(at("C:\\work\\a.gk")).toBe("C:\\work\\a.gk:1:5 - error GK1001: oops");
  });
  it("escape line ends, ANSI escapes, C1 controls, separators and bidirectional overrides", () => {
    for (const [name, shown] of [
      ["a\nb.gk", "a\\nb.gk"],
      ["\x1b[31mred\x1b[0m.gk", "\\x1b[31mred\\x1b[0m.gk"],
      ["x\x9by.gk", "x\\x9by.gk"],
      ["p\u2028q.gk", "p\\u2028q.gk"],
      ["evil\u202egk.exe", "evil\\u202egk.exe"],
      ["d\\e\r.gk", "d\\\\e\\x0d.gk"],
    ]) expect(at(name!)).toBe(`${shown}:1:5 - error GK1001: oops`);
  });
});

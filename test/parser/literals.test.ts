/** Number and string literals: what is valid, what is wrong with the rest, and their values. */
import { describe, expect, it } from "vitest";
import { isFloatLiteral, numberProblem, numberText, readString } from "../../src/parser/literals.js";

describe("numberProblem", () => {
  it("accepts every form gk has", () => {
    const valid = ["0", "42", "1_000_000", "0xFF", "0XaB_cd", "0b1010", "0B1_0", "0o17", "0O7_7", "1.5", ".5", "1.", "0.5", "1e3", "1E-3", "2.5e+4", "1.e2", "1_0.0_1e1_0"];
    for (const n of valid) expect(numberProblem(n), n).toBeUndefined();
  });

  it("explains what is wrong with the rest", () => {
    const cases: [string, string][] = [
      ["0x", "'0x' has no digits after '0x': write, for example, 0xFF"],
      ["0b", "'0b' has no digits after '0b': write, for example, 0b1010"],
      ["0o", "'0o' has no digits after '0o': write, for example, 0o17"],
      ["0b102", "'2' is not a binary digit in '0b102'"],
      ["0o8", "'8' is not an octal digit in '0o8'"],
      ["0xFG", "'G' is not a hexadecimal digit in '0xFG'"],
      ["0x1.5", "a hexadecimal number cannot have a fractional part: '0x1.5'"],
      ["0x_1", "'_' in '0x_1' must stand between two digits, as in 1_000_000"],
      ["1__0", "'_' in '1__0' must stand between two digits, as in 1_000_000"],
      ["1_", "'_' in '1_' must stand between two digits, as in 1_000_000"],
      ["1_.5", "'_' in '1_.5' must stand between two digits, as in 1_000_000"],
      ["1e", "'1e' is missing the exponent's digits: write, for example, 1e3"],
      ["1.5.3", "'1.5.3' has more than one '.'"],
      ["1e2e3", "'1e2e3' has more than one exponent"],
      ["1e2.5", "the exponent in '1e2.5' must be a whole number"],
      ["08", "decimal numbers cannot start with 0: write 8"],
      ["010", "decimal numbers cannot start with 0: write 10 (or 0o10 for an octal number)"],
      ["08x", "'08x' is not a valid number: unexpected 'x'"],
      ["12abc", "'12abc' is not a number: gk literals have no suffix like 'abc'; write 12, and a cast such as f32(12) where a type is needed"],
      ["1.5f", "'1.5f' is not a number: gk literals have no suffix like 'f'; write 1.5, and a cast such as f32(1.5) where a type is needed"],
    ];
    for (const [n, message] of cases) expect(numberProblem(n), n).toBe(message);
  });

  it("text drops separators; floats are decimal literals with a '.' or an exponent", () => {
    expect(numberText("1_000.000_1")).toBe("1000.0001");
    expect(["1.5", ".5", "1.", "1e3", "2E-1"].every(isFloatLiteral)).toBe(true);
    expect(["1", "0xE", "0x1e3", "0b1", "0o7"].some(isFloatLiteral)).toBe(false);
  });
});

describe("readString", () => {
  it("removes the quotes and resolves escapes", () => {
    expect(readString('"./a.gk"')).toEqual({ value: "./a.gk", terminated: true });
    expect(readString("'it\\'s'")).toEqual({ value: "it's", terminated: true });
    expect(readString('"a\\\\b\\n\\t\\x41\\u0042\\u{1F600}"')).toEqual({ value: "a\\b\n\tAB😀", terminated: true });
    expect(readString('""')).toEqual({ value: "", terminated: true });
  });

  it("says when the closing quote is missing", () => {
    expect(readString('"abc')).toEqual({ value: "abc", terminated: false });
    expect(readString('"abc\\"')).toEqual({ value: 'abc"', terminated: false });
    expect(readString('"')).toEqual({ value: "", terminated: false });
  });
});

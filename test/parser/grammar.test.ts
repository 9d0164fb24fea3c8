/**
 * gk's parser and lexer are built without chevrotain's validations, to start fast
 * (src/parser/grammar.ts, lexer.ts). Here they are built with them: the grammar and the
 * token definitions must pass, and what is built must be the same either way.
 */
import { serializeGrammar } from "chevrotain";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GkParser } from "../../src/parser/grammar.js";
import { newLexer } from "../../src/parser/lexer.js";
import { ProblemRecorder } from "../../src/parser/problems.js";

afterEach(() => vi.restoreAllMocks());

describe("chevrotain's validations", () => {
  it("pass for the grammar, which is the same without them", () => {
    const checked = new GkParser(new ProblemRecorder(), { validate: true }); // throws on a definition error
    const fast = new GkParser(new ProblemRecorder());
    const rules = (p: GkParser) => serializeGrammar(Object.values(p.getGAstProductions()));
    expect(rules(checked).length).toBeGreaterThan(30);
    expect(rules(fast)).toEqual(rules(checked));
  });

  it("pass for the token definitions, without warnings, and the tokens are the same without them", () => {
    const warn = vi.spyOn(console, "warn");
    const checked = newLexer({ validate: true });
    expect(checked.lexerDefinitionErrors).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    const text = readFileSync("examples/matmul.gk", "utf8") + "\n@ 0x1F 'unterminated";
    const tokens = (l: ReturnType<typeof newLexer>) => {
      const r = l.tokenize(text);
      return { tokens: r.tokens.map((t) => [t.tokenType.name, t.image, t.startOffset]), errors: r.errors, groups: r.groups };
    };
    expect(tokens(newLexer())).toEqual(tokens(checked));
  });
});

/** The .gk modules a JavaScript or TypeScript file imports, read without TypeScript (src/modules/gkImports.ts). */
import { describe, expect, it } from "vitest";
import { gkImportsOf } from "../../src/modules/gkImports.js";

describe("gkImportsOf", () => {
  it("finds the relative .gk specifiers of imports, re-exports and dynamic imports, and none in comments or strings", () => {
    const text = [
      'import a, { b } from "./a.gk";',
      '// import x from "./commented.gk";',
      '/* import y from "./block.gk" */',
      "const s = \"import z from './string.gk'\";",
      "export { c } from '../c.gk';",
      'import "./side.gk";',
      'const m = await import("./dyn.gk");',
      'import k from "gk"; import t from "./t.js"; import p from "pkg/x.gk";',
      'const u = `from "./template.gk"`;',
    ].join("\n");
    const found = gkImportsOf(text);
    expect(found.map((f) => f.specifier)).toEqual(["./a.gk", "../c.gk", "./side.gk", "./dyn.gk"]);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe('"./a.gk"');
  });
});

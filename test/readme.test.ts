/**
 * Claims of README.md that the code decides, checked against the code: what gk/testing,
 * `gkc run`/`gkc build` and `compile()` do about FMA contraction by default.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { help as buildHelp } from "../src/cli/commands/build.js";
import { help as runHelp } from "../src/cli/commands/run.js";
import { nvccFlags } from "../src/runtime/build.js";

const readme = readFileSync("README.md", "utf8");
/** The paragraph of the README that says when floats agree bit for bit. */
const paragraph = readme.split("\n\n").find((p) => /bit for bit/.test(p) && /FMA/.test(p)) ?? "";

describe("README on FMA contraction", () => {
  it("says that gk/testing builds without it, and gkc run and build with it unless --no-fma", () => {
    // What the code does: contraction is nvcc's default, turned off only by fmad: false.
    expect(nvccFlags({})).toEqual([]);
    expect(nvccFlags({ fmad: false })).toEqual(["--fmad=false"]);
    expect(runHelp).toMatch(/--no-fma/);
    expect(buildHelp).toMatch(/--no-fma/);
    // What the README says.
    expect(paragraph).toMatch(/gk\/testing/);
    expect(paragraph).toMatch(/gkc run/);
    expect(paragraph).toMatch(/--no-fma/);
    expect(paragraph).not.toMatch(/\(the default here\)/);
  });
});

describe("README's From TypeScript", () => {
  it("shows what gkc types writes for examples/saxpy.gk (its comments aside)", async () => {
    const { frontEnd } = await import("../src/pipeline.js");
    const { declarationText } = await import("../src/modules/declarations.js");
    const section = readme.slice(readme.indexOf("## From TypeScript"), readme.indexOf("## Testing kernels"));
    const block = /```ts\n(\/\/ saxpy\.d\.gk\.ts[\s\S]*?)```/.exec(section)?.[1] ?? "";
    const r = frontEnd("examples/saxpy.gk");
    const written = declarationText("examples/saxpy.gk", r.ir!, r.sources).split("\n");
    const shown = block.split("\n").filter(Boolean).map((l) => l.replace(/\s+\/\/ .*$/, ""));
    expect(shown.length).toBeGreaterThan(8);
    for (const line of shown) {
      if (line.startsWith("// gk-source-hash: ")) expect(written.find((w) => w.startsWith("// gk-source-hash: "))!.startsWith(line.replace("...", ""))).toBe(true);
      else expect(written, line).toContain(line);
    }
  });
});


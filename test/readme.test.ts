/**
 * Claims of README.md that the code decides, checked against the code: what gk/testing,
 * `gkc run`/`gkc build` and `compile()` do about FMA contraction by default, and the example
 * of arrays of structs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { help as buildHelp } from "../src/cli/commands/build.js";
import { help as runHelp } from "../src/cli/commands/run.js";
import { compile } from "../src/runtime/api.js";
import { nvccFlags } from "../src/build/build.js";
import { packStructs, unpackStructs } from "../src/runtime/structs.js";

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
    // The block's first line names the file, which the declaration itself does not (a name may hold anything).
    const shown = block.split("\n").slice(1).filter(Boolean).map((l) => l.replace(/\s+\/\/ .*$/, ""));
    expect(shown.length).toBeGreaterThan(8);
    for (const line of shown) {
      if (line.startsWith("// gk-source-hash: ")) expect(written.find((w) => w.startsWith("// gk-source-hash: "))!.startsWith(line.replace("...", ""))).toBe(true);
      else expect(written, line).toContain(line);
    }
  });
});

describe("README on structs", () => {
  it("runs its example of packStructs and unpackStructs (examples/particles.gk) with the result it shows", async () => {
    const block = readme.split("```").find((b) => b.includes("packStructs(Particle")) ?? "";
    expect(block).toMatch(/compile\("examples\/particles\.gk"\)/);
    const shown = /console\.log\(unpackStructs\(Particle, ps\)\);\s*\/\/ (.*)/.exec(block)?.[1] ?? "";
    const mod = await compile("examples/particles.gk", { device: "cpu" });
    const { Particle } = mod.structs;
    const ps = packStructs(Particle!, [{ pos: [0, 4, 0], vel: [1, 0, 0], bounces: 0 }]);
    await mod.step!({ grid: 1, block: 32 }, { n: 1, dt: 0.5, gravity: [0, -10, 0], ps });
    expect(unpackStructs(Particle!, ps)).toEqual(JSON.parse(shown.replace(/(\w+):/g, '"$1":')));
    await mod.close();
  });
});

/**
 * Claims of README.md that the code decides, checked against the code: what gk/testing,
 * `gkc run`/`gkc build` and `compile()` do about FMA contraction by default, the example
 * of arrays of structs, and "From TypeScript" walked from `npm init -y` to a running program
 * with the README's own blocks (the package packed from this repository, so dist/ is built).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { help as buildHelp } from "../src/cli/commands/build.js";
import { help as runHelp } from "../src/cli/commands/run.js";
import { compile } from "../src/runtime/api.js";
import { nvccFlags } from "../src/build/build.js";
import { packStructs, unpackStructs } from "../src/lang/structs.js";

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

/** The fenced blocks of a README section, in order, with their language. */
function blocks(section: string): { lang: string; text: string }[] {
  return [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

describe("README's From TypeScript, walked from `npm init -y` to a running program, exactly as written", () => {
  const section = readme.slice(readme.indexOf("## From TypeScript"), readme.indexOf("## Testing kernels"));
  const all = blocks(section);
  const setup = all.find((b) => b.lang === "sh" && b.text.startsWith("npm init -y"))?.text ?? "";
  const tsconfig = all.find((b) => b.lang === "json" && b.text.includes('"compilerOptions"'))?.text ?? "";
  const app = all.find((b) => b.lang === "ts" && b.text.includes('from "./saxpy.gk"'))?.text ?? "";
  const run = all.find((b) => b.lang === "sh" && b.text.includes("--import gk/register"))?.text ?? "";
  const kernel = blocks(readme).find((b) => b.text.startsWith("// examples/saxpy.gk"))?.text ?? "";
  const dir = mkdtempSync(join(tmpdir(), "gk-readme-"));
  const project = join(dir, "app");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs one command line of the README in the project, as a shell would; `npm install gk` installs this repository's packed tarball. */
  const sh = (line: string, tarball: string) =>
    spawnSync("sh", ["-c", line.replace(/^npm install gk$/, `npm install ${tarball}`)], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, npm_config_prefer_offline: "true", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", GK_CACHE_DIR: join(dir, "cache") },
    });

  it("finds the steps: a setup, a tsconfig.json, the tour's kernel, the program and the commands that run it", () => {
    expect(setup).toMatch(/npm pkg set type=module/);
    expect(JSON.parse(tsconfig)).toHaveProperty("compilerOptions.noUncheckedIndexedAccess", true);
    expect(kernel).toMatch(/device_kernel saxpy/);
    expect(app).toMatch(/console\.log\(out\)/);
    expect(run).toMatch(/^cp src\/\*\.gk build\/$/m);
  });

  it("runs them, and the program prints what the README says", () => {
    const packed = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { encoding: "utf8" });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    mkdirSync(join(project, "src"), { recursive: true });
    let last = { stdout: "", stderr: "", status: 0 as number | null };
    for (const line of setup.split("\n").filter(Boolean)) {
      last = sh(line, tarball);
      expect(last.status, `${line}\n${last.stderr}`).toBe(0);
    }
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toHaveProperty("type", "module");
    writeFileSync(join(project, "tsconfig.json"), tsconfig);
    writeFileSync(join(project, "src", "saxpy.gk"), kernel);
    writeFileSync(join(project, "src", "app.ts"), app);
    for (const line of run.split("\n").filter(Boolean)) {
      last = sh(line, tarball);
      expect(last.status, `${line}\n${last.stdout}${last.stderr}`).toBe(0);
    }
    const shown = /console\.log\(out\);\s*\/\/ (.*)/.exec(app)?.[1] ?? "";
    expect(last.stdout.trim()).toBe(shown);
  });
});

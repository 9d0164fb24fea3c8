/**
 * `gkc run FILE --kernel K --arg ...`: the launch is built from the flags (issue 25, item 9).
 * Each `--arg` (and `--shared`) value is one expression, as in a launch statement, and
 * nothing else: a value that would end the launch, add a clause or a statement, or hold a
 * comment is refused, naming the flag. FILE's name, whatever it holds (test/names.ts),
 * names FILE. A fuzzer builds values from the pieces of launch statements and checks that
 * whatever runs is the one launch the flags describe. In-process, on the CPU simulator.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { hostileNames } from "../names.js";

/** Writes blockDim.x + n: a launch with another block, or a second launch, shows. */
const KERNEL = "device_kernel k(n: i32, o: global<i32>) {\n  if (threadIdx.x == 0) { o[0] = blockDim.x + n; }\n}\n";
let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gk-run-"));
  file = join(dir, "k.gk");
  writeFileSync(file, KERNEL);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function gkc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false, cwd: dir, env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") } };
  return { code: await main(argv, io), out, err };
}

/** `gkc run` of k with --block 3 and these flags: the launches it ran (kernel and o), or its exit code and stderr. */
async function runK(f: string, ...flags: string[]) {
  const r = await gkc("run", f, "--kernel", "k", "--block", "3", "--json", "--device", "cpu", ...flags);
  if (r.code !== 0) return { code: r.code, err: r.err };
  return { code: 0, launches: (JSON.parse(r.out) as { launches: { kernel: string; outputs: { o: number[] } }[] }).launches.map((l) => `${l.kernel} ${l.outputs.o.join()}`) };
}

describe("gkc run --kernel: the launch the flags describe", () => {
  it("runs values that are one expression each, spaced as one likes", async () => {
    expect(await runK(file, "--arg", "n=0", "--arg", "o=zeros(1)")).toEqual({ code: 0, launches: ["k 3"] });
    expect(await runK(file, "--arg", " n = (1 + 2) * -1 ", "--arg", "o = [ 5 ]")).toEqual({ code: 0, launches: ["k 0"] });
  });

  it.each([
    ["a value that closes the launch and adds a block", ["--arg", "n=0", "--arg", "o=zeros(1)) grid(1) block(7); //"], "--arg"],
    ["a value that adds a second launch", ["--arg", "n=0", "--arg", "o=zeros(1)) grid(1) block(3);\nlaunch k(n = 10, o = zeros(1)"], "--arg"],
    ["a value followed by a comment", ["--arg", "n=0 // one", "--arg", "o=zeros(1)"], "--arg"],
    ["a value with a block comment", ["--arg", "n=0 /* one */", "--arg", "o=zeros(1)"], "--arg"],
    ["two values in one", ["--arg", "n=0, o = zeros(1)"], "--arg"],
    ["a name that is not a name", ["--arg", "n=0", "--arg", "o) grid(1) block(7); launch k(o=zeros(1)"], "--arg"],
    ["an empty value", ["--arg", "n=", "--arg", "o=zeros(1)"], "--arg"],
    ["a shared length that adds a launch", ["--arg", "n=0", "--arg", "o=zeros(1)", "--shared", "buf=4); launch k(n = 10, o = zeros(1)) grid(1) block(3"], "--shared"],
  ])("refuses %s, naming the flag", async (_what, flags, flag) => {
    const r = await runK(file, ...flags);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${flag} `);
    expect(r.err).toMatch(/one expression|a name/);
  });

  it("a fuzzer: values made of the pieces of launch statements run one launch with --block 3, or are refused", async () => {
    const piece = fc.constantFrom(
      "zeros(1)", "[0]", "0", "1", ")", "(", ";", ",", " ", "\n", "\r", "\u2028", "//", "/*", "*/", "grid(1)", "block(7)", "launch k(", "n = 1", "o = zeros(1)",
      "+", "-", "=", '"', "'", "`", "${", "}", "{", "\\", "<", ">", ") grid(1) block(7);", ") grid(1) block(3);\nlaunch k(n = 10, o = zeros(1)", " shared(buf = 1",
    );
    let ran = 0;
    const wrong: string[] = [];
    const start = fc.constantFrom("zeros(1)", "[0]", "");
    const values = fc.sample(fc.tuple(start, fc.array(piece, { maxLength: 6 })), { seed: 9, numRuns: 150 }).map(([s, ps]) => s + ps.join(""));
    for (const v of ["zeros(1)", ...values]) {
      const r = await runK(file, "--arg", "n=0", "--arg", `o=${v}`);
      if (r.code === 0) {
        ran++;
        if (JSON.stringify(r.launches) !== JSON.stringify(["k 3"])) wrong.push(`${JSON.stringify(v)}: ${r.launches}`);
      } else if (r.code === 70 || !/GK\d{4}|--arg/.test(r.err!)) wrong.push(`${JSON.stringify(v)}: ${r.err}`);
    }
    expect(wrong, `${wrong.length} of ${values.length + 1} values (${ran} ran)`).toEqual([]);
    expect(ran).toBeGreaterThan(0);
  });

  it("FILE's name names FILE, whatever it holds", async () => {
    const names = hostileNames(40);
    const bad: string[] = [];
    for (const [i, name] of names.entries()) {
      const f = join(dir, "names", String(i), name, `${name.split("/").pop()}.gk`);
      mkdirSync(dirname(f), { recursive: true });
      copyFileSync(file, f);
      const r = await runK(f, "--arg", "n=0", "--arg", "o=zeros(1)");
      if (r.code !== 0 || JSON.stringify(r.launches) !== JSON.stringify(["k 3"])) bad.push(`${JSON.stringify(name)}: ${r.err?.split("\n")[0]}`);
    }
    expect(bad, `${bad.length} of ${names.length} names`).toEqual([]);
  });
});

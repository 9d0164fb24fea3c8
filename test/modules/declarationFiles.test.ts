/**
 * What stands at a declaration's path (`x.d.gk.ts`, issue 25 items 2, 3 and 16), planted
 * as a cloned repository could ship it: a FIFO, links (to /dev/zero, /dev/null, a file
 * outside the project, a .ts file outside it, nowhere, themselves), a folder, garbage,
 * an oversize file, text that is not UTF-8, a hard link to a file outside the project.
 * Each goes through every reader and writer of declarations: `gkc types`, `gkc check`, the
 * loaders (gk/register's module, which checks the declaration, and gk/vite's load, which
 * writes it). None may hang, crash (GK9001), read without bound, or write through a link:
 * a declaration is only ever a regular file in its .gk file's folder, replaced whole; where
 * something else stands there, the writers refuse, naming the path, and the readers warn.
 * The FIFO and the /dev/zero link go through real processes (a hang there would stall
 * the test's own thread); the rest in-process.
 */
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFile } from "../../src/cli/commands/check.js";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { staleDeclaration } from "../../src/modules/declarationFiles.js";
import gk from "../../src/modules/vite.js";

const GK = "device_kernel k(o: global<f32>) {\n  o[0] = 1.0;\n}\n";
const VICTIM = "precious\n";
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "gk-decl-files-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Planted {
  /** The project folder (x.gk, and x.d.gk.ts as planted), and the files outside it. */
  readonly proj: string;
  readonly gk: string;
  readonly decl: string;
  readonly victim: string;
}

/** Each thing planted at x.d.gk.ts; `regular`: a regular file (not a link), which a writer may replace. */
const KINDS: readonly { readonly name: string; readonly regular: boolean; plant(p: Planted): void }[] = [
  { name: "a FIFO", regular: false, plant: (p) => void spawnSync("mkfifo", [p.decl]) },
  { name: "a link to /dev/zero", regular: false, plant: (p) => symlinkSync("/dev/zero", p.decl) },
  { name: "a link to /dev/null", regular: false, plant: (p) => symlinkSync("/dev/null", p.decl) },
  { name: "a link to a file outside", regular: false, plant: (p) => symlinkSync("../victim.txt", p.decl) },
  { name: "a link to a .ts file outside", regular: false, plant: (p) => symlinkSync("../victim.d.gk.ts", p.decl) },
  { name: "a link to nowhere", regular: false, plant: (p) => symlinkSync("../nowhere.d.gk.ts", p.decl) },
  { name: "a link to itself", regular: false, plant: (p) => symlinkSync("x.d.gk.ts", p.decl) },
  { name: "a folder", regular: false, plant: (p) => mkdirSync(join(p.decl, "inside"), { recursive: true }) },
  { name: "garbage", regular: true, plant: (p) => writeFileSync(p.decl, Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 0x1b, 0x5b, 0x32, 0x4a])) },
  {
    name: "an oversize file",
    regular: true,
    plant: (p) => {
      const fd = openSync(p.decl, "w");
      ftruncateSync(fd, 5 * 1024 * 1024);
      closeSync(fd);
    },
  },
  { name: "text that is not UTF-8", regular: true, plant: (p) => writeFileSync(p.decl, Buffer.from("// caf\xe9\n", "latin1")) },
  { name: "a hard link to a file outside", regular: true, plant: (p) => linkSync(join(p.proj, "..", "victim.txt"), p.decl) },
];

/** A project with `kind` planted at its declaration's path. */
function planted(i: number, kind: (typeof KINDS)[number]): Planted {
  const base = join(root, String(i));
  const proj = join(base, "proj");
  mkdirSync(proj, { recursive: true });
  writeFileSync(join(base, "victim.txt"), VICTIM);
  writeFileSync(join(base, "victim.d.gk.ts"), VICTIM);
  const p = { proj, gk: join(proj, "x.gk"), decl: join(proj, "x.d.gk.ts"), victim: join(base, "victim.txt") };
  writeFileSync(p.gk, GK);
  kind.plant(p);
  return p;
}

/** What stands at a path, to tell that nothing was written through it. */
function what(file: string): string {
  try {
    const st = lstatSync(file);
    if (st.isSymbolicLink()) return `link to ${readlinkSync(file)}`;
    if (st.isDirectory()) return "folder";
    if (st.isFIFO()) return "fifo";
    return `file of ${st.size} bytes`;
  } catch {
    return "nothing";
  }
}

async function gkc(...argv: string[]): Promise<{ code: number; err: string }> {
  let err = "";
  const io: Io = { out: () => undefined, err: (t) => (err += `${t}\n`), color: false, cwd: root, env: { ...process.env, GK_CACHE_DIR: join(root, "cache") } };
  return { code: await main(argv, io), err };
}

const victims = (p: Planted) => [readFileSync(p.victim, "utf8"), readFileSync(join(p.victim, "..", "victim.d.gk.ts"), "utf8")];

/** Where a writer refused: the message names the declaration and says it writes only a regular file. */
function refusal(message: string, p: Planted): void {
  expect(message).toContain(`cannot write '${p.decl}'`);
  expect(message).toContain("a declaration is written only as a regular file");
}

describe("what stands at a declaration's path", () => {
  const inProcess = KINDS.map((k, i) => [k, i] as const).filter(([k]) => k.name !== "a FIFO" && k.name !== "a link to /dev/zero");

  it.each(inProcess.map(([k, i]) => [k.name, k, i] as const))("%s: gkc types, gkc check, gk/register's module and gk/vite keep to the rule", async (_name, kind, i) => {
    const p = planted(i, kind);
    const before = what(p.decl);
    // gkc check and the loaded module: at most a warning (GK6010), naming the declaration.
    const check = checkFile(p.gk).diagnostics;
    expect(check.map((d) => `${d.code} ${d.severity}`).filter((d) => d !== "GK6010 warning")).toEqual([]);
    const stale = staleDeclaration(p.gk, "0");
    if (stale) expect(stale).toContain(p.decl);
    // gk/vite's load writes the declaration, or refuses, naming it.
    const ctx = { addWatchFile: () => undefined, error: (m: string): never => { throw new Error(m); } };
    let vite: string | Error;
    try {
      vite = gk().load.call(ctx, p.gk)!;
    } catch (e) {
      vite = e as Error;
    }
    // gkc types alike.
    const types = await gkc("types", p.gk);
    expect(victims(p)).toEqual([VICTIM, VICTIM]);
    if (kind.regular) {
      expect(vite).toEqual(expect.any(String));
      expect(types).toMatchObject({ code: 0 });
      expect(what(p.decl)).toMatch(/^file of/);
      expect(readFileSync(p.decl, "utf8")).toContain("declare const k0");
    } else {
      expect(vite).toBeInstanceOf(Error);
      refusal((vite as Error).message, p);
      expect(types.code).toBe(1);
      refusal(types.err, p);
      expect(what(p.decl)).toBe(before);
    }
  });

  it.each([0, 1].map((i) => [KINDS[i]!.name, KINDS[i]!, i] as const))("%s: real processes return, and write nothing through it", (_name, kind, i) => {
    const p = planted(100 + i, kind);
    const env = { ...process.env, GK_DEVICE: "cpu", GK_CACHE_DIR: join(root, "cache") };
    const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: p.proj, encoding: "utf8", env, timeout: 60_000, maxBuffer: 1 << 20 });
    const types = run([resolve("bin/gkc.js"), "types", p.gk]);
    expect(types.error).toBeUndefined();
    expect(types.status).toBe(1);
    refusal(types.stderr, p);
    const check = run([resolve("bin/gkc.js"), "check", p.gk]);
    expect(check.error).toBeUndefined();
    expect(check.status).toBe(0);
    expect(check.stderr).toContain("warning GK6010");
    writeFileSync(join(p.proj, "app.mjs"), 'import m from "./x.gk";\nconsole.log(m.kernels.join());\n');
    const loaded = run(["--import", resolve("dist/modules/register.js"), join(p.proj, "app.mjs")]);
    expect(loaded.error).toBeUndefined();
    expect(loaded.stdout).toBe("k\n");
    expect(loaded.stderr).toContain("GK6010");
    const vite = run(["--input-type=module", "-e", `import gk from ${JSON.stringify(resolve("dist/modules/vite.js"))};\ntry { gk().load.call({ addWatchFile() {}, error(m) { throw new Error(m); } }, ${JSON.stringify(p.gk)}); } catch (e) { console.log(e.message); }\n`]);
    expect(vite.error).toBeUndefined();
    refusal(vite.stdout, p);
    expect(what(p.decl)).toBe(i === 0 ? "fifo" : "link to /dev/zero");
  });
});

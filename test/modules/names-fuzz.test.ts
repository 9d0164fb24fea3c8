/**
 * A fuzzer of file and folder names in generated code (issue 25, item 1): a `.gk` file in a
 * folder of the same hostile name (test/names.ts) goes through the module of the loaders
 * (code.ts, by gk/register's hook and gk/vite's load), its declaration (declarations.ts,
 * as gk/vite writes it beside the file) and gk/vite's transform of a TypeScript kernel file.
 * Each generated text is parsed by TypeScript and must have the statements it has for a
 * plain name, no syntax error, and the name only as a string whose value is the path: a
 * name that ends a comment or a string would add statements or break the parse.
 * In-process; the failures of all names are collected, so a failure says how many broke.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryHost } from "../../src/load/program.js";
import { moduleCode } from "../../src/modules/code.js";
import { declarationText } from "../../src/modules/declarations.js";
import { load } from "../../src/modules/hooks.js";
import gk from "../../src/modules/vite.js";
import { frontEnd } from "../../src/pipeline.js";
import { hostileNames } from "../names.js";

const GK = "export const SCALE: f32 = 2.0;\n// */ ;//\ndevice_kernel k(o: global<f32>) { o[0] = SCALE; }\n";
const TS_KERNEL = 'import { kernel, type f32, type Global } from "gk";\nexport const k = kernel((o: Global<f32>) => {\n  o[0] = 1.0;\n});\n';
const NAMES = hostileNames(60);
/** Vite takes what follows a `?` in a module id for its query, whatever the file's name. */
const VITE_NAMES = NAMES.filter((n) => !n.includes("?"));
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "gk-names-"));
  mkdirSync(join(root, "node_modules"));
  symlinkSync(resolve("."), join(root, "node_modules", "gk"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The `i`th name's file, `ext` its extension, in a folder of the same name. */
function fileOf(i: number, name: string, ext: string): string {
  return join(root, String(i), name, `${name.split("/").pop()}${ext}`);
}

function planted(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The kinds of a generated text's statements, and its syntax errors. */
function parsed(code: string, kind: ts.ScriptKind): { sf: ts.SourceFile; kinds: string[]; errors: number } {
  const sf = ts.createSourceFile(kind === ts.ScriptKind.JS ? "m.mjs" : "m.ts", code, ts.ScriptTarget.ESNext, true, kind);
  const errors = (sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
  return { sf, kinds: sf.statements.map((s) => ts.SyntaxKind[s.kind]), errors };
}

/** Every string literal's value, in order. */
function strings(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n)) out.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * Checks the text `make(file)` generates for every name against the one for a plain name:
 * the same statements, no syntax error, and (`named`) `file` among its strings. Returns the names that broke it.
 */
function broken(ext: string, kind: ts.ScriptKind, make: (file: string) => string | undefined, { names = NAMES, named = true } = {}): string[] {
  const ref = parsed(make(fileOf(-1, "plain", ext))!, kind);
  expect(ref.errors).toBe(0);
  const bad: string[] = [];
  names.forEach((name, i) => {
    const file = fileOf(i, name, ext);
    let code: string | undefined;
    try {
      code = make(file);
    } catch (e) {
      bad.push(`${JSON.stringify(name)}: ${(e as Error).message.split("\n")[0]}`);
      return;
    }
    if (code === undefined) {
      bad.push(`${JSON.stringify(name)}: nothing generated`);
      return;
    }
    const p = parsed(code, kind);
    const ok = p.errors === 0 && JSON.stringify(p.kinds) === JSON.stringify(ref.kinds) && (!named || strings(p.sf).includes(file));
    if (!ok) bad.push(JSON.stringify(name));
  });
  return bad;
}

function checked(file: string) {
  const fe = frontEnd(file, { host: memoryHost({ [file]: GK }) });
  expect(fe.diagnostics).toEqual([]);
  return fe;
}

describe(`${NAMES.length} hostile file and folder names in generated code`, () => {
  it("the module of a .gk file (code.ts) keeps each name inside a string", () => {
    const bad = broken(".gk", ts.ScriptKind.JS, (file) => {
      const fe = checked(file);
      return moduleCode(file, fe.ir!, fe.sources);
    });
    expect(bad, `${bad.length} of ${NAMES.length} names`).toEqual([]);
  });

  it("the declaration (declarations.ts) keeps each name out of its code", () => {
    const bad = broken(
      ".gk",
      ts.ScriptKind.TS,
      (file) => {
        const fe = checked(file);
        return declarationText(file, fe.ir!, fe.sources);
      },
      { named: false },
    );
    expect(bad, `${bad.length} of ${NAMES.length} names`).toEqual([]);
  });

  it("gk/register's hook imports a .gk file of each name from disk", async () => {
    const next = () => Promise.reject(new Error("not a .gk file"));
    const sources = new Map<string, string>();
    for (const [i, name] of NAMES.entries()) sources.set(planted(fileOf(i, name, ".gk"), GK), (await load(pathToFileURL(fileOf(i, name, ".gk")).href, {}, next)).source);
    planted(fileOf(-1, "plain", ".gk"), GK);
    sources.set(fileOf(-1, "plain", ".gk"), (await load(pathToFileURL(fileOf(-1, "plain", ".gk")).href, {}, next)).source);
    const bad = broken(".gk", ts.ScriptKind.JS, (file) => sources.get(file)!);
    expect(bad, `${bad.length} of ${NAMES.length} names`).toEqual([]);
  });

  it("gk/vite's load gives the module of each name, and writes a declaration beside it that parses", () => {
    const plugin = gk();
    const ctx = { addWatchFile: () => undefined, error: (m: string): never => { throw new Error(m); } };
    const bad = broken(".gk", ts.ScriptKind.JS, (file) => plugin.load.call(ctx, planted(file, GK)), { names: VITE_NAMES });
    expect(bad, `${bad.length} of ${VITE_NAMES.length} names`).toEqual([]);
    const decls = broken(".gk", ts.ScriptKind.TS, (file) => readFileSync(file.replace(/\.gk$/, ".d.gk.ts"), "utf8"), { names: VITE_NAMES, named: false });
    expect(decls, `${decls.length} of ${VITE_NAMES.length} names`).toEqual([]);
  });

  it("gk/vite's transform of a TypeScript kernel file keeps each name inside a string", () => {
    const plugin = gk();
    const ctx = { addWatchFile: () => undefined, error: (m: string): never => { throw new Error(m); } };
    const few = VITE_NAMES.filter((_, i) => i % 4 === 0);
    const bad = broken(".ts", ts.ScriptKind.TS, (file) => plugin.transform.call(ctx, TS_KERNEL, planted(file, TS_KERNEL))?.code, { names: few });
    expect(bad, `${bad.length} of ${few.length} names`).toEqual([]);
  });
});

/** `gkc check [FILE|DIR]...`: report every diagnostic of the files, folders and imported .gk modules; exit 1 if any is an error. */
import { warning, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { SourceMap } from "../../diagnostics/source.js";
import { staleDeclaration } from "../../modules/declarationFiles.js";
import { sourceHash } from "../../modules/shape.js";
import { frontEnd } from "../../pipeline.js";
import { diagnosticsJson, EXIT, report, UsageError, type Io } from "../io.js";
import { readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { gkImportsOf } from "../../modules/gkImports.js";
import { filesOf } from "../fileArgs.js";
import { flags } from "../flags.js";

export const help = `gkc check FILE|DIR... [--json]

Checks .gk files, and TypeScript files that declare kernels (kernel(...), deviceFn(...)),
and prints their diagnostics: file:line:col, a stable code (GK1234), the message and a
code frame; the first 100 of a file, then how many more there are, and a count of all.
A TypeScript or JavaScript file is checked with the .gk modules it imports (import ...
from "./x.gk"), whose diagnostics are located in those files. A folder means every .gk
file under it and every TypeScript file that imports "gk" or a .gk module (but
node_modules and hidden folders). A declaration beside a .gk file (x.d.gk.ts, from gkc
types) that was written for other content is a warning (GK6010). Exits 1 if any file
has an error, 0 otherwise.

  --json   print {"files":[{"file":..., "diagnostics":[{code, severity, message,
           file, line, col, endLine, endCol, notes}], "omitted": N}]} on stdout
           instead: the first 100 diagnostics of each file, and how many were left out`;

/** A file's diagnostics, as gkc check reports them: the checker's, and a stale declaration beside a .gk file (GK6010). */
export function checkFile(file: string): { diagnostics: Diagnostic[]; sources: SourceMap } {
  const r = frontEnd(file, { after: "check" });
  const diagnostics: Diagnostic[] = [...r.diagnostics];
  const stale = file.endsWith(".gk") && r.ir ? staleDeclaration(file, sourceHash(file, r.sources)) : undefined;
  if (stale) diagnostics.push(warning("GK6010", { file, start: 0, end: 0 }, stale));
  return { diagnostics, sources: r.sources };
}

const TS = /\.(ts|mts|cts)$/;
const JS = /\.(js|mjs|cjs)$/;
const HOST = /\.(ts|mts|cts|js|mjs|cjs)$/;
const isDeclaration = (f: string) => /\.d\.(gk\.)?[mc]?ts$/.test(f);

/** The text of a host file, or undefined where it cannot be read (frontEnd then says why for a TypeScript file). */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** A TypeScript file found in a folder is checked when it imports "gk" or a .gk module. */
function usesGk(file: string): boolean {
  if (!TS.test(file) || isDeclaration(file)) return false;
  const text = readText(file);
  return text !== undefined && (/\bfrom\s*["']gk["']/.test(text) || gkImportsOf(text).length > 0);
}

/**
 * The files to check for the arguments: each file as given (one that cannot be read too:
 * checkFile says why), each folder's files as paths from the current folder, and after each
 * host file the .gk modules it imports.
 */
function filesToCheck(args: readonly string[], cwd: string): string[] {
  const kinds = { given: () => true, found: (f: string) => f.endsWith(".gk") || usesGk(f), what: "a file" };
  const files: string[] = [];
  for (const a of args) {
    let folder = false;
    try {
      folder = statSync(path.resolve(cwd, a)).isDirectory();
    } catch {
      // not there: checkFile reports it
    }
    if (!folder) files.push(a);
    else {
      for (const f of filesOf([a], cwd, kinds)) {
        const rel = path.relative(cwd, f);
        files.push(rel.startsWith("..") || path.isAbsolute(rel) ? f : rel);
      }
    }
  }
  const out: string[] = [];
  const key = (f: string) => path.resolve(cwd, f);
  const seen = new Set<string>();
  const add = (f: string) => {
    if (seen.has(key(f))) return;
    seen.add(key(f));
    out.push(f);
  };
  for (const file of files) {
    add(file);
    if (!HOST.test(file)) continue;
    const text = readText(path.resolve(cwd, file));
    for (const imp of text === undefined ? [] : gkImportsOf(text)) add(path.join(path.dirname(file), imp.specifier));
  }
  return out;
}

export function check(args: string[], io: Io): number {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" } } }));
  if (positionals.length === 0) throw new UsageError("gkc check needs at least one .gk file, TypeScript file or folder");
  const all = filesToCheck(positionals, io.cwd);
  if (all.length === 0) throw new UsageError(`no .gk files or TypeScript files that use gk in ${positionals.join(" ")}`);
  let failed = false;
  const files = [];
  for (const file of all) {
    // A JavaScript file is checked only for the .gk modules it imports (the files after it).
    if (JS.test(file)) continue;
    const { diagnostics, sources } = checkFile(file);
    if (diagnostics.some((d) => d.severity === "error")) failed = true;
    if (values.json) files.push({ file, ...diagnosticsJson(diagnostics, sources) });
    else report(io, diagnostics, sources);
  }
  if (values.json) io.out(JSON.stringify({ files }, null, 2));
  else if (!failed) io.err(`${all.length === 1 ? all[0] : `${all.length} files`}: no errors`);
  return failed ? EXIT.failed : EXIT.ok;
}

/** `gkc check FILE...`: report every diagnostic; exit 1 if any is an error. */
import { warning, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { SourceMap } from "../../diagnostics/source.js";
import { staleDeclaration } from "../../modules/declarationFiles.js";
import { sourceHash } from "../../modules/shape.js";
import { frontEnd } from "../../pipeline.js";
import { diagnosticsJson, EXIT, report, UsageError, type Io } from "../io.js";
import { parseArgs } from "node:util";
import { flags } from "../flags.js";

export const help = `gkc check FILE... [--json]

Checks .gk files, and TypeScript files that declare kernels (kernel(...), deviceFn(...)),
and prints their diagnostics: file:line:col, a stable code (GK1234), the message and a
code frame; the first 100 of a file, then how many more there are, and a count of all.
A declaration beside a .gk file (x.d.gk.ts, from gkc types) that was written for other
content is a warning (GK6010). Exits 1 if any file has an error, 0 otherwise.

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

export function check(args: string[], io: Io): number {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" } } }));
  if (positionals.length === 0) throw new UsageError("gkc check needs at least one .gk file (or TypeScript kernel file)");
  let failed = false;
  const files = [];
  for (const file of positionals) {
    const { diagnostics, sources } = checkFile(file);
    const r = { sources };
    if (diagnostics.some((d) => d.severity === "error")) failed = true;
    if (values.json) files.push({ file, ...diagnosticsJson(diagnostics, r.sources) });
    else report(io, diagnostics, r.sources);
  }
  if (values.json) io.out(JSON.stringify({ files }, null, 2));
  else if (!failed && positionals.length) io.err(`${positionals.length === 1 ? positionals[0] : `${positionals.length} files`}: no errors`);
  return failed ? EXIT.failed : EXIT.ok;
}

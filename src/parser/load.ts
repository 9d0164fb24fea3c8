/** Loading a program: the entry file, then every file its imports reach, each parsed once. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import { makeSourceFile, type SourceMap } from "../diagnostics/source.js";
import type { LoadedFile, LoadedProgram } from "../ir/check/program.js";
import type * as ast from "./ast.js";
import { parse } from "./index.js";

/** Where source text comes from: the file system, or a map of files in tests. */
export interface SourceHost {
  /** The file's text, or an error message (e.g. "no such file"). */
  readFile(file: string): { text: string } | { error: string };
}

export const nodeHost: SourceHost = {
  readFile(file) {
    try {
      return { text: fs.readFileSync(file, "utf8") };
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const why =
        err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "it is a directory" : err.code === "EACCES" ? "permission denied" : err.message;
      return { error: why };
    }
  },
};

/** A host over an in-memory map of files, for tests and for `compile` from a string. */
export function memoryHost(files: Record<string, string>, fallback?: SourceHost): SourceHost {
  return {
    readFile(file) {
      const text = files[file];
      if (text !== undefined) return { text };
      return fallback ? fallback.readFile(file) : { error: "no such file" };
    },
  };
}

/**
 * Reads and parses the entry file and everything it imports. Returns undefined only when
 * the entry file itself cannot be read; parse errors are in the log and the files are
 * still returned, so checking can report more.
 */
export function loadProgram(entry: string, host: SourceHost, sources: SourceMap, log: DiagnosticLog): LoadedProgram | undefined {
  const files = new Map<string, LoadedFile>();
  const first = host.readFile(entry);
  if ("error" in first) {
    log.error("GK7004", undefined, `cannot read '${entry}': ${first.error}`);
    return undefined;
  }
  const queue: { file: string; text: string }[] = [{ file: entry, text: first.text }];
  const seen = new Set<string>([entry]);
  while (queue.length) {
    const { file, text } = queue.shift()!;
    const src = sources.add(makeSourceFile(file, text));
    const parsed = parse(src);
    for (const d of parsed.diagnostics) log.add(d);
    const imports = new Map<ast.ImportDecl, string | undefined>();
    for (const item of parsed.module.items) {
      if (item.kind !== "Import") continue;
      const target = resolveImport(file, item, host, log);
      imports.set(item, target?.file);
      if (target && !seen.has(target.file)) {
        seen.add(target.file);
        queue.push(target);
      }
    }
    files.set(file, { path: file, text, ast: parsed.module, imports });
  }
  return { entry, files };
}

function resolveImport(importer: string, decl: ast.ImportDecl, host: SourceHost, log: DiagnosticLog): { file: string; text: string } | undefined {
  const spec = decl.path;
  if (!spec.startsWith("./") && !spec.startsWith("../")) {
    log.error("GK6004", decl.pathSpan, `import paths are relative to the importing file: write "./${spec}"`);
    return undefined;
  }
  const base = path.normalize(path.join(path.dirname(importer), spec));
  const candidates = base.endsWith(".gk") ? [base] : [base, `${base}.gk`];
  let firstError = "";
  for (const file of candidates) {
    const r = host.readFile(file);
    if ("text" in r) return { file, text: r.text };
    firstError ||= r.error;
  }
  log.error("GK6001", decl.pathSpan, `cannot import '${spec}': ${candidates.join(" or ")}: ${firstError}`);
  return undefined;
}

/**
 * Loading a program: the entry file, then every file its imports reach, each parsed once by
 * the front end its extension chooses (frontEnds.ts).
 * Every file is read through a SourceHost, under the rules of sourceFiles.ts (a `.gk`
 * name, a regular file, the size limit, UTF-8 text): the one place any loader reads source.
 * A standard-library import (`"gk/std/reduce"`, packagePaths.ts) is a file of the gk
 * package and is read from the file system under the same rules, whatever the host.
 */
import * as path from "node:path";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import { makeSourceFile, type SourceMap } from "../diagnostics/source.js";
import type * as ast from "../parser/ast.js";
import { NO_SUCH_FILE, quotePath, readSourceFile, sourceNameProblem, sourceTextProblem, SOURCE_EXTENSIONS, SOURCE_KINDS, type SourceRead } from "./sourceFiles.js";
import { frontEndFor } from "./frontEnds.js";
import { isStdlibFile, resolvePackagePath } from "./packagePaths.js";
import { isPackagePath, isRelativePath } from "../parser/importPaths.js";
import { invariant } from "../util.js";

/** Where source text comes from: the file system, or a map of files in tests. */
export interface SourceHost {
  /** The file's text, or an error message (e.g. "no such file") that never quotes what the file holds. */
  readFile(file: string): SourceRead;
}

/** The file system, under the rules of sourceFiles.ts. */
export const nodeHost: SourceHost = { readFile: readSourceFile };

/** A host over an in-memory map of files, for tests and for `compile` from a string. */
export function memoryHost(files: Record<string, string>, fallback?: SourceHost): SourceHost {
  return {
    readFile(file) {
      const text = files[file];
      if (text !== undefined) return { text };
      return fallback ? fallback.readFile(file) : { error: NO_SUCH_FILE };
    },
  };
}

/** A parsed source file and where each of its imports resolved to (undefined: it failed to load, already reported). */
export interface LoadedFile {
  readonly path: string;
  readonly text: string;
  readonly ast: ast.Module;
  readonly imports: ReadonlyMap<ast.ImportDecl, string | undefined>;
}

export interface LoadedProgram {
  readonly entry: string;
  /** Every file, the entry first. */
  readonly files: ReadonlyMap<string, LoadedFile>;
}

/**
 * Reads and parses the entry file and everything it imports. Returns undefined only when
 * the entry file itself cannot be read; parse errors are in the log and the files are
 * still returned, so checking can report more.
 */
export function loadProgram(entry: string, host: SourceHost, sources: SourceMap, log: DiagnosticLog): LoadedProgram | undefined {
  const files = new Map<string, LoadedFile>();
  const first = readSource(host, entry);
  if ("error" in first) {
    log.error("GK7004", undefined, `cannot read ${quotePath(entry)}: ${first.error}`);
    return undefined;
  }
  const queue: { file: string; text: string }[] = [{ file: entry, text: first.text }];
  const seen = new Set<string>([entry]);
  while (queue.length) {
    const { file, text } = queue.shift()!;
    const src = sources.add(makeSourceFile(file, text));
    const frontEnd = frontEndFor(file);
    invariant(frontEnd, `no front end reads ${file}, which passed the source name rule`);
    const parsed = frontEnd.parse(src);
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

/** A file through `host`, with the name and size rules every host obeys (the node host checks the rest before reading). */
function readSource(host: SourceHost, file: string): SourceRead {
  const named = sourceNameProblem(file);
  if (named) return { error: named };
  const r = host.readFile(file);
  const big = "text" in r ? sourceTextProblem(r.text) : undefined;
  return big ? { error: big } : r;
}

function resolveImport(importer: string, decl: ast.ImportDecl, host: SourceHost, log: DiagnosticLog): { file: string; text: string } | undefined {
  const spec = decl.path;
  if (isPackagePath(spec)) return resolveStd(spec, decl, log);
  if (!isRelativePath(spec)) {
    log.error("GK6004", decl.pathSpan, `import paths are relative to the importing file (write "./${spec}") or name a standard-library module ("gk/std/reduce")`);
    return undefined;
  }
  // An import names a source file; its extension may be left out (and is added before the
  // path is normalized, so "./." names "./..gk", not the folder's own name plus ".gk").
  const named = SOURCE_EXTENSIONS.some((ext) => spec.endsWith(ext));
  const file = path.normalize(path.join(path.dirname(importer), named ? spec : `${spec}${SOURCE_EXTENSIONS[0]}`));
  // A relative import inside the standard library stays in the package's own files.
  const r = isStdlibFile(importer) ? readSourceFile(file) : readSource(host, file);
  if ("text" in r) return { file, text: r.text };
  const hint = named || r.error !== NO_SUCH_FILE ? "" : ` (an import names ${SOURCE_KINDS}; a .gk file's extension may be left out)`;
  log.error("GK6001", decl.pathSpan, `cannot import ${quotePath(spec)}: ${quotePath(file)}: ${r.error}${hint}`);
  return undefined;
}

/** A standard-library module (packagePaths.ts): a file of the gk package, read from the file system whatever the host. */
function resolveStd(spec: string, decl: ast.ImportDecl, log: DiagnosticLog): { file: string; text: string } | undefined {
  const found = resolvePackagePath(spec);
  if ("error" in found) {
    log.error("GK6001", decl.pathSpan, `cannot import ${quotePath(spec)}: ${found.error}`);
    return undefined;
  }
  const r = readSourceFile(found.file);
  if ("text" in r) return { file: found.file, text: r.text };
  log.error("GK6001", decl.pathSpan, `cannot import ${quotePath(spec)}: ${quotePath(found.file)}: ${r.error}`);
  return undefined;
}

/**
 * The front ends, chosen by a source file's extension: each turns a file's text into the one
 * AST (src/parser/ast.ts) that the checker reads, with its diagnostics. The loader
 * (program.ts) asks this table which front end reads a file, and sourceFiles.ts which names
 * are source at all, so a new front end is one entry here. The TypeScript front end loads the
 * TypeScript compiler only when it reads a file (src/tsfront/index.ts).
 */
import type { SourceFile } from "../diagnostics/source.js";
import { parse, type ParseResult } from "../parser/index.js";
import { parseTypeScript, TS_EXTENSIONS } from "../tsfront/index.js";

export interface FrontEnd {
  /** The language, as messages name it. */
  readonly language: string;
  /** File name endings it reads, with their dot. */
  readonly extensions: readonly string[];
  /** The file's AST and diagnostics; never throws. */
  readonly parse: (src: SourceFile) => ParseResult;
}

export const FRONT_ENDS: readonly FrontEnd[] = [
  { language: "gk", extensions: [".gk"], parse },
  { language: "TypeScript", extensions: TS_EXTENSIONS, parse: parseTypeScript },
];

/** The front end that reads `file`, by its extension. */
export function frontEndFor(file: string): FrontEnd | undefined {
  return FRONT_ENDS.find((f) => f.extensions.some((ext) => file.endsWith(ext)));
}

/**
 * Package paths: `import { blockReduce } from "gk/std/reduce";` names the `.gk` module
 * `stdlib/reduce.gk` of the gk package itself (spec/language.md, Module-level declarations;
 * spec/stdlib.md). The package's folder is cacheFolder.ts's packageRoot, the same from src/
 * (tests), dist/ (the published package) and dist/gkc/ (the bundled CLI).
 */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../cacheFolder.js";

import { STD_PREFIX } from "../parser/importPaths.js";

/** The folder holding the standard library's modules: `<package root>/stdlib`. */
export function stdlibDir(): string {
  return path.join(packageRoot(), "stdlib");
}

/** The names of the standard library's modules (`reduce`, `scan`, ...), sorted. */
export function stdlibModules(): string[] {
  try {
    return readdirSync(stdlibDir())
      .filter((f) => f.endsWith(".gk"))
      .map((f) => f.slice(0, -3))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The file a package path names, or why it names none: `gk/std/NAME` (a `.gk` extension may
 * be written) is `stdlib/NAME.gk`, NAME a lower-case identifier (no folders, no `..`).
 */
export function resolvePackagePath(spec: string): { file: string } | { error: string } {
  const name = spec.slice(STD_PREFIX.length).replace(/\.gk$/, "");
  const known = stdlibModules();
  const list = known.length ? `: the modules are ${known.map((m) => STD_PREFIX + m).join(", ")}` : "";
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || !known.includes(name)) return { error: `there is no standard-library module '${spec}'${list}` };
  return { file: path.join(stdlibDir(), `${name}.gk`) };
}

/** Whether a loaded file is one of the standard library's (its relative imports are too). */
export function isStdlibFile(file: string): boolean {
  return path.dirname(file) === stdlibDir();
}

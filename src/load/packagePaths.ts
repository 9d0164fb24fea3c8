/**
 * Package paths: `import { blockReduce } from "gk/std/reduce";` names the `.gk` module
 * `stdlib/reduce.gk` of the gk package itself (spec/language.md, Module-level declarations;
 * spec/stdlib.md). The package's folder is found by walking up from this module to the
 * nearest package.json named "gk", so it is the same from src/ (tests), dist/ (the
 * published package) and dist/gkc/ (the bundled CLI).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

import { STD_PREFIX } from "../parser/importPaths.js";

let stdDir: string | undefined;

/** The folder holding the standard library's modules: `<package root>/stdlib`. */
export function stdlibDir(): string {
  if (stdDir !== undefined) return stdDir;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && readName(pkg) === "gk") return (stdDir = path.join(dir, "stdlib"));
    const up = path.dirname(dir);
    if (up === dir) return (stdDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "stdlib"));
    dir = up;
  }
}

function readName(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
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

/**
 * The two kinds of import path both front ends accept (spec/language.md, Module-level
 * declarations): relative to the importing file (`"./lib.gk"`), or a package path naming a
 * module of gk's standard library (`"gk/std/reduce"`, resolved by src/load/packagePaths.ts).
 */

/** The prefix of every standard-library import path. */
export const STD_PREFIX = "gk/std/";

/** Whether an import path names a standard-library module. */
export function isPackagePath(spec: string): boolean {
  return spec.startsWith(STD_PREFIX);
}

/** Whether an import path is relative to the importing file. */
export function isRelativePath(spec: string): boolean {
  return spec.startsWith("./") || spec.startsWith("../");
}

/**
 * The declaration file of a `.gk` file (`saxpy.d.gk.ts` beside `saxpy.gk`, declarations.ts
 * writes its text): where it is, how it is read and written, and whether it is up to date.
 * It is read as a source file is (sourceFiles.ts: a regular file of at most 4 MiB of UTF-8
 * text; a FIFO, a device or a link to one refused without blocking), and written only as a
 * regular file in the .gk file's folder, replaced whole (outputFile.ts): where a symlink, a
 * directory or a device stands at its path, `gkc types` and gk/vite refuse, naming it.
 */
import { replaceFile, replaceProblem } from "../load/outputFile.js";
import { NO_SUCH_FILE } from "../regularFile.js";
import { quotePath, readSourceFile } from "../load/sourceFiles.js";
import { HASH_PREFIX } from "./shape.js";

/** Where the declaration of `file.gk` goes: `file.d.gk.ts`, the name TypeScript 5's allowArbitraryExtensions looks for. */
export function declarationPath(gkFile: string): string {
  return gkFile.replace(/\.gk$/, ".d.gk.ts");
}

export function recordedHash(declaration: string): string | undefined {
  const line = declaration.split("\n").find((l) => l.startsWith(HASH_PREFIX));
  return line?.slice(HASH_PREFIX.length).trim();
}

/**
 * Writes `text` as the declaration of `gkFile` unless it already holds it. `error`: a
 * message naming the declaration, where it cannot be written (something other than a
 * regular file stands there, or the write failed).
 */
export function writeDeclaration(gkFile: string, text: string): { readonly written: boolean } | { readonly error: string } {
  const decl = declarationPath(gkFile);
  const problem = replaceProblem(decl);
  if (!problem) {
    const old = readSourceFile(decl);
    if ("text" in old && old.text === text) return { written: false };
  }
  const failed = problem ?? replaceFile(decl, text);
  if (!failed) return { written: true };
  return { error: `cannot write ${quotePath(decl)}: ${failed}; a declaration is written only as a regular file beside its .gk file (remove what stands there)` };
}

/**
 * Why the declaration beside `file` is not one written for sources of this hash: out of
 * date, or not a file gk can read; undefined when it is up to date or there is none (the
 * program may use `declare module "*.gk"`).
 */
export function staleDeclaration(file: string, hash: string): string | undefined {
  const decl = declarationPath(file);
  const read = readSourceFile(decl);
  if ("error" in read) {
    if (read.error === NO_SUCH_FILE) return undefined;
    return `${quotePath(decl)} cannot be read: ${read.error}; TypeScript may have checked this program against something other than its kernels. Remove it and run \`gkc types ${quotePath(file)}\``;
  }
  if (recordedHash(read.text) === hash) return undefined;
  return `${quotePath(decl)} is out of date: it was written for other content of ${quotePath(file)} (or of the files it imports), so TypeScript checked this program against other kernels; run \`gkc types ${quotePath(file)}\``;
}

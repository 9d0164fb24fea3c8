/**
 * The files that a command's FILE|DIR arguments name (gkc check, gkc types): a file as given,
 * a folder searched for the files the command takes, under it and its folders but
 * node_modules and hidden ones. Sorted and without repeats.
 */
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { quotePath } from "../load/sourceFiles.js";
import { UsageError } from "./io.js";

/** `dir` and every folder under it that is searched: not node_modules, not hidden ones. */
export function foldersUnder(dir: string): string[] {
  const out = [dir];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules") out.push(...foldersUnder(path.join(dir, e.name)));
  }
  return out;
}

export interface FileKinds {
  /** Whether a file given by name is taken. */
  readonly given: (file: string) => boolean;
  /** Whether a file found in a folder is taken (by its path). */
  readonly found: (file: string) => boolean;
  /** The files taken, in words, for the error of a file that is not: "a .gk file". */
  readonly what: string;
}

/** The files named by `args` (no argument: the current folder). */
export function filesOf(args: readonly string[], cwd: string, kinds: FileKinds): string[] {
  const out: string[] = [];
  for (const a of args.length ? args : ["."]) {
    const p = path.resolve(cwd, a);
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`${quotePath(a)}: no such file or folder`);
    }
    if (st.isDirectory()) {
      for (const dir of foldersUnder(p)) {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, e.name);
          if (e.isFile() && !e.name.startsWith(".") && kinds.found(file)) out.push(file);
        }
      }
    } else if (kinds.given(p)) out.push(p);
    else throw new UsageError(`${quotePath(a)}: not ${kinds.what} or a folder`);
  }
  return [...new Set(out)].sort();
}

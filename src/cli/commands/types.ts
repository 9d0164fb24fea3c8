/** `gkc types [FILE|DIR]... [--watch]`: write `x.d.gk.ts` beside each `.gk` file (src/modules/declarations.ts). */
import { statSync, watch, type FSWatcher } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { declarationText } from "../../modules/declarations.js";
import { declarationPath, writeDeclaration } from "../../modules/declarationFiles.js";
import { quotePath } from "../../load/sourceFiles.js";
import { frontEnd } from "../../pipeline.js";
import { filesOf, foldersUnder } from "../fileArgs.js";
import { flags } from "../flags.js";
import { EXIT, report, UsageError, type Io } from "../io.js";

export const help = `gkc types [FILE|DIR]... [--watch]

Writes the TypeScript declaration of each .gk file beside it: saxpy.gk gets saxpy.d.gk.ts,
which TypeScript 5 reads for \`import { saxpy } from "./saxpy.gk"\` with
"allowArbitraryExtensions": true. Each kernel is a typed function (arguments by
parameter name, outputs by name), each constant a typed value, and the default export
the module. A folder means every .gk file under it (but node_modules and hidden folders);
no argument means the current folder. A declaration is rewritten only when it changes;
it records a hash of the sources, so gkc check and the loaders can tell when it is out
of date (GK6010). A file with errors gets no declaration: its diagnostics are printed
and gkc types exits 1. A declaration is written only as a regular file, replaced whole:
where a symlink, a folder or a device stands at its path, gkc types names it and exits 1.

  --watch  keep running, and write the declarations again whenever a .gk file changes`;

/** The .gk files named by the arguments: files as given, folders searched. */
export function gkFiles(args: readonly string[], cwd: string): string[] {
  const isGk = (f: string) => f.endsWith(".gk");
  return filesOf(args, cwd, { given: isGk, found: isGk, what: "a .gk file" });
}

/** Writes the declarations of `files`; returns whether every file checked. */
function writeAll(files: readonly string[], io: Io): boolean {
  let ok = true;
  for (const file of files) {
    const r = frontEnd(file, { after: "check" });
    if (!r.ir || r.diagnostics.some((d) => d.severity === "error")) {
      report(io, r.diagnostics, r.sources);
      ok = false;
      continue;
    }
    const w = writeDeclaration(file, declarationText(file, r.ir, r.sources));
    if ("error" in w) {
      io.err(`gkc types: ${w.error}`);
      ok = false;
    } else if (w.written) {
      const decl = declarationPath(file);
      io.err(`wrote ${quotePath(path.relative(io.cwd, decl) || decl)}`);
    }
  }
  return ok;
}

export async function types(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { watch: { type: "boolean" } } }));
  const files = gkFiles(positionals, io.cwd);
  if (files.length === 0 && !values.watch) throw new UsageError(`no .gk files in ${positionals.join(" ") || "the current folder"}`);
  const ok = writeAll(files, io);
  if (!values.watch) return ok ? EXIT.ok : EXIT.failed;
  // --watch: every change of a .gk file under the arguments writes the declarations again
  // (all of them: a file's declaration depends on the files it imports).
  // Each folder is watched on its own (the events of a folder's files come as they happen;
  // Node's recursive watching on Linux is its own emulation), and a new folder when it appears.
  const roots = (positionals.length ? positionals : ["."]).map((a) => path.resolve(io.cwd, a));
  let timer: NodeJS.Timeout | undefined;
  const again = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => writeAll(gkFiles(positionals, io.cwd), io), 50);
  };
  const watched = new Map<string, FSWatcher>();
  /** Watches the folders not yet watched; returns whether there were any. */
  const watchFolders = (): boolean => {
    let added = false;
    for (const root of roots) {
      let folders: string[];
      try {
        folders = statSync(root).isDirectory() ? foldersUnder(root) : [path.dirname(root)];
      } catch {
        continue; // removed while watched
      }
      for (const dir of folders) {
        if (watched.has(dir)) continue;
        const w = watch(dir, (_event, name) => {
          if (name && String(name).endsWith(".gk")) again();
          else if (watchFolders()) again();
        });
        w.on("error", () => {
          w.close();
          watched.delete(dir);
        });
        watched.set(dir, w);
        added = true;
      }
    }
    return added;
  };
  watchFolders();
  io.err(`watching ${roots.map((r) => quotePath(path.relative(io.cwd, r) || ".")).join(", ")} for changes to .gk files (Ctrl-C stops)`);
  return new Promise<number>(() => undefined);
}

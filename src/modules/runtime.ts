/**
 * What an imported `.gk` module runs when it is evaluated (its code is code.ts's): the
 * embedded sources compiled again, and a module made on the program's target. A declaration
 * beside the file that was written for other content is reported once (GK6010), as a
 * process warning: the types the program was checked with may not be the kernels it runs (in
 * Node; in a browser the module has no file beside it to read).
 */
import { GkCompileError, type GkModule, type KernelFn } from "../runtime/api.js";
import { importedModule } from "../runtime/imported.js";
import { memoryHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { staleDeclaration } from "./declarationFiles.js";

export async function loadGkModule(file: string, files: Record<string, string>, hash: string): Promise<GkModule & Record<string, KernelFn>> {
  const fe = frontEnd(file, { host: memoryHost(files) });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  // In Node only: a page has no files beside its modules (and no process to warn through).
  const node = (globalThis as { process?: NodeJS.Process }).process;
  const stale = node?.versions?.node ? staleDeclaration(file, hash) : undefined;
  if (stale) node!.emitWarning(stale, { code: "GK6010" });
  return importedModule(fe.ir, fe.sources);
}

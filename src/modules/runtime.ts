/**
 * What an imported `.gk` module runs when it is evaluated (its code is code.ts's): the
 * embedded sources compiled again, and a module made on the program's target. A declaration
 * beside the file that was written for other content is reported once (GK6010), as a
 * process warning: the types the program was checked with may not be the kernels it runs.
 */
import { GkCompileError, type GkModule, type KernelFn } from "../runtime/api.js";
import { importedModule } from "../runtime/imported.js";
import { memoryHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { staleDeclaration } from "./declarationFiles.js";

export async function loadGkModule(file: string, files: Record<string, string>, hash: string): Promise<GkModule & Record<string, KernelFn>> {
  const fe = frontEnd(file, { host: memoryHost(files) });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  const stale = staleDeclaration(file, hash);
  if (stale) process.emitWarning(stale, { code: "GK6010" });
  return importedModule(fe.ir, fe.sources);
}

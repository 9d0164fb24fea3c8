/**
 * Node's module hooks for `.gk` files (registered by register.ts, `node --import gk/register
 * app.js`): importing a `.gk` file compiles it, and its module is code.ts's; a file with
 * errors fails the import with the file's diagnostics as the error's message. The hooks run
 * on Node's loader thread; the module itself runs on the program's.
 */
import { fileURLToPath } from "node:url";
import { formatReport } from "../diagnostics/format.js";
import { frontEnd } from "../pipeline.js";
import { moduleCode } from "./code.js";

interface LoadContext {
  readonly format?: string | null;
}
interface LoadResult {
  readonly format: string;
  readonly source: string;
  readonly shortCircuit?: boolean;
}

export async function load(url: string, context: LoadContext, nextLoad: (url: string, context: LoadContext) => Promise<LoadResult>): Promise<LoadResult> {
  if (!url.startsWith("file:") || !new URL(url).pathname.endsWith(".gk")) return nextLoad(url, context);
  return { format: "module", source: gkModuleSource(fileURLToPath(url)), shortCircuit: true };
}

/** The module of a .gk file, or an error whose message is the file's diagnostics. */
export function gkModuleSource(file: string): string {
  const fe = frontEnd(file);
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) {
    const e = new Error(`cannot import ${file}: it has errors\n${formatReport(fe.diagnostics, fe.sources)}`);
    e.name = "GkCompileError";
    e.stack = `${e.name}: ${e.message}`; // the diagnostics say where; gk's frames would not
    throw e;
  }
  return moduleCode(file, fe.ir, fe.sources);
}

/**
 * Node's module hooks for `.gk` files (registered by register.ts, `node --import gk/register
 * app.js`): importing a `.gk` file compiles it, and its module is code.ts's; a file with
 * errors fails the import with the file's diagnostics as the error's message. The hooks run
 * on Node's loader thread; the module itself runs on the program's, which compiles the
 * embedded sources again (runtime.ts). So the loader thread keeps each module's code by
 * content (codeCache.ts) and loads the front end only when a file is not kept: a program
 * imported again costs about what the same program calling compile() costs. A `.gk` file
 * that is not there fails the import naming it, and saying that tsc copies no `.gk` files
 * next to its output (the usual reason).
 */
import { fileURLToPath } from "node:url";
import { readModuleCode, writeModuleCode } from "./codeCache.js";

interface ResolveContext {
  readonly parentURL?: string;
}
interface ResolveResult {
  readonly url: string;
}

export async function resolve(specifier: string, context: ResolveContext, nextResolve: (specifier: string, context: ResolveContext) => Promise<ResolveResult>): Promise<ResolveResult> {
  try {
    return await nextResolve(specifier, context);
  } catch (e) {
    const relative = /^(\.\.?\/|\/|file:)/.test(specifier);
    if (!specifier.endsWith(".gk") || !relative || (e as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND" || !context.parentURL?.startsWith("file:")) throw e;
    const file = fileURLToPath(new URL(specifier, context.parentURL));
    const err = new Error(
      `cannot import ${file} (from ${fileURLToPath(context.parentURL)}): there is no such file. If the importing file was compiled by tsc, copy the .gk files next to its output: tsc copies none (e.g. \`cp src/*.gk build/\` after tsc)`,
    ) as Error & { code: string };
    err.code = "ERR_MODULE_NOT_FOUND";
    err.stack = `${err.name}: ${err.message}`; // where it was imported is in the message; gk's frames would not help
    throw err;
  }
}

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
  return { format: "module", source: await gkModuleSource(fileURLToPath(url)), shortCircuit: true };
}

/** The module of a .gk file, or an error whose message is the file's diagnostics. */
export async function gkModuleSource(file: string): Promise<string> {
  const kept = readModuleCode(file);
  if (kept !== undefined) return kept;
  const [{ frontEnd }, { formatReport }, { moduleCode }] = await Promise.all([import("../pipeline.js"), import("../diagnostics/format.js"), import("./code.js")]);
  const fe = frontEnd(file);
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) {
    const e = new Error(`cannot import ${file}: it has errors\n${formatReport(fe.diagnostics, fe.sources)}`);
    e.name = "GkCompileError";
    e.stack = `${e.name}: ${e.message}`; // the diagnostics say where; gk's frames would not
    throw e;
  }
  const code = moduleCode(file, fe.ir, fe.sources);
  writeModuleCode(file, Object.fromEntries(fe.sources.all().map((f) => [f.path, f.text])), code);
  return code;
}

/**
 * gk/vite: a Vite (and vitest) plugin for gk.
 *
 *   import gk from "gk/vite";
 *   export default defineConfig({ plugins: [gk()] });
 *
 * - `.gk` files import as ES modules (the shape of code.ts, as under gk/register); a file
 *   with errors fails the build (or shows Vite's overlay) with its diagnostics; the files it
 *   imports are watched, and a change reloads what imports them. Its declaration
 *   (`saxpy.d.gk.ts`, declarations.ts) is written beside it when it changes (`declarations:
 *   false` turns that off).
 * - TypeScript files that declare kernels (`kernel(...)`) are lowered at build time: each
 *   kernel() call gets what was lowered as its second argument, so bundled code compiles
 *   its kernels without reading the source and without the TypeScript compiler.
 * Vite's types are not imported: the plugin is a plain object in Vite's plugin shape.
 */
import { formatReport } from "../diagnostics/format.js";
import type { FrontEndResult } from "../pipeline.js";
import { frontEnd } from "../pipeline.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { kernelCalls } from "../tsfront/calls.js";
import { parseTypeScript, TS_EXTENSIONS } from "../tsfront/index.js";
import type { PrebuiltKernel } from "../lang/kernel.js";
import { codeLiteral } from "../util.js";
import { moduleCode } from "./code.js";
import { declarationText } from "./declarations.js";
import { writeDeclaration } from "./declarationFiles.js";

export interface GkPluginOptions {
  /** Write `x.d.gk.ts` beside each imported `.gk` file when it changes (default true). */
  readonly declarations?: boolean;
}

interface PluginContext {
  addWatchFile(file: string): void;
  error(message: string): never;
}

interface HotContext {
  readonly file: string;
}

/** The module id without Vite's query (`?v=123`). */
function fileOf(id: string): string {
  const q = id.indexOf("?");
  return q < 0 ? id : id.slice(0, q);
}

function errorsOf(fe: FrontEndResult): string | undefined {
  if (fe.ir && !fe.diagnostics.some((d) => d.severity === "error")) return undefined;
  return formatReport(fe.diagnostics, fe.sources);
}

export default function gk(options: GkPluginOptions = {}) {
  const declarations = options.declarations ?? true;
  return {
    name: "gk",
    enforce: "pre" as const,

    load(this: PluginContext, id: string): string | undefined {
      const file = fileOf(id);
      if (!file.endsWith(".gk") || file.startsWith("\0")) return undefined;
      const fe = frontEnd(file);
      for (const src of fe.sources.all()) if (src.path !== file) this.addWatchFile(src.path);
      const errors = errorsOf(fe);
      if (errors) return this.error(`cannot import ${file}: it has errors\n${errors}`);
      if (declarations) {
        const w = writeDeclaration(file, declarationText(file, fe.ir!, fe.sources));
        if ("error" in w) return this.error(`${w.error}, or give gk({ declarations: false })`);
      }
      return moduleCode(file, fe.ir!, fe.sources, "gk/modules");
    },

    transform(this: PluginContext, code: string, id: string): { code: string; map: null } | undefined {
      const file = fileOf(id);
      if (!TS_EXTENSIONS.some((e) => file.endsWith(e)) || file.includes("/node_modules/") || !/\bkernel\s*\(/.test(code) || !/["']gk["']/.test(code)) return undefined;
      const calls = kernelCalls(file, code);
      if (calls.length === 0) return undefined;
      const fe = frontEnd(file, { host: memoryHost({ [file]: code }, nodeHost) });
      for (const src of fe.sources.all()) if (src.path !== file) this.addWatchFile(src.path);
      const errors = errorsOf(fe);
      if (errors) return this.error(`${file}: its kernels have errors\n${errors}`);
      const files: Record<string, { text: string; lowered?: unknown }> = {};
      for (const src of fe.sources.all()) {
        files[src.path] = { text: src.text, ...(TS_EXTENSIONS.some((e) => src.path.endsWith(e)) && { lowered: parseTypeScript(src) }) };
      }
      let out = code;
      for (const c of [...calls].sort((a, b) => b.afterBody - a.afterBody)) {
        out = `${out.slice(0, c.afterBody)}, __gk_prebuilt(${codeLiteral(c.name)})${out.slice(c.afterBody)}`;
      }
      const prebuilt: Omit<PrebuiltKernel, "name"> = { file, files: files as PrebuiltKernel["files"] };
      out += `\n// gk/vite: the kernels of this file, lowered at build time\nfunction __gk_prebuilt(name) { return { ...${codeLiteral(prebuilt)}, name }; }\n`;
      return { code: out, map: null };
    },

    handleHotUpdate(ctx: HotContext): void {
      if (!declarations || !ctx.file.endsWith(".gk")) return;
      const fe = frontEnd(ctx.file);
      // Where it cannot be written, the load that follows says so.
      if (!errorsOf(fe)) writeDeclaration(ctx.file, declarationText(ctx.file, fe.ir!, fe.sources));
    },
  };
}

/**
 * The JavaScript of a `.gk` file imported as an ES module, for the Node loader (register.ts)
 * and the Vite plugin (vite.ts) alike (the shape is shape.ts's). The module embeds the
 * program's sources, so what runs is what was checked, and compiles them again when it is
 * evaluated (runtime.ts), on the program's target (runtime/imported.ts). Paths, file
 * names and texts are string literals (codeLiteral), never comments or code of their own.
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { Module } from "../ir/nodes.js";
import { asScalar, type ScalarValue } from "../ir/types.js";
import { storedValue, typedArrayName } from "../ir/values.js";
import { codeLiteral } from "../util.js";
import { moduleShape, sourceHash } from "./shape.js";

/** A value as JavaScript source. */
function literal(v: ScalarValue): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "boolean") return String(v);
  if (Object.is(v, -0)) return "-0";
  return Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : String(v);
}

/**
 * The module's code. `runtime` is where it imports gk's modules/runtime.js from: by default
 * its file URL, so that it resolves wherever the .gk file is; gk/vite names the package's
 * export instead (`gk/modules`), which a bundle keeps as a dependency.
 */
export function moduleCode(file: string, ir: Module, sources: SourceMap, runtime = runtimeUrl()): string {
  const shape = moduleShape(ir);
  const files = Object.fromEntries(sources.all().map((f) => [f.path, f.text]));
  const lines = [
    "// gk: a .gk file as a module",
    `import { loadGkModule } from ${codeLiteral(runtime)};`,
    `const module = await loadGkModule(${codeLiteral(file)}, ${codeLiteral(files)}, ${codeLiteral(sourceHash(file, sources))});`,
    "export default module;",
  ];
  for (const k of [...shape.kernels, ...shape.generics]) lines.push(`const ${k.local} = module[${codeLiteral(k.name)}];`);
  for (const c of shape.constants) {
    const { type, value } = c.constant;
    const v =
      typeof type === "object" && type.kind === "array"
        ? `new ${typedArrayName(asScalar(type.elem).name)}([${(value as ScalarValue[]).map((x) => literal(storedValue(asScalar(type.elem).name, x))).join(", ")}])`
        : type === "int" && Number.isSafeInteger(Number(value))
          ? String(Number(value))
          : literal(value as ScalarValue);
    lines.push(`const ${c.local} = ${v};`);
  }
  const names = [...shape.kernels, ...shape.generics, ...shape.constants].map((x) => `${x.local} as ${x.name}`);
  if (names.length) lines.push(`export { ${names.join(", ")} };`);
  return `${lines.join("\n")}\n`;
}

/**
 * gk's modules/runtime.js as a file URL. This file is one folder below the folder that holds
 * modules/ wherever it is: src/modules/, dist/modules/, or a chunk of the library bundle in
 * dist/lib/chunks/ (scripts/bundle-lib.mjs checks that).
 */
export function runtimeUrl(): string {
  return new URL("../modules/runtime.js", import.meta.url).href;
}

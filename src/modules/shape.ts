/**
 * The shape of a `.gk` file imported as an ES module, in one place for its TypeScript
 * declaration (declarations.ts) and its JavaScript (code.ts): the default export is the
 * module compile() returns (a GkModule), each kernel of the file is a named export (the
 * module's member, bound), and each module constant is a named export of its value. Kernel
 * names cannot break this shape (the checker refuses `then`, `default`, `close`... with
 * GK2010); a kernel or constant named by a JavaScript reserved word is exported under its
 * name all the same (`export { k0 as delete }`); a constant named `default` is not exported,
 * since the default export is the module.
 */
import * as path from "node:path";
import { createHash } from "node:crypto";
import type { SourceMap } from "../diagnostics/source.js";
import type { ExportedConstant, Function, GenericKernel, Module } from "../ir/nodes.js";

export interface ModuleShape {
  readonly kernels: readonly { readonly name: string; readonly local: string; readonly fn: Function }[];
  /** Generic kernels: the module's member runs none itself, and `with({ T: "f32", ... })` names an instance. */
  readonly generics: readonly { readonly name: string; readonly local: string; readonly generic: GenericKernel }[];
  readonly constants: readonly { readonly name: string; readonly local: string; readonly constant: ExportedConstant }[];
}

export function moduleShape(ir: Module): ModuleShape {
  return {
    // An instance that a launch statement made (`block_sum<f32, 256>`) is reached through its generic kernel's with(), as in compile()'s module.
    kernels: ir.kernels.filter((fn) => !fn.instance).map((fn, i) => ({ name: fn.name, local: `k${i}`, fn })),
    generics: (ir.generics ?? []).map((generic, i) => ({ name: generic.name, local: `g${i}`, generic })),
    constants: (ir.exported ?? []).filter((c) => c.name !== "default").map((constant, i) => ({ name: constant.name, local: `c${i}`, constant })),
  };
}

/**
 * The content hash a declaration records: every file of the program (the .gk file and what
 * it imports), by path relative to the file and text, in the order they were loaded.
 */
export function sourceHash(entry: string, sources: SourceMap): string {
  const h = createHash("sha256");
  const dir = path.dirname(entry);
  for (const f of sources.all()) h.update(`${path.relative(dir, f.path)}\0${f.text}\0`);
  return h.digest("hex");
}

/** The hash line of a declaration. */
export const HASH_PREFIX = "// gk-source-hash: ";

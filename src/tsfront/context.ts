/**
 * What lowering a TypeScript file needs to know as it goes: the file, the TypeScript
 * compiler (loaded lazily by index.ts), which names are gk's, which are items of the file
 * that kernels may use, which stay on the host, and the locals of the function being lowered.
 */
import type { ts as TS } from "ts-morph";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import { REFUSED } from "./spellings.js";

export type Ts = typeof TS;

/** A name that a relative import brings: from a .gk file, or a TypeScript file of kernels. */
export interface RelativeImport {
  readonly local: string;
  /** The exported name; differs from `local` for `import { a as b }`. */
  readonly imported: string;
  /** The path as gk's loader reads it (a TypeScript `./x.js` is `./x.ts`). */
  readonly path: string;
  readonly pathSpan: Span;
  readonly span: Span;
  /** Set when a kernel, device function or constant uses it: only those become gk imports. */
  used: boolean;
}

export type HostKind = "variable" | "constant" | "function" | "class" | "import";

export interface Lowering {
  readonly ts: Ts;
  readonly sf: TS.SourceFile;
  readonly file: string;
  readonly log: DiagnosticLog;
  /** Local names bound to gk's exports (`import { barrier } from "gk"`): local name → gk's name. */
  readonly gk: Map<string, string>;
  /** `import * as gk from "gk"`. */
  readonly gkNamespaces: Set<string>;
  readonly imports: Map<string, RelativeImport>;
  /** Top-level names lowered to gk items (kernels, device functions, constants). */
  readonly items: Set<string>;
  /** Top-level names that stay on the host: what each is and where it is declared. */
  readonly host: Map<string, { readonly kind: HostKind; readonly span: Span }>;
  /**
   * The file's top-level interfaces, by name: each that kernel code names as a type is a gk
   * struct (`interface Particle { pos: f32x3; bounces: i32 }`); the others are the host's.
   */
  readonly interfaces: Map<string, TS.InterfaceDeclaration>;
  /** The file's top-level type aliases: not structs (GK2003 where kernel code names one). */
  readonly typeAliases: Set<string>;
  /** The interfaces kernel code has named as types so far: lowered to structs. */
  readonly structs: Set<string>;
  /** Calls of kernel() and deviceFn() that declare items (any other is an error). */
  readonly itemCalls: Set<TS.Node>;
  /** Locals of the function being lowered, innermost scope last. */
  scopes: Set<string>[];
}

export function spanOf(cx: Lowering, node: TS.Node): Span {
  return { file: cx.file, start: node.getStart(cx.sf), end: node.getEnd() };
}

/** Whether `name` is a local of the function being lowered. */
export function isLocal(cx: Lowering, name: string): boolean {
  return cx.scopes.some((s) => s.has(name));
}

export function declareLocal(cx: Lowering, name: string): void {
  cx.scopes[cx.scopes.length - 1]?.add(name);
}

/** gk's name for an identifier that refers to one of gk's exports (and is not shadowed by a local). */
export function gkNameOf(cx: Lowering, id: TS.Node): string | undefined {
  if (!cx.ts.isIdentifier(id) || isLocal(cx, id.text)) return undefined;
  return cx.gk.get(id.text);
}

let refusedByKind: Map<number, string> | undefined;

/** GK1020 at `node`: TypeScript that a kernel cannot use, said in the words of spellings.ts where it has some. */
export function refuse(cx: Lowering, node: TS.Node, message?: string): undefined {
  if (!refusedByKind) {
    refusedByKind = new Map();
    for (const [name, why] of Object.entries(REFUSED)) {
      const kind = (cx.ts.SyntaxKind as unknown as Record<string, number>)[name];
      if (kind !== undefined) refusedByKind.set(kind, why);
    }
  }
  const why = message ?? refusedByKind.get(node.kind) ?? `a kernel cannot use this TypeScript syntax (${cx.ts.SyntaxKind[node.kind]})`;
  cx.log.error("GK1020", spanOf(cx, node), why);
  return undefined;
}

/**
 * Small helpers shared by the CST → AST builders: reading optional CST children,
 * telling real tokens from those that error recovery made up, and spans.
 */
import type { IToken } from "chevrotain";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import type { Ident } from "./ast.js";
import { tokenSpan } from "./lexer.js";
import { keywords } from "./tokens.js";

/** What every builder function receives: where it is, and where to report. */
export interface BuildContext {
  readonly file: string;
  readonly log: DiagnosticLog;
  /** Opening brackets of groups in which the parser skipped stray tokens: those groups are broken. */
  readonly strayGroups: ReadonlySet<IToken>;
  /** Whether the parser recovered from any error at all; if not, no node needs checking. */
  readonly recovered: boolean;
}

/** The first (usually only) child of a kind, if the parser produced one. */
export function one<T>(children: readonly T[] | undefined): T | undefined {
  return children?.[0];
}

/** The last child of a kind, if any. */
export function last<T>(children: readonly T[] | undefined): T | undefined {
  return children?.[children.length - 1];
}

/** The token, unless it is missing or was inserted by error recovery (and so stands for nothing in the text). */
export function real(t: IToken | undefined): IToken | undefined {
  return t !== undefined && t.isInsertedInRecovery !== true && Number.isFinite(t.startOffset) && t.image !== "" ? t : undefined;
}

/** The tightest span covering every real token and span given (missing ones are skipped). */
export function cover(cx: BuildContext, ...parts: (Span | IToken | undefined)[]): Span {
  let start = Infinity;
  let end = -Infinity;
  for (const p of parts) {
    if (p === undefined) continue;
    const s = "file" in p ? p : real(p) ? tokenSpan(cx.file, p) : undefined;
    if (s === undefined) continue;
    start = Math.min(start, s.start);
    end = Math.max(end, s.end);
  }
  return start <= end ? { file: cx.file, start, end } : { file: cx.file, start: 0, end: 0 };
}

export function ident(cx: BuildContext, t: IToken | undefined): Ident | undefined {
  const tok = real(t);
  return tok ? { name: tok.image, span: tokenSpan(cx.file, tok) } : undefined;
}

/** Every element converted, or undefined as soon as one cannot be (all are still visited, so all their errors are reported). */
export function all<C, T>(children: readonly C[] | undefined, convert: (c: C) => T | undefined): T[] | undefined {
  const out = (children ?? []).map(convert);
  return out.every((x): x is T => x !== undefined) ? out : undefined;
}

const reserved: ReadonlySet<unknown> = new Set(keywords);

/** The name a declaration introduces: none for a reserved word, which the grammar lets through and reports. */
export function declaredName(cx: BuildContext, t: IToken | undefined): Ident | undefined {
  const tok = real(t);
  return tok && reserved.has(tok.tokenType) ? undefined : ident(cx, tok);
}

/** Any CST node, seen structurally. */
interface AnyCst {
  readonly name: string;
  readonly children: { readonly [key: string]: readonly unknown[] | undefined };
  readonly recoveredNode?: boolean;
}

function isCstNode(x: unknown): x is AnyCst {
  return typeof x === "object" && x !== null && "children" in x && "name" in x;
}

function isToken(x: unknown): x is IToken {
  return typeof x === "object" && x !== null && "image" in x && "tokenType" in x;
}

/**
 * Whether error recovery cut short or patched this node or anything under it, nested
 * statements and blocks aside (they answer for themselves). Such a node is left out of
 * the AST without a word: its syntax error was reported, and what recovery made of the
 * text around it would only give misleading follow-on errors.
 */
export function touchedByRecovery(cx: BuildContext, node: AnyCst): boolean {
  if (!cx.recovered) return false;
  if (node.recoveredNode === true) return true;
  for (const key in node.children) {
    for (const child of node.children[key] ?? []) {
      if (isToken(child) && (child.isInsertedInRecovery === true || cx.strayGroups.has(child))) return true;
      if (isCstNode(child) && child.name !== "statement" && child.name !== "block" && touchedByRecovery(cx, child)) return true;
    }
  }
  return false;
}

/** The node, unless recovery touched it (see `touchedByRecovery`). */
export function untouched<T extends AnyCst>(cx: BuildContext, node: T | undefined): T | undefined {
  return node !== undefined && !touchedByRecovery(cx, node) ? node : undefined;
}

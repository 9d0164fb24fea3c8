/** Printing diagnostics: `file:line:col - error GK1234: message`, a code frame and a caret, like `tsc --pretty`. */
import type { Diagnostic } from "./diagnostic.js";
import { lineColOf, lineText, type SourceMap, type Span } from "./source.js";

export interface FormatOptions {
  /** ANSI colours (for terminals). */
  readonly color?: boolean;
}

const ansi = {
  red: (s: string) => `\x1b[31m${s}\x1b[0m`,
  yellow: (s: string) => `\x1b[33m${s}\x1b[0m`,
  cyan: (s: string) => `\x1b[36m${s}\x1b[0m`,
  grey: (s: string) => `\x1b[90m${s}\x1b[0m`,
  bold: (s: string) => `\x1b[1m${s}\x1b[0m`,
};
const plain = { red: id, yellow: id, cyan: id, grey: id, bold: id };
function id(s: string): string {
  return s;
}

export function formatDiagnostic(d: Diagnostic, sources: SourceMap, opts: FormatOptions = {}): string {
  const c = opts.color ? ansi : plain;
  const sev = d.severity === "error" ? c.red("error") : d.severity === "warning" ? c.yellow("warning") : c.cyan("note");
  const where = d.span ? `${c.cyan(sources.locate(d.span))} - ` : "";
  const lines = [`${where}${sev} ${c.grey(d.code)}: ${d.message}`];
  if (d.span) lines.push(...codeFrame(d.span, sources, opts));
  for (const n of d.notes) {
    const at = n.span ? ` (${sources.locate(n.span)})` : "";
    lines.push(`  ${c.cyan("note")}: ${n.message}${at}`);
    if (n.span) lines.push(...codeFrame(n.span, sources, opts).map((l) => (l ? "  " + l : l)));
  }
  return lines.join("\n");
}

export function formatDiagnostics(diags: readonly Diagnostic[], sources: SourceMap, opts: FormatOptions = {}): string {
  return diags.map((d) => formatDiagnostic(d, sources, opts)).join("\n\n");
}

/** How many diagnostics a report shows (gkc's output, GkCompileError's message); the rest are counted. */
export const REPORT_LIMIT = 100;

/** The first REPORT_LIMIT diagnostics, then a line saying how many more there are: a file with a hundred thousand errors prints a page, not megabytes. */
export function formatReport(diags: readonly Diagnostic[], sources: SourceMap, opts: FormatOptions = {}): string {
  const shown = formatDiagnostics(diags.slice(0, REPORT_LIMIT), sources, opts);
  const more = diags.length - REPORT_LIMIT;
  return more > 0 ? `${shown}\n\n... and ${more} more (the first ${REPORT_LIMIT} of ${diags.length} are shown)` : shown;
}

/** The span's first line with its number in a gutter, and `~` under the span (`^` for an empty span). */
/** Longest source line a code frame shows whole, and how much of a longer one it shows before the span. */
const MAX_LINE = 160;
const CONTEXT = 60;

export function codeFrame(s: Span, sources: SourceMap, opts: FormatOptions = {}): string[] {
  const file = sources.get(s.file);
  if (!file) return [];
  const c = opts.color ? ansi : plain;
  const start = lineColOf(file, Math.min(s.start, file.text.length));
  const end = lineColOf(file, Math.min(Math.max(s.end, s.start), file.text.length));
  const full = lineText(file, start.line).replace(/\t/g, " ");
  const gutter = String(start.line);
  const lastCol = end.line === start.line ? end.col : full.length + 1;
  // A long line shows a window around the span, its cut ends marked with '…'.
  const from = full.length > MAX_LINE ? Math.max(0, Math.min(start.col - 1 - CONTEXT, full.length - MAX_LINE)) : 0;
  const to = Math.min(full.length, from + MAX_LINE);
  const text = `${from > 0 ? "…" : ""}${full.slice(from, to)}${to < full.length ? "…" : ""}`;
  const col = start.col - from + (from > 0 ? 1 : 0);
  const width = Math.max(1, Math.min(lastCol - start.col, MAX_LINE - (start.col - 1 - from)));
  const marker = s.end > s.start ? "~".repeat(width) : "^";
  return [
    "",
    `${c.grey(gutter)} ${text}`,
    `${" ".repeat(gutter.length)} ${" ".repeat(col - 1)}${c.red(marker)}`,
    "",
  ];
}

/** The machine-readable form (`gkc check --json`). */
export interface JsonDiagnostic {
  code: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
  col?: number;
  endLine?: number;
  endCol?: number;
  notes: { message: string; file?: string; line?: number; col?: number }[];
}

export function diagnosticToJson(d: Diagnostic, sources: SourceMap): JsonDiagnostic {
  const out: JsonDiagnostic = { code: d.code, severity: d.severity, message: d.message, notes: [] };
  if (d.span) Object.assign(out, locationJson(d.span, sources, true));
  for (const n of d.notes) {
    out.notes.push({ message: n.message, ...(n.span ? locationJson(n.span, sources, false) : {}) });
  }
  return out;
}

function locationJson(s: Span, sources: SourceMap, withEnd: boolean) {
  const f = sources.get(s.file);
  if (!f) return { file: s.file };
  const a = lineColOf(f, s.start);
  const b = lineColOf(f, s.end);
  return withEnd
    ? { file: s.file, line: a.line, col: a.col, endLine: b.line, endCol: b.col }
    : { file: s.file, line: a.line, col: a.col };
}

/** Source files and spans. Spans are offsets into the file's text; lines and columns are computed when printed. */

export interface Span {
  /** Path of the source file, as the compiler was given it (or resolved for imports). */
  readonly file: string;
  /** Offset of the first character (UTF-16 code units, which equal bytes for ASCII sources). */
  readonly start: number;
  /** Offset one past the last character. */
  readonly end: number;
}

export interface SourceFile {
  readonly path: string;
  readonly text: string;
  /** Offsets at which each line starts; computed once. */
  readonly lineStarts: readonly number[];
}

export interface LineCol {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly col: number;
}

export function makeSourceFile(path: string, text: string): SourceFile {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  }
  return { path, text, lineStarts };
}

export function lineColOf(file: SourceFile, offset: number): LineCol {
  const starts = file.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - starts[lo]! + 1 };
}

/** The text of a 1-based line, without its line break. */
export function lineText(file: SourceFile, line: number): string {
  const start = file.lineStarts[line - 1] ?? file.text.length;
  const next = file.lineStarts[line];
  let end = next === undefined ? file.text.length : next - 1;
  if (end > start && file.text.charCodeAt(end - 1) === 13) end--;
  return file.text.slice(start, end);
}

export function span(file: string, start: number, end: number): Span {
  return { file, start, end };
}

/** The smallest span covering both. Both must lie in one file. */
export function joinSpans(a: Span, b: Span): Span {
  return { file: a.file, start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

/** A set of loaded source files, looked up by path when a span is printed. */
export class SourceMap {
  private readonly files = new Map<string, SourceFile>();

  add(file: SourceFile): SourceFile {
    this.files.set(file.path, file);
    return file;
  }

  get(path: string): SourceFile | undefined {
    return this.files.get(path);
  }

  all(): SourceFile[] {
    return [...this.files.values()];
  }

  /** `file:line:col` for a span, or just the file when it is not loaded; the file's name as `printable` shows it. */
  locate(s: Span): string {
    const f = this.files.get(s.file);
    if (!f) return printable(s.file);
    const { line, col } = lineColOf(f, s.start);
    return `${printable(s.file)}:${line}:${col}`;
  }
}

/**
 * A name as a terminal should show it: every character that would reach a terminal as more
 * than itself (a newline, an ANSI escape, a C1 control, a line or paragraph separator, or a
 * bidirectional override that reorders what follows) escaped, and a backslash doubled only
 * where the name holds such a character, so that ordinary names, Windows paths among them,
 * print as they are.
 */
export function printable(name: string): string {
  return UNPRINTABLE.test(name) ? escapeUnprintable(name) : name;
}

/** `name` with every backslash doubled and every character `printable` escapes escaped (quotePath's body). */
export function escapeUnprintable(name: string): string {
  return name.replace(UNPRINTABLE_OR_BACKSLASH, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNPRINTABLE_OR_BACKSLASH = new RegExp(`${UNPRINTABLE.source.slice(0, -1)}\\\\]`, "g");

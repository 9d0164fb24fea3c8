/**
 * nvcc's messages: its output split into located messages (EDG's front end, the host compiler,
 * its tools) and the lines that are none, and each message as a diagnostic, mapped to the `.gk`
 * line through the `#line` directives that codegen writes (errors GK7002, the rest GK7005).
 */
import { error, lineText, type Diagnostic, type RelatedNote, type SourceMap, type Span } from "../diagnostics/index.js";

export interface NvccMessage {
  /** The file as nvcc names it: a `.gk` path from a `#line` directive, or the `.cu` itself. */
  readonly file?: string;
  readonly line?: number;
  readonly severity: "error" | "warning" | "note";
  /** The message text, e.g. `identifier "x" is undefined`; tool messages keep the tool's name. */
  readonly text: string;
  /** The indented lines nvcc prints after it: the generated CUDA line and a caret. */
  readonly context: readonly string[];
}

const EDG_MESSAGE = /^(.+)\((\d+)\): (catastrophic error|error|warning|remark)(?: #[\w-]+)?: (.*)$/;
const GCC_MESSAGE = /^(.+?):(\d+):(?:\d+:)? (fatal error|error|warning|note): (.*)$/;
const TOOL_MESSAGE = /^(nvcc|ptxas|nvlink|fatbinary|cicc|nvdisasm)\b[^:]*?\s(fatal|error|warning)\s*: (.*)$/;
const NOISE = [/^\d+ errors? detected in the compilation of /, /^Remark: The warnings can be suppressed/, /^compilation terminated\.$/];

/** Splits nvcc's output into located messages and the lines that are none (`other`). */
export function parseNvccOutput(output: string): { messages: NvccMessage[]; other: string[] } {
  const messages: { file?: string; line?: number; severity: NvccMessage["severity"]; text: string; context: string[] }[] = [];
  const other: string[] = [];
  let last: (typeof messages)[number] | undefined;
  for (const raw of output.replace(/\r\n/g, "\n").split("\n")) {
    const line = raw.trimEnd();
    if (line === "") {
      last = undefined;
      continue;
    }
    if (last !== undefined && /^\s/.test(line)) {
      last.context.push(line);
      continue;
    }
    last = undefined;
    if (NOISE.some((re) => re.test(line))) continue;
    const edg = EDG_MESSAGE.exec(line);
    const gcc = edg ? null : GCC_MESSAGE.exec(line);
    const tool = edg || gcc ? null : TOOL_MESSAGE.exec(line);
    if (edg || gcc) {
      const m = (edg ?? gcc)!;
      last = { file: m[1]!, line: Number(m[2]), severity: severityOf(m[3]!), text: m[4]!, context: [] };
      messages.push(last);
    } else if (tool) {
      messages.push({ severity: severityOf(tool[2]!), text: `${tool[1]} ${tool[2]}: ${tool[3]!}`, context: [] });
    } else {
      other.push(line);
    }
  }
  return { messages, other };
}

function severityOf(word: string): NvccMessage["severity"] {
  if (word.includes("error") || word === "fatal") return "error";
  return word === "warning" ? "warning" : "note";
}

/** Where a message comes from: the generated `.cu`, and the name it is shown under. */
export interface MessageContext {
  readonly sourceMap: SourceMap | undefined;
  readonly cuName: string;
  readonly sourceName: string;
}

/** One nvcc message as a diagnostic: a span on the `.gk` line when the source is known, else `file:line` text. */
export function messageDiagnostic(m: NvccMessage, ctx: MessageContext): Diagnostic {
  const span = m.file !== undefined && m.line !== undefined ? lineSpan(ctx.sourceMap, m.file, m.line) : undefined;
  const file = m.file === ctx.cuName ? ctx.sourceName : m.file;
  const where = span === undefined && file !== undefined ? `${file}:${m.line}: ` : "";
  const notes: RelatedNote[] = [];
  const cudaLine = m.context.find((l) => !/^[\s^~|]*$/.test(l));
  if (cudaLine !== undefined && file !== ctx.sourceName) {
    notes.push({ message: `in the generated CUDA: ${cudaLine.trim().slice(0, 200)}` });
  }
  const message = `${where}${m.text}`;
  if (m.severity === "error") return error("GK7002", span, message, notes);
  return { code: "GK7005", severity: m.severity, message, span, notes };
}

/**
 * A line of a loaded `.gk` file, from its first non-blank character to its end (nvcc's column
 * is a column of the generated CUDA, so only the line carries over); nothing when the file or
 * line is unknown.
 */
function lineSpan(sources: SourceMap | undefined, file: string, line: number): Span | undefined {
  const f = sources?.get(file);
  if (f === undefined || line < 1 || line > f.lineStarts.length) return undefined;
  const text = lineText(f, line);
  const lineStart = f.lineStarts[line - 1]!;
  const indent = text.length - text.trimStart().length;
  return { file, start: lineStart + (indent === text.length ? 0 : indent), end: lineStart + text.length };
}

/** The messages not yet in `seen` (by file, line, severity and text), each once; `seen` takes them. */
export function dedupe(messages: readonly NvccMessage[], seen = new Set<string>()): NvccMessage[] {
  return messages.filter((m) => {
    const k = `${m.file ?? ""}\0${m.line ?? ""}\0${m.severity}\0${m.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

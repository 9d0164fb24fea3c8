/** What a command writes, and how it reports diagnostics: one place, so every command prints alike. */
import { once } from "node:events";
import { diagnosticToJson, formatReport, REPORT_LIMIT } from "../diagnostics/format.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceMap } from "../diagnostics/source.js";
import { terminalStatusLine, type StatusLine } from "../progress.js";

export interface Io {
  out(text: string): void;
  /**
   * Writes the parts to stdout as one text, then a newline, waiting whenever the reader is
   * behind, so that an output of any size (`gkc run --json` of 2^28 elements) is never one
   * string nor held in memory whole. Where absent (a test's Io), printParts gives out() the
   * parts joined.
   */
  outParts?(parts: Iterable<string>): Promise<void>;
  err(text: string): void;
  /** ANSI colours on stderr. */
  readonly color: boolean;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** A status line for the progress of long work (src/progress.ts): stderr's, when it is a terminal. */
  readonly status?: StatusLine;
}

let guarded = false;

/**
 * A reader that stops reading (`gkc run FILE --json | head -c 10`) ends the command at
 * once and quietly, with status 0: it has what it wanted, and nothing more is worth
 * computing. Any other write error (a full disk) is reported on stderr, status 1.
 */
function guardStreams(): void {
  if (guarded) return;
  guarded = true;
  for (const [stream, name] of [[process.stdout, "stdout"], [process.stderr, "stderr"]] as const) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(EXIT.ok);
      if (stream === process.stdout) process.stderr.write(`gkc: cannot write to ${name}: ${e.code ?? e.message}\n`);
      process.exit(EXIT.failed);
    });
  }
}

function write(stream: NodeJS.WriteStream, t: string): void {
  guardStreams();
  stream.write(t.endsWith("\n") ? t : t + "\n");
}

/** Buffered up to this many characters before a write. */
const WRITE_CHUNK = 1 << 16;

async function writeParts(stream: NodeJS.WriteStream, parts: Iterable<string>): Promise<void> {
  guardStreams();
  let chunk = "";
  for (const p of parts) {
    chunk += p;
    if (chunk.length < WRITE_CHUNK) continue;
    // A write error ends the process (guardStreams), so a drain that never comes is never awaited for long.
    if (!stream.write(chunk)) await once(stream, "drain");
    chunk = "";
  }
  stream.write(chunk + "\n");
}

/** Writes the parts to stdout as one text (Io.outParts). */
export function printParts(io: Io, parts: Iterable<string>): Promise<void> {
  if (io.outParts) return io.outParts(parts);
  io.out([...parts].join(""));
  return Promise.resolve();
}

const stderrStatus = terminalStatusLine(process.stderr);

export const processIo: Io = {
  out: (t) => write(process.stdout, t),
  outParts: (parts) => writeParts(process.stdout, parts),
  err: (t) => write(process.stderr, t),
  color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
  cwd: process.cwd(),
  env: process.env,
  ...(stderrStatus && { status: stderrStatus }),
};

/** Prints diagnostics (the first REPORT_LIMIT, and how many more) to stderr with a summary line counting all; returns whether any is an error. */
export function report(io: Io, diags: readonly Diagnostic[], sources: SourceMap): boolean {
  if (diags.length === 0) return false;
  io.err(formatReport(diags, sources, { color: io.color }));
  const errors = diags.filter((d) => d.severity === "error").length;
  const warnings = diags.filter((d) => d.severity === "warning").length;
  const parts = [];
  if (errors) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  if (parts.length) io.err(`\nFound ${parts.join(" and ")}.`);
  return errors > 0;
}

/** The first REPORT_LIMIT diagnostics as JSON, and how many were left out. */
export function diagnosticsJson(diags: readonly Diagnostic[], sources: SourceMap) {
  return { diagnostics: diags.slice(0, REPORT_LIMIT).map((d) => diagnosticToJson(d, sources)), omitted: Math.max(0, diags.length - REPORT_LIMIT) };
}

/** A usage error: wrong flags or arguments. Exit status 2. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2, internal: 70 } as const;

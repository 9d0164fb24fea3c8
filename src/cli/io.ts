/** What a command writes, and how it reports diagnostics: one place, so every command prints alike. */
import { formatDiagnostics, diagnosticToJson } from "../diagnostics/format.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceMap } from "../diagnostics/source.js";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** ANSI colours on stderr. */
  readonly color: boolean;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t.endsWith("\n") ? t : t + "\n"),
  err: (t) => process.stderr.write(t.endsWith("\n") ? t : t + "\n"),
  color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
  cwd: process.cwd(),
  env: process.env,
};

/** Prints diagnostics to stderr with a summary line; returns whether any is an error. */
export function report(io: Io, diags: readonly Diagnostic[], sources: SourceMap): boolean {
  if (diags.length === 0) return false;
  io.err(formatDiagnostics(diags, sources, { color: io.color }));
  const errors = diags.filter((d) => d.severity === "error").length;
  const warnings = diags.filter((d) => d.severity === "warning").length;
  const parts = [];
  if (errors) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  if (parts.length) io.err(`\nFound ${parts.join(" and ")}.`);
  return errors > 0;
}

export function diagnosticsJson(diags: readonly Diagnostic[], sources: SourceMap) {
  return diags.map((d) => diagnosticToJson(d, sources));
}

/** A usage error: wrong flags or arguments. Exit status 2. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2, internal: 70 } as const;

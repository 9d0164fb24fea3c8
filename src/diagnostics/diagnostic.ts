/**
 * Diagnostics are values: collected, never thrown at the user. Every one has a stable code
 * from the catalog, a severity, a message that says what is wrong and what to do, and a span.
 */
import type { Span } from "./source.js";
import type { DiagnosticCode } from "./catalog.js";

export type Severity = "error" | "warning" | "note";

export interface RelatedNote {
  readonly message: string;
  readonly span?: Span;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly span?: Span;
  readonly notes: readonly RelatedNote[];
}

export function error(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[] = []): Diagnostic {
  return { code, severity: "error", message, span, notes };
}

export function warning(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[] = []): Diagnostic {
  return { code, severity: "warning", message, span, notes };
}

/** An append-only log that passes write into; the pipeline reads it once a stage is done. */
export class DiagnosticLog {
  private readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  error(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[] = []): void {
    this.items.push(error(code, span, message, notes));
  }

  warning(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[] = []): void {
    this.items.push(warning(code, span, message, notes));
  }

  get all(): readonly Diagnostic[] {
    return this.items;
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  get errorCount(): number {
    return this.items.filter((d) => d.severity === "error").length;
  }
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}

/** Sorted by file, then position, so output is stable whatever order the passes found them in. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort((a, b) => {
    const fa = a.span?.file ?? "";
    const fb = b.span?.file ?? "";
    if (fa !== fb) return fa < fb ? -1 : 1;
    return (a.span?.start ?? -1) - (b.span?.start ?? -1);
  });
}

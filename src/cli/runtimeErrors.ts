/** Printing errors that happen while building or running: they carry diagnostics, which print like compile errors. */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceMap } from "../diagnostics/source.js";
import { report, type Io } from "./io.js";

/** Prints a build or runtime error as diagnostics; false when `e` is not one (a bug, for the caller to surface). */
export function printRuntimeError(io: Io, e: unknown, sources: SourceMap): boolean {
  const diags = diagnosticsOf(e);
  if (!diags) return false;
  report(io, diags, sources);
  return true;
}

export function diagnosticsOf(e: unknown): readonly Diagnostic[] | undefined {
  if (!e || typeof e !== "object") return undefined;
  const x = e as { diagnostics?: unknown; diagnostic?: unknown };
  if (Array.isArray(x.diagnostics)) return x.diagnostics as Diagnostic[];
  if (x.diagnostic && typeof x.diagnostic === "object" && "code" in x.diagnostic) return [x.diagnostic as Diagnostic];
  return undefined;
}

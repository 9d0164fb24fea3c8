/** One-line helpers for tests: check a source string, and expect its IR or its diagnostics; the size of the fuzzers. */
import { expect } from "vitest";
import { formatDiagnostic } from "../src/diagnostics/format.js";
import { lineColOf } from "../src/diagnostics/source.js";
import type { Module } from "../src/ir/nodes.js";
import { printModule } from "../src/ir/print.js";
import { verifyModule } from "../src/ir/verify.js";
import { memoryHost } from "../src/load/program.js";
import { frontEnd, type FrontEndResult } from "../src/pipeline.js";

/**
 * How many cases the long fuzzers run (the launcher's request readers that many; the cache
 * and SIGKILL fuzzers a fraction): 50 by default, sized for a loaded 2-core CI machine;
 * `GK_FUZZ_RUNS=5000 npx vitest run test/runtime` for a long run.
 */
export const FUZZ_RUNS = Number(process.env.GK_FUZZ_RUNS ?? 50);

/** Checks `src` as the file `test.gk` (plus any other in-memory files it imports). */
export function checkSource(src: string, files: Record<string, string> = {}, after?: string): FrontEndResult {
  return frontEnd("test.gk", { host: memoryHost({ "test.gk": src, ...files }), after });
}

/** Diagnostics as `GK1234 line:col message`, one per line. */
export function diagnosticLines(r: FrontEndResult): string[] {
  return r.diagnostics.map((d) => {
    if (!d.span) return `${d.code} ${d.message}`;
    const f = r.sources.get(d.span.file);
    const at = f ? lineColOf(f, d.span.start) : { line: 0, col: 0 };
    return `${d.code} ${at.line}:${at.col} ${d.message}`;
  });
}

/** The IR of a program that must check cleanly, verified. */
export function irOf(src: string, files: Record<string, string> = {}, after?: string): Module {
  const r = checkSource(src, files, after);
  const errs = r.diagnostics.filter((d) => d.severity === "error");
  if (errs.length || !r.ir) throw new Error(`expected no errors, got:\n${errs.map((d) => formatDiagnostic(d, r.sources)).join("\n")}`);
  expect(verifyModule(r.ir)).toEqual([]);
  return r.ir;
}

export function printed(src: string, after?: string): string {
  return printModule(irOf(src, {}, after));
}

/** Expects exactly these diagnostics (each `CODE line:col message`, message may be a prefix). */
export function expectDiagnostics(src: string, expected: string[], files: Record<string, string> = {}): void {
  const got = diagnosticLines(checkSource(src, files));
  expect(got.length, `got:\n${got.join("\n")}`).toBe(expected.length);
  got.forEach((g, i) => expect(g.startsWith(expected[i]!), `diagnostic ${i}:\n  got:      ${g}\n  expected: ${expected[i]}`).toBe(true));
}

/** Expects one error, `CODE line:col message-prefix`. */
export function expectError(src: string, expected: string, files: Record<string, string> = {}): void {
  const errs = diagnosticLines(checkSource(src, files)).filter((l) => !l.startsWith("GK4006") && !l.startsWith("GK4011"));
  expect(errs.length, `expected one error, got:\n${errs.join("\n")}`).toBe(1);
  expect(errs[0]!.startsWith(expected), `got:      ${errs[0]}\nexpected: ${expected}`).toBe(true);
}

/** Wraps statements in a kernel with a few parameters, for statement-level tests (statements start on line 3). */
export function kernel(body: string): string {
  return `device_kernel k(n: i32, u: u32, f: f32, d: f64, l: i64, b: bool,\n  x: readonly global<f32>, out: global<f32>, iout: global<i32>) {\n${body}\n}\n`;
}

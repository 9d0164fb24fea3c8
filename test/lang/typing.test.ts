/**
 * gk's TypeScript declarations as TypeScript reads them: test/lang/fixtures/typing.ts (kernels
 * using every kind of array, the small integers and the halves, views, references, dynamic
 * shared and constant arrays, fast builtins, fences, match, unroll(), and their host calls)
 * type-checks, strict, with each line marked @ts-expect-error an error; and gk's checker
 * finds the same mistakes in the kernel. test/lang/fixtures/typing-compound.ts does the same for
 * vectors and structs, with noUncheckedIndexedAccess.
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../src/diagnostics/format.js";
import { frontEnd } from "../../src/pipeline.js";

const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
const FIXTURE = resolve("test/lang/fixtures/typing.ts");
/** Kernels of vectors and structs, and their host calls (tuples, objects, TypedArrays of lanes). */
const COMPOUND = resolve("test/lang/fixtures/typing-compound.ts");

function tscErrors(file: string, options: import("typescript").CompilerOptions = {}): string[] {
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true, types: [], lib: ["lib.es2023.d.ts"], ...options,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

describe("gk's declarations for TypeScript kernels", () => {
  it("type-check kernels of vectors and structs and their host calls (tuples, objects, lanes' TypedArrays), and refuse the wrong ones", () => {
    expect(tscErrors(COMPOUND, { noUncheckedIndexedAccess: true })).toEqual([]);
  });

  it("and gk's checker takes those kernels as written, refusing only what TypeScript refuses", () => {
    const r = frontEnd(COMPOUND);
    expect(r.diagnostics.map((d) => `${d.code} ${r.sources.locate(d.span!).slice(COMPOUND.length + 1)}`), formatDiagnostics(r.diagnostics, r.sources)).toEqual([
      "GK2005 53:17", // a.x!.length: a lane has no members
    ]);
  });

  it("type-check kernels and their host calls, and refuse the wrong ones", () => {
    const program = ts.createProgram([FIXTURE], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true, types: [], lib: ["lib.es2023.d.ts"],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    expect(errors).toEqual([]);
  });

  it("and gk's checker finds the same three mistakes in the kernels as TypeScript, and nothing else", () => {
    const r = frontEnd(FIXTURE);
    expect(r.diagnostics.map((d) => `${d.code} ${r.sources.locate(d.span!).slice(FIXTURE.length + 1)}`), formatDiagnostics(r.diagnostics, r.sources)).toEqual([
      "GK2007 38:3", // x[0] = 1 on a readonly global
      "GK2007 40:7", // put(x, ...) with a readonly global for a writable parameter
      "GK3008 130:8", // zero(p): a view of a scalar
    ]);
  });
});

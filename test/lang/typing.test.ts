/**
 * gk's TypeScript declarations as TypeScript reads them: test/lang/fixtures/typing.ts (kernels
 * using every kind of array, the small integers and the halves, views, references, dynamic
 * shared and constant arrays, fast builtins, fences, match, unroll(), and their host calls)
 * type-checks, strict, with each line marked @ts-expect-error an error; and gk's checker
 * finds the same mistakes in the kernel. test/lang/fixtures/typing-compound.ts does the same for
 * vectors and structs, with noUncheckedIndexedAccess. test/lang/fixtures/project is a new user's
 * project (app.ts type-checks, wrong.ts fails with exactly the listed errors).
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

/** A new user's strict project (NodeNext, noUncheckedIndexedAccess) against gk's published declarations (dist/). */
const PROJECT = resolve("test/lang/fixtures/project");

/** tsc's errors for the project of `dir`: `file:line:col TScode message` (the message's first line). */
function projectErrors(dir: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, " ")); } });
  if (!config) throw new Error(`cannot read ${dir}/tsconfig.json`);
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.slice(dir.length + 1)}:${Object.values(d.file.getLineAndCharacterOfPosition(d.start!)).map((n) => n + 1).join(":")}` : "-";
    const message = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
    return `${where} TS${d.code} ${message}`;
  });
}

describe("a new user's strict project", () => {
  it("types GPU arrays by their TypedArray or element type (vectors, structs by their layout, views), launch sizes as 1 to 3 axes, scalars and arrays as the run time takes them, arrays of structs by their interface or layout, and publishes none of gk's own members", () => {
    expect(projectErrors(PROJECT)).toEqual([
      `wrong.ts:6:42 TS2345 Argument of type 'GpuArray<"f64">' is not assignable to parameter of type 'ReadonlyView<Float32Array<ArrayBufferLike>> | GpuArray<"f32"> | readonly number[]'.`,
      "wrong.ts:7:31 TS2322 Type 'number' is not assignable to type 'undefined'.",
      "wrong.ts:8:36 TS2345 Argument of type 'bigint' is not assignable to parameter of type 'number'.",
      "wrong.ts:9:45 TS2345 Argument of type 'number[]' is not assignable to parameter of type 'HostArray<f32>'.",
      "wrong.ts:10:11 TS2769 No overload matches this call.",
      `wrong.ts:11:3 TS2339 Property 'owner' does not exist on type 'GpuArray<"f32">'.`,
      `wrong.ts:12:3 TS2339 Property 'store' does not exist on type 'GpuArray<"f32">'.`,
      `wrong.ts:13:3 TS2339 Property 'live' does not exist on type 'GpuArray<"f32">'.`,
      "wrong.ts:14:1 TS2769 No overload matches this call.",
      "wrong.ts:15:1 TS2769 No overload matches this call.",
      `wrong.ts:16:17 TS2345 Argument of type '"f32x5"' is not assignable to parameter of type 'ArrayElem'.`,
      "wrong.ts:17:7 TS2322 Type 'Float32Array<ArrayBufferLike>' is not assignable to type 'Float64Array<ArrayBufferLike>'.",
      "wrong.ts:18:18 TS2345 Argument of type 'number' is not assignable to parameter of type 'readonly number[]'.",
      `wrong.ts:19:22 TS2345 Argument of type 'GpuArray<"i32x4">' is not assignable to parameter of type 'GpuArray<"f32x4">'.`,
      `wrong.ts:20:35 TS2345 Argument of type 'GpuArray<"i32x4">' is not assignable to parameter of type 'Float32Array<ArrayBufferLike> | GpuArray<"f32"> | GpuArray<"f32x4">'.`,
      "wrong.ts:21:22 TS2345 Argument of type '{ start: number; }' is not assignable to parameter of type '{ readonly start: number; readonly edges: number; }'.",
      "wrong.ts:22:11 TS2769 No overload matches this call.",
    ]);
  });
});

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

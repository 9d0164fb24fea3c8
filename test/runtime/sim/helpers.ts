/** Helpers for the simulator's tests: compile `.gk` text, run a kernel, read a SimError as `CODE line:col message`. */
import { expect } from "vitest";
import { formatDiagnostic } from "../../../src/diagnostics/format.js";
import { lineColOf, type SourceMap, type Span } from "../../../src/diagnostics/source.js";
import type { ArrayVar, Expr, Function, Module, Param, ScalarVar, Stmt } from "../../../src/ir/nodes.js";
import { T, type ScalarType } from "../../../src/ir/types.js";
import { memoryHost } from "../../../src/parser/load.js";
import { frontEnd } from "../../../src/pipeline.js";
import { compileKernel, runKernel, SimError, type Dim, type SimArg, type SimOptions, type SimResult } from "../../../src/runtime/sim/index.js";

export interface Program {
  readonly ir: Module;
  readonly sources: SourceMap;
}

/** `src` as the file `test.gk` (with other in-memory files it imports); it must check cleanly. */
export function gk(src: string, files: Record<string, string> = {}): Program {
  const r = frontEnd("test.gk", { host: memoryHost({ "test.gk": src, ...files }) });
  const errs = r.diagnostics.filter((d) => d.severity === "error");
  if (errs.length || !r.ir) throw new Error(`expected no errors, got:\n${errs.map((d) => formatDiagnostic(d, r.sources)).join("\n")}`);
  return { ir: r.ir, sources: r.sources };
}

/** An example program from examples/. */
export function example(name: string): Program {
  const r = frontEnd(`examples/${name}.gk`);
  if (!r.ir) throw new Error(r.diagnostics.map((d) => formatDiagnostic(d, r.sources)).join("\n"));
  return { ir: r.ir, sources: r.sources };
}

export function run(p: Program, kernel: string, grid: Dim, block: Dim, args: readonly SimArg[], opts?: SimOptions): SimResult {
  return runKernel(compileKernel(p.ir, kernel, p.sources, opts), { grid, block }, args);
}

/** `CODE line:col message` of a span in the program's sources. */
export function at(sources: SourceMap, s: Span | undefined): string {
  if (!s) return "-";
  const f = sources.get(s.file);
  if (!f) return `${s.file}@${s.start}`;
  const { line, col } = lineColOf(f, s.start);
  return `${line}:${col}`;
}

/** Runs `f`, which must throw a SimError; returns `CODE line:col message`. */
export function simErrorOf(sources: SourceMap, f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof SimError)) throw e;
    return `${e.diagnostic.code} ${at(sources, e.diagnostic.span)} ${e.diagnostic.message}`;
  }
  expect.unreachable("expected a SimError");
  return "";
}

// ---------------------------------------------------------------- IR by hand

export const SPAN: Span = { file: "gen.gk", start: 0, end: 0 };
let ids = 1000;

export function scalarParam(name: string, type: ScalarType, mutable = false): ScalarVar {
  return { kind: "scalarVar", id: ids++, name, type, mutable, span: SPAN };
}

export function globalParam(name: string, elem: ScalarType, readonly = false): ArrayVar {
  return { kind: "arrayVar", id: ids++, name, type: { kind: "global", elem, readonly }, span: SPAN };
}

export function sharedArray(name: string, elem: ScalarType, dims: number[]): ArrayVar {
  return { kind: "arrayVar", id: ids++, name, type: { kind: "array", elem, dims, space: "shared" }, span: SPAN };
}

export function fnDef(kind: "kernel" | "device_fn", name: string, params: Param[], body: Stmt[], returnType: Function["returnType"] = { kind: "void" }, shared: ArrayVar[] = []): Function {
  return { kind, name, params, returnType, shared, body, file: SPAN.file, span: SPAN };
}

export function moduleOf(kernels: Function[], functions: Function[] = []): Module {
  return { file: SPAN.file, functions, kernels, constants: [], launches: [] };
}

export const load = (array: ArrayVar, index: Expr): Expr => ({ kind: "load", type: array.type.elem, array, indices: [index], span: SPAN });
export const gid: Expr = { kind: "special", type: T.i32, name: "globalId", axis: 0, span: SPAN };
export const store = (array: ArrayVar, index: Expr, value: Expr): Stmt => ({ kind: "store", array, indices: [index], value, span: SPAN });

/** Helpers for the simulator's tests: compile `.gk` text, run a kernel, read a SimError as `CODE line:col message`. */
import { expect } from "vitest";
import { formatDiagnostic } from "../../../src/diagnostics/format.js";
import { lineColOf, type SourceMap, type Span } from "../../../src/diagnostics/source.js";
import type { ArrayVar, Expr, Function, Module, Param, ValueVar, Stmt } from "../../../src/ir/nodes.js";
import { leaves, T, type ScalarType, type StructType } from "../../../src/ir/types.js";
import { memoryHost } from "../../../src/load/program.js";
import { frontEnd } from "../../../src/pipeline.js";
import { compileKernel, runKernel, SimError, type Dim, type SimArg, type SimOptions, type SimResult, type TypedArray } from "../../../src/runtime/sim/index.js";

/** A launch's dynamic shared lengths (declaration order) and constant arrays (constantsRead order). */
export interface LaunchExtras {
  readonly shared?: readonly number[];
  readonly constants?: readonly TypedArray[];
}

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

/**
 * Runs a kernel. A kernel that runs on the region path runs twice, unless `opts` names the
 * barrier path: on the generator path (the fallback, on copies of the arguments), then on the
 * region path; both must leave the arrays the same (after an error too: they run in the same
 * order), take the same steps and throw the same error. "The same": bit for bit, except that
 * every NaN equals every NaN (V8 gives NaNs a sign bit or not depending on how optimized the
 * code that made them is, as src/testing/compare.ts says). `extras`: the dynamic shared
 * arrays' lengths and the constant arrays' contents (in the order the kernel reads them).
 */
export function run(p: Program, kernel: string, grid: Dim, block: Dim, args: readonly SimArg[], opts?: SimOptions, extras: LaunchExtras = {}): SimResult {
  const k = compileKernel(p.ir, kernel, p.sources, opts);
  const launch = { grid, block, shared: extras.shared ?? [] };
  const constants = extras.constants ?? [];
  if (k.barrierPath !== "regions" || opts?.barrierPath) return runKernel(k, launch, args, constants);
  const copies = args.map((a) => (ArrayBuffer.isView(a) ? a.slice() : a));
  const fallback = outcome(() => runKernel(compileKernel(p.ir, kernel, p.sources, { ...opts, barrierPath: "generators" }), launch, copies, constants));
  const regions = outcome(() => runKernel(k, launch, args, constants));
  // Each array's scalar element type, a vector's lane type for arrays of vectors (f16x2: f16
  // bits), or a struct type (its f16 and bf16 fields are found in its bytes).
  const elems = k.kernel.params.map((q): Elem => (q.type.kind !== "global" ? undefined : q.type.elem.kind === "vector" ? q.type.elem.elem.name : q.type.elem.kind === "scalar" ? q.type.elem.name : q.type.elem));
  expect(describeOutcome(regions, args, elems)).toEqual(describeOutcome(fallback, copies, elems));
  if (regions.error !== undefined) throw regions.error;
  return regions.result!;
}

type Outcome = { result?: SimResult; error?: unknown };

function outcome(f: () => SimResult): Outcome {
  try {
    return { result: f() };
  } catch (error) {
    return { error };
  }
}

/**
 * What two runs must agree on: the error, the steps, and every array argument's elements (-0
 * apart from 0). A NaN is a NaN whatever its sign, in f32 and f64 arrays as in arrays of f16 or
 * bf16 bits, alone or as the lanes of f16x2/bf16x2 (`elems`: each argument's element or lane type): the sign of a computed NaN is JavaScript's, which two
 * compiled forms of one kernel need not agree on, and gk leaves it unspecified (spec/differential.md).
 */
type Elem = string | StructType | undefined;
const NAN_BITS = { f16: [0x7c00, 0x3ff], bf16: [0x7f80, 0x7f] } as const;
const isHalfNaN = (kind: "f16" | "bf16", bits: number) => (bits & NAN_BITS[kind][0]) === NAN_BITS[kind][0] && (bits & NAN_BITS[kind][1]) !== 0;

function describeOutcome(o: Outcome, args: readonly SimArg[], elems: readonly Elem[]) {
  const error = o.error instanceof SimError ? { code: o.error.code, message: o.error.message, notes: o.error.diagnostic.notes } : o.error;
  const text = (x: number | bigint) => (Object.is(x, -0) ? "-0" : String(x));
  const describe = (a: ArrayLike<number | bigint>, elem: Elem): string => {
    if (typeof elem === "object") {
      // The bytes of an array of structs, with every f16/bf16 NaN in them made the same.
      const bytes = Uint8Array.from(a as ArrayLike<number>);
      const halves = leaves(elem).flatMap((l) => (l.type.name === "f16" || l.type.name === "bf16" ? [{ at: l.offset, kind: l.type.name }] : []));
      for (let base = 0; base + elem.size <= bytes.length; base += elem.size) {
        for (const h of halves) {
          const i = base + h.at;
          if (isHalfNaN(h.kind, bytes[i]! | (bytes[i + 1]! << 8))) bytes.set([0xc0, 0x7f], i); // 0x7fc0: a NaN in both
        }
      }
      return bytes.join(",");
    }
    const half = elem === "f16" || elem === "bf16" ? elem : undefined;
    return Array.from(a, (x) => (half && typeof x === "number" && isHalfNaN(half, x) ? "NaN" : text(x))).join(",");
  };
  const arrays = args.map((a, i) => (ArrayBuffer.isView(a) ? describe(a as unknown as ArrayLike<number | bigint>, elems[i]) : a));
  return { error, steps: o.result?.steps, arrays };
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

export function scalarParam(name: string, type: ScalarType, mutable = false): ValueVar {
  return { kind: "valueVar", id: ids++, name, type, mutable, span: SPAN };
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
  return { file: SPAN.file, functions, kernels, structs: [], constants: [], launches: [] };
}

export const load = (array: ArrayVar, index: Expr): Expr => ({ kind: "load", type: array.type.elem, array, indices: [index], path: [], vector: null, span: SPAN });
export const gid: Expr = { kind: "special", type: T.i32, name: "globalId", axis: 0, span: SPAN };
export const store = (array: ArrayVar, index: Expr, value: Expr): Stmt => ({ kind: "store", array, indices: [index], path: [], vector: null, value, span: SPAN });

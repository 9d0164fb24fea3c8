/**
 * Generated programs as kernels to run: printed with a name, with their arguments and the
 * tolerance of each output, alone or many in one module. Nothing here needs fast-check
 * (the arbitraries that make the programs are in kernel.ts and index.ts), so gk/testing
 * offers these without it.
 */
import { mathBuiltin } from "../../ir/builtins.js";
import { type AnyTypedArray, type ArgValue } from "../../ir/values.js";
import type { Tolerance } from "../compare.js";
import type { Dim3 } from "../../ir/limits.js";
import type { FloatTy, Param, Program, Stmt } from "./ast.js";
import { printProgram } from "./print.js";

/** A kernel argument: a scalar (boolean, number, or bigint for 64-bit integers) or a TypedArray. */
export type { ArgValue };

export interface GeneratedKernel {
  /** The `.gk` text: the kernel, the device functions it calls, its constants. */
  readonly source: string;
  /** The kernel's name as printed (its device functions and constants are prefixed with it). */
  readonly name: string;
  /** The kernel that runs: `name`, or the instance `name<S>` of a generic kernel (Program.sizeParam). */
  readonly kernel: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  /** Arguments in parameter order. Arrays are shared with the generator: run on `cloneArgs(args)`. */
  readonly args: readonly ArgValue[];
  /** The lengths of its dynamic shared arrays, by name (the launch's `shared`). */
  readonly shared: Readonly<Record<string, number>>;
  /** The contents of the constant arrays of its module, by name as printed (each launch gives those the kernel reads). */
  readonly constants: Readonly<Record<string, AnyTypedArray>>;
  readonly params: readonly Param[];
  /** How each written array is compared (absent: bit for bit). */
  readonly tolerance: Readonly<Record<string, Tolerance>>;
  readonly program: Program;
}

/** The program printed with kernel name `name`, its arguments and tolerances. */
export function generatedKernel(p: Program, name: string): GeneratedKernel {
  const printed = printProgram(p, name);
  const args = printed.params.map((q) => p.values.get(q.name)!);
  const shared = Object.fromEntries(p.sharedLengths);
  const constants = Object.fromEntries(p.constantArrays.map((a) => [`${name}_${a.name}`, p.values.get(a.name) as AnyTypedArray]));
  const kernel = p.sizeParam ? `${name}<${p.sizeParam.value}>` : name;
  return { source: printed.source, name, kernel, grid: p.grid, block: p.block, args, shared, constants, params: printed.params, tolerance: tolerances(p), program: p };
}

/** Copies of the arguments, so that a run does not change the originals. */
export function cloneArgs(args: readonly ArgValue[]): ArgValue[] {
  return args.map((a) => (ArrayBuffer.isView(a) ? (a as AnyTypedArray).slice() : a));
}

/**
 * The `approx_T` arrays' tolerance: the largest ulp error the builtin table states for the
 * builtins stored there, plus one for the simulator's own rounding (spec/builtins.md); the
 * `fast_f32` array's: its region's (fast.ts); where the program's target may give either zero
 * (Program.eitherZero), every written array's at least -0 = +0; where it may flush subnormal
 * results (Program.flushesSubnormals), within 2^-126.
 */
export function tolerances(p: Program): Record<string, Tolerance> {
  const worst = new Map<string, number>();
  const visit = (ss: readonly Stmt[]) => {
    for (const s of ss) {
      if (s.k === "assign" && s.target.name.startsWith("approx_") && s.value.k === "builtin") {
        const t = s.target.t as FloatTy;
        const ulp = mathBuiltin(s.value.fn)?.ulp[t] ?? 0;
        worst.set(s.target.name, Math.max(worst.get(s.target.name) ?? 0, ulp));
      }
      for (const inner of childStatements(s)) visit(inner);
    }
  };
  visit(p.body);
  const out: Record<string, Tolerance> = Object.fromEntries([...worst].map(([name, ulp]) => [name, { ulp: ulp + 1 }]));
  if (p.fastTolerance && Object.keys(p.fastTolerance).length) out["fast_f32"] = p.fastTolerance;
  // An empty tolerance: floats equal where their values are (-0 = +0), integers bit for bit.
  if (p.eitherZero) for (const q of p.params) if (q.type.kind === "global" && !q.type.readonly) out[q.name] ??= {};
  // A subnormal result may be flushed: within 2^-126 of each other (the smallest normal) is equal.
  if (p.flushesSubnormals) for (const q of p.params) if (q.type.kind === "global" && !q.type.readonly) out[q.name] = { ...out[q.name], abs: Math.max(out[q.name]?.abs ?? 0, 2 ** -126) };
  return out;
}

function childStatements(s: Stmt): (readonly Stmt[])[] {
  switch (s.k) {
    case "if":
      return s.else ? [s.then, s.else] : [s.then];
    case "for":
    case "while":
    case "doWhile":
    case "block":
      return [s.body];
    default:
      return [];
  }
}

export interface BatchEntry extends GeneratedKernel {
  /** Lines of the batch source that hold this kernel (1-based, inclusive). */
  readonly lines: readonly [number, number];
}

export interface Batch {
  readonly source: string;
  readonly kernels: readonly BatchEntry[];
}

/** Many programs in one module, each kernel under its own name (device functions and constants are prefixed by it). */
export function printBatch(entries: readonly { readonly name: string; readonly program: Program }[]): Batch {
  const parts: string[] = [];
  const kernels: BatchEntry[] = [];
  let line = 1;
  for (const e of entries) {
    const k = generatedKernel(e.program, e.name);
    const n = k.source.split("\n").length - 1;
    kernels.push({ ...k, lines: [line, line + n - 1] });
    parts.push(k.source);
    line += n + 1;
  }
  return { source: parts.join("\n"), kernels };
}

/** The batch entry whose lines hold `line`. */
export function kernelAtLine(b: Batch, line: number): BatchEntry | undefined {
  return b.kernels.find((k) => line >= k.lines[0] && line <= k.lines[1]);
}

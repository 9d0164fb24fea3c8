/**
 * Random well-typed, well-defined gk kernels for differential testing, as fast-check
 * arbitraries (so a failing kernel shrinks to a small one):
 *
 *   fc.assert(fc.property(arbKernel(), (k) => { ... k.source, k.kernel, k.grid, k.block, k.args ... }));
 *
 * Each kernel's outputs are fully determined by the language's semantics: the GPU (built
 * with `--fmad=false`) and the simulator must agree on them bit for bit, except the
 * `approx_*` arrays, which hold results of inexact math builtins and are compared within
 * `tolerance` (spec/differential.md).
 */
import fc from "fast-check";
import { generatedKernel, type GeneratedKernel } from "./generated.js";
import { arbProgram, type GenOptions } from "./kernel.js";

export { arbProgram, INPUT_LENGTH, SLOTS, type GenOptions } from "./kernel.js";
export { printProgram, type PrintedProgram } from "./print.js";
export type { Program } from "./ast.js";
export { cloneArgs, generatedKernel, kernelAtLine, printBatch, tolerances, type ArgValue, type Batch, type BatchEntry, type GeneratedKernel } from "./generated.js";
export { features, genericUse } from "./coverage.js";

export function arbKernel(opts: GenOptions & { readonly name?: string } = {}): fc.Arbitrary<GeneratedKernel> {
  return arbProgram(opts).map((p) => generatedKernel(p, opts.name ?? "k"));
}

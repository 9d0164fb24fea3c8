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
import { plantRace, type PlantedRace } from "./races.js";

export { arbProgram, INPUT_LENGTH, SLOTS, type GenOptions } from "./kernel.js";
export { printProgram, type PrintedProgram } from "./print.js";
export type { Program } from "./ast.js";
export { cloneArgs, generatedKernel, kernelAtLine, printBatch, tolerances, type ArgValue, type Batch, type BatchEntry, type GeneratedKernel } from "./generated.js";
export { features, genericUse } from "./coverage.js";
export { ORDERED_KINDS, plantRace, raceKindsFor, RACE_KINDS, type PlantedRace, type RaceKind } from "./races.js";

export function arbKernel(opts: GenOptions & { readonly name?: string } = {}): fc.Arbitrary<GeneratedKernel> {
  return arbProgram(opts).map((p) => generatedKernel(p, opts.name ?? "k"));
}

/**
 * Kernels with a data race planted on purpose (races.ts), and which: for testing the race
 * detector. `arbKernel` plants none, so its seeds keep giving the same kernels. `race` is
 * undefined for a launch of one thread in one block, which cannot race.
 */
export function arbRacyKernel(opts: GenOptions & { readonly name?: string } = {}): fc.Arbitrary<{ readonly kernel: GeneratedKernel; readonly race: PlantedRace | undefined }> {
  return arbProgram(opts)
    .chain(plantRace)
    .map(({ program, race }) => ({ kernel: generatedKernel(program, opts.name ?? "k"), race }));
}

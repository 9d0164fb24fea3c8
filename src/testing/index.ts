/**
 * Differential testing for gk kernels: run a kernel on the simulator (the definition of
 * gk's semantics) and on the GPU, and compare what they write (spec/differential.md); and
 * generate random well-typed, well-defined kernels to do that with.
 *
 *   import { expectSameOnCpuAndGpu, gpuAvailable } from "gk/testing";   // src/testing/index.ts
 *   await expectSameOnCpuAndGpu(source, "saxpy", { grid: 4, block: 256 }, { n, alpha, x, y, out });
 */
export {
  checkProgram, compareCpuGpu, CpuGpuComparer, expectSameOnCpuAndGpu, gpuAvailable,
  type ArgInput, type ArgsInput, type ArgValue, type CompareOptions, type ComparerOptions, type Comparison, type LaunchShape, type ProgramInput,
} from "./cpuGpu.js";
export {
  arrayText, bitsOf, compareArrays, describeMismatches, hexBits, sameElement, toleranceText, ulpDistance, valueText,
  type ArrayComparison, type ElementDiff, type Tolerance,
} from "./compare.js";
// The random kernels need fast-check (an optional peer dependency): arbitraries.ts loads them
// where it is installed. The rest of gk/testing works without it.
export { arbKernel, arbProgram } from "./arbitraries.js";
export { cloneArgs, generatedKernel, printBatch, tolerances, type Batch, type BatchEntry, type GeneratedKernel } from "./gen/generated.js";
export { features } from "./gen/coverage.js";
export { runProgress, type RunProgress, type RunProgressOptions } from "./progress.js";
export { printProgram, type PrintedProgram } from "./gen/print.js";
export type { GenOptions } from "./gen/kernel.js";
export type { Program } from "./gen/ast.js";

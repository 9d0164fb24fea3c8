/**
 * gk's CPU simulator: kernels compiled from the IR to JavaScript (src/codegen/js), with the exact numeric
 * semantics of evalOp, shared memory and barriers per block, atomics, and errors that name
 * the `.gk` line, the kernel, the thread and the block.
 */
export { compileKernel, runKernel, DEFAULT_STEP_BUDGET } from "./kernel.js";
export type { Dim, SimKernel, SimLaunch, SimOptions, SimResult, TypedArray } from "./kernel.js";
export type { SimArg } from "./args.js";
export { SimError } from "./errors.js";
export { simulateLaunch } from "./launch.js";
export type { SimulatedLaunch } from "./launch.js";

/**
 * The CUDA target record (src/ir/target.ts): what the CUDA code generator tells the stages
 * before it. The checker is handed it (a kernel's name is its `extern "C"` symbol, so the
 * names C++ and the CUDA headers claim are refused, GK2011; CUDA's spellings of gk's builtins
 * become hints, GK2004; its limits bound declarations and launch statements), and `legalize`
 * reads its capabilities: CUDA has every one. A CUDA device (and the simulator, which stands
 * in for one) checks launches against the same limits.
 *
 * The rest of what is CUDA's sits beside this file: the builtin column (builtins.ts), the
 * reserved names (reserved.ts), the type names and headers (settings.ts).
 */
import type { Limits } from "../../ir/limits.js";
import type { Target } from "../../ir/target.js";
import { kernelSymbolProblem } from "./reserved.js";
import { cudaSpelling } from "./spellings.js";

/**
 * CUDA for a GPU before sm_80 (Volta, Turing): no `mma.sync` shapes gk offers and no `cp.async`,
 * so `legalize` refuses the tensor-core and asynchronous-copy builtins, located (GK7008), before
 * nvcc would fail on the PTX.
 */
export function cudaTargetFor(arch: number): Target {
  return arch >= 80 ? CUDA_TARGET : { ...CUDA_TARGET, name: `CUDA sm_${arch}`, capabilities: { ...CUDA_TARGET.capabilities, tensorCores: false, asyncCopies: false } };
}

/**
 * CUDA's limits: those of every GPU gk targets (compute capability 7.0 and later), except the
 * shared memory a block may opt in to, which is the H100's (227 KiB; an A100 opts in to 163
 * KiB, and its launcher refuses more with the GPU's own figure, GK8010).
 */
const CUDA_LIMITS: Limits = {
  grid: [0x7fffffff, 65535, 65535],
  block: [1024, 1024, 64],
  blockThreads: 1024,
  staticSharedBytes: 48 * 1024,
  sharedBytes: 227 * 1024,
  sharedBytesWhat: "the H100's opt-in maximum",
  // `__constant__` memory per module.
  constantBytes: 64 * 1024,
  // Local memory per thread.
  localBytes: 512 * 1024,
  // The launcher's limit.
  kernelArgs: 1024,
};

export const CUDA_TARGET: Target = {
  name: "CUDA",
  capabilities: {
    f64: true,
    i64: true,
    halves: true,
    smallInts: true,
    warpOperations: true,
    dynamicShared: true,
    views: true,
    references: true,
    atomics: true,
    memoryOrdering: true,
    tensorCores: true,
    globalBools: true,
    asyncCopies: true,
  },
  kernelSymbol: { what: 'its CUDA symbol (extern "C")', problem: kernelSymbolProblem },
  spelling: cudaSpelling,
  limits: CUDA_LIMITS,
};

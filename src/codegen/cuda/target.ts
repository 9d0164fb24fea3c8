/**
 * The CUDA target record (src/ir/target.ts): what the CUDA code generator tells the stages
 * before it. The checker is handed it (a kernel's name is its `extern "C"` symbol, so the
 * names C++ and the CUDA headers claim are refused, GK2011; CUDA's spellings of gk's builtins
 * become hints, GK2004), and `legalize` reads its capabilities: CUDA has every one.
 *
 * The rest of what is CUDA's sits beside this file: the builtin column (builtins.ts), the
 * reserved names (reserved.ts), the type names and headers (settings.ts).
 */
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
    asyncCopies: true,
  },
  kernelSymbol: { what: 'its CUDA symbol (extern "C")', problem: kernelSymbolProblem },
  spelling: cudaSpelling,
};

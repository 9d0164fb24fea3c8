/**
 * What a code generator's target tells the stages before it (Halide's `Target`, esbuild's
 * `compat` table): a record per backend (CUDA: src/codegen/cuda/target.ts), handed to the
 * checker and to `legalize` (src/ir/passes/legalize.ts) rather than imported by them, so the
 * language's stages know no backend by name. A device has its target too, whose limits the
 * API's and the simulator's launch checks read (src/runtime/device/device.ts).
 */
import type { Limits } from "./limits.js";

/** What a target may lack; `legalize` refuses a program that uses what its target lacks. */
export interface Capabilities {
  /** f64 values, arrays and math. */
  readonly f64: boolean;
  /** i64 and u64. */
  readonly i64: boolean;
  /** f16 and bf16. */
  readonly halves: boolean;
  /** i8 u8 i16 u16. */
  readonly smallInts: boolean;
  /** Shuffles, votes, matches and syncWarp. */
  readonly warpOperations: boolean;
  /** `dynamicShared` arrays, sized at launch. */
  readonly dynamicShared: boolean;
  /** `view<T>` parameters of device functions. */
  readonly views: boolean;
  /** `inout` and `out` parameters of device functions. */
  readonly references: boolean;
  /** Atomics (`atomicAdd`, ...). */
  readonly atomics: boolean;
  /** Ordered accesses and fences (`loadAcquire`, `threadfence`, ...). */
  readonly memoryOrdering: boolean;
  /** Warp-level matrix multiply-accumulate (`mma_m16n8k16_f16`, ...): NVIDIA sm_80 and later. */
  readonly tensorCores: boolean;
  /** bool elements (1 byte each) in global memory, alone or in a struct: WGSL's storage buffers hold no type narrower than 32 bits. */
  readonly globalBools: boolean;
  /** Asynchronous global → shared copies (`cpAsync`, `cpAsyncCommit`, `cpAsyncWait`, ...): NVIDIA sm_80 and later. */
  readonly asyncCopies: boolean;
}

export type Capability = keyof Capabilities;

/** In the words of a diagnostic: "the <target> target has no <what>". */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  f64: "f64",
  i64: "64-bit integers (i64, u64)",
  halves: "half-precision floats (f16, bf16)",
  smallInts: "8- and 16-bit integers (i8, u8, i16, u16)",
  warpOperations: "warp operations (shuffles, votes, matches, syncWarp)",
  dynamicShared: "dynamic shared arrays",
  views: "view<T> parameters",
  references: "inout and out parameters",
  atomics: "atomics",
  memoryOrdering: "ordered accesses and fences",
  tensorCores: "tensor cores (mma_..., for NVIDIA sm_80 and later)",
  globalBools: "bool elements in global memory (alone or in a struct)",
  asyncCopies: "asynchronous copies (cpAsync..., for NVIDIA sm_80 and later)",
};

/** A gk builtin as another language spells it, for messages: CUDA's `sqrtf` is gk's `sqrt`. */
export interface Spelling {
  readonly gk: string;
  readonly note?: string;
}

export interface Target {
  /** Its name in messages ("CUDA"). */
  readonly name: string;
  readonly capabilities: Capabilities;
  /** Builtins (by gk name) the target has no implementation of, and why, in a message's words; none when absent. */
  readonly lacksBuiltins?: ReadonlyMap<string, string>;
  /** The sizes its GPUs accept: grids, blocks, shared, constant and local memory, kernel arguments (src/ir/limits.ts). */
  readonly limits: Limits;
  /** A kernel's name in the built module: what it is, in a message's words (`its CUDA symbol (extern "C")`), and why a name cannot be one (GK2011). */
  readonly kernelSymbol: {
    readonly what: string;
    readonly problem: (name: string) => string | undefined;
  };
  /** The gk spelling of a name this target's language uses for a builtin or a cast, for the checker's hints (GK2004). */
  readonly spelling: (name: string) => Spelling | undefined;
}

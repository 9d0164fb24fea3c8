/**
 * The CUDA column of the builtin table: how CUDA computes each builtin of src/ir/builtins.ts,
 * keyed by the builtin's name, and the prelude helpers (src/codegen/cuda/helpers.ts) each
 * template uses. The IR's table keeps what is the language's (rule, doc, accuracy, the
 * simulator's definition); a backend keeps its own column like this one, and
 * test/codegen/cuda/builtins.test.ts checks that it has every builtin, for every type the
 * builtin accepts. The math and fast-math builtins are in mathBuiltins.ts, the atomics in
 * atomicBuiltins.ts.
 */
import type { Axis, CacheHint, SpecialName, WarpOp } from "../../ir/nodes.js";
import { call, raw, type Template } from "../../ir/templates.js";
import type { ScalarName } from "../../ir/types.js";
import { ORDERED_TYPES, VOLATILE_TYPES } from "../../ir/memoryBuiltins.js";
import type { CudaHelperName, CudaImpl, CudaPerType } from "./helpers.js";


export { CUDA_ATOMICS } from "./atomicBuiltins.js";
export { CUDA_MATH } from "./mathBuiltins.js";

export type { CudaImpl, CudaPerType };

/** A thread index on an axis as CUDA computes it: an `unsigned int` spelled as a primary expression; gk's i32 is that converted. */
export interface CudaIndex {
  readonly value: (axis: Axis) => string;
  readonly helpers?: readonly CudaHelperName[];
}

export const CUDA_SYNC: Readonly<Record<string, Template>> = {
  barrier: call("__syncthreads"),
};

const AXES = ["x", "y", "z"] as const;
const builtinIndex = (name: string): CudaIndex => ({ value: (a) => `${name}.${AXES[a]}` });

export const CUDA_INDEX: Readonly<Record<SpecialName, CudaIndex>> = {
  threadIdx: builtinIndex("threadIdx"),
  blockIdx: builtinIndex("blockIdx"),
  blockDim: builtinIndex("blockDim"),
  gridDim: builtinIndex("gridDim"),
  globalId: { value: (a) => `(blockIdx.${AXES[a]} * blockDim.${AXES[a]} + threadIdx.${AXES[a]})` },
  laneId: { value: () => "(gk_thread_rank() & 31u)", helpers: ["gk_thread_rank"] },
};

/**
 * The lanes of the caller's warp that exist (all 32 but in a block's last, partial warp): a
 * local that each function using a warp operation computes once at its top
 * (function.ts). Computed at every operation, as gk_warp_mask() in place, nvcc 13 re-derives it
 * from the block's shape at each one: gk/std/scan's scanPacked ran 0.188 ms at 2^26 elements
 * that way against 0.171 with the local (H200, one process, the same code otherwise).
 */
export const WARP_MASK = "gk_mask";

/** The warp operations, for every operand type (the intrinsics are overloaded); a shuffle's lane operand arrives as an int in 0..31. */
export const CUDA_WARP: Readonly<Record<WarpOp, CudaImpl>> = {
  shfl: { template: raw(([v, l]) => `__shfl_sync(${WARP_MASK}, ${v}, ${l})`), helpers: ["gk_warp_mask"] },
  shflUp: { template: raw(([v, l]) => `__shfl_up_sync(${WARP_MASK}, ${v}, ${l})`), helpers: ["gk_warp_mask"] },
  shflDown: { template: raw(([v, l]) => `gk_shfl_down(${WARP_MASK}, ${v}, ${l})`), helpers: ["gk_shfl_down", "gk_warp_mask"] },
  shflXor: { template: raw(([v, l]) => `__shfl_xor_sync(${WARP_MASK}, ${v}, ${l})`), helpers: ["gk_warp_mask"] },
  ballot: { template: raw(([p]) => `__ballot_sync(${WARP_MASK}, ${p})`), helpers: ["gk_warp_mask"] },
  anyLane: { template: raw(([p]) => `(__any_sync(${WARP_MASK}, ${p}) != 0)`), helpers: ["gk_warp_mask"] },
  allLanes: { template: raw(([p]) => `(__all_sync(${WARP_MASK}, ${p}) != 0)`), helpers: ["gk_warp_mask"] },
  matchAny: { template: raw(([v]) => `__match_any_sync(${WARP_MASK}, ${v})`), helpers: ["gk_warp_mask"] },
  matchAll: { template: raw(([v]) => `gk_match_all(${WARP_MASK}, ${v})`), helpers: ["gk_match_all", "gk_warp_mask"] },
  syncWarp: { template: raw(() => `__syncwarp(${WARP_MASK})`), helpers: ["gk_warp_mask"] },
  // Tensor cores (mmaHelpers.ts): a template per builtin, overloaded by the accumulators' type.
  mma_m16n8k16_f16: { template: call("gk_mma_m16n8k16_f16"), helpers: ["gk_mma_m16n8k16_f16"] },
  mma_m16n8k16_bf16: { template: call("gk_mma_m16n8k16_bf16"), helpers: ["gk_mma_m16n8k16_bf16"] },
  mma_m16n8k8_tf32: { template: call("gk_mma_m16n8k8_tf32"), helpers: ["gk_mma_m16n8k8_tf32"] },
  mma_m16n8k32_s8: { template: call("gk_mma_m16n8k32_s8"), helpers: ["gk_mma_m16n8k32_s8"] },
  mma_m16n8k32_u8: { template: call("gk_mma_m16n8k32_u8"), helpers: ["gk_mma_m16n8k32_u8"] },
  // ldmatrix: the operand is the lane's row as a load4 (an lvalue), which the helper binds by reference to take its address.
  ldmatrix_x1: { template: call("gk_ldmatrix_x1"), helpers: ["gk_ldmatrix_x1"] },
  ldmatrix_x2: { template: call("gk_ldmatrix_x2<gk_u32x2>"), helpers: ["gk_ldmatrix_x2"] },
  ldmatrix_x4: { template: call("gk_ldmatrix_x4<gk_u32x4>"), helpers: ["gk_ldmatrix_x4"] },
  ldmatrix_x1_trans: { template: call("gk_ldmatrix_x1_trans"), helpers: ["gk_ldmatrix_x1_trans"] },
  ldmatrix_x2_trans: { template: call("gk_ldmatrix_x2_trans<gk_u32x2>"), helpers: ["gk_ldmatrix_x2_trans"] },
  ldmatrix_x4_trans: { template: call("gk_ldmatrix_x4_trans<gk_u32x4>"), helpers: ["gk_ldmatrix_x4_trans"] },
};

function perType(types: readonly ScalarName[], impl: (t: ScalarName) => CudaImpl): CudaPerType {
  return Object.fromEntries(types.map((t) => [t, impl(t)]));
}

/**
 * The asynchronous copies (asyncCopyHelpers.ts), by the builtin's constant (a copy's bytes,
 * cpAsyncWait's n, which PTX takes as immediates): a copy's template is over `[dst, src, n]`
 * (the two elements' addresses, the bytes read), the others' over nothing.
 */
export const CUDA_ASYNC_COPY: Readonly<Record<string, (constant: number) => CudaImpl>> = {
  cpAsync: (bytes) => ({ template: call(`gk_cp_async_ca<${bytes}>`), helpers: ["gk_cp_async_ca"] }),
  cpAsyncL2: (bytes) => ({ template: call(`gk_cp_async_cg<${bytes}>`), helpers: ["gk_cp_async_cg"] }),
  cpAsyncCommit: () => ({ template: call("gk_cp_async_commit"), helpers: ["gk_cp_async_commit"] }),
  cpAsyncWait: (n) => ({ template: call(`gk_cp_async_wait<${n}>`), helpers: ["gk_cp_async_wait"] }),
  cpAsyncWaitAll: () => ({ template: call("gk_cp_async_wait_all"), helpers: ["gk_cp_async_wait_all"] }),
};

/**
 * The memory-ordering builtins (src/ir/memoryBuiltins.ts): per element type, a template over
 * `[addr]` (loads) or `[addr, value]` (stores), `addr` as for atomics; a fence's one template,
 * over nothing, is filed under `fence`.
 */
export const CUDA_MEMORY: Readonly<Record<string, Partial<Record<ScalarName | "fence", CudaImpl>>>> = {
  threadfenceBlock: { fence: { template: call("__threadfence_block") } },
  threadfence: { fence: { template: call("__threadfence") } },
  loadAcquire: perType(ORDERED_TYPES, (t) => ({ template: call("gk_ld_acquire"), helpers: [`gk_ld_acquire_${t}` as CudaHelperName] })),
  storeRelease: perType(ORDERED_TYPES, (t) => ({ template: call("gk_st_release"), helpers: [`gk_st_release_${t}` as CudaHelperName] })),
  loadVolatile: perType(VOLATILE_TYPES, () => ({ template: call("gk_ld_volatile"), helpers: ["gk_ld_volatile"] })),
  storeVolatile: perType(VOLATILE_TYPES, () => ({ template: call("gk_st_volatile"), helpers: ["gk_st_volatile"] })),
};

/**
 * The cache hints (src/ir/cacheHintBuiltins.ts): the prelude helper of a hinted load, and of a
 * hinted store where the hint has one; each takes the element's (or the vector's) address.
 */
export const CUDA_CACHE_HINTS = {
  streaming: { load: "gk_ld_cs", store: "gk_st_cs" },
  readOnly: { load: "gk_ld_nc", store: undefined },
} as const satisfies Record<CacheHint, { readonly load: CudaHelperName; readonly store: CudaHelperName | undefined }>;

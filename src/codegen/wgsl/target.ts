/**
 * The WGSL target record (src/ir/target.ts): what the WGSL code generator tells the stages
 * before it. `legalize` refuses what WGSL (WebGPU without optional features) lacks, located
 * (GK7008): f64, i64/u64, f16/bf16 (f16 needs the `shader-f16` feature, which SwiftShader does
 * not have, so gk cannot test it here; bf16 has no WGSL type), the 8- and 16-bit integers,
 * warp operations and tensor cores (subgroups are an optional feature, not a fixed warp of
 * 32), views and references (a device function cannot take a pointer into a storage buffer
 * in core WGSL), ordered accesses and fences (WGSL has barriers only), and bool elements of
 * global memory (storage buffers hold only 32-bit types); and the math functions WGSL has no
 * bounded counterpart of (`log1p expm1 cbrt hypot erf erfc`, math.ts). spec/wgsl.md gives the
 * reasons.
 *
 * Its limits are WebGPU's defaults, which every adapter offers (a device may be asked for more).
 */
import type { Limits } from "../../ir/limits.js";
import type { Target } from "../../ir/target.js";

/** WebGPU's default limits that a kernel meets (GPUSupportedLimits names). */
export interface WgslLimits {
  /** Workgroup (shared) memory of one workgroup, in bytes. */
  readonly maxComputeWorkgroupStorageSize: number;
  /** Threads of one workgroup (block). */
  readonly maxComputeInvocationsPerWorkgroup: number;
  /** The largest block on each axis. */
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupSizeY: number;
  readonly maxComputeWorkgroupSizeZ: number;
  /** The largest grid on each axis. */
  readonly maxComputeWorkgroupsPerDimension: number;
  /** Storage buffers one kernel binds: its global parameters and the constant arrays it reads. */
  readonly maxStorageBuffersPerShaderStage: number;
  /** Bytes of one storage buffer binding. */
  readonly maxStorageBufferBindingSize: number;
}

export interface WgslTarget extends Target {
  /** WebGPU's own figures (GPUSupportedLimits names), beside gk's `limits` made from them. */
  readonly webgpuLimits: WgslLimits;
}

export const WGSL_LIMITS: WgslLimits = {
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeWorkgroupsPerDimension: 65535,
  maxStorageBuffersPerShaderStage: 8,
  maxStorageBufferBindingSize: 134217728,
};

/**
 * gk's limits (src/ir/limits.ts) on a WebGPU device of these limits (WebGPU's defaults for the
 * checker; a device's own for the API's launch checks): past them the checker, the API and the
 * simulator refuse.
 */
export function gkLimitsOf(w: WgslLimits, what = "WebGPU's default workgroup storage"): Limits {
  return {
    grid: [w.maxComputeWorkgroupsPerDimension, w.maxComputeWorkgroupsPerDimension, w.maxComputeWorkgroupsPerDimension],
    block: [w.maxComputeWorkgroupSizeX, w.maxComputeWorkgroupSizeY, w.maxComputeWorkgroupSizeZ],
    blockThreads: w.maxComputeInvocationsPerWorkgroup,
    staticSharedBytes: w.maxComputeWorkgroupStorageSize,
    sharedBytes: w.maxComputeWorkgroupStorageSize,
    sharedBytesWhat: what,
    // Constant arrays are storage buffers (layout.ts): one binding's bytes.
    constantBytes: w.maxStorageBufferBindingSize,
    // WGSL sets no bound on a function's variables; CUDA's keeps generated kernels portable.
    localBytes: 512 * 1024,
    // Value parameters are 4-byte slots of one uniform block (64 KiB, WebGPU's maxUniformBufferBindingSize).
    kernelArgs: 16384,
  };
}

/** The WGSL target of a device of these limits (the API's launch checks read its `limits`). */
export function wgslTargetFor(w: WgslLimits): WgslTarget {
  return { ...WGSL_TARGET, limits: gkLimitsOf(w, "this WebGPU device's workgroup storage"), webgpuLimits: w };
}

/** Builtins the WGSL target lacks, and why (legalize's words); math.ts writes every other. */
export const WGSL_LACKS: ReadonlyMap<string, string> = new Map(
  ["log1p", "expm1", "cbrt", "hypot", "erf", "erfc"].map((n) => [n, "WGSL has no such function, and a formula of its functions would lose the accuracy it exists for"]),
);

export const WGSL_TARGET: WgslTarget = {
  name: "WGSL",
  capabilities: {
    f64: false,
    i64: false,
    halves: false,
    smallInts: false,
    warpOperations: false,
    dynamicShared: true,
    views: false,
    references: false,
    atomics: true,
    memoryOrdering: false,
    tensorCores: false,
    globalBools: false,
    asyncCopies: false,
  },
  lacksBuiltins: WGSL_LACKS,
  // Entry points are named in the descriptor (layout.ts), renamed where WGSL reserves the name.
  kernelSymbol: { what: "its WGSL entry point", problem: () => undefined },
  spelling: wgslSpelling,
  limits: gkLimitsOf(WGSL_LIMITS),
  webgpuLimits: WGSL_LIMITS,
};

/** WGSL's names for what gk spells differently, for the checker's hints (GK2004). */
const SPELLINGS: ReadonlyMap<string, { gk: string; note?: string }> = new Map([
  ["workgroupBarrier", { gk: "barrier" }],
  ["inverseSqrt", { gk: "rsqrt" }],
  ["atomicExchange", { gk: "atomicExch" }],
  ["atomicCompareExchangeWeak", { gk: "atomicCAS", note: "gk's returns the old value" }],
]);

function wgslSpelling(name: string): { gk: string; note?: string } | undefined {
  return SPELLINGS.get(name);
}

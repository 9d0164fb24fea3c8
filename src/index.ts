/** gk's public TypeScript API. */
export { compile, compileSource, GkCompileError, GkModule } from "./runtime/api.js";
export type { ArgInput, CompileOptions, GenericArgs, KernelArgs, KernelFn, KernelOutputs, LaunchConfig, LoadedModule, ModuleOptions } from "./runtime/api.js";
export { openDevice, GpuDevice, GpuQueue } from "./runtime/device/device.js";
export type { DeviceOptions, SyncOptions } from "./runtime/device/device.js";
export { GpuArray } from "./runtime/device/gpuArray.js";
export type { ArrayOptions, ElemName } from "./runtime/device/gpuArray.js";
export type { Isolation } from "./runtime/device/engine.js";
export type { RunConfig } from "./runtime/device/launching.js";
export { GkRuntimeError } from "./runtime/launcher/errors.js";
export { packStructs, unpackStructs } from "./runtime/structs.js";
export type { StructType, StructField, ValueType, VectorType, ScalarType } from "./ir/types.js";
export { SimError } from "./runtime/sim/index.js";
export { bf16ToFloat32, f16ToFloat32, float32ToBf16, float32ToF16 } from "./runtime/halfArrays.js";
export { roundBf16, roundF16 } from "./ir/halves.js";
export { frontEnd } from "./pipeline.js";
export type { FrontEndResult } from "./pipeline.js";
export * from "./diagnostics/index.js";

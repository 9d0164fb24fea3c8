/** gk's public TypeScript API. */
export { compile, compileSource, GkCompileError, GkModule } from "./runtime/api.js";
export type { ArgInput, CompileOptions, KernelArgs, KernelFn, KernelOutputs, LaunchConfig } from "./runtime/api.js";
export { GkRuntimeError } from "./runtime/launcher.js";
export { packStructs, unpackStructs } from "./runtime/structs.js";
export type { StructType, StructField, ValueType, VectorType, ScalarType } from "./ir/types.js";
export { SimError } from "./runtime/sim/index.js";
export { frontEnd } from "./pipeline.js";
export type { FrontEndResult } from "./pipeline.js";
export * from "./diagnostics/index.js";

/** gk's public TypeScript API. */
export { compile, compileSource, GkCompileError, GkModule } from "./runtime/api.js";
export type { ArgInput, CompileOptions, KernelArgs, KernelFn, KernelOutputs, LaunchConfig } from "./runtime/api.js";
export { GkRuntimeError } from "./runtime/launcher.js";
export { SimError } from "./runtime/sim/index.js";
export { bf16ToFloat32, f16ToFloat32, float32ToBf16, float32ToF16 } from "./runtime/halfArrays.js";
export { roundBf16, roundF16 } from "./ir/halves.js";
export { frontEnd } from "./pipeline.js";
export type { FrontEndResult } from "./pipeline.js";
export * from "./diagnostics/index.js";

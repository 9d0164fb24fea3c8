/**
 * gk's kernel language for TypeScript (spec/typescript.md): the scalar and vector types,
 * conversions, vector constructors and builtins a kernel body uses, kernel(), deviceFn(),
 * the arrays (shared(), dynamicShared(), local(), table(), constant(), view()) and the
 * annotations (unroll(), flushToZero(), launchBounds(), maxRegisters()).
 */
export * from "./declarations.js";
export type { AnyScalar, ArrayOf, AtomicTarget, Cast, ConstantArray, Dim3, GenericKernelFn, Global, HostArg, HostArgs, HostArray, HostValue, InOut, KernelLaunchConfig, LaneOf, Num, OrderedTarget, Out, ReadonlyGlobal, ReadonlyView, ReadView, Scalar, ScalarNameOf, Shared, Swizzles, Table, VectorCtor, VectorOf, View } from "./types.js";
export { constant, dynamicShared, local, shared, table, view, type DimsOf } from "./memory.js";
export { flushToZero, launchBounds, maxRegisters, unroll } from "./annotations.js";
export { deviceFn, kernel, type Kernel, type KernelConfig, type PrebuiltKernel } from "./kernel.js";

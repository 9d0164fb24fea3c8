/**
 * gk's kernel language for TypeScript (spec/typescript.md): the types, conversions and
 * builtins a kernel body uses, kernel(), deviceFn(), the arrays (shared(), dynamicShared(),
 * local(), table(), constant(), view()) and the annotations (unroll(), flushToZero()).
 */
export * from "./declarations.js";
export type { AnyScalar, ArrayOf, AtomicTarget, Cast, ConstantArray, Dim3, GenericKernelFn, Global, HostArg, HostArgs, HostArray, InOut, KernelLaunchConfig, Num, OrderedTarget, Out, ReadonlyGlobal, ReadonlyView, ReadView, Scalar, ScalarNameOf, Shared, Table, View } from "./types.js";
export { constant, dynamicShared, local, shared, table, view, type DimsOf } from "./memory.js";
export { flushToZero, unroll } from "./annotations.js";
export { deviceFn, kernel, type Kernel, type KernelConfig, type PrebuiltKernel } from "./kernel.js";

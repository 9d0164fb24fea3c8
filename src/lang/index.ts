/**
 * gk's kernel language for TypeScript (spec/typescript.md): the types, conversions and
 * builtins a kernel body uses, and kernel(), deviceFn(), shared(), local() and table().
 */
export * from "./declarations.js";
export type { AnyScalar, ArrayOf, AtomicTarget, Cast, Dim3, GenericKernelFn, Global, HostArg, HostArgs, HostArray, Num, ReadonlyGlobal, ReadonlyView, Scalar, ScalarNameOf, Shared, Table } from "./types.js";
export { local, shared, table, type DimsOf } from "./memory.js";
export { deviceFn, kernel, type Kernel, type PrebuiltKernel } from "./kernel.js";

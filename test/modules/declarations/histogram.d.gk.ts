// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 5fab03dd3da2dab4318b11fac568540e9ca3608e7382dcd64e57aa48da0917c7
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel histogram(n: i32, data: readonly global<u32>, hist: global<u32>) */
declare const k0: <A0 extends Uint32Array | GpuArray<"u32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly data: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly hist: A0;
}) => Promise<{ hist: A0 }>;
/** const BINS (an untyped integer constant) */
declare const c0: 16;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "histogram": typeof k0;
};
export { k0 as histogram, c0 as BINS };
export default module;

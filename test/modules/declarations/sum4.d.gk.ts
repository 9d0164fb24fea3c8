// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: c34c72e9753f41e919d90f44d67bc133d6e1c5dd6aacd2fec90414f4b69521d1
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel sum4(n: i32, x: readonly global<f32>, total: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly total: A0;
}) => Promise<{ total: A0 }>;
/** const MAX_WARPS: i32 */
declare const c0: 32;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "sum4": typeof k0;
};
export { k0 as sum4, c0 as MAX_WARPS };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: cd79d9598434a07398d8a17e8071c25abef36685e94bfc1f054c04d188f73305
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel stencil(W: i32, H: i32, src: readonly global<f32>, dst: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly W: number;
  readonly H: number;
  readonly src: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly dst: A0;
}) => Promise<{ dst: A0 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "stencil": typeof k0;
};
export { k0 as stencil };
export default module;

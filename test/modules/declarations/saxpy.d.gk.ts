// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 584cf0e4fee24add1ae48dace2fcac0265c07e85d8336992f889fbebd28c0795
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel saxpy(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly alpha: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly y: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly out: A0;
}) => Promise<{ out: A0 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "saxpy": typeof k0;
};
export { k0 as saxpy };
export default module;

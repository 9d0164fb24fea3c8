// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 9283fcbf500477a6204f500048b55a43f68d4e354ccb071bb852a0d8740fb3a3
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel saxpy4(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly alpha: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly y: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly out: A0;
}) => Promise<{ out: A0 }>;
/** device_kernel saxpy8(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) */
declare const k1: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly alpha: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly y: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly out: A0;
}) => Promise<{ out: A0 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "saxpy4": typeof k0;
  readonly "saxpy8": typeof k1;
};
export { k0 as saxpy4, k1 as saxpy8 };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 8f03119f6d27ce704e81161a8938db3231d7a2f53f9d9788f27ca17ee8ccf7b0
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

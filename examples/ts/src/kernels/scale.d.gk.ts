// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 89976a1a7fb532d63420cccdb473e8a4f4db083c95f1e40a20c823f2e6e1586d
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel scale(n: i32, a: f32, b: f32, x: readonly global<f32>, y: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly a: number;
  readonly b: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly y: A0;
}) => Promise<{ y: A0 }>;
/** const BLOCK (an untyped integer constant) */
declare const c0: 64;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "scale": typeof k0;
};
export { k0 as scale, c0 as BLOCK };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 3a5ce81f5e09f5ed56819d1040e0e3112f30225c90ba48012c883a74a3e40875
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel block_sum(n: i32, x: readonly global<f32>, partial: global<f32>, total: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">, A1 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig<"buf">, args: {
  readonly n: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly partial: A0;
  readonly total: A1;
}) => Promise<{ partial: A0; total: A1 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "block_sum": typeof k0;
};
export { k0 as block_sum };
export default module;

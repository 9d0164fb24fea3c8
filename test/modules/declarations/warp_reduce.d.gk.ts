// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 7ac54b735cc5a81853165653938b7f8a311d9db56a0ae2a6840a365f3ccf8bc3
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel block_sum(n: i32, x: readonly global<f32>, partial: global<f32>, total: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">, A1 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly x: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly partial: A0;
  readonly total: A1;
}) => Promise<{ partial: A0; total: A1 }>;
/** const MAX_WARPS: i32 */
declare const c0: 32;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "block_sum": typeof k0;
};
export { k0 as block_sum, c0 as MAX_WARPS };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: bb84dec6ff933dfb33285755cb3c4aab21af840d953730fb6a7479acc50b9717
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel matmul(A: readonly global<f32>, B: readonly global<f32>, C: global<f32>, M: i32, N: i32, K: i32) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly A: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly B: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly C: A0;
  readonly M: number;
  readonly N: number;
  readonly K: number;
}) => Promise<{ C: A0 }>;
/** const TILE (an untyped integer constant) */
declare const c0: 16;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "matmul": typeof k0;
};
export { k0 as matmul, c0 as TILE };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 5f6ea36244937aa55089b1971c1f6368ff70a6bc57595793313ffb5e2ccddc61
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel sgemm(M: i32, N: i32, K: i32, A: readonly global<f32>, B: readonly global<f32>, C: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly A: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly B: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly C: A0;
}) => Promise<{ C: A0 }>;
/** const BM (an untyped integer constant) */
declare const c0: 128;
/** const BN (an untyped integer constant) */
declare const c1: 128;
/** const BK (an untyped integer constant) */
declare const c2: 8;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "sgemm": typeof k0;
};
export { k0 as sgemm, c0 as BM, c1 as BN, c2 as BK };
export default module;

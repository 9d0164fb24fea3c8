// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 5d3fee8d01220348daa11c6f1d624db27bffa820fe7d568ca9f1d2a3cad0292e
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel hgemm_f16(M: i32, N: i32, K: i32, A: readonly global<u32>, B: readonly global<u32>, C: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly A: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly B: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly C: A0;
}) => Promise<{ C: A0 }>;
/** device_kernel hgemm_bf16(M: i32, N: i32, K: i32, A: readonly global<u32>, B: readonly global<u32>, C: global<f32>) */
declare const k1: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly A: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly B: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly C: A0;
}) => Promise<{ C: A0 }>;
/** const BM (an untyped integer constant) */
declare const c0: 256;
/** const BN (an untyped integer constant) */
declare const c1: 128;
/** const WN (an untyped integer constant) */
declare const c2: 64;
/** const RW (an untyped integer constant) */
declare const c3: 32;
/** const KS (an untyped integer constant) */
declare const c4: 4;
/** const STAGES (an untyped integer constant) */
declare const c5: 3;
/** const GROUP (an untyped integer constant) */
declare const c6: 8;
/** const THREADS (an untyped integer constant) */
declare const c7: 256;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "hgemm_f16": typeof k0;
  readonly "hgemm_bf16": typeof k1;
};
export { k0 as hgemm_f16, k1 as hgemm_bf16, c0 as BM, c1 as BN, c2 as WN, c3 as RW, c4 as KS, c5 as STAGES, c6 as GROUP, c7 as THREADS };
export default module;

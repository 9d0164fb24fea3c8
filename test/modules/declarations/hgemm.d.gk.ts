// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 86e88a4a6ab4a8a363b920032a8e0c5a850801767fa5212647e088586508ed3c
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel hgemm(M: i32, N: i32, K: i32, A: readonly global<u32>, B: readonly global<u32>, C: global<f32>, isBf16: bool) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly A: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly B: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly C: A0;
  readonly isBf16: boolean;
}) => Promise<{ C: A0 }>;
/** const BM (an untyped integer constant) */
declare const c0: 128;
/** const BN (an untyped integer constant) */
declare const c1: 128;
/** const BKW (an untyped integer constant) */
declare const c2: 16;
/** const ROW (an untyped integer constant) */
declare const c3: 20;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "hgemm": typeof k0;
};
export { k0 as hgemm, c0 as BM, c1 as BN, c2 as BKW, c3 as ROW };
export default module;

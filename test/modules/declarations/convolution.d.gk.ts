// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: aa780af4a89968b6788de394b61d6137e36fb371bc346a8f88033ee593b92b65
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel convolveRows(w: i32, src: readonly global<f32>, dst: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly w: number;
  readonly src: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly dst: A0;
  /** constant TAPS: f32, 17 elements */
  readonly TAPS: ReadonlyView<Float32Array> | readonly number[];
}) => Promise<{ dst: A0 }>;
/** device_kernel convolveColumns(w: i32, h: i32, src: readonly global<f32>, dst: global<f32>) */
declare const k1: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly w: number;
  readonly h: number;
  readonly src: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly dst: A0;
  /** constant TAPS: f32, 17 elements */
  readonly TAPS: ReadonlyView<Float32Array> | readonly number[];
}) => Promise<{ dst: A0 }>;
/** const RADIUS (an untyped integer constant) */
declare const c0: 8;
/** const BINOMIAL: f32[17] */
declare const c1: ReadonlyView<Float32Array>;
/** const ROW_X (an untyped integer constant) */
declare const c2: 16;
/** const ROW_Y (an untyped integer constant) */
declare const c3: 4;
/** const ROW_STEPS (an untyped integer constant) */
declare const c4: 8;
/** const ROW_HALO (an untyped integer constant) */
declare const c5: 1;
/** const COL_X (an untyped integer constant) */
declare const c6: 16;
/** const COL_Y (an untyped integer constant) */
declare const c7: 8;
/** const COL_STEPS (an untyped integer constant) */
declare const c8: 8;
/** const COL_HALO (an untyped integer constant) */
declare const c9: 1;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "convolveRows": typeof k0;
  readonly "convolveColumns": typeof k1;
};
export { k0 as convolveRows, k1 as convolveColumns, c0 as RADIUS, c1 as BINOMIAL, c2 as ROW_X, c3 as ROW_Y, c4 as ROW_STEPS, c5 as ROW_HALO, c6 as COL_X, c7 as COL_Y, c8 as COL_STEPS, c9 as COL_HALO };
export default module;

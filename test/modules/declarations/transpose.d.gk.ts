// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 8ba1d9a9824283ff4ed82c9c43180f265c3d744bf5af1c319f19ba9a4f10a865
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel transpose(rows: i32, cols: i32, input: readonly global<f32>, output: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly rows: number;
  readonly cols: number;
  readonly input: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly output: A0;
}) => Promise<{ output: A0 }>;
/** const TILE (an untyped integer constant) */
declare const c0: 32;
/** const ROWS_PER_PASS (an untyped integer constant) */
declare const c1: 8;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "transpose": typeof k0;
};
export { k0 as transpose, c0 as TILE, c1 as ROWS_PER_PASS };
export default module;

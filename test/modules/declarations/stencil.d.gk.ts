// stencil.d.gk.ts: the types of stencil.gk imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: cd79d9598434a07398d8a17e8071c25abef36685e94bfc1f054c04d188f73305
import type { GkModule, LaunchConfig, ReadonlyView } from "gk";

/** device_kernel stencil(W: i32, H: i32, src: readonly global<f32>, dst: global<f32>) */
declare const k0: (config: LaunchConfig, args: {
  readonly W: number;
  readonly H: number;
  readonly src: ReadonlyView<Float32Array>;
  readonly dst: Float32Array;
}) => Promise<{ dst: Float32Array }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "stencil": typeof k0;
};
export { k0 as stencil };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 306713ea321689f81b883d943823c7520e891bca91198f565b52adbbba52c7db
import type { GkModule, GenericKernelFn, GpuArray, ReadonlyView } from "gk";

/** device_kernel block_sum<T: f32 | i32 | f64, BLOCK: i32>: run an instance, block_sum.with({ ... })(config, args) */
declare const g0: GenericKernelFn<{ T: "f32" | "i32" | "f64"; BLOCK: number }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "block_sum": typeof g0;
};
export { g0 as block_sum };
export default module;

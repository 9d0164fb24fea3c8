// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 56ba39ed85d670c78c21c937627af6cbb5b1eda2324da6863f8fbaade648a6de
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView, StructLayout } from "gk";

/** device_kernel step(n: i32, dt: f32, gravity: f32x3, ps: global<Particle>) */
declare const k0: <A0 extends ArrayBuffer | ArrayBufferView | GpuArray | readonly { readonly pos: readonly [number, number, number]; readonly vel: readonly [number, number, number]; readonly bounces: number }[]>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly dt: number;
  readonly gravity: readonly [number, number, number];
  readonly ps: A0;
}) => Promise<{ ps: A0 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "step": typeof k0;
  readonly structs: {
    readonly "Particle": StructLayout<{ readonly pos: readonly [number, number, number]; readonly vel: readonly [number, number, number]; readonly bounces: number }>;
  };
};
export { k0 as step };
export default module;

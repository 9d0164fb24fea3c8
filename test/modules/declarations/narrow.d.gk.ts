// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 4718a41198d1e00d960dca4b3a36a5c39e1963a9b309eb386bce0f7c5b23039d
import type { GkModule, GenericKernelFn, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel narrow(a: i8, b: u8, c: i16, d: u16, h: f16, g: bf16, bytes: readonly global<u8>, halves: readonly global<f16>, oi8: global<i8>, ou8: global<u8>, oi16: global<i16>, ou16: global<u16>, of16: global<f16>, obf16: global<bf16>) */
declare const k0: <A0 extends Int8Array | GpuArray<"i8">, A1 extends Uint8Array | GpuArray<"u8">, A2 extends Int16Array | GpuArray<"i16">, A3 extends Uint16Array | GpuArray<"u16">, A4 extends Uint16Array | GpuArray<"f16">, A5 extends Uint16Array | GpuArray<"bf16">>(config: KernelLaunchConfig, args: {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly h: number;
  readonly g: number;
  readonly bytes: ReadonlyView<Uint8Array> | GpuArray<"u8">;
  readonly halves: ReadonlyView<Uint16Array> | GpuArray<"f16">;
  readonly oi8: A0;
  readonly ou8: A1;
  readonly oi16: A2;
  readonly ou16: A3;
  readonly of16: A4;
  readonly obf16: A5;
}) => Promise<{ oi8: A0; ou8: A1; oi16: A2; ou16: A3; of16: A4; obf16: A5 }>;
/** device_kernel scale<T: f16 | bf16 | f32 | f64, K: u8>: run an instance, scale.with({ ... })(config, args) */
declare const g0: GenericKernelFn<{ T: "f16" | "bf16" | "f32" | "f64"; K: number }>;
/** device_kernel pick<T: i8 | u16 | bf16>: run an instance, pick.with({ ... })(config, args) */
declare const g1: GenericKernelFn<{ T: "i8" | "u16" | "bf16" }>;
/** const LEVELS: u8[3] */
declare const c0: ReadonlyView<Uint8Array>;
/** const WEIGHTS: f16[2] */
declare const c1: ReadonlyView<Uint16Array>;
/** const BF: bf16[1] */
declare const c2: ReadonlyView<Uint16Array>;
/** const SCALE: f16 */
declare const c3: 0.5;
/** const OFFSET: i16 */
declare const c4: -300;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "narrow": typeof k0;
  readonly "scale": typeof g0;
  readonly "pick": typeof g1;
};
export { k0 as narrow, g0 as scale, g1 as pick, c0 as LEVELS, c1 as WEIGHTS, c2 as BF, c3 as SCALE, c4 as OFFSET };
export default module;

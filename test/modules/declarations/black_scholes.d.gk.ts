// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 63c5671a00aa8b46fd6a297db195bb8f25c998e7b17611fb188f8fbd8f4de486
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel blackScholes(n: i32, price: readonly global<f32>, strike: readonly global<f32>, years: readonly global<f32>, r: f32, v: f32, call: global<f32>, put: global<f32>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32">, A1 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly price: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly strike: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly years: ReadonlyView<Float32Array> | GpuArray<"f32">;
  readonly r: number;
  readonly v: number;
  readonly call: A0;
  readonly put: A1;
}) => Promise<{ call: A0; put: A1 }>;
/** const A1 (an untyped float constant) */
declare const c0: 0.31938153;
/** const A2 (an untyped float constant) */
declare const c1: -0.356563782;
/** const A3 (an untyped float constant) */
declare const c2: 1.781477937;
/** const A4 (an untyped float constant) */
declare const c3: -1.821255978;
/** const A5 (an untyped float constant) */
declare const c4: 1.330274429;
/** const RSQRT2PI (an untyped float constant) */
declare const c5: 0.3989422804014327;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "blackScholes": typeof k0;
};
export { k0 as blackScholes, c0 as A1, c1 as A2, c2 as A3, c3 as A4, c4 as A5, c5 as RSQRT2PI };
export default module;

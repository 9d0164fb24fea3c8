// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 67c62e7e8e2ebf628d23502257ebb48c2925fe8bf59eb453e4f54f6d6217eb73
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel every(b: bool, i: i32, u: u32, l: i64, ul: u64, f: f32, d: f64, ro: readonly global<f64>, w: global<i32>, wb: global<bool>, wl: global<u64>) */
declare const k0: <A0 extends Int32Array | GpuArray<"i32">, A1 extends Uint8Array | GpuArray<"bool">, A2 extends BigUint64Array | GpuArray<"u64">>(config: KernelLaunchConfig, args: {
  readonly b: boolean;
  readonly i: number;
  readonly u: number;
  readonly l: bigint;
  readonly ul: bigint;
  readonly f: number;
  readonly d: number;
  readonly ro: ReadonlyView<Float64Array> | GpuArray<"f64">;
  readonly w: A0;
  readonly wb: A1;
  readonly wl: A2;
}) => Promise<{ w: A0; wb: A1; wl: A2 }>;
/** device_kernel function(out: global<f32>) */
declare const k1: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig, args: {
  readonly out: A0;
}) => Promise<{ out: A0 }>;
/** device_kernel dyn(out: global<f32>) */
declare const k2: <A0 extends Float32Array | GpuArray<"f32">>(config: KernelLaunchConfig<"buf" | "idx">, args: {
  readonly out: A0;
  /** constant WEIGHTS: f32, 3 elements */
  readonly WEIGHTS: ReadonlyView<Float32Array> | readonly number[];
}) => Promise<{ out: A0 }>;
/** const N (an untyped integer constant) */
declare const c0: 16;
/** const BIG (an untyped integer constant) */
declare const c1: 1152921504606846976n;
/** const HALF (an untyped float constant) */
declare const c2: 0.5;
/** const S: f32 */
declare const c3: 0.25;
/** const L: i64 */
declare const c4: -3n;
/** const B: bool */
declare const c5: true;
/** const INF: f32 */
declare const c6: number;
/** const TAPS: f32[3] */
declare const c7: ReadonlyView<Float32Array>;
/** const FLAGS: bool[2] */
declare const c8: ReadonlyView<Uint8Array>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "every": typeof k0;
  readonly "function": typeof k1;
  readonly "dyn": typeof k2;
};
export { k0 as every, k1 as function, k2 as dyn, c0 as N, c1 as BIG, c2 as HALF, c3 as S, c4 as L, c5 as B, c6 as INF, c7 as TAPS, c8 as FLAGS };
export default module;

// corners.d.gk.ts: the types of corners.gk imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 18e00a48d33cd2dc46bc34b17147752da2847c8780f79cddbbf2ae2b2756a818
import type { GkModule, GpuArray, LaunchConfig, ReadonlyView } from "gk";

/** device_kernel every(b: bool, i: i32, u: u32, l: i64, ul: u64, f: f32, d: f64, ro: readonly global<f64>, w: global<i32>, wb: global<bool>, wl: global<u64>) */
declare const k0: <A0 extends Int32Array | GpuArray<"i32">, A1 extends Uint8Array | GpuArray<"bool">, A2 extends BigUint64Array | GpuArray<"u64">>(config: LaunchConfig, args: {
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
/** device_kernel delete(out: global<f32>) */
declare const k1: <A0 extends Float32Array | GpuArray<"f32">>(config: LaunchConfig, args: {
  readonly out: A0;
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
  readonly "delete": typeof k1;
};
export { k0 as every, k1 as delete, c0 as N, c1 as BIG, c2 as HALF, c3 as S, c4 as L, c5 as B, c6 as INF, c7 as TAPS, c8 as FLAGS };
export default module;

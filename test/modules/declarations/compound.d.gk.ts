// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: fdd2397fb47985af2d726e59e2d30a0a972c95374f1ef427521d372ced5b902d
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView, StructLayout } from "gk";

/** device_kernel compound(v: f32x4, l: i64x2, b: boolx3, s: Pair, vs: global<f32x3>, rv: readonly global<u64x2>, ps: global<Pair>, rps: readonly global<Pair>) */
declare const k0: <A0 extends Float32Array | GpuArray<"f32"> | GpuArray<"f32x3"> | readonly readonly [number, number, number][], A1 extends ArrayBuffer | ArrayBufferView | GpuArray | readonly { readonly at: readonly [number, number, number]; readonly w: readonly (number)[]; readonly inner: { readonly id: number; readonly big: bigint } }[]>(config: KernelLaunchConfig, args: {
  readonly v: readonly [number, number, number, number];
  readonly l: readonly [bigint, bigint];
  readonly b: readonly [boolean, boolean, boolean];
  readonly s: { readonly at: readonly [number, number, number]; readonly w: readonly (number)[]; readonly inner: { readonly id: number; readonly big: bigint } };
  readonly vs: A0;
  readonly rv: ReadonlyView<BigUint64Array> | GpuArray<"u64"> | GpuArray<"u64x2"> | readonly readonly [bigint, bigint][];
  readonly ps: A1;
  readonly rps: ReadonlyView<ArrayBuffer> | ArrayBuffer | ArrayBufferView | GpuArray | readonly { readonly at: readonly [number, number, number]; readonly w: readonly (number)[]; readonly inner: { readonly id: number; readonly big: bigint } }[];
}) => Promise<{ vs: A0; ps: A1 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "compound": typeof k0;
  readonly structs: {
    readonly "Inner": StructLayout<{ readonly id: number; readonly big: bigint }>;
    readonly "Pair": StructLayout<{ readonly at: readonly [number, number, number]; readonly w: readonly (number)[]; readonly inner: { readonly id: number; readonly big: bigint } }>;
  };
};
export { k0 as compound };
export default module;

// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: eddc6ea7ec04d95b9cf33f7cd8cd16c01f60b658d594b70ac4c6e74f606f3034
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel flash_f16_d64(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<f16>) */
declare const k0: <A0 extends Uint16Array | GpuArray<"f16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_f16_d64_causal(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<f16>) */
declare const k1: <A0 extends Uint16Array | GpuArray<"f16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_bf16_d64(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<bf16>) */
declare const k2: <A0 extends Uint16Array | GpuArray<"bf16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_bf16_d64_causal(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<bf16>) */
declare const k3: <A0 extends Uint16Array | GpuArray<"bf16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_f16_d128(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<f16>) */
declare const k4: <A0 extends Uint16Array | GpuArray<"f16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_f16_d128_causal(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<f16>) */
declare const k5: <A0 extends Uint16Array | GpuArray<"f16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_bf16_d128(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<bf16>) */
declare const k6: <A0 extends Uint16Array | GpuArray<"bf16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** device_kernel flash_bf16_d128_causal(S: i32, scale: f32, Q: readonly global<u32>, K: readonly global<u32>, V: readonly global<u32>, O: global<bf16>) */
declare const k7: <A0 extends Uint16Array | GpuArray<"bf16">>(config: KernelLaunchConfig, args: {
  readonly S: number;
  readonly scale: number;
  readonly Q: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly K: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly V: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly O: A0;
}) => Promise<{ O: A0 }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "flash_f16_d64": typeof k0;
  readonly "flash_f16_d64_causal": typeof k1;
  readonly "flash_bf16_d64": typeof k2;
  readonly "flash_bf16_d64_causal": typeof k3;
  readonly "flash_f16_d128": typeof k4;
  readonly "flash_f16_d128_causal": typeof k5;
  readonly "flash_bf16_d128": typeof k6;
  readonly "flash_bf16_d128_causal": typeof k7;
};
export { k0 as flash_f16_d64, k1 as flash_f16_d64_causal, k2 as flash_bf16_d64, k3 as flash_bf16_d64_causal, k4 as flash_f16_d128, k5 as flash_f16_d128_causal, k6 as flash_bf16_d128, k7 as flash_bf16_d128_causal };
export default module;

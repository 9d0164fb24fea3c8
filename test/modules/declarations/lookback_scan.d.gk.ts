// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 61d033a059054d9d37aaacfa57641c3c7274f7daaa7a49ced2995b99b64c5879
import type { GkModule, GpuArray, KernelLaunchConfig, ReadonlyView } from "gk";

/** device_kernel scan(n: i32, x: readonly global<u32>, y: global<u32>, status: global<u32>, aggregates: global<u32>, prefixes: global<u32>, ticket: global<u32>) */
declare const k0: <A0 extends Uint32Array | GpuArray<"u32">, A1 extends Uint32Array | GpuArray<"u32">, A2 extends Uint32Array | GpuArray<"u32">, A3 extends Uint32Array | GpuArray<"u32">, A4 extends Uint32Array | GpuArray<"u32">>(config: KernelLaunchConfig, args: {
  readonly n: number;
  readonly x: ReadonlyView<Uint32Array> | GpuArray<"u32">;
  readonly y: A0;
  readonly status: A1;
  readonly aggregates: A2;
  readonly prefixes: A3;
  readonly ticket: A4;
}) => Promise<{ y: A0; status: A1; aggregates: A2; prefixes: A3; ticket: A4 }>;
/** const BLOCK (an untyped integer constant) */
declare const c0: 256;
/** const EMPTY (an untyped integer constant) */
declare const c1: 0;
/** const AGGREGATE (an untyped integer constant) */
declare const c2: 1;
/** const PREFIX (an untyped integer constant) */
declare const c3: 2;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "scan": typeof k0;
};
export { k0 as scan, c0 as BLOCK, c1 as EMPTY, c2 as AGGREGATE, c3 as PREFIX };
export default module;

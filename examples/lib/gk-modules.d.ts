// The types, for `tsc`, of the device functions the TypeScript examples import from .gk files.
// `gkc types` declares a .gk file's kernels and constants, not its device functions, and a
// generic one has no TypeScript spelling; gk's own front end reads the .gk file itself, so
// these types serve only the editor and the strict type-check of the examples.
declare module "*/lib/flash_attention.gk" {
  import type { bf16, bool, f16, f32, Global, i32, ReadonlyGlobal, Shared, u32 } from "gk";
  /** examples/lib/flash_attention.gk's attention<T, BN, DW>: one block's 128 queries of attention at D = 64. */
  export const attention: (isBf16: bool, S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16> | Global<bf16>, Ks: Shared<u32, [number, number, number]>, Vs: Shared<u32, [number, number, number]>, Qs: Shared<u32, [number, number]>) => void;
  /** examples/lib/flash_attention.gk's causalAttention<T, BN, DW>: one block's 64 queries of causal attention at D = 64. */
  export const causalAttention: (isBf16: bool, S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16> | Global<bf16>, Ks: Shared<u32, [number, number, number]>, Vs: Shared<u32, [number, number, number]>, Qs: Shared<u32, [number, number]>) => void;
  /** examples/lib/flash_attention.gk's wideAttention<T, BN, DW>: one block's 128 queries of attention at D = 128, causal or not, Q's tile in Qs. */
  export const wideAttention: (isBf16: bool, causal: bool, S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16> | Global<bf16>, Ks: Shared<u32, [number, number, number]>, Vs: Shared<u32, [number, number, number]>, Qs: Shared<u32, [number, number]>) => void;
}

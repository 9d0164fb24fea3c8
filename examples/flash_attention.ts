// Flash attention, the forward pass, on the tensor cores: examples/flash_attention.gk written in
// TypeScript (that file and examples/lib/flash_attention.gk explain it). Each kernel gives the
// algorithm its shared-memory tiles (64 keys a tile, and at D = 128 the block's 128 query rows)
// and its types; lib/gk-modules.d.ts types the generic device functions for tsc.
/// <reference path="./lib/gk-modules.d.ts" />
import { flushToZero, kernel, shared, u32, type bf16, type f16, type f32, type Global, type i32, type ReadonlyGlobal } from "gk";
import { attention, causalAttention, wideAttention } from "./lib/flash_attention.gk";

flushToZero();

export const flash_f16_d64 = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16>) => {
  const Ks = shared(u32, 2, 64, 32);
  const Vs = shared(u32, 2, 64, 32);
  const Qs = shared(u32, 1, 32);
  attention(false, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_f16_d64_causal = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16>) => {
  const Ks = shared(u32, 2, 64, 32);
  const Vs = shared(u32, 2, 64, 32);
  const Qs = shared(u32, 1, 32);
  causalAttention(false, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_bf16_d64 = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<bf16>) => {
  const Ks = shared(u32, 2, 64, 32);
  const Vs = shared(u32, 2, 64, 32);
  const Qs = shared(u32, 1, 32);
  attention(true, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_bf16_d64_causal = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<bf16>) => {
  const Ks = shared(u32, 2, 64, 32);
  const Vs = shared(u32, 2, 64, 32);
  const Qs = shared(u32, 1, 32);
  causalAttention(true, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_f16_d128 = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16>) => {
  const Ks = shared(u32, 2, 64, 64);
  const Vs = shared(u32, 2, 64, 64);
  const Qs = shared(u32, 128, 64);
  wideAttention(false, false, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_f16_d128_causal = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<f16>) => {
  const Ks = shared(u32, 2, 64, 64);
  const Vs = shared(u32, 2, 64, 64);
  const Qs = shared(u32, 128, 64);
  wideAttention(false, true, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_bf16_d128 = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<bf16>) => {
  const Ks = shared(u32, 2, 64, 64);
  const Vs = shared(u32, 2, 64, 64);
  const Qs = shared(u32, 128, 64);
  wideAttention(true, false, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

export const flash_bf16_d128_causal = kernel((S: i32, scale: f32, Q: ReadonlyGlobal<u32>, K: ReadonlyGlobal<u32>, V: ReadonlyGlobal<u32>, O: Global<bf16>) => {
  const Ks = shared(u32, 2, 64, 64);
  const Vs = shared(u32, 2, 64, 64);
  const Qs = shared(u32, 128, 64);
  wideAttention(true, true, S, scale, Q, K, V, O, Ks, Vs, Qs);
});

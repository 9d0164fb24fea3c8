/**
 * The checker's rule for the tensor-core builtins (src/check/mma.ts): fragments of exactly the
 * types a signature names, the accumulators' type choosing the signature, GK3005 naming the
 * operand and what it must hold; GK3004 for a wrong count.
 */
import { describe, expect, it } from "vitest";
import { expectError, irOf } from "../helpers.js";

const K = (call: string) => `device_kernel k(a: u32x4, b: u32x2, c: f32x4, h: u32x2, f: f32x4, g: f32x2, out: global<f32x4>, hout: global<u32x2>) {
  out[0] = ${call};
}
`;

describe("mma's types", () => {
  it("takes f32 accumulators, or f16 pairs for f16, and has their type", () => {
    const m = irOf(`device_kernel k(a: u32x4, b: u32x2, c: f32x4, h: u32x2, out: global<f32x4>, hout: global<u32x2>) {
  out[0] = mma_m16n8k16_f16(a, b, c);
  hout[0] = mma_m16n8k16_f16(a, b, h);
}
`);
    expect(m.kernels[0]!.name).toBe("k");
  });

  it("refuses B's fragment where A's goes", () => {
    expectError(K("mma_m16n8k16_f16(b, b, c)"), "GK3005 2:29 mma_m16n8k16_f16()'s a is A's fragment, u32x4, but 'b' is u32x2 (spec/language.md, Tensor cores)");
  });

  it("refuses accumulators of no signature, naming those it takes", () => {
    expectError(K("mma_m16n8k16_bf16(a, b, h)"), "GK3005 2:36 mma_m16n8k16_bf16()'s c is the accumulators, f32x4, but 'h' is u32x2");
    expectError(K("mma_m16n8k16_f16(a, b, g)"), "GK3005 2:35 mma_m16n8k16_f16()'s c is the accumulators, f32x4 or u32x2, but 'g' is f32x2");
  });

  it("takes tf32 operands as f32 values, not registers", () => {
    expectError(K("mma_m16n8k8_tf32(a, g, c)"), "GK3005 2:29 mma_m16n8k8_tf32()'s a is A's fragment, f32x4, but 'a' is u32x4");
  });

  it("counts its operands", () => {
    expectError(K("mma_m16n8k32_s8(a, b)"), "GK3004 2:12 mma_m16n8k32_s8() takes 3 arguments");
  });
});

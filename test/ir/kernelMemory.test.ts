/** What a launch gives a kernel besides its arguments (src/ir/kernelMemory.ts): shared memory bytes, lifted fixed-size arrays. */
import { describe, expect, it } from "vitest";
import { launchSharedBytes, liftedSharedLayout, staticSharedBytes } from "../../src/ir/kernelMemory.js";
import { irOf } from "../helpers.js";
import { CUDA_TARGET } from "../../src/codegen/cuda/target.js";

const kernelOf = (src: string) => irOf(src).kernels[0]!;

describe("fixed-size shared arrays past 48 KiB", () => {
  it("are lifted into the dynamic shared memory, each at a multiple of 16 bytes, before the dynamic arrays", () => {
    const k = kernelOf("device_kernel k(out: global<f32>) {\n  shared a: u8[3];\n  shared t: f32[128][128];\n  shared d: f64[];\n  a[0] = u8(1);\n  t[0][0] = 1.0;\n  d[0] = 2.0;\n  out[0] = t[0][0] + f32(d[0]) + f32(a[0]);\n}\n");
    const lifted = liftedSharedLayout(k, CUDA_TARGET.limits)!;
    expect([...lifted.offsets.values()]).toEqual([0, 16]);
    expect(lifted.bytes).toBe(16 + 65536);
    expect(staticSharedBytes(k, CUDA_TARGET.limits)).toBe(65552);
    expect(launchSharedBytes(k, [10], CUDA_TARGET.limits)).toBe(65552 + 80);
    expect(launchSharedBytes(k, [0], CUDA_TARGET.limits)).toBe(65552);
  });

  it("stay where they are within 48 KiB: a launch gives only the dynamic arrays' bytes", () => {
    const k = kernelOf("device_kernel k(out: global<f32>) {\n  shared t: f32[96][128];\n  shared d: f32[];\n  t[0][0] = 1.0;\n  d[0] = 1.0;\n  out[0] = t[0][0] + d[0];\n}\n");
    expect(liftedSharedLayout(k, CUDA_TARGET.limits)).toBeUndefined();
    expect(staticSharedBytes(k, CUDA_TARGET.limits)).toBe(49152);
    expect(launchSharedBytes(k, [5], CUDA_TARGET.limits)).toBe(20);
  });
});

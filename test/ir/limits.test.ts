/**
 * The launch limits and value facts (src/ir/limits.ts, src/ir/values.ts) that the API, the
 * simulator and the checker share, each reading the limits of its target's record: CUDA's, or
 * a smaller one's (a target with WebGPU's limits stands for the WGSL backend to come).
 */
import { describe, expect, it } from "vitest";
import { CUDA_TARGET } from "../../src/codegen/cuda/target.js";
import { checkShape, dynamicSharedLayout, type Limits } from "../../src/ir/limits.js";
import type { Target } from "../../src/ir/target.js";
import { T } from "../../src/ir/types.js";
import { coerceScalar, INT_RANGES, storedValue } from "../../src/ir/values.js";
import { frontEnd } from "../../src/pipeline.js";
import { memoryHost } from "../../src/load/program.js";
import { compileSource } from "../../src/runtime/api.js";
import { GpuDevice } from "../../src/runtime/device/device.js";
import { compileKernel, runKernel } from "../../src/runtime/sim/index.js";
import { diagnosticLines } from "../helpers.js";

const CUDA = CUDA_TARGET.limits;

describe("launch shapes", () => {
  it("are checked by one rule", () => {
    expect(checkShape("block", [32, 32], CUDA)).toEqual({ ok: true, dims: [32, 32, 1] });
    expect(checkShape("block", [], CUDA)).toEqual({ ok: false, why: "count" });
    expect(checkShape("grid", [1, 65536], CUDA)).toMatchObject({ ok: false, why: "size", axis: 1, max: 65535 });
    expect(checkShape("block", [64, 32], CUDA)).toMatchObject({ ok: false, why: "threads", threads: 2048 });
    expect(checkShape("grid", [CUDA.grid[0]], CUDA)).toMatchObject({ ok: true });
  });

  it("refuse the same launches in the checker, the API and the simulator", async () => {
    const src = "device_kernel k(out: global<i32>) { out[0] = 1; }\n";
    const checked = (grid: string, block: string) =>
      frontEnd("l.gk", { host: memoryHost({ "l.gk": `${src}launch k(out = zeros(1)) grid(${grid}) block(${block});\n` }) }).diagnostics.map((d) => d.code);
    const mod = await compileSource(src, { device: "cpu" });
    const fe = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    const sim = compileKernel(fe.ir!, "k");
    for (const [grid, block] of [[[1], [64, 32]], [[1, 65536], [1]], [[1], [2048]]] as const) {
      expect(checked(grid.join(", "), block.join(", ")), `${grid} ${block}`).toEqual(["GK5006"]);
      await expect(mod.k({ grid: [...grid], block: [...block] }, { out: new Int32Array(1) })).rejects.toMatchObject({ code: "GK8005" });
      expect(() => runKernel(sim, { grid: [...grid], block: [...block] }, [new Int32Array(1)])).toThrow(/GK8010/);
    }
    await mod.close();
  });

  it("refuse a block past a kernel's @launchBounds alike in the checker (GK5006), the API and the simulator (GK8010)", async () => {
    const src = "@launchBounds(128, 2)\ndevice_kernel k(out: global<i32>) { out[globalId.x] = 1; }\n";
    const launch = (block: string) => frontEnd("l.gk", { host: memoryHost({ "l.gk": `${src}launch k(out = zeros(256)) grid(1) block(${block});\n` }) }).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(launch("128")).toEqual([]);
    expect(launch("16, 16")).toEqual(["GK5006 launch of 'k': the kernel is declared @launchBounds(128): its blocks have at most 128 threads, but block [16, 16, 1] has 256"]);
    const mod = await compileSource(src, { device: "cpu" });
    await expect(mod.k({ grid: 1, block: 128 }, { out: new Int32Array(256) })).resolves.toBeDefined();
    await expect(mod.k({ grid: 1, block: [64, 4] }, { out: new Int32Array(256) })).rejects.toMatchObject({ code: "GK8010", message: "GK8010: k: the kernel is declared @launchBounds(128): its blocks have at most 128 threads, but block [64, 4, 1] has 256" });
    await mod.close();
    const fe = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(() => runKernel(compileKernel(fe.ir!, "k"), { grid: [1], block: [129] }, [new Int32Array(256)])).toThrow(/GK8010.*@launchBounds\(128\)/);
  });
});

/** WebGPU's default limits (16 KiB of workgroup storage, 256 invocations per workgroup, 65535 workgroups per dimension), and a few more made small to be reached. */
const SMALL: Limits = {
  grid: [65535, 65535, 65535],
  block: [256, 256, 64],
  blockThreads: 256,
  staticSharedBytes: 16 * 1024,
  sharedBytes: 16 * 1024,
  sharedBytesWhat: "the small GPU's maximum",
  constantBytes: 1024,
  localBytes: 4096,
  kernelArgs: 4,
};
const SMALL_TARGET: Target = { ...CUDA_TARGET, name: "Small", limits: SMALL };

/** The diagnostics of `src` checked for `target`. */
function onTarget(src: string, target: Target): string[] {
  return diagnosticLines(frontEnd("t.gk", { host: memoryHost({ "t.gk": src }), target }));
}

describe("a target's limits", () => {
  const cases: [string, string, string][] = [
    [
      "fixed-size shared memory",
      "device_kernel k(o: global<f32>) {\n  shared a: f32[8192];\n  a[0] = 1.0;\n  o[0] = a[0];\n}\n",
      "GK4008 2:3 'k' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (the small GPU's maximum), fixed-size and dynamic arrays together",
    ],
    [
      "a block's threads",
      "device_kernel k(o: global<f32>) { o[0] = 1.0; }\nlaunch k(o = zeros(1)) grid(1) block(16, 32);\n",
      "GK5006 2:38 a block has at most 256 threads, but block(16, 32, 1) has 512",
    ],
    [
      "a grid's size",
      "device_kernel k(o: global<f32>) { o[0] = 1.0; }\nlaunch k(o = zeros(1)) grid(100000) block(1);\n",
      "GK5006 2:29 grid size x must be between 1 and 65535, but it is 100000",
    ],
    [
      "dynamic shared memory at launch",
      "device_kernel k(o: global<f32>) { shared b: f32[]; b[0] = 1.0; o[0] = b[0]; }\nlaunch k(o = zeros(1)) grid(1) block(1) shared(b = 8192);\n",
      "GK5006 2:48 this launch gives 'k' 32768 bytes of shared memory per block (0 static); a block may use at most 16384",
    ],
    [
      "constant memory",
      "constant TAPS: f32[512];\ndevice_kernel k(o: global<f32>) { o[0] = TAPS[0]; }\n",
      "GK4014 1:16 'TAPS' has 2048 bytes; a module's constant memory holds at most 1024 bytes",
    ],
    [
      "a thread's local arrays",
      "device_kernel k(o: global<f32>) {\n  let a: f32[2048];\n  a[0] = 1.0;\n  o[0] = a[0];\n}\n",
      "GK4009 2:10 'a' needs 8192 bytes per thread; local arrays are limited to 4096 bytes",
    ],
    [
      "a kernel's arguments",
      "device_kernel k(a: f32x4, o: global<f32>) { o[0] = a.x; }\n",
      "GK4007 1:27 'k' takes more than 4 kernel arguments",
    ],
  ];
  for (const [what, src, refused] of cases) {
    it(`bound ${what}: CUDA accepts, a smaller target refuses, located`, () => {
      expect(onTarget(src, CUDA_TARGET)).toEqual([]);
      const lines = onTarget(src, SMALL_TARGET);
      expect(lines, lines.join("\n")).toHaveLength(1);
      expect(lines[0]!.startsWith(refused), `got:      ${lines[0]}\nexpected: ${refused}`).toBe(true);
    });
  }

  it("bound the API's and the simulator's launches by their device's target", async () => {
    const src = "device_kernel k(out: global<i32>) { out[0] = 1; }\n";
    const small = new GpuDevice("cpu", undefined, undefined, undefined, SMALL_TARGET);
    const onSmall = await compileSource(src, { device: small });
    const onCuda = await compileSource(src, { device: "cpu" });
    // The simulator stands in for a CUDA GPU.
    expect(onCuda.gpu.target).toBe(CUDA_TARGET);
    const out = new Int32Array(1);
    await expect(onCuda.k({ grid: 1, block: 512 }, { out })).resolves.toMatchObject({ out });
    await expect(onSmall.k({ grid: 1, block: 512 }, { out })).rejects.toMatchObject({ code: "GK8005", diagnostic: { message: expect.stringContaining("block size x must be an integer from 1 to 256, got 512") } });
    await expect(onSmall.k({ grid: [1, 1], block: [16, 32] }, { out })).rejects.toMatchObject({ diagnostic: { message: expect.stringContaining("a block has at most 256 threads") } });
    const ir = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) }).ir!;
    expect(() => runKernel(compileKernel(ir, "k", undefined, { limits: SMALL }), { grid: [1], block: [512] }, [out])).toThrow(/GK8010.*size x must be an integer from 1 to 256, but it is 512/);
    expect(runKernel(compileKernel(ir, "k"), { grid: [1], block: [512] }, [out]).threads).toBe(512);
    await onCuda.close();
    await small.close();
  });

  it("bound dynamic shared memory in the API by the device's target, in its words", async () => {
    const src = "device_kernel k(o: global<f32>) { shared b: f32[]; b[0] = 1.0; o[0] = b[0]; }\n";
    const small = new GpuDevice("cpu", undefined, undefined, undefined, SMALL_TARGET);
    const mod = await compileSource(src, { device: small });
    await expect(mod.k({ grid: 1, block: 1, shared: { b: 8192 } }, { o: new Float32Array(1) })).rejects.toMatchObject({
      code: "GK8010",
      diagnostic: { message: "k: it would use 32768 bytes of shared memory per block (0 in fixed-size arrays); a block may use at most 16384 (the small GPU's maximum)" },
    });
    await small.close();
  });
});

describe("scalar values from the host", () => {
  it("follow one coercion rule", () => {
    expect(coerceScalar(T.f32, 0.1)).toEqual({ ok: true, value: Math.fround(0.1) });
    expect(coerceScalar(T.i32, 7n)).toEqual({ ok: true, value: 7 });
    expect(coerceScalar(T.i64, 7)).toEqual({ ok: true, value: 7n });
    expect(coerceScalar(T.u32, -1)).toEqual({ ok: false, why: "range", integer: -1n });
    expect(coerceScalar(T.i32, 2.5)).toEqual({ ok: false, why: "type" });
    expect(coerceScalar(T.bool, 1)).toEqual({ ok: false, why: "type" });
    expect(coerceScalar(T.u64, INT_RANGES.u64[1])).toEqual({ ok: true, value: INT_RANGES.u64[1] });
    expect(storedValue("bool", true)).toBe(1);
  });
});

describe("dynamicSharedLayout", () => {
  it("puts the widest elements first and starts each array at a multiple of 16 bytes (spec: language.md's example)", () => {
    // shared a: f32[] (5 elements); shared b: f64[] (3): b at 0, its 24 bytes rounded to 32; a at 32; 52 bytes.
    expect(dynamicSharedLayout([4, 8], [5, 3])).toEqual({ offsets: [32, 0], bytes: 52, order: [1, 0] });
    expect(dynamicSharedLayout([4, 4, 1], [4, 1, 3])).toEqual({ offsets: [0, 16, 32], bytes: 35, order: [0, 1, 2] });
  });
});

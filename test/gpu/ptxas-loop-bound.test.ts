/**
 * A loop bound that ptxas (CUDA 13.0, sm_90) miscompiles: a loop whose condition reads a
 * readonly global array at an index the loop changes. Read through the read-only data cache,
 * the kernel of fixtures/ptxas-loop-bound.gk hung on its first launch in 7 to 10 of 16 fresh
 * processes on an H100 (the PTX is right; the SASS computes the trip count from the wrong
 * register). The CUDA backend reads such bounds volatile (src/codegen/cuda/analysis.ts,
 * `reloadedBounds`); this test runs the kernel in fresh launcher processes, where it used to hang.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareCpuGpu } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/ptxas-loop-bound.test.ts skipped: ${gpu.reason}`);

const source = readFileSync(new URL("./fixtures/ptxas-loop-bound.gk", import.meta.url), "utf8");
const fill = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);
const NINF = -Infinity;

/** The arguments the differential test gave it (out arrays filled with its sentinels). */
function args() {
  return {
    s_bool: false, s_u32: 36, s_i64: 15n, s_u64: 7619978921748705685n, s_f32: -0, s_f64: NINF,
    in_bool: Uint8Array.from([1, 1, 1, 0, 0, 0, 1, 1]),
    in_i32: Int32Array.from([33, -2, 38, 65536, -1251156397, 28, 2, -13]),
    in_u32: Uint32Array.from([1060702776, 23, 12, 3, 21, 4294967293, 23, 32]),
    in_i64: BigInt64Array.from([9223372036854775788n, 12n, -8n, -2147483649n, -20n, 8n, -3895867138006404286n, 0n]),
    in_u64: BigUint64Array.from([17n, 4n, 6n, 18446744073709551614n, 16n, 2n, 33n, 5n]),
    in_f64: Float64Array.from([NINF, NINF, 7, -8, -0.375, 8, -8.356804238481146e124, -3]),
    out_u32: Uint32Array.from(fill(512, 3735928559)),
    out_i64: BigInt64Array.from(fill(512, -2401053088876216593n)),
    out_u64: BigUint64Array.from(fill(512, 16045690984833335023n)),
    out_f64: Float64Array.from(fill(512, -98765.4321)),
    approx_f32: Float32Array.from(fill(512, -1234.5)),
  };
}

describe.skipIf(!gpu.ok)(gpu.ok ? `a loop bound ptxas miscompiles, on ${gpu.reason}` : `a loop bound ptxas miscompiles (skipped: ${gpu.reason})`, () => {
  it("finishes on its first launch in each of 16 fresh launcher processes, as the simulator computes", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    for (let i = 0; i < 16; i++) {
      const r = await compareCpuGpu(source, "k1510", { grid: [2], block: [64] }, args(), { fmad: false, kernelTimeoutMs: 5_000, tolerance: { approx_f32: { ulp: 4 } } });
      if (!r.ok) failures.push(`process ${i + 1}: ${r.message.split("\n").slice(0, 2).join(" | ")}`);
    }
    expect(failures).toEqual([]);
  });
});

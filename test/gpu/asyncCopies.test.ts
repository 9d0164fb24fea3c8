/**
 * Asynchronous copies (cpAsync, spec/language.md) on the GPU against the simulator, bit for bit:
 * spec/ok/async_copies.gk (every size, cpAsyncL2, zero-filled tails, groups waited in turn, a
 * copy from a device function) and a double-buffered sum of tiles. Skipped, with the reason,
 * without a GPU.
 *
 *   npx vitest run --project gpu test/gpu/asyncCopies.test.ts
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { CpuGpuComparer, checkProgram } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/asyncCopies.test.ts skipped: ${gpu.reason}`);

const comparer = gpu.ok ? new CpuGpuComparer() : undefined;
afterAll(async () => comparer?.close());

const DOUBLE_BUFFERED = `device_kernel sums(x: readonly global<f32>, out: global<f32>, n: i32) {
  shared tile: f32[2][256];
  const t = threadIdx.x;
  const base = blockIdx.x * 256 * 8;
  let acc = 0.0;
  if (t < 64) {
    const at = base + 4 * t;
    cpAsync(tile[0], 4 * t, x, at < n ? at : 0, 16, clamp(n - at, 0, 4));
  }
  cpAsyncCommit();
  for (let s = 0; s < 8; s++) {
    if (s + 1 < 8 && t < 64) {
      const at = base + (s + 1) * 256 + 4 * t;
      cpAsync(tile[(s + 1) % 2], 4 * t, x, at < n ? at : 0, 16, clamp(n - at, 0, 4));
    }
    cpAsyncCommit();
    cpAsyncWait(1);
    barrier();
    acc += tile[s % 2][t];
    barrier();
  }
  out[blockIdx.x * 256 + t] = acc;
}
`;

const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

describe.skipIf(!gpu.ok)(title("cp.async, GPU against the simulator, bit for bit"), () => {
  it("spec/ok/async_copies.gk", async () => {
    const program = checkProgram(readFileSync("spec/ok/async_copies.gk", "utf8"), "spec/ok/async_copies.gk");
    for (const n of [0, 3, 50, 64]) {
      const x = Uint16Array.from({ length: 64 }, (_, i) => 0x3c00 + i * 17);
      const r = await comparer!.compare(program, "stages", { grid: 1, block: 32 }, { x, y: Float32Array.from({ length: 128 }, (_, i) => i + 0.5), out: new Float32Array(64), n } as never);
      expect(r.ok, r.message).toBe(true);
    }
  });

  it("a double-buffered sum of tiles, ragged at the end", async () => {
    const program = checkProgram(DOUBLE_BUFFERED, "sums.gk");
    const n = 3 * 2048 - 37;
    const x = Float32Array.from({ length: n }, (_, i) => Math.fround(Math.sin(i) * 100));
    const r = await comparer!.compare(program, "sums", { grid: 3, block: 256 }, { x, out: new Float32Array(3 * 256), n } as never);
    expect(r.ok, r.message).toBe(true);
  });
});

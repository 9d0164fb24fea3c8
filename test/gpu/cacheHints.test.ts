/**
 * The cache-hinted accesses on a real GPU against the simulator, bit for bit: loadStreaming,
 * storeStreaming and loadReadOnly (CUDA __ldcs, __stcs, __ldg) of every width they move: 1-,
 * 2-, 4-, 8- and 16-byte values, scalars, vector elements and the 2- and 4-lane forms. A hint
 * changes no result, so the GPU must compute what plain accesses compute. Skipped, with a
 * one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { float32ToF16 } from "../../src/runtime/halfArrays.js";
import { CpuGpuComparer } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/cacheHints.test.ts skipped: ${gpu.reason}`);
const title = (what: string) => (gpu.ok ? `${what} on ${gpu.reason}` : `${what} (skipped: ${gpu.reason})`);

const comparer = new CpuGpuComparer({ kernelTimeoutMs: 60_000 });
afterAll(() => comparer.close());

const SOURCE = `device_kernel hints(n: i32, x: readonly global<f32>, h: readonly global<f16>, v: readonly global<f32x4>, b: readonly global<bool>, s: readonly global<i8>,
                      y: global<f32>, oh: global<f16>, ov: global<f32x4>, ob: global<bool>, os: global<i8>, d: global<f64>) {
  const i = globalId.x;
  if (i < n) {
    storeStreaming4(y, 4 * i, loadStreaming4(x, 4 * i) + loadReadOnly4(x, 4 * i) * loadReadOnly(x, i));
    storeStreaming(oh, i, loadStreaming(h, i) + loadReadOnly(h, i));
    storeStreaming2(oh, n + 2 * i, loadReadOnly2(h, 2 * i));
    storeStreaming(ov, i, loadStreaming(v, i) * loadReadOnly(v, i));
    storeStreaming(ob, i, loadReadOnly(b, i) != loadStreaming(b, n - 1 - i));
    storeStreaming(os, i, loadStreaming(s, i) + loadReadOnly(s, n - 1 - i));
    storeStreaming2(d, 2 * i, loadStreaming2(d, 2 * i) * f64(loadStreaming(x, i)));
  }
}
`;

describe.skipIf(!gpu.ok)(title("cache hints"), () => {
  it("loads and stores with every hint and width compute what plain accesses compute", async () => {
    const n = 4096;
    const f = (k: number) => Math.fround(Math.sin(k) * 100);
    const r = await comparer.compare(
      SOURCE,
      "hints",
      { grid: [n / 256], block: [256] },
      {
        n,
        x: Float32Array.from({ length: 4 * n }, (_, k) => f(k)),
        h: float32ToF16(Array.from({ length: 2 * n }, (_, k) => f(k) / 8)),
        v: Float32Array.from({ length: 4 * n }, (_, k) => f(k + 7)),
        b: Uint8Array.from({ length: n }, (_, k) => (k % 3 === 1 ? 1 : 0)),
        s: Int8Array.from({ length: n }, (_, k) => (k * 37) % 256 - 128),
        y: new Float32Array(4 * n),
        oh: new Uint16Array(3 * n),
        ov: new Float32Array(4 * n),
        ob: new Uint8Array(n),
        os: new Int8Array(n),
        d: Float64Array.from({ length: 2 * n }, (_, k) => k / 3),
      },
    );
    expect(r.ok, r.message).toBe(true);
  });
});

// gk/std/matmul on the simulator: sgemm, sgemmT and matmulTiled against a plain loop, bit for bit (each C element summed over k in order, rounded per operation).
import { describe, expect, it } from "vitest";
import { stdlib } from "../../src/runtime/stdlib/calls.js";
import { sim, stdModule } from "./helpers.js";

const SOURCE = `import { sgemm, sgemmT, matmulTiled } from "gk/std/matmul";\n`;

function refMatmul(a: Float32Array, b: Float32Array, m: number, n: number, k: number): Float32Array {
  const c = new Float32Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s = Math.fround(s + Math.fround(a[i * k + t]! * b[t * n + j]!));
      c[i * n + j] = s;
    }
  return c;
}

const rand = (len: number, seed: number) => Float32Array.from({ length: len }, (_, i) => Math.fround(Math.sin(i * 12.9898 + seed) * 3));

describe("gk/std/matmul", () => {
  it("sgemm: 128 x 16 times 16 x 256", async () => {
    const mod = await stdModule(SOURCE);
    const [m, n, k] = [128, 256, 16];
    const A = rand(m * k, 1), B = rand(k * n, 2);
    const r = await mod.sgemm!({ grid: [n / 128, m / 128], block: 256 }, { M: m, N: n, K: k, A, B, C: new Float32Array(m * n) });
    expect(r.C).toEqual(refMatmul(A, B, m, n, k));
  });

  it("sgemmT: 128 x 96 times 96 x 256, from A's transpose (three slices through two stages)", async () => {
    const mod = await stdModule(SOURCE);
    const [m, n, k] = [128, 256, 96];
    const A = rand(m * k, 5), B = rand(k * n, 6);
    const AT = Float32Array.from({ length: k * m }, (_, i) => A[(i % m) * k + Math.floor(i / m)]!);
    const r = await mod.sgemmT!({ grid: [n / 128, m / 128], block: 256 }, { M: m, N: n, K: k, AT, B, C: new Float32Array(m * n) });
    expect(r.C).toEqual(refMatmul(A, B, m, n, k));
  });

  it("the host call: A's transpose, then sgemmT (k a multiple of 32), or sgemm (k of 8)", async () => {
    const gpu = await sim();
    for (const [m, n, k] of [[128, 128, 32], [128, 128, 24]] as const) {
      const A = rand(m * k, 7), B = rand(k * n, 8);
      const c = await stdlib(gpu).matmul(await gpu.array(A), await gpu.array(B), m, n, k);
      expect(await c.read(), `${m} x ${n} x ${k}`).toEqual(refMatmul(A, B, m, n, k));
    }
  });

  it("matmulTiled: any sizes", async () => {
    const mod = await stdModule(SOURCE);
    for (const [m, n, k] of [[1, 1, 1], [17, 5, 33], [40, 19, 7]] as const) {
      const A = rand(m * k, 3), B = rand(k * n, 4);
      const r = await mod.matmulTiled!.with({ T: "f32" })({ grid: [Math.ceil(n / 16), Math.ceil(m / 16)], block: [16, 16] }, { M: m, N: n, K: k, A, B, C: new Float32Array(m * n) });
      expect(r.C, `${m} x ${n} x ${k}`).toEqual(refMatmul(A, B, m, n, k));
    }
  });
});

/**
 * Vectors and structs on a real GPU: the launch statements of spec/ok/vectors.gk and
 * structs.gk agree with the simulator bit for bit (padding bytes included: neither side
 * writes them); a kernel given vector and struct values and arrays through their host forms
 * (plain arrays and objects, a Float32Array of 4·n lanes, packStructs bytes) agrees with the
 * simulator; a misaligned vector access is CUDA's misaligned-address error by name (the
 * simulator's GK8030), and the next launch works. f16x2 and bf16x2: spec/ok/half_vectors.gk (f16x4, f16x8 and their accesses: wide_half_vectors.gk),
 * and every lane-wise operation over thousands of random finite halves (subnormals and zeros
 * of both signs among them), byte for byte. Skipped, with a one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { GkRuntimeError } from "../../src/runtime/launcher.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { createRunner, type Runner } from "../../src/runtime/runner.js";
import { SimError } from "../../src/runtime/sim/index.js";
import { packStructs, unpackStructs } from "../../src/lang/structs.js";
import { compareCpuGpu } from "../../src/testing/cpuGpu.js";
import { structType, scalarType, vectorType } from "../../src/ir/types.js";
import { gpuAvailable } from "./gpu-available.js";
import { specLaunchesBothWays } from "./spec-launches.js";
import { bf16ToFloat32, f16ToFloat32 } from "../../src/runtime/halfArrays.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/compound.test.ts skipped: ${gpu.reason}`);

const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

const hex = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

const BODIES = `struct Body {
  pos: f32x3;
  mass: f32;
  id: u32;
  alive: bool;
  taps: i64[2];
}

device_kernel move(n: i32, g: f32x3, proto: Body, bodies: global<Body>, v: global<f32x4>, flags: global<boolx3>, h: global<u64x2>) {
  const i = globalId.x;
  if (i >= n) {
    return;
  }
  let b = bodies[i];
  b.pos += g * b.mass + proto.pos;
  b.id ^= proto.id;
  b.alive = b.alive && b.mass > 0.0;
  b.taps[1] += b.taps[0] * 3;
  bodies[i] = b;
  v[i] = f32x4(b.pos.zyx, length(b.pos)) / v[i].wzyx;
  flags[i] = b.pos > f32x3(0.5) | !flags[i];
  h[i] = h[i].yx << u64x2(1, 63) | u64x2(u64(b.id));
}
`;

/** Every lane-wise operation of f16x2 and bf16x2 on one pair of vectors per thread (no operation can make a NaN or an infinity: see halves()). */
const HALVES2 = `device_kernel halves2(a: readonly global<f16x2>, b: readonly global<f16x2>, c: readonly global<bf16x2>, d: readonly global<bf16x2>,
                      xs: readonly global<f16>, ys: global<bf16>, out: global<f16x2>, outb: global<bf16x2>, conv: global<f32x2>, flags: global<boolx2>) {
  const i = globalId.x;
  let p = a[i];
  let q = b[i];
  out[i * 4] = p + q;
  out[i * 4 + 1] = p * q - p;
  out[i * 4 + 2] = p / q + sqrt(abs(q));
  out[i * 4 + 3] = fma(p, q, load2(xs, i * 2)).yx + f16x2(length(q));
  let r = c[i];
  let s = d[i];
  outb[i * 4] = r + s;
  outb[i * 4 + 1] = r * s - r;
  outb[i * 4 + 2] = r / s + sqrt(abs(s));
  outb[i * 4 + 3] = max(r, s) - min(r, bf16x2(p)) + bf16x2(dot(s, s));
  conv[i] = f32x2(p) + f32x2(r);
  store2(ys, i * 2, bf16x2(p) - s);
  flags[i] = (p < q) | (r == s);
}
`;

/** n random finite f16 or bf16 values as bits (seeded), of magnitude at least \`min\` (0: any, subnormals and zeros included). */
function halves(n: number, t: "f16" | "bf16", seed: number, min: number): Uint16Array {
  let x = seed * 2654435761;
  const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x >>> 16);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; ) {
    const bits = next();
    const v = t === "f16" ? f16ToFloat32(Uint16Array.of(bits))[0]! : bf16ToFloat32(Uint16Array.of(bits))[0]!;
    // Finite, and at most 2^7 (f16) or 2^60 (bf16): every result stays finite, so no NaN (whose sign gk leaves open) can appear.
    if (!Number.isFinite(v) || Math.abs(v) < min || Math.abs(v) > (t === "f16" ? 128 : 2 ** 60)) continue;
    out[i++] = bits;
  }
  return out;
}

describe.skipIf(!gpu.ok)(gpu.ok ? `vectors and structs on ${gpu.reason}` : "vectors and structs on a GPU (skipped)", () => {
  for (const file of ["vectors.gk", "structs.gk", "half_vectors.gk", "wide_half_vectors.gk", "bitcast.gk"]) {
    it(`spec/ok/${file}: its launches write the same bytes on the GPU as on the simulator (no FMA contraction)`, async () => {
      const { ir, pairs } = await specLaunchesBothWays(file, runners);
      expect(ir.launches.length).toBeGreaterThan(0);
      for (const { want, got } of pairs) {
        expect(got.device).toBe("cuda");
        for (const [name, w] of want.outputs) expect(hex(got.outputs.get(name)!.data), `${file}: ${name}`).toBe(hex(w.data));
      }
    });
  }

  it("a kernel given vector and struct values and arrays in their host forms agrees with the simulator", async () => {
    const n = 50;
    const Body = structType("Body", [
      { name: "pos", type: vectorType(scalarType("f32"), 3) },
      { name: "mass", type: scalarType("f32") },
      { name: "id", type: scalarType("u32") },
      { name: "alive", type: scalarType("bool") },
      { name: "taps", type: { kind: "array", elem: scalarType("i64"), dims: [2], space: "local" } },
    ]);
    const bodies = packStructs(
      Body,
      Array.from({ length: n }, (_, i) => ({ pos: [i * 0.25, -i, 1 / (i + 1)], mass: i % 7 - 2, id: i * 2654435761 >>> 0, alive: i % 3 !== 0, taps: [BigInt(i) << 40n, -BigInt(i)] })),
    );
    const args = {
      n,
      g: [0, -9.5, 0.125],
      proto: { pos: [1, 2, 3], mass: 0, id: 0xdeadbeef, alive: true, taps: [0n, 0n] },
      bodies,
      v: Float32Array.from({ length: 4 * n }, (_, k) => (k % 5) - 2.5),
      flags: Uint8Array.from({ length: 4 * n }, (_, k) => k % 2),
      h: BigUint64Array.from({ length: 2 * n }, (_, k) => (BigInt(k) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn),
    };
    const r = await compareCpuGpu(BODIES, "move", { grid: [2], block: [32] }, args);
    expect(r.ok, r.message).toBe(true);
    // The arguments were not changed by the comparison, and the simulator's bodies read back as objects.
    expect(unpackStructs(Body, bodies)[1]).toEqual({ pos: [0.25, -1, 0.5], mass: -1, id: 2654435761, alive: true, taps: [1n << 40n, -1n] });
    const cpuBodies = unpackStructs(Body, r.cpu.get("bodies")!);
    expect(cpuBodies[1]!.id).toBe((2654435761 ^ 0xdeadbeef) >>> 0);
  });

  it("f16x2 and bf16x2: every lane-wise operation, conversion and load2/store2 over random halves writes the same bytes on the GPU as on the simulator", async () => {
    const fe = frontEnd("halves2.gk", { host: memoryHost({ "halves2.gk": HALVES2 }) });
    expect(fe.ir, fe.diagnostics.map((d) => d.message).join("\n")).toBeDefined();
    const n = 4096;
    const args = () => [
      halves(n * 2, "f16", 1, 0), halves(n * 2, "f16", 2, 2 ** -8), halves(n * 2, "bf16", 3, 0), halves(n * 2, "bf16", 4, 2 ** -8), halves(n * 2, "f16", 5, 0),
      new Uint16Array(n * 2), new Uint16Array(n * 8), new Uint16Array(n * 8), new Float32Array(n * 2), new Uint8Array(n * 2),
    ];
    const cpu = createRunner(fe.ir!, fe.sources, await openDevice({ device: "cpu" }));
    const cuda = createRunner(fe.ir!, fe.sources, await openDevice({ device: "cuda" }), { fmad: false });
    runners.push(cuda);
    const want = args();
    const got = args();
    await cpu.run("halves2", [n / 256, 1, 1], [256, 1, 1], want);
    await cuda.run("halves2", [n / 256, 1, 1], [256, 1, 1], got);
    const names = ["a", "b", "c", "d", "xs", "ys", "out", "outb", "conv", "flags"];
    for (let k = 5; k < want.length; k++) expect(hex(got[k]!), names[k]).toBe(hex(want[k]!));
  });

  it("a misaligned vector access is CUDA's misaligned-address error (GK8030 in the simulator), and the next launch works", async () => {
    const src = [
      "device_kernel skew(k: i32, x: readonly global<f32>, out: global<f32x4>) { out[0] = load4(x, k); }",
      "device_kernel ok(x: readonly global<f32>, out: global<f32x4>) { out[threadIdx.x] = load4(x, threadIdx.x * 4); }",
    ].join("\n");
    const fe = frontEnd("skew.gk", { host: memoryHost({ "skew.gk": src }) });
    const x = Float32Array.from({ length: 64 }, (_, i) => i);
    const out = new Float32Array(64);
    const cpu = createRunner(fe.ir!, fe.sources, await openDevice({ device: "cpu" }));
    const simErr = await cpu.run("skew", [1, 1, 1], [1, 1, 1], [2, x, out]).then(() => undefined, (e: unknown) => e);
    expect(simErr).toBeInstanceOf(SimError);
    expect((simErr as SimError).code).toBe("GK8030");
    const runner = createRunner(fe.ir!, fe.sources, await openDevice({ device: "cuda" }));
    runners.push(runner);
    const err = await runner.run("skew", [1, 1, 1], [1, 1, 1], [2, x, out]).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(GkRuntimeError);
    expect((err as GkRuntimeError).diagnostic.message).toMatch(/CUDA_ERROR_MISALIGNED_ADDRESS/);
    await runner.run("ok", [1, 1, 1], [16, 1, 1], [x, out]);
    expect([...out]).toEqual([...x]);
  });
});

/** The TypeScript API with vectors and structs: values, arrays in and out (f16x2 and bf16x2 too), packStructs/unpackStructs, and the errors that name the argument. */
import { describe, expect, it } from "vitest";
import { bf16ToFloat32, compileSource, f16ToFloat32, float32ToF16, packStructs, roundBf16, roundF16, unpackStructs } from "../../src/index.js";

const SRC = `struct Body { pos: f32x3; mass: f32; id: u32; alive: bool; }
device_kernel step(bodies: global<Body>, shift: f32x4, lanes: global<f32x4>, gravity: Body) {
  const i = globalId.x;
  bodies[i].pos += shift.xyz * bodies[i].mass + gravity.pos;
  bodies[i].alive = bodies[i].id % 2 == 0;
  lanes[i] = lanes[i].wzyx + shift;
}
`;

describe("vectors and structs from TypeScript", () => {
  it("takes struct arrays as bytes, vectors as arrays, struct values as objects, and updates arrays in place", async () => {
    const mod = await compileSource(SRC, { device: "cpu" });
    const Body = mod.structs.Body!;
    expect([Body.size, Body.align, Body.fields.map((f) => [f.name, f.offset])]).toEqual([32, 16, [["pos", 0], ["mass", 16], ["id", 20], ["alive", 24]]]);
    const bodies = packStructs(Body, [
      { pos: [0, 0, 0], mass: 1, id: 10, alive: false },
      { pos: [1, 2, 3], mass: 2, id: 11, alive: true },
    ]);
    const lanes = Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    const gravity = { pos: [0, -1, 0], mass: 0, id: 0, alive: true };
    const r = await mod.step({ grid: 1, block: 2 }, { bodies, shift: [1, 2, 3, 4], lanes, gravity });
    expect(r.bodies).toBe(bodies);
    expect(r.lanes).toBe(lanes);
    expect(unpackStructs(Body, bodies)).toEqual([
      { pos: [1, 1, 3], mass: 1, id: 10, alive: true },
      { pos: [3, 5, 9], mass: 2, id: 11, alive: false },
    ]);
    expect(Array.from(lanes)).toEqual([5, 5, 5, 5, 9, 9, 9, 9]);
  });

  it("packs plain arrays of objects and of vectors into new arrays, which come back as outputs", async () => {
    const mod = await compileSource(SRC, { device: "cpu" });
    const r = await mod.step({ grid: 1, block: 1 }, {
      bodies: [{ pos: [0, 0, 0], mass: 1, id: 2, alive: false }],
      shift: Float32Array.of(1, 1, 1, 1),
      lanes: [[1, 2, 3, 4]],
      gravity: { pos: [0, 0, 0], mass: 0, id: 0, alive: false },
    });
    expect(unpackStructs(mod.structs.Body!, r.bodies as ArrayBuffer)[0]).toMatchObject({ pos: [1, 1, 1], alive: true });
    expect(Array.from(r.lanes as Float32Array)).toEqual([5, 4, 3, 2]);
  });

  it("takes f16x2 and bf16x2 as numbers rounded once, and their arrays as Uint16Arrays of lanes' bits (or plain arrays), packed in structs too", async () => {
    const mod = await compileSource(`struct T { uv: f16x2; k: i32; }
device_kernel h(v: f16x2, hs: global<f16x2>, bs: global<bf16x2>, ts: global<T>) {
  const i = globalId.x;
  hs[i] = hs[i] * v;
  bs[i] = bf16x2(hs[i]) + bs[i];
  ts[i].uv += v;
}
`, { device: "cpu" });
    const hs = float32ToF16([1, 2, 3, 4]);
    const ts = packStructs(mod.structs.T!, [{ uv: [0.5, 1], k: 3 }, { uv: [0, 0], k: 4 }]);
    expect(mod.structs.T!.size).toBe(8);
    const r = await mod.h({ grid: 1, block: 2 }, { v: [0.1, 3], hs, bs: [[0.25, 1e10], [1, 2]], ts });
    expect(r.hs).toBe(hs);
    const v = [roundF16(0.1), 3];
    const hv = [1, 2, 3, 4].map((x, k) => roundF16(x * v[k % 2]!));
    expect(Array.from(f16ToFloat32(hs))).toEqual(hv);
    expect(Array.from(bf16ToFloat32(r.bs as Uint16Array))).toEqual([0.25, 1e10, 1, 2].map((x, k) => roundBf16(roundBf16(hv[k]!) + roundBf16(x))));
    expect(unpackStructs(mod.structs.T!, ts)).toEqual([{ uv: [roundF16(0.5 + v[0]!), 4], k: 3 }, { uv: v, k: 4 }]);
  });

  it("takes f16x4, f16x8 and bf16x8 values as arrays of numbers, their arrays as Uint16Arrays of lanes' bits, in structs at 8 and 16 bytes", async () => {
    const mod = await compileSource(`struct W { q: f16x4; p: bf16x8; }
device_kernel h(v: f16x4, e: f16x8, hs: global<f16x8>, ws: global<W>) {
  const i = globalId.x;
  hs[i] = hs[i] + e + f16x8(v, v);
  ws[i].q *= v;
  ws[i].p.s7 = bf16(e.s6);
}
`, { device: "cpu" });
    const W = mod.structs.W!;
    expect([W.size, W.align, W.fields.map((f) => f.offset)]).toEqual([32, 16, [0, 16]]);
    const hs = float32ToF16(Array.from({ length: 8 }, (_, k) => k));
    const ws = packStructs(W, [{ q: [1, 2, 3, 4], p: [0, 0, 0, 0, 0, 0, 0, 0] }]);
    const e = [0.1, 0, 0, 0, 0, 0, 5, 0];
    const r = await mod.h({ grid: 1, block: 1 }, { v: [1, 2, 0.5, 0.25], e, hs, ws });
    const v = [1, 2, 0.5, 0.25, 1, 2, 0.5, 0.25];
    expect(Array.from(f16ToFloat32(r.hs as Uint16Array))).toEqual(v.map((x, k) => roundF16(roundF16(k + roundF16(e[k]!)) + x)));
    expect(unpackStructs(W, ws)).toEqual([{ q: [1, 4, 1.5, 1], p: [0, 0, 0, 0, 0, 0, 0, 5] }]);
  });

  it("names the argument, and the place in it, that does not fit", async () => {
    const mod = await compileSource(SRC, { device: "cpu" });
    const good = () => ({ bodies: new ArrayBuffer(32), shift: [0, 0, 0, 0], lanes: new Float32Array(4), gravity: { pos: [0, 0, 0], mass: 0, id: 0, alive: true } });
    const fail = (args: Record<string, unknown>) => mod.step({ grid: 1, block: 1 }, args as never).then(() => "ran", (e: Error) => e.message);
    expect(await fail({ ...good(), shift: [1, 2, 3] })).toBe("GK8005: step: parameter 'shift' (f32x4) takes an array of 4 numbers (f32x4), got an array of 3 elements");
    expect(await fail({ ...good(), gravity: { pos: [0, 0, 0], mass: 0, id: -1, alive: true } })).toBe(
      "GK8005: step: parameter 'gravity' (Body), at .id, takes an integer from 0 to 4294967295, got number -1",
    );
    expect(await fail({ ...good(), gravity: { pos: [0, 0, 0], mass: 0, id: 1 } })).toBe("GK8005: step: parameter 'gravity' (Body), at .alive, takes a value (the field is missing), got nothing");
    expect(await fail({ ...good(), lanes: new Float32Array(6) })).toBe(
      "GK8005: step: parameter 'lanes' (global<f32x4>) takes a Float32Array of 4·n elements (n f32x4 vectors, 4 f32 each), got a Float32Array of length 6",
    );
    expect(await fail({ ...good(), bodies: new ArrayBuffer(33) })).toMatch(/^GK8005: step: parameter 'bodies' \(global<Body>\) takes an ArrayBuffer, DataView or TypedArray of n × 32 bytes/);
    expect(await fail({ ...good(), bodies: [{ pos: [0, 0], mass: 0, id: 0, alive: true }] })).toBe(
      "GK8005: step: parameter 'bodies' (global<Body>): packStructs(Body): element [0].pos must be an array of 3 numbers (f32x3), got an array",
    );
  });

  it("packs and unpacks every kind of field: vectors, nested structs, arrays (nested or flat), 64-bit integers and bools", async () => {
    const mod = await compileSource("struct In { n: i64; v: u32x2; }\nstruct S { a: In; t: f64[2][2]; b: bool; }\ndevice_kernel k(s: global<S>) {}\n", { device: "cpu" });
    const S = mod.structs.S!;
    const v = { a: { n: -(2n ** 40n), v: [1, 2] }, t: [[0.5, 1.5], [2.5, 3.5]], b: true };
    const bytes = packStructs(S, [v, { ...v, t: [1, 2, 3, 4], b: false }]);
    expect(bytes.byteLength).toBe(2 * S.size);
    expect(unpackStructs(S, bytes)).toEqual([v, { ...v, t: [[1, 2], [3, 4]], b: false }]);
    expect(() => packStructs(S, [{ ...v, extra: 1 }])).toThrow("packStructs(S): element [0].extra must be no field 'extra': S has a, t, b, got number 1");
    expect(() => unpackStructs(S, new ArrayBuffer(S.size + 8))).toThrow(`unpackStructs(S): ${S.size + 8} bytes are not a whole number of ${S.size}-byte structs`);
  });

  it("reads an array field of vectors or structs nested or flat, though its flat elements are arrays too", async () => {
    const mod = await compileSource("struct P { q: i32; }\nstruct S { v: f32x2[2][2]; w: u32x2[3][1]; p: P[2][1]; }\ndevice_kernel k(s: global<S>) {}\n", { device: "cpu" });
    const S = mod.structs.S!;
    const v = { v: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], w: [[[1, 2]], [[3, 4]], [[5, 6]]], p: [[{ q: 1 }], [{ q: 2 }]] };
    const flat = { v: [[1, 2], [3, 4], [5, 6], [7, 8]], w: [[1, 2], [3, 4], [5, 6]], p: [[1], [2]] };
    expect(unpackStructs(S, packStructs(S, [v, flat]))).toEqual([v, v]);
    expect(() => packStructs(S, [{ ...flat, v: [[1, 2], [3, 4], [5, 6]] }])).toThrow("packStructs(S): element [0].v must be an array of 4 elements ([2][2]), nested or flat, got an array");
    expect(() => packStructs(S, [{ ...flat, v: [[1, 2], [3, 4], [5, 6], [7]] }])).toThrow("packStructs(S): element [0].v[3] must be an array of 2 numbers (f32x2), got an array");
  });
});

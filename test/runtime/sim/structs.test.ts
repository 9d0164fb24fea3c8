/** The simulator on structs: values and their fields, arrays of structs in every memory, padding, and the errors of field indices and unwritten shared structs. */
import { describe, expect, it } from "vitest";
import { structMemory } from "../../../src/ir/jsrt.js";
import { packStructs, unpackStructs } from "../../../src/lang/structs.js";
import { gk, run, simErrorOf } from "./helpers.js";

const PARTICLE = "struct Particle { pos: f32x3; mass: f32; id: i32; taps: f32[2][2]; flag: bool; }\n";

describe("values", () => {
  it("are copied, never shared: changing a copy's field leaves the original as it was", () => {
    const p = gk(`struct P { a: i32; v: i32x2; t: i32[3]; }
device_fn bump(p: P): P { let q = p; q.a += 1; q.v.y = 7; q.t[2] = 9; return q; }
device_kernel k(out: global<i32>) {
  let p: P = { a: 1, v: i32x2(2, 3), t: [4, 5, 6] };
  const q = bump(p);
  let r = q;
  r.t[0] = 100;
  out[0] = p.a; out[1] = p.v.y; out[2] = p.t[2];
  out[3] = q.a; out[4] = q.v.y; out[5] = q.t[2]; out[6] = q.t[0];
  out[7] = r.t[0];
}
`);
    const out = new Int32Array(8);
    run(p, "k", [1], [1], [out]);
    expect(Array.from(out)).toEqual([1, 3, 6, 2, 7, 9, 4, 100]);
  });

  it("give device functions several results", () => {
    const p = gk(`struct DivMod { q: i32; r: i32; }
device_fn divmod(a: i32, b: i32): DivMod { return { q: a / b, r: a % b }; }
device_kernel k(out: global<i32>, n: i32) { const d = divmod(n, 7); out[0] = d.q; out[1] = d.r; }
`);
    const out = new Int32Array(2);
    run(p, "k", [1], [1], [out, -23]);
    expect(Array.from(out)).toEqual([-3, -2]);
  });

  it("report an array field's index out of bounds (GK8001)", () => {
    const p = gk(`struct T { taps: f32[2][3]; }\ndevice_kernel k(out: global<f32>, i: i32) {\n  let t: T;\n  out[0] = t.taps[1][i];\n}\n`);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [new Float32Array(1), 3]))).toBe(
      "GK8001 4:12 out-of-bounds index [1][3] of an array field (f32[2][3]): the second index must be in 0..2 (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
  });
});

describe("arrays of structs", () => {
  const p = gk(`${PARTICLE}device_kernel k(ps: global<Particle>, out: global<Particle>, n: i32) {
  const i = globalId.x;
  if (i >= n) { return; }
  let q = ps[i];
  q.pos.y += q.mass;
  q.taps[1][0] = f32(q.id);
  q.flag = !q.flag;
  out[i] = q;
  ps[i].mass = 2.0 * ps[i].mass;
}
`);
  const T = p.ir.structs[0]!;
  const particles = [0, 1, 2].map((i) => ({ pos: [i, 10 * i, 0.5], mass: 1.5 + i, id: 100 + i, taps: [[1, 2], [3, 4]], flag: i === 1 }));

  it("are bytes laid out as the struct says: the kernel reads and writes fields in place", () => {
    const ps = packStructs(T, particles);
    const out = new Uint8Array(3 * T.size);
    run(p, "k", [1], [4], [new Uint8Array(ps), out, 3]);
    expect(unpackStructs(T, ps).map((x) => x.mass)).toEqual([3, 5, 7]);
    expect(unpackStructs(T, out)).toEqual(
      particles.map((x) => ({ ...x, pos: [x.pos[0], Math.fround(x.pos[1]! + x.mass), x.pos[2]], taps: [[1, 2], [x.id, 4]], flag: !x.flag })),
    );
  });

  it("leave padding bytes as they were (a 3-lane vector's fourth lane, the gaps of a struct)", () => {
    const ps = new Uint8Array(packStructs(T, particles));
    const out = new Uint8Array(3 * T.size).fill(0xaa);
    run(p, "k", [1], [4], [ps, out, 3]);
    const padding = [12, 13, 14, 15, ...Array.from({ length: T.size - 41 }, (_, k) => 41 + k)];
    for (let e = 0; e < 3; e++) for (const b of padding) expect(out[e * T.size + b], `element ${e} byte ${b}`).toBe(0xaa);
  });

  it("work in place in a buffer that starts anywhere, through a copy when it does not start at a multiple of 8", () => {
    const buffer = new ArrayBuffer(4 + 3 * T.size);
    new Uint8Array(buffer, 4).set(new Uint8Array(packStructs(T, particles)));
    const ps = new DataView(buffer, 4);
    const out = new Uint8Array(3 * T.size);
    run(p, "k", [1], [4], [ps, out, 3]);
    expect(unpackStructs(T, ps).map((x) => x.mass)).toEqual([3, 5, 7]);
  });

  it("are checked for whole structs", () => {
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [new Uint8Array(T.size + 1), new Uint8Array(0), 0]))).toBe(
      `GK8005 2:17 argument 1 of kernel 'k' ('ps: global<Particle>') must be an ArrayBuffer, DataView or TypedArray of n × ${T.size} bytes (n Particle structs, laid out as spec/language.md says; packStructs makes one from objects), but it is a Uint8Array of length ${T.size + 1}`,
    );
  });

  it("live in shared and local memory, across barriers, and an unwritten shared field is reported (GK8013)", () => {
    const q = gk(`struct Acc { sum: f32; count: i32; }
device_kernel k(x: readonly global<f32>, out: global<Acc>, skip: i32) {
  shared part: Acc[8];
  let local: Acc[2];
  const t = threadIdx.x;
  local[1].sum = x[t];
  local[1].count = 1;
  if (t != skip) { part[t] = local[1]; } else { part[t].sum = 0.0; }
  barrier();
  if (t == 0) {
    let total: Acc = { sum: 0.0, count: 0 };
    for (let i = 0; i < 8; i++) { total.sum += part[i].sum; total.count += part[i].count; }
    out[blockIdx.x] = total;
  }
}
`);
    const x = Float32Array.from({ length: 8 }, (_, i) => i + 0.5);
    const out = new Uint8Array(8);
    run(q, "k", [1], [8], [x, out, 99]);
    expect(unpackStructs(q.ir.structs[0]!, out)).toEqual([{ sum: 32, count: 8 }]);
    expect(simErrorOf(q.sources, () => run(q, "k", [1], [8], [x, new Uint8Array(8), 3]))).toBe(
      "GK8013 12:76 read of shared part[3] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
  });
});

describe("StructMemory", () => {
  it("views one buffer through every scalar type", () => {
    const m = structMemory(2, 16);
    m.f64[1] = 1.5;
    m.i32[0] = -1;
    expect(m.u32[0]).toBe(0xffffffff);
    expect(Array.from(m.bytes.slice(8, 16))).toEqual(Array.from(new Uint8Array(Float64Array.of(1.5).buffer)));
  });
});

/** The simulator on vectors: lane-wise semantics, vector builtins, arrays of vectors, vector accesses of arrays of scalars and their errors, f16x2 and bf16x2. */
import { describe, expect, it } from "vitest";
import { gk, run, simErrorOf } from "./helpers.js";
import { roundBf16, roundF16 } from "../../../src/ir/halves.js";
import { bf16ToFloat32, f16ToFloat32, float32ToBf16, float32ToF16 } from "../../../src/runtime/halfArrays.js";

const f = Math.fround;

describe("lane-wise operations", () => {
  it("compute each lane as the scalar operation does: f32 rounding, integer wrapping, splats", () => {
    const p = gk(`device_kernel k(v: f32x4, iv: i32x4, s: f32, out: global<f32x4>, iout: global<i32x4>, bout: global<boolx4>) {
  out[0] = v * s + v;
  out[1] = v / f32x4(3.0);
  iout[0] = iv * 65537 + 1;
  iout[1] = (iv >>> 28) | (iv << 1);
  iout[2] = -iv % 7;
  bout[0] = v > f32x4(0.1, 0.2, 0.3, 0.4);
  bout[1] = !(iv == i32x4(1, -2, 3, 0x7fffffff));
}
`);
    const v = [0.1, -2.5, 1e30, 3];
    const iv = [1, -2, 0x40000000, 0x7fffffff];
    const out = new Float32Array(8);
    const iout = new Int32Array(12);
    const bout = new Uint8Array(8);
    run(p, "k", [1], [1], [v.map(f), iv, f(1.5), out, iout, bout]);
    expect(Array.from(out.slice(0, 4))).toEqual(v.map((x) => f(f(f(x) * f(1.5)) + f(x))));
    expect(Array.from(out.slice(4))).toEqual(v.map((x) => f(f(x) / 3)));
    expect(Array.from(iout.slice(0, 4))).toEqual(iv.map((x) => (Math.imul(x, 65537) + 1) | 0));
    expect(Array.from(iout.slice(4, 8))).toEqual(iv.map((x) => ((x >>> 28) | (x << 1)) | 0));
    expect(Array.from(iout.slice(8))).toEqual(iv.map((x) => (-x | 0) % 7 | 0));
    expect(Array.from(bout.slice(0, 4))).toEqual(v.map((x, i) => Number(f(x) > f([0.1, 0.2, 0.3, 0.4][i]!))));
    expect(Array.from(bout.slice(4))).toEqual([0, 0, 1, 0]);
  });

  it("apply math builtins lane by lane, and report a lane's division by zero at its expression", () => {
    const p = gk(`device_kernel k(v: f32x4, iv: i32x4, out: global<f32x4>, iout: global<i32x4>) {
  out[0] = sqrt(abs(v));
  out[1] = clamp(v, 0.0, 2.0);
  iout[0] = max(iv, 0) + popcount(u32x4(iv));
  iout[1] = iv / i32x4(1, 2, 0, 4);
}
`);
    const out = new Float32Array(8);
    const iout = new Int32Array(8);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [[-4, 0.25, 9, 3].map(f), [1, -1, 7, 8], out, iout]))).toBe(
      "GK8003 5:13 integer division by zero in 'iv / i32x4(1, 2, 0, 4)' (i32) (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
    expect(Array.from(out)).toEqual([2, 0.5, 3, f(Math.sqrt(3)), 0, 0.25, 2, 2]);
    expect(Array.from(iout.slice(0, 4))).toEqual([2, 32, 10, 9]);
  });

  it("compute dot, length, distance, normalize and cross in the spec's order", () => {
    const p = gk(`device_kernel k(a: f32x3, b: f32x3, out: global<f32>, vout: global<f32x3>, sel: global<i32x2>) {
  out[0] = dot(a, b);
  out[1] = length(a);
  out[2] = distance(a, b);
  vout[0] = normalize(a);
  vout[1] = cross(a, b);
  sel[0] = select(bool2(a.xy), i32x2(1, 2), i32x2(-1));
  out[3] = select(any(a.xy == b.xy), 1.0, 0.0) + select(all(a == a), 10.0, 0.0);
}
device_fn bool2(v: f32x2): boolx2 { return v > f32x2(0.5); }
`);
    const a = [0.1, 0.7, -3].map(f);
    const b = [2.5, 0.7, 1e-3].map(f);
    const out = new Float32Array(4);
    const vout = new Float32Array(8);
    const sel = new Int32Array(2);
    run(p, "k", [1], [1], [a, b, out, vout, sel]);
    const dot = (x: number[], y: number[]) => x.map((_, i) => f(x[i]! * y[i]!)).reduce((s, t) => f(s + t));
    const len = f(Math.sqrt(dot(a, a)));
    const d = a.map((x, i) => f(x - b[i]!));
    expect(Array.from(out)).toEqual([dot(a, b), len, f(Math.sqrt(dot(d, d))), 11]);
    expect(Array.from(vout)).toEqual([...a.map((x) => f(x / len)), 0, f(f(a[1]! * b[2]!) - f(a[2]! * b[1]!)), f(f(a[2]! * b[0]!) - f(a[0]! * b[2]!)), f(f(a[0]! * b[1]!) - f(a[1]! * b[0]!)), 0]);
    expect(Array.from(sel)).toEqual([-1, 2]);
  });
});

describe("arrays of vectors", () => {
  it("hold each vector's lanes in turn, a 3-lane vector in 4 numbers whose fourth is never written", () => {
    const p = gk(`device_kernel k(a: readonly global<f32x4>, b: global<f32x3>, c: global<u64x2>) {
  const i = globalId.x;
  b[i] = a[i].zyx;
  b[i].y += 100.0;
  c[i] = u64x2(u64(i), u64(i) << 40);
}
`);
    const a = Float32Array.from({ length: 8 }, (_, i) => i);
    const b = new Float32Array(8).fill(-7);
    const c = new BigUint64Array(4);
    run(p, "k", [1], [2], [a, b, c]);
    expect(Array.from(b)).toEqual([2, 101, 0, -7, 6, 105, 4, -7]);
    expect(Array.from(c)).toEqual([0n, 0n, 1n, 1n << 40n]);
  });

  it("checks that a global array of vectors has whole vectors", () => {
    const p = gk(`device_kernel k(a: global<f32x4>) { a[0].x = 1.0; }\n`);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [new Float32Array(6)]))).toBe(
      "GK8005 1:17 argument 1 of kernel 'k' ('a: global<f32x4>') must be a Float32Array of 4·n elements (n f32x4 vectors, 4 f32 each), but it is a Float32Array of length 6",
    );
  });
});

describe("vector accesses of arrays of scalars", () => {
  const p = gk(`device_kernel k(x: readonly global<f32>, out: global<f32>, n: i32, at: i32) {
  shared t: f32[2][8];
  const i = threadIdx.x;
  store4(t[i], 4, load4(x, i * 4) * 2.0);
  store4(t[i], 0, f32x4(0.5));
  barrier();
  if (i == 0) {
    store4(out, at, load4(t[1], 4) + load4(t[0], 0));
    let d = load2(out, n);
  }
}
`);

  it("move four elements as one vector", () => {
    const out = new Float32Array(8);
    run(p, "k", [1], [2], [Float32Array.from({ length: 8 }, (_, i) => i + 1), out, 0, 4]);
    expect(Array.from(out)).toEqual([0, 0, 0, 0, 10.5, 12.5, 14.5, 16.5]);
  });

  it("report an access that is not aligned to its lanes (GK8030), or runs past the end (GK8001)", () => {
    const x = new Float32Array(8);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [2], [x, new Float32Array(8), 0, 2]))).toBe(
      "GK8030 8:5 misaligned 4-lane vector write of out[2]: it starts at element 2, not a multiple of 4; a 4-lane access of f32 must start at one (on the GPU it is one 16-byte access, which faults otherwise) (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [2], [x, new Float32Array(10), 9, 4]))).toBe(
      "GK8001 9:13 out-of-bounds read out[9]: out has 10 elements (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
    const q = gk(`device_kernel k(x: global<f64>, r: i32, c: i32) {\n  let t: f64[3][6];\n  let v = load2(t[r], c);\n  x[0] = v.y;\n}\n`);
    expect(simErrorOf(q.sources, () => run(q, "k", [1], [1], [new Float64Array(1), 1, 3]))).toBe(
      "GK8030 3:11 misaligned 2-lane vector read of t[1][3]: it starts at element 9 of t (f64[3][6], row-major), not a multiple of 2; a 2-lane access of f64 must start at one (on the GPU it is one 16-byte access, which faults otherwise) (kernel 'k', thread (0,0,0), block (0,0,0))",
    );
  });
});

describe("f16x2 and bf16x2", () => {
  const h = roundF16;
  const b = roundBf16;
  it("compute each lane as the scalar f16 or bf16 operation does, rounded once, and hold arrays as lanes' bits", () => {
    const p = gk(`struct P { n: i32; uv: f16x2; w: bf16x2; }
device_kernel k(v: f16x2, w: bf16x2, xs: readonly global<f16>, out: global<f16x2>, bout: global<bf16x2>, ps: global<P>, ys: global<bf16>, cmp: global<boolx2>) {
  out[0] = v * v + v;
  out[1] = load2(xs, 2) / v;
  out[2] = sqrt(abs(v)) - f16x2(f16(1.0) / f16(3.0));
  bout[0] = w * bf16(3.0) + w;
  bout[1] = bf16x2(f32x2(v));
  ps[1] = { n: 7, uv: v.yx, w: w };
  ps[1].uv.x += f16(1.0);
  store2(ys, 2, w - bf16x2(0.1));
  cmp[0] = v < f16x2(f16(1.0));
}
`);
    const v = [1.1, -3.3].map(h);
    const w = [0.3, 70.7].map(b);
    const xs = float32ToF16([5, 7, 9, 11]);
    const out = new Uint16Array(6);
    const bout = new Uint16Array(4);
    const ps = new Uint8Array(2 * 12);
    const ys = new Uint16Array(4);
    const cmp = new Uint8Array(2);
    run(p, "k", [1], [1], [v, w, xs, out, bout, ps, ys, cmp]);
    const got = Array.from(f16ToFloat32(out));
    expect(got.slice(0, 2)).toEqual(v.map((x) => h(h(x * x) + x)));
    expect(got.slice(2, 4)).toEqual([9, 11].map((x, i) => h(x / v[i]!)));
    expect(got.slice(4)).toEqual(v.map((x) => h(h(Math.sqrt(Math.abs(x))) - h(1 / 3))));
    expect(Array.from(bf16ToFloat32(bout))).toEqual([...w.map((x) => b(b(x * 3) + x)), ...v.map(b)]);
    // Struct P: n at 0, uv at 4 (f16x2, aligned to 4), w at 8; 12 bytes.
    const view = new DataView(ps.buffer, 12);
    expect(view.getInt32(0, true)).toBe(7);
    expect([f16ToFloat32(new Uint16Array([view.getUint16(4, true), view.getUint16(6, true)]))].map((a) => Array.from(a))[0]).toEqual([h(v[1]! + 1), v[0]]);
    expect(Array.from(bf16ToFloat32(new Uint16Array([view.getUint16(8, true), view.getUint16(10, true)])))).toEqual(w);
    expect(Array.from(bf16ToFloat32(ys.slice(2)))).toEqual(w.map((x) => b(x - b(0.1))));
    expect(Array.from(cmp)).toEqual([0, 1]);
  });
});

describe("atomicAdd on f16x2 and bf16x2", () => {
  const h = roundF16;
  const b = roundBf16;
  const src = `device_kernel k(v: readonly global<f16x2>, w: readonly global<bf16x2>, out: global<f16x2>, bout: global<bf16x2>, old: global<f16x2>) {
  shared sh: f16x2[2][2];
  shared sb: bf16x2[2];
  const t = threadIdx.x;
  if (t < 2) {
    sh[1][t] = f16x2(f16(0.5));
    sb[t] = bf16x2(bf16(0.5));
  }
  barrier();
  old[t] = atomicAdd(out, t % 2, v[t]);
  atomicAdd(bout, t % 2, w[t]);
  atomicAdd(sh[1], t % 2, v[t]);
  atomicAdd(sb, t % 2, w[t]);
  barrier();
  if (t < 2) {
    out[2 + t] = sh[1][t];
    bout[2 + t] = sb[t];
  }
}
`;
  it("adds lane by lane, each lane rounded once as the scalar atomicAdd, in global memory and shared rows, returning the old vector", () => {
    const p = gk(src);
    const x = [0.1, -3.3, 1e-7, 2049, 7.7, 65000, -0.0001, 3].map(h);
    const y = [0.3, 70.7, 1e-39, -2, 1.5, 3e38, 257, -0.01].map(b);
    const out = float32ToF16([1, 2, 3, 4, 0, 0, 0, 0]);
    const bout = new Uint16Array(8);
    const old = new Uint16Array(8);
    run(p, "k", [1], [4], [float32ToF16(x), float32ToBf16(y), out, bout, old]);
    // Threads run in order: thread t adds its vector to slot t % 2 after thread t - 2.
    const sums = (start: number[], vs: number[], r: (n: number) => number) => {
      const acc = [...start];
      const olds: number[] = [];
      for (let t = 0; t < 4; t++) for (let k = 0; k < 2; k++) olds.push(acc[(t % 2) * 2 + k]!), (acc[(t % 2) * 2 + k] = r(acc[(t % 2) * 2 + k]! + vs[t * 2 + k]!));
      return { acc, olds };
    };
    const g = sums([1, 2, 3, 4], x, h);
    const s = sums([0.5, 0.5, 0.5, 0.5], x, h);
    expect(Array.from(f16ToFloat32(out))).toEqual([...g.acc, ...s.acc]);
    expect(Array.from(f16ToFloat32(old))).toEqual(g.olds);
    expect(Array.from(bf16ToFloat32(bout))).toEqual([...sums([0, 0, 0, 0], y, b).acc, ...sums([0.5, 0.5, 0.5, 0.5], y, b).acc]);
  });

  it("reports an element out of bounds (GK8001), an unwritten shared element (GK8013) and a race with a plain access (GK8040) at the atomic", () => {
    const p = gk(`device_kernel k(h: global<f16x2>, i: i32) {
  shared s: f16x2[4];
  if (threadIdx.x == 0 && i >= 0) {
    s[0] = h[0];
  }
  barrier();
  h[1 + threadIdx.x] = atomicAdd(s, i, f16x2(f16(1.0)));
  if (i == 1) {
    atomicAdd(h, 0, s[0]);
    h[0] = h[3];
  }
}
`);
    const h4 = () => new Uint16Array(8);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [2], [h4(), 4]))).toBe("GK8001 7:24 out-of-bounds atomicAdd on s[4]: s is shared f16x2[4], so the index must be in 0..3 (kernel 'k', thread (0,0,0), block (0,0,0))");
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [2], [h4(), 3]))).toMatch(/^GK8013 7:24 atomicAdd on shared s\[3\] before any thread of block \(0,0,0\) wrote it/);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [2], [h4(), 1], { checkRaces: true, checkUninitializedShared: false }))).toMatch(/^GK8040 9:5 data race on global h\[0\]: thread \(1,0,0\) of block \(0,0,0\) applies atomicAdd to it at line 9, column 5, and thread \(0,0,0\) of block \(0,0,0\) wrote it at line 10/);
  });
});

describe("f16x4, f16x8, bf16x4 and bf16x8", () => {
  const h = roundF16;
  const b = roundBf16;
  it("compute each lane as the scalar operation does, move 4 or 8 halves per access, and name lanes .s0 to .s7, .lo and .hi", () => {
    const p = gk(`device_kernel k(xs: readonly global<f16>, ys: global<f16>, out: global<f16x8>, bs: global<bf16>) {
  let a = load8(xs, 8);
  let q = load4(xs, 4) * a.hi - f16x4(f16(0.1));
  a.s6 = q.x;
  out[0] = f16x8(q, a.lo) / a;
  store8(ys, 0, a + f16x8(f16(1.0)));
  store4(ys, 8, q.wzyx);
  store4(bs, 4, bf16x4(f32x4(q)) * bf16(3.0));
  bs[0] = bf16(a.s7 + out[0].s2);
}
`);
    const x = Array.from({ length: 16 }, (_, k) => h(1 + k / 7));
    const xs = float32ToF16(x);
    const ys = new Uint16Array(12);
    const out = new Uint16Array(8);
    const bs = new Uint16Array(8);
    run(p, "k", [1], [1], [xs, ys, out, bs]);
    const a = x.slice(8);
    const q = [0, 1, 2, 3].map((k) => h(h(x[4 + k]! * a[4 + k]!) - h(0.1)));
    a[6] = q[0]!;
    const o = [...q, ...a.slice(0, 4)].map((v, k) => h(v / a[k]!));
    expect(Array.from(f16ToFloat32(out))).toEqual(o);
    expect(Array.from(f16ToFloat32(ys))).toEqual([...a.map((v) => h(v + 1)), ...[...q].reverse()]);
    expect(Array.from(bf16ToFloat32(bs.slice(4)))).toEqual(q.map((v) => b(b(v) * 3)));
    expect(bf16ToFloat32(bs.slice(0, 1))[0]).toBe(b(h(a[7]! + o[2]!)));
  });

  it("reports a load8 or store8 not aligned to 8 elements (GK8030)", () => {
    const p = gk("device_kernel k(xs: global<f16>) {\n  store8(xs, 4, load8(xs, 8));\n}\n");
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [new Uint16Array(16)]))).toMatch(/GK8030/);
  });
});

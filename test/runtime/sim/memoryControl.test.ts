/**
 * The simulator on the memory and control features of real kernels: dynamic shared arrays
 * (lengths per launch), constant arrays (contents per launch), references (inout/out) and
 * views, ordered accesses and fences, @unroll, warp match and flush to zero. Each runs on
 * both barrier paths where it can (helpers.run compares them), against values worked out
 * by hand or by a plain TypeScript reference.
 */
import { describe, expect, it } from "vitest";
import { f16ToFloat32 } from "../../../src/runtime/halfArrays.js";
import { compileKernel, runKernel } from "../../../src/runtime/sim/index.js";
import { gk, run, simErrorOf } from "./helpers.js";

const f = Math.fround;

describe("dynamic shared arrays", () => {
  const p = gk(`
device_kernel k(n: i32, x: readonly global<f32>, out: global<f64>, count: global<u32>) {
  shared vals: f32[];
  shared wide: f64[];
  shared hits: u32[];
  const t = threadIdx.x;
  vals[t] = t < n ? x[t] : 0.0;
  if (t == 0) {
    hits[0] = 0;
  }
  barrier();
  wide[t] = f64(vals[blockDim.x - 1 - t]);
  if (vals[t] > 1.0) {
    atomicAdd(hits, 0, 1);
  }
  barrier();
  out[t] = wide[t];
  if (t == 0) {
    count[0] = hits[0];
  }
}
`);

  it("takes each array's length from the launch, in declaration order", () => {
    const out = new Float64Array(5);
    const count = new Uint32Array(1);
    run(p, "k", [1], [5], [5, Float32Array.of(0.5, 1.5, 2.5, 3.5, 0.25), out, count], undefined, { shared: [5, 5, 1] });
    expect([...out]).toEqual([0.25, 3.5, 2.5, 1.5, 0.5]);
    expect([...count]).toEqual([3]);
  });

  it("bounds-checks an access against the launch's length, naming it", () => {
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [5], [5, new Float32Array(5), new Float64Array(5), new Uint32Array(1)], undefined, { shared: [4, 5, 1] }))).toBe(
      "GK8001 7:3 out-of-bounds write vals[4]: vals (shared f32[]) has 4 elements in this launch (kernel 'k', thread (4,0,0), block (0,0,0))",
    );
  });

  it("move 4 elements at once with load4/store4, of the first array and of the others (each starts at a multiple of 16 bytes), race-checked lane by lane", () => {
    const q = gk(`device_kernel k(x: readonly global<f32>, out: global<f32>, h: global<f16>) {
  shared hs: f16[];
  shared tile: f32[];
  const t = threadIdx.x;
  store4(tile, t * 4, load4(x, t * 4));
  store8(hs, t * 8, f16x8(f16(t)));
  barrier();
  store4(out, t * 4, load4(tile, (blockDim.x - 1 - t) * 4) + f32x4(f32(load8(hs, t * 8).s7)));
  h[t] = load4(hs, ((t + 1) % blockDim.x) * 8 + 4).w;
}
`);
    const x = Float32Array.from({ length: 16 }, (_, i) => i);
    const out = new Float32Array(16);
    const h = new Uint16Array(4);
    run(q, "k", [1], [4], [x, out, h], { checkRaces: true }, { shared: [33, 16] });
    expect([...out]).toEqual([12, 13, 14, 15, 9, 10, 11, 12, 6, 7, 8, 9, 3, 4, 5, 6]);
    expect([...f16ToFloat32(h)]).toEqual([1, 2, 3, 0]);
    const misaligned = gk("device_kernel k(out: global<f32>) {\n  shared tile: f32[];\n  store4(tile, 2, f32x4(1.0));\n  out[0] = tile[2];\n}\n");
    expect(simErrorOf(misaligned.sources, () => run(misaligned, "k", [1], [1], [new Float32Array(1)], undefined, { shared: [8] }))).toMatch(/GK8030/);
  });

  it("refuses a launch without a length for each array, or over the device's limit", () => {
    const k = compileKernel(p.ir, "k", p.sources);
    const args = [5, new Float32Array(5), new Float64Array(5), new Uint32Array(1)];
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [5], shared: [5, 5] }, args))).toMatch(/GK8010 .*: it has 3 dynamic shared arrays \(vals, wide, hits\), but 2 lengths were given/);
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [5], shared: [5, 30000, 1] }, args))).toMatch(/GK8010 .*: it would use 240036 bytes of shared memory per block \(0 in fixed-size arrays\); a block may use at most 232448/);
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [5], shared: [-1, 5, 1] }, args))).toMatch(/GK8010 .*vals/);
  });
});

describe("constant arrays", () => {
  const p = gk(`
constant TAPS: f32[3];
constant OFFSETS: i32[2][2];
device_fn tap(k: i32): f32 {
  return TAPS[k];
}
device_kernel k(out: global<f32>) {
  const t = threadIdx.x;
  out[t] = tap(t % 3) + f32(OFFSETS[t % 2][1]);
}
device_kernel unrelated(out: global<f32>) {
  out[0] = 1.0;
}
`);

  it("reads what each launch gives, from kernels and device functions", () => {
    const out = new Float32Array(4);
    run(p, "k", [1], [4], [out], undefined, { constants: [Float32Array.of(0.5, 1.5, 2.5), Int32Array.of(0, 10, 0, 20)] });
    expect([...out]).toEqual([10.5, 21.5, 12.5, 20.5]);
    run(p, "k", [1], [4], [out], undefined, { constants: [Float32Array.of(1, 1, 1), Int32Array.of(0, 1, 0, 2)] });
    expect([...out]).toEqual([2, 3, 2, 3]);
  });

  it("takes only the arrays a kernel reads, each of its declared length and type", () => {
    run(p, "unrelated", [1], [1], [new Float32Array(1)]);
    const k = compileKernel(p.ir, "k", p.sources);
    const out = new Float32Array(4);
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [4] }, [out], [Float32Array.of(1, 2, 3)]))).toBe(
      "GK8005 7:1 kernel 'k' reads 2 constant arrays (TAPS, OFFSETS), but 1 was given",
    );
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [4] }, [out], [Float32Array.of(1, 2), new Int32Array(4)]))).toMatch(/^GK8005 2:10 kernel 'k': .*TAPS.*3.*2/);
    expect(simErrorOf(p.sources, () => runKernel(k, { grid: [1], block: [4] }, [out], [new Float64Array(3), new Int32Array(4)]))).toMatch(/^GK8005 2:10 kernel 'k': .*TAPS.*f32/);
  });
});

describe("references and views", () => {
  it("inout and out write through to variables and to elements of every memory", () => {
    const p = gk(`
device_fn swap(a: inout i32, b: inout i32) {
  const t = a;
  a = b;
  b = t;
}
device_fn twice(x: i32, r: out i32) {
  r = 2 * x;
}
device_kernel k(g: global<i32>) {
  shared s: i32[4];
  let l: i32[2];
  const t = threadIdx.x;
  s[t] = 10 * t;
  barrier();
  let v = 100 + t;
  swap(v, g[t]);
  l[0] = v;
  twice(l[0], l[1]);
  swap(s[t], s[t]);
  twice(s[t], g[4 + t]);
  g[8 + t] = l[1];
  twice(t, v);
  g[12 + t] = v;
}
`);
    const g = Int32Array.from({ length: 16 }, (_, i) => i);
    run(p, "k", [1], [4], [g]);
    expect([...g]).toEqual([100, 101, 102, 103, 0, 20, 40, 60, 0, 2, 4, 6, 0, 2, 4, 6]);
  });

  it("out and inout of f16 and bf16 bound to local variables pass values, not their bits", () => {
    // Each variable holds a number; the reference's box holds the stored form (bits) inside the
    // call, and the variable gets the value back after it.
    const p = gk(`
device_fn half(x: inout f16, y: out bf16) {
  x = x * 2.0;
  y = -0.5;
}
device_kernel k(a: f16, out: global<f16>, outb: global<bf16>) {
  let b: bf16 = 1.0;
  half(a, b);
  out[0] = a;
  outb[0] = b;
  out[1] = a + 1.0;
  outb[1] = b + 1.0;
}
`);
    const out = new Uint16Array(2);
    const outb = new Uint16Array(2);
    run(p, "k", [1], [1], [1.0, out, outb]);
    // a: 1.0 * 2 = 2.0 (0x4000), 3.0 (0x4200); b: -0.5 (0xbf00), 0.5 (0x3f00).
    expect([...out]).toEqual([0x4000, 0x4200]);
    expect([...outb]).toEqual([0xbf00, 0x3f00]);
  });

  it("views read and write the underlying array at offset + i * stride, in every memory", () => {
    const p = gk(`
device_fn fill(v: view<f32>, n: i32, x: f32) {
  for (let i = 0; i < n; i++) {
    v[i] = x + f32(i);
  }
}
device_fn sum(v: readonly view<f32>, n: i32): f32 {
  let s = 0.0;
  for (let i = 0; i < n; i++) {
    s += v[i];
  }
  return s;
}
device_kernel k(g: global<f32>, out: global<f32>) {
  shared tile: f32[2][4];
  let l: f32[6];
  fill(view(g, 1, 3, 2), 3, 10.0);
  fill(tile[0], 4, 0.0);
  fill(tile[1], 4, 4.0);
  fill(view(l, 0, 6), 6, 1.0);
  out[0] = sum(view(l, 1, 3, 2), 3);
  out[1] = sum(tile[1], 4);
  out[2] = sum(view(tile[0], 1, 2), 2);
  out[3] = sum(view(g, 0, 8), 8);
}
`);
    const g = new Float32Array(8);
    const out = new Float32Array(4);
    run(p, "k", [1], [1], [g, out]);
    expect([...g]).toEqual([0, 10, 0, 11, 0, 12, 0, 0]);
    // l = 1..6; l[1], l[3], l[5] = 2 + 4 + 6; tile[1] = 4..7; tile[0][1..2] = 1 + 2.
    expect([...out]).toEqual([12, 22, 3, 33]);
  });

  it("bounds-checks each access against the view, naming the view and its array", () => {
    const p = gk(`
device_fn at(v: readonly view<f32>, i: i32): f32 {
  return v[i];
}
device_kernel k(g: global<f32>, i: i32, offset: i32, length: i32) {
  g[0] = at(view(g, offset, length, 2), i);
}
`);
    const g = new Float32Array(8);
    run(p, "k", [1], [1], [g, 1, 1, 3]);
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [g, 3, 1, 3]))).toBe("GK8001 3:10 out-of-bounds read v[3]: the view 'v' has 3 elements, a view of 'g' from its element 1, every 2nd element (device_fn 'at' called by kernel 'k', thread (0,0,0), block (0,0,0))");
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [g, 0, 2, 4]))).toBe("GK8001 6:13 the view for parameter 'v' of at() is 4 elements of 'g' (8 elements) from element 2, 2 apart, so it reaches element 8, which 'g' does not have (kernel 'k', thread (0,0,0), block (0,0,0))");
    expect(simErrorOf(p.sources, () => run(p, "k", [1], [1], [g, 0, -1, 1]))).toBe("GK8001 6:13 the view for parameter 'v' of at() is 1 element of 'g' (8 elements) from element -1, 2 apart, so it reaches element -1, which 'g' does not have (kernel 'k', thread (0,0,0), block (0,0,0))");
  });
});

describe("@flushToZero", () => {
  const body = `
device_kernel k(x: readonly global<f32>, out: global<f32>, zero: global<bool>, wide: global<f64>) {
  const t = threadIdx.x;
  out[t * 4] = x[t] * 1.0;
  out[t * 4 + 1] = x[t];
  out[t * 4 + 2] = -x[t];
  out[t * 4 + 3] = max(x[t], -1.0);
  zero[t] = x[t] == 0.0;
  wide[t] = f64(x[t]);
}
`;
  const x = Float32Array.of(1e-40, -2e-41, 3);
  const sub = (v: number) => f(v);

  it("flushes f32 subnormal operands and results, not copies, in a module that asks for it", () => {
    const out = new Float32Array(12);
    const zero = new Uint8Array(3);
    const wide = new Float64Array(3);
    run(gk(`@flushToZero;\n${body}`), "k", [1], [3], [x, out, zero, wide]);
    expect(Array.from(out, (v) => (Object.is(v, -0) ? "-0" : v))).toEqual([0, sub(1e-40), "-0", 0, "-0", sub(-2e-41), 0, "-0", 3, 3, -3, 3]);
    expect([...zero]).toEqual([1, 1, 0]);
    expect([...wide]).toEqual([0, -0, 3]);
  });

  it("keeps subnormals by default", () => {
    const out = new Float32Array(12);
    const zero = new Uint8Array(3);
    const wide = new Float64Array(3);
    run(gk(body), "k", [1], [3], [x, out, zero, wide]);
    expect([...out]).toEqual([sub(1e-40), sub(1e-40), sub(-1e-40), sub(1e-40), sub(-2e-41), sub(-2e-41), sub(2e-41), sub(-2e-41), 3, 3, -3, 3]);
    expect([...zero]).toEqual([0, 0, 0]);
    expect([...wide]).toEqual([sub(1e-40), sub(-2e-41), 3]);
  });
});

describe("warp match", () => {
  it("gives each lane the mask of the active lanes with its value, and whether all agree, in partial warps too", () => {
    const p = gk(`
device_kernel k(keys: readonly global<u64>, any: global<u32>, all: global<bool>) {
  const t = threadIdx.x;
  any[t] = matchAny(keys[t]);
  all[t] = matchAll(keys[t] / 8);
}
`);
    const n = 40;
    const keys = BigUint64Array.from({ length: n }, (_, i) => BigInt(i % 3) << 40n);
    const any = new Uint32Array(n);
    const all = new Uint8Array(n);
    run(p, "k", [1], [n], [keys, any, all]);
    const want = Array.from({ length: n }, (_, t) => {
      const warp = t - (t % 32);
      const lanes = Math.min(32, n - warp);
      let m = 0;
      for (let l = 0; l < lanes; l++) if ((warp + l) % 3 === t % 3) m |= 1 << l;
      return m >>> 0;
    });
    expect([...any]).toEqual(want);
    // keys / 8 differ in the first warp; the second warp's 8 lanes (32..39) differ too.
    expect([...all]).toEqual(new Array(n).fill(0));
    const same = new Uint8Array(8);
    run(p, "k", [1], [8], [new BigUint64Array(8).fill(5n), new Uint32Array(8), same]);
    expect([...same]).toEqual(new Array(8).fill(1));
  });
});

describe("fast math", () => {
  it("fastDiv by a divisor above 2^126 in magnitude is a zero of the quotient's sign (NaN for an infinite dividend), as CUDA documents", () => {
    const p = gk(`
device_kernel k(x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  const t = threadIdx.x;
  out[t] = fastDiv(x[t], y[t]);
}
`);
    const x = Float32Array.of(1, -1, 1, Infinity, 6);
    const y = Float32Array.of(2 ** 127, 2 ** 127, -(2 ** 127), 2 ** 127, 3);
    const out = new Float32Array(5);
    run(p, "k", [1], [5], [x, y, out]);
    expect(Array.from(out, (v) => (Object.is(v, -0) ? "-0" : v))).toEqual([0, "-0", "-0", NaN, 2]);
  });

  it("the other fast builtins compute the accurate function, rounded to f32", () => {
    const p = gk(`
device_kernel k(x: readonly global<f32>, out: global<f32>) {
  const t = threadIdx.x;
  out[t * 3] = fastExp(x[t]);
  out[t * 3 + 1] = fastLog(x[t]);
  out[t * 3 + 2] = fastSin(x[t]);
}
`);
    const x = Float32Array.of(0.5, 1.25, 2);
    const out = new Float32Array(9);
    run(p, "k", [1], [3], [x, out]);
    expect([...out]).toEqual([...x].flatMap((v) => [f(Math.exp(v)), f(Math.log(v)), f(Math.sin(v))]));
  });
});

describe("ordered accesses, fences and @unroll", () => {
  it("compute as plain accesses do in the simulator (sequentially consistent), on both barrier paths", () => {
    const p = gk(`
device_kernel k(data: global<f32>, flag: global<u32>, out: global<f32>) {
  shared note: u32[2];
  const t = threadIdx.x;
  if (t == 0) {
    data[0] = 42.0;
    storeRelease(flag, 0, 1);
    note[0] = 3;
    threadfenceBlock();
    storeVolatile(note, 1, 1);
    threadfence();
  }
  barrier();
  let s = 0.0;
  @unroll
  for (let i = 0; i < 4; i++) {
    s += f32(i);
  }
  @unroll(2)
  while (loadAcquire(flag, 0) == 0) {
  }
  out[t] = data[0] + f32(loadVolatile(note, 0) * loadVolatile(note, 1)) + s;
}
`);
    const out = new Float32Array(3);
    run(p, "k", [1], [3], [new Float32Array(1), new Uint32Array(1), out]);
    expect([...out]).toEqual([51, 51, 51]);
  });

  it("a block that waits for a later block runs into the step budget", () => {
    const p = gk(`
device_kernel k(flag: global<u32>) {
  if (blockIdx.x == 0) {
    while (loadAcquire(flag, 0) == 0) {
    }
  } else {
    storeRelease(flag, 0, 1);
  }
}
`);
    expect(simErrorOf(p.sources, () => run(p, "k", [2], [1], [new Uint32Array(1)], { stepBudget: 10_000 }))).toMatch(/^GK8004 /);
  });
});

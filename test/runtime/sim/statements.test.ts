/** Statements, locals, device functions and thread indices, on the fast path and the barrier path alike. */
import { describe, expect, it } from "vitest";
import { compileKernel } from "../../../src/runtime/sim/index.js";
import { gk, run } from "./helpers.js";

const p = gk(`device_kernel loops(out: global<i32>) {
  const t = threadIdx.x;
  let acc = 0;
  for (let i = 0; i < 10; i += 1) {
    if (i == 2) { continue; }
    if (i == 7) { break; }
    acc += i;
  }
  let j = 0;
  do {
    j += 1;
    if (j == 3) { continue; }
    acc += 100;
  } while (j < 5);
  while (true) {
    for (let k = 0; k < 4; k += 1) {
      if (k == t) { break; }
      acc += 1000;
    }
    break;
  }
  if (t == 1) { return; }
  out[t] = acc;
}

device_kernel loops_synced(out: global<i32>) {
  const t = threadIdx.x;
  let acc = 0;
  for (let i = 0; i < 10; i += 1) {
    if (i == 2) { continue; }
    if (i == 7) { break; }
    acc += i;
  }
  barrier();
  let j = 0;
  do {
    j += 1;
    if (j == 3) { continue; }
    acc += 100;
  } while (j < 5);
  barrier();
  for (let k = 0; k < 4; k += 1) {
    if (k == t) { break; }
    acc += 1000;
  }
  out[t] = acc;
}

device_fn poly(x: f64): f64 {
  let c: f64[2][3] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
  let s: f64 = 0.0;
  for (let i = 0; i < 2; i += 1) {
    for (let k = 0; k < 3; k += 1) { s = s * x + c[i][k]; }
  }
  return s;
}

device_kernel locals(out: global<f64>, flags: global<bool>, wide: global<i64>) {
  const t = globalId.x;
  let seen: bool[4];
  let big: i64[3];
  seen[t % 4] = true;
  big[t % 3] = i64(t) * 1000000000000;
  out[t] = poly(f64(t));
  flags[t] = seen[t % 4] && !seen[(t + 1) % 4];
  wide[t] = big[t % 3] + big[(t + 1) % 3];
}

device_kernel ids(out: global<i32>) {
  const i = (globalId.z * gridDim.y * blockDim.y + globalId.y) * gridDim.x * blockDim.x + globalId.x;
  out[i] = ((blockIdx.z * 10 + blockIdx.y) * 10 + blockIdx.x) * 1000 + (threadIdx.z * 10 + threadIdx.y) * 10 + threadIdx.x;
}

device_fn where_am_i(): i32 {
  return threadIdx.x + 10 * blockIdx.x + 100 * blockDim.x + 1000 * gridDim.x;
}

device_kernel via_fn(out: global<i32>) {
  out[globalId.x] = where_am_i();
}

device_kernel own_param(n: i32, out: global<i32>) {
  n = n + threadIdx.x;
  out[threadIdx.x] = n;
}

device_kernel shared_kinds(out: global<i64>, flags: global<bool>) {
  shared w: i64[8];
  shared b: bool[8];
  w[threadIdx.x] = i64(threadIdx.x) - 4;
  b[threadIdx.x] = threadIdx.x % 2 == 0;
  barrier();
  out[globalId.x] = w[7 - threadIdx.x];
  flags[globalId.x] = b[7 - threadIdx.x];
}
`);

describe("control flow", () => {
  // i = 0..6 without 2: 19; do-while adds 100 four times; the inner for adds 1000 per k < t.
  const want = [0, 1, 2, 3].map((t) => 19 + 400 + 1000 * t);

  it("for / while / do-while with break and continue; return ends only its thread (fast path)", () => {
    const out = new Int32Array(4).fill(-1);
    run(p, "loops", [1], [4], [out]);
    expect([...out]).toEqual([want[0], -1, want[2], want[3]]);
    expect(compileKernel(p.ir, "loops").usesBarriers).toBe(false);
  });

  it("the same in a generator (barrier path)", () => {
    const out = new Int32Array(4);
    run(p, "loops_synced", [1], [4], [out]);
    expect([...out]).toEqual(want);
  });

  it("a kernel parameter assigned in one thread is fresh in the next", () => {
    const out = new Int32Array(4);
    run(p, "own_param", [1], [4], [10, out]);
    expect([...out]).toEqual([10, 11, 12, 13]);
  });
});

describe("switch", () => {
  it("runs the case of the value, once, with labels sharing a body, continue and return in cases", () => {
    const q = gk(`device_fn classify(x: i32): i32 {
  switch (x % 4) {
    case 0: return 10;
    case 1:
    case 2: { let y = x * 2; return y; }
    default: return -1;
  }
}
device_kernel k(n: i32, out: global<i32>) {
  const i = globalId.x;
  if (i >= n) { return; }
  let acc = 0;
  for (let j = 0; j < 4; j++) {
    switch (j) {
      case 0: acc += 1; break;
      case 1: continue;
      case 3: acc += 100; break;
      default: acc += 10;
    }
  }
  out[i] = classify(i) + acc;
}`);
    const out = new Int32Array(6);
    run(q, "k", [1], [8], [6, out]);
    expect([...out]).toEqual([121, 113, 115, 110, 121, 121]);
  });
});

describe("locals and device functions", () => {
  it("local arrays: initializers, zero fill per declaration, bool and i64 elements", () => {
    const out = new Float64Array(6);
    const flags = new Uint8Array(6);
    const wide = new BigInt64Array(6);
    run(p, "locals", [2], [3], [out, flags, wide]);
    // Horner over 1..6: s = ((((1x + 2)x + 3)x + 4)x + 5)x + 6.
    const horner = (x: number) => [1, 2, 3, 4, 5, 6].reduce((s, c) => s * x + c, 0);
    expect([...out]).toEqual([0, 1, 2, 3, 4, 5].map(horner));
    expect([...flags]).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...wide]).toEqual([0, 1, 2, 3, 4, 5].map((t) => BigInt(t) * 1000000000000n));
  });

  it("thread indices reach device functions", () => {
    const out = new Int32Array(6);
    run(p, "via_fn", [2], [3], [out]);
    expect([...out]).toEqual([0, 1, 2, 10, 11, 12].map((v) => v + 300 + 2000));
  });

  it("shared arrays of i64 and bool", () => {
    const out = new BigInt64Array(16);
    const flags = new Uint8Array(16);
    run(p, "shared_kinds", [2], [8], [out, flags]);
    expect([...out]).toEqual([...Array(16)].map((_, i) => BigInt(7 - (i % 8)) - 4n));
    expect([...flags]).toEqual([...Array(16)].map((_, i) => ((7 - (i % 8)) % 2 === 0 ? 1 : 0)));
  });
});

describe("shared arrays in nested blocks", () => {
  it("are block-wide memory that a loop's next iteration sees as the last left it, each its own array", () => {
    const q = gk(`device_kernel k(out: global<f32>) {
  let acc = 0.0;
  for (let i = 0; i < 4; i++) {
    shared t: f32[32];
    if (i > 0) {
      acc += t[31 - threadIdx.x];
    }
    barrier();
    t[threadIdx.x] = f32(i * 10) + f32(threadIdx.x);
    barrier();
  }
  if (threadIdx.x == 0) {
    shared t: i32[2];
    t[1] = 5;
    out[0] = acc + f32(t[1]);
  }
}
`);
    const out = new Float32Array(1);
    run(q, "k", [2], [32], [out]);
    // Thread 0 reads t[31] as iterations 0, 1 and 2 left it: 31, 41, 51.
    expect(out[0]).toBe(31 + 41 + 51 + 5);
  });
});

describe("grids and blocks of 1 to 3 dimensions", () => {
  it("threadIdx, blockIdx, blockDim, gridDim and globalId on every axis", () => {
    const grid = [3, 2, 2] as const;
    const block = [4, 3, 2] as const;
    const out = new Int32Array(3 * 4 * 2 * 3 * 2 * 2).fill(-1);
    const r = run(p, "ids", grid, block, [out]);
    expect(r.threads).toBe(out.length);
    for (let bz = 0; bz < 2; bz++)
      for (let by = 0; by < 2; by++)
        for (let bx = 0; bx < 3; bx++)
          for (let tz = 0; tz < 2; tz++)
            for (let ty = 0; ty < 3; ty++)
              for (let tx = 0; tx < 4; tx++) {
                const [gx, gy, gz] = [bx * 4 + tx, by * 3 + ty, bz * 2 + tz];
                expect(out[(gz * 6 + gy) * 12 + gx]).toBe(((bz * 10 + by) * 10 + bx) * 1000 + (tz * 10 + ty) * 10 + tx);
              }
  });
});

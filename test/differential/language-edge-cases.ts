/**
 * Language forms added after the first GPU runs, against the spec's words: a constant
 * table and `switch` (tableSwitchCase), and shared arrays passed to device functions
 * (`s: shared f32[N]`, spec/language.md): an f32
 * atomic add through the parameter keeps subnormals as the kernel's own shared memory does
 * (the global atomic flushes them), and a 2-D parameter read across a barrier inside the
 * function. Expected values follow the spec's words.
 */
import type { EdgeCase } from "./edge-cases.js";

const T = 32;

export const sharedParamCase: EdgeCase = (() => {
  const tiny = 1e-40; // an f32 subnormal
  const x = Float32Array.from({ length: T }, (_, t) => (t % 4 === 0 ? tiny * (t + 1) : t % 4 === 1 ? -tiny : t * 0.5));
  const sums: number[] = [];
  const flips: number[] = [];
  for (let t = 0; t < T; t++) {
    // acc starts at x[t]; the atomic adds x[(t + 1) % T] once, rounded to f32, subnormals kept.
    sums.push(Math.fround(x[t]! + x[(t + 1) % T]!));
    // grid[r][c] = r * 8 + c for the 4x8 tile; each thread reads the transposed position after the barrier.
    const r = Math.floor(t / 8);
    const c = t % 8;
    flips.push((c % 4) * 8 + (r + c) % 8);
  }
  return {
    name: "shared arrays passed to device functions: f32 atomic add keeps subnormals there, and a 2-D parameter is read across a barrier inside the function",
    kernel: "shared_params",
    source: `device_fn add_into(acc: shared f32[32], i: i32, v: f32) {
  atomicAdd(acc, i, v);
}

device_fn flip(g: shared i32[4][8], r: i32, c: i32): i32 {
  g[r][c] = r * 8 + c;
  barrier();
  return g[c % 4][(r + c) % 8];
}

device_kernel shared_params(x: readonly global<f32>, sums: global<f32>, flips: global<i32>) {
  shared acc: f32[32];
  shared g: i32[4][8];
  const t = threadIdx.x;
  acc[t] = x[t];
  barrier();
  add_into(acc, (t + 31) % 32, x[t]);
  barrier();
  sums[t] = acc[t];
  flips[t] = flip(g, t / 8, t % 8);
}
`,
    grid: [1],
    block: [T],
    args: [x, new Float32Array(T), new Int32Array(T)],
    expected: { sums, flips },
  };
})();

/** A module-level constant table indexed by a computed index, and a switch with shared bodies, continue and return. */
export const tableSwitchCase: EdgeCase = (() => {
  const TAB = [3, -7, 11, 0, 2147483647, -2147483648, 42, 5];
  const out: number[] = [];
  for (let t = 0; t < T; t++) {
    let acc = 0;
    for (let j = 0; j < 6; j++) {
      const k = (t * 5 + j) % 8;
      switch (k) {
        case 0:
        case 1:
          acc = (acc + TAB[k]!) | 0;
          break;
        case 2:
          continue;
        case 7:
          acc = (acc ^ TAB[(t + j) % 8]!) | 0;
          break;
        default:
          acc = (acc - TAB[k]!) | 0;
      }
    }
    out.push(t % 3 === 0 ? -1 : acc);
  }
  return {
    name: "a constant table indexed at run time, and switch with shared case bodies, continue and a return in a device function",
    kernel: "table_switch",
    source: `const TAB: i32[8] = [3, -7, 11, 0, 2147483647, -2147483648, 42, 5];

device_fn pick(t: i32, acc: i32): i32 {
  switch (t % 3) {
    case 0:
      return -1;
    default:
      return acc;
  }
}

device_kernel table_switch(out: global<i32>) {
  const t = threadIdx.x;
  let acc = 0;
  for (let j = 0; j < 6; j++) {
    const k = (t * 5 + j) % 8;
    switch (k) {
      case 0:
      case 1:
        acc += TAB[k];
        break;
      case 2:
        continue;
      case 7:
        acc ^= TAB[(t + j) % 8];
        break;
      default:
        acc -= TAB[k];
    }
  }
  out[t] = pick(t, acc);
}
`,
    grid: [1],
    block: [T],
    args: [new Int32Array(T)],
    expected: { out },
  };
})();

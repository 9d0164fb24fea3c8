/**
 * Edge cases of the warp operations (spec/language.md, Warp operations): shuffles and votes
 * in a 2-D block whose last warp is partial (13 lanes), lane operands taken modulo 32 (of
 * any integer type, negative too), shflXor butterflies, and syncWarp ordering shared memory
 * within a warp. The expected values follow the spec's words, lane by lane.
 */
import type { EdgeCase } from "./edge-cases.js";

const WARP = 32;

/** The warps of a block of `threads` threads: [first thread, lanes]. */
function warpsOf(threads: number): [number, number][] {
  const r: [number, number][] = [];
  for (let lo = 0; lo < threads; lo += WARP) r.push([lo, Math.min(WARP, threads - lo)]);
  return r;
}

const partialWarps: EdgeCase = (() => {
  const [bx, by, blocks] = [5, 9, 2];
  const threads = bx * by;
  const n = threads * blocks;
  const v = Int32Array.from({ length: n }, (_, g) => ((g * 37 + 11) % 105) - 5);
  const SPECIAL = [-0, Infinity, -Infinity, 1e-310, -2.5];
  const d = Float64Array.from({ length: n }, (_, g) => (g % 9 === 4 ? SPECIAL[(g / 9) % SPECIAL.length | 0]! : g * 0.75 - 20));
  const up: number[] = [];
  const down: number[] = [];
  const pick: bigint[] = [];
  const pick2: bigint[] = [];
  const votes: number[] = [];
  const flags: number[] = [];
  for (let b = 0; b < blocks; b++) {
    for (const [lo, size] of warpsOf(threads)) {
      const at = (lane: number) => b * threads + lo + lane;
      let ballot = 0;
      for (let k = 0; k < size; k++) if (v[at(k)]! % 2 !== 0) ballot |= 1 << k;
      const lanes = Array.from({ length: size }, (_, k) => v[at(k)]!);
      const any = lanes.some((x) => x > 90);
      const all = lanes.every((x) => x >= 0);
      for (let lane = 0; lane < size; lane++) {
        // shflUp: lane - delta, or its own value below lane 0; shflDown: lane + delta, or its own value past the warp's last lane.
        up.push(v[at(lane - 3 < 0 ? lane : lane - 3)]!);
        down.push(d[at(lane + 5 >= size ? lane : lane + 5)]!);
        // shfl: the lane operand modulo 32 ((lane * 7 + 3) % lanes + 64 is below `size` modulo 32).
        pick.push(BigInt.asIntN(64, BigInt(v[at((lane * 7 + 3) % size)]!) * 3000000000n));
        // shflUp with the u32 delta 33: delta 1.
        pick2.push(BigInt.asUintN(64, BigInt(v[at(lane - 1 < 0 ? lane : lane - 1)]!)));
        votes.push(ballot >>> 0);
        flags.push((any ? 1 : 0) + (all ? 2 : 0) + 4);
      }
    }
  }
  return {
    name: "shuffles and votes in a 2-D block whose last warp is partial; lane operands modulo 32",
    kernel: "warps2d",
    source: `device_kernel warps2d(v: readonly global<i32>, d: readonly global<f64>, up: global<i32>, down: global<f64>,
                        pick: global<i64>, pick2: global<u64>, votes: global<u32>, flags: global<i32>) {
  const t = threadIdx.x + blockDim.x * threadIdx.y;
  const g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  const lanes = min(warpSize, blockDim.x * blockDim.y - (t - laneId));
  up[g] = shflUp(v[g], 3);
  down[g] = shflDown(d[g], 5);
  pick[g] = shfl(i64(v[g]) * 3000000000, (laneId * 7 + 3) % lanes + 64);
  pick2[g] = shflUp(u64(v[g]), u32(33));
  votes[g] = ballot(v[g] % 2 != 0);
  const a = anyLane(v[g] > 90);
  const b = allLanes(v[g] >= 0);
  flags[g] = (a ? 1 : 0) + (b ? 2 : 0) + (laneId == t % 32 ? 4 : 0);
}
`,
    grid: [blocks],
    block: [bx, by],
    args: [v, d, new Int32Array(n), new Float64Array(n), new BigInt64Array(n), new BigUint64Array(n), new Uint32Array(n), new Int32Array(n)],
    expected: { up, down, pick, pick2, votes, flags },
  };
})();

const butterflies: EdgeCase = (() => {
  const threads = 64;
  const x = Float32Array.from({ length: threads }, (_, t) => Math.fround(Math.sin(t + 1) * 1000 + (t % 3 === 0 ? 1e-3 : 0)));
  const sums: number[] = [];
  const last: number[] = [];
  const swapped: number[] = [];
  for (const [lo] of warpsOf(threads)) {
    let s = Array.from({ length: WARP }, (_, l) => x[lo + l]!);
    // Each lane adds its partner's value: f32 rounding after each step, in each lane's own order.
    for (let m = 16; m > 0; m >>= 1) s = s.map((a, l) => Math.fround(a + s[l ^ m]!));
    sums.push(...s);
    for (let l = 0; l < WARP; l++) {
      last.push(lo + 31); // shfl(t, -1): the lane operand -1 is lane 31
      swapped.push(Number((BigInt(lo + (l ^ 1)) * 2654435761n) & 0xffffffffn));
    }
  }
  return {
    name: "shflXor butterflies in f32, a negative lane operand, and syncWarp ordering shared memory within a warp",
    kernel: "butterfly",
    source: `device_kernel butterfly(x: readonly global<f32>, sums: global<f32>, last: global<i32>, swapped: global<u32>) {
  shared buf: u32[64];
  const t = threadIdx.x;
  let s = x[t];
  for (let m = 16; m > 0; m /= 2) {
    s += shflXor(s, m);
  }
  sums[t] = s;
  last[t] = shfl(t, -1);
  buf[t] = u32(t) * 2654435761;
  syncWarp();
  swapped[t] = buf[t ^ 1];
}
`,
    grid: [1],
    block: [threads],
    args: [x, new Float32Array(threads), new Int32Array(threads), new Uint32Array(threads)],
    expected: { sums, last, swapped },
  };
})();

export const WARP_EDGE_CASES: readonly EdgeCase[] = [partialWarps, butterflies];

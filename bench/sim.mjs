// Simulator throughput in threads per second (one core): saxpy over 2^20 threads (no
// barriers), then the barrier kernels of examples/: the 16x16-tiled matmul over 256x256 (two
// barriers per tile step), the tree reduction, the tiled transpose and the shared-memory
// histogram, each on the barrier path's regions and, for comparison, on the generators it
// falls back to; and the warp-shuffle reduction, which runs on generators warp by warp. The bar: 20 million threads/s on saxpy; Numba's CUDA simulator runs about
// 12,000 threads/s. Beside each kernel, the same launch with race checking on
// (SimOptions.checkRaces, spec/memory-model.md) and its slowdown.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { compileKernel, runKernel } from "../dist/runtime/sim/index.js";
import { simulateLaunch } from "../dist/runtime/sim/launch.js";
import { ROOT, barChart, median, table, writeResult } from "./lib.mjs";

function load(name) {
  const fe = frontEnd(join(ROOT, "examples", name));
  if (!fe.ir) throw new Error(`${name} does not check`);
  return fe;
}

function measure(fe, kernel, grid, block, makeArgs, runs, opts = {}) {
  const k = compileKernel(fe.ir, kernel, fe.sources, opts);
  const threads = grid.reduce((a, b) => a * b, 1) * block.reduce((a, b) => a * b, 1);
  const times = [];
  for (let i = 0; i < runs + 1; i++) {
    const args = makeArgs();
    const t0 = performance.now();
    runKernel(k, { grid, block }, args);
    if (i > 0) times.push(performance.now() - t0);
  }
  const ms = median(times);
  return { kernel, threads, ms, threadsPerSecond: threads / (ms / 1000), barriers: k.usesBarriers, barrierPath: k.barrierPath };
}

/** The default path, with race checking's time (ms) and slowdown beside it. */
function withRaces(what, ...args) {
  const plain = measure(...args);
  const raced = measure(...args, { checkRaces: true });
  return { ...plain, what, raceMs: raced.ms, slowdown: raced.ms / plain.ms };
}

/** A kernel with barriers on its default path (regions) and, for comparison, on the generator path it falls back to. */
function bothPaths(what, ...args) {
  const regions = withRaces(what, ...args);
  const generators = { ...measure(...args, { barrierPath: "generators" }), what: `${what}, generator path` };
  return [regions, generators];
}

export async function benchSim() {
  const rows = [];
  const n = 1 << 20;
  const x = Float32Array.from({ length: n }, (_, i) => i * 0.5);
  const y = Float32Array.from({ length: n }, (_, i) => 1 - i);
  rows.push(withRaces("saxpy 2^20", load("saxpy.gk"), "saxpy", [n / 256, 1, 1], [256, 1, 1], () => [n, 2.5, x, y, new Float32Array(n)], 9));
  const m = 256;
  const A = Float32Array.from({ length: m * m }, (_, i) => (i % 17) / 16);
  const B = Float32Array.from({ length: m * m }, (_, i) => (i % 13) / 12);
  rows.push(...bothPaths("matmul 256x256 (16x16 tiles)", load("matmul.gk"), "matmul", [m / 16, m / 16, 1], [16, 16, 1], () => [A, B, new Float32Array(m * m), m, m, m], 3));
  const r = 1 << 16;
  const data = Float32Array.from({ length: r }, (_, i) => i % 7);
  rows.push(...bothPaths("block_sum 2^16 (tree in shared memory)", load("reduce.gk"), "block_sum", [r / 256, 1, 1], [256, 1, 1], () => [r, data, new Float32Array(r / 256), new Float32Array(1)], 3));
  rows.push(withRaces("warp_reduce 2^16 (shuffles; generator path)", load("warp_reduce.gk"), "block_sum", [r / 256, 1, 1], [256, 1, 1], () => [r, data, new Float32Array(r / 256), new Float32Array(1)], 3));
  const t = 1024;
  const input = Float32Array.from({ length: t * t }, (_, i) => i);
  rows.push(...bothPaths("transpose 1024x1024 (32x32 tiles)", load("transpose.gk"), "transpose", [t / 32, t / 32, 1], [32, 8, 1], () => [t, t, input, new Float32Array(t * t)], 3));
  const h = 1 << 20;
  const bytes = Uint32Array.from({ length: h }, (_, i) => (i * 2654435761) >>> 24);
  rows.push(...bothPaths("histogram 2^20 values, 2^16 threads", load("histogram.gk"), "histogram", [256, 1, 1], [256, 1, 1], () => [h, bytes, new Uint32Array(16)], 3));
  const numba = 12000;
  console.log(
    table(
      "Simulator throughput (one core)",
      ["kernel", "threads", "ms", "threads/s", "x Numba simulator (~12,000/s)", "ms, race checking", "slowdown"],
      rows.map((q) => [q.what, q.threads, q.ms, q.threadsPerSecond, q.threadsPerSecond / numba, q.raceMs ?? "", q.slowdown ?? ""]),
    ),
  );
  const examples = exampleLaunches();
  console.log(
    table(
      "Race checking on the examples' launch statements (one core, median of 5)",
      ["example", "threads", "ms", "ms, race checking", "slowdown"],
      examples.map((q) => [q.what, q.threads, q.ms, q.raceMs, q.slowdown]),
    ),
  );
  const chart = barChart({
    title: "Simulator throughput (one core), threads per second",
    unit: "threads/s",
    log: true,
    bars: [...rows.map((q) => ({ label: q.what, value: q.threadsPerSecond, series: "gk" })), { label: "Numba's CUDA simulator (about)", value: numba, series: "Numba" }],
  });
  console.log(`wrote ${writeResult("sim", { rows, examples, numbaThreadsPerSecond: numba }, chart)}`);
  return rows;
}

/** Every launch statement of examples/*.gk, without and with race checking. */
function exampleLaunches() {
  const rows = [];
  for (const f of readdirSync(join(ROOT, "examples")).filter((x) => x.endsWith(".gk")).sort()) {
    const fe = load(f);
    for (const l of fe.ir.launches) {
      const time = (opts) => {
        const times = [];
        for (let i = 0; i < 6; i++) {
          const t0 = performance.now();
          simulateLaunch(fe.ir, l, fe.sources, opts);
          if (i > 0) times.push(performance.now() - t0);
        }
        return median(times);
      };
      const threads = [...l.grid, ...l.block].reduce((a, b) => a * b, 1);
      const ms = time({});
      const raceMs = time({ checkRaces: true });
      rows.push({ what: `${f} ${l.kernel}`, threads, ms, raceMs, slowdown: raceMs / ms });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSim();

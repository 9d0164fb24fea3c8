// gk's standard library (stdlib(gpu), spec/stdlib.md) against the libraries people would use
// instead, on one GPU in one run (issue 23's table): sum and max, inclusive scan f32 and i32,
// sort u32, a 256-bin histogram, transpose, SGEMM and uniform random numbers, at 2^16, 2^20
// and 2^26 elements (transpose: a square of that many; matmul: sides 256, 1024, 4096). gk's
// figure is its kernel time (CUDA events, every launch of a call summed; mean over back-to-back
// calls); its call time (wall, the calls queued back to back, then one sync; sum and max read
// their result back each call) is beside it. sum and max are called REPS at once (Promise.all),
// so that their kernels queue back to back as the peer's do: called one after another, each
// waits for the one before's result, the GPU idles meanwhile, and the next kernel's start event
// is then recorded before the host has finished launching it (about 4 us at 2^26 on an H200, 6%
// of the kernel: bench/notes-issue23.md). Results go into arrays given as `out` (no
// allocation per call, as PyTorch's caching allocator has none); sort allocates its buffers. The peers are bench/peers/stdlib_peers.py
// (PyTorch, CuPy; CUDA events, medians); without python3 and torch their columns are empty.
//
//   npm run build && node bench/stdlib.mjs [WORD...]      (or: node bench/run.mjs stdlib)
// With words, only the rows whose name holds one of them (e.g. `scan`; `matmul` for the
// matrix product), their peers, and no launch-shape table.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { openDevice, stdlib } from "../dist/index.js";
import { ROOT, barChart, table, writeResult } from "./lib.mjs";
import { make } from "./stdlibLib.mjs";

// GK_STDLIB_BENCH_SMOKE=1: a smoke run on the simulator, tiny sizes, no peers (checks the bench itself, measures nothing).
const SMOKE = process.env.GK_STDLIB_BENCH_SMOKE === "1";
const SIZES = SMOKE ? [1 << 10, 1 << 12] : [1 << 16, 1 << 20, 1 << 26];
const SIDES = SMOKE ? [128] : [256, 1024, 4096];
const WORDS = import.meta.url === `file://${process.argv[1]}` ? process.argv.slice(2) : [];
const chosen = (name) => WORDS.length === 0 || WORDS.some((w) => name.includes(w));
const repsFor = (n) => (SMOKE ? 2 : n <= 1 << 16 ? 200 : n <= 1 << 20 ? 50 : 10);

/** Each row: what gk runs, its peer, the figure's unit and how it is computed from ms, and the target ratio. */
const ROWS = [
  { name: "sum f32", peer: "torch.sum", unit: "GB/s", figure: (n, ms) => (4 * n) / ms / 1e6, target: 1.0, queued: true, run: (std, a) => std.sum(a.f32) },
  { name: "max f32", peer: "torch.max", unit: "GB/s", figure: (n, ms) => (4 * n) / ms / 1e6, target: 1.0, queued: true, run: (std, a) => std.max(a.f32) },
  { name: "inclusive scan f32", peer: "torch.cumsum f32", unit: "GB/s", figure: (n, ms) => (8 * n) / ms / 1e6, target: 1.4, run: (std, a) => std.scan(a.f32, { out: a.f32out }) },
  { name: "inclusive scan i32", peer: "torch.cumsum i32", unit: "GB/s", figure: (n, ms) => (8 * n) / ms / 1e6, target: 1.4, run: (std, a) => std.scan(a.i32, { out: a.i32out }) },
  { name: "sort u32", peer: "cupy.sort u32", unit: "G keys/s", figure: (n, ms) => n / ms / 1e6, target: 1.0, run: async (std, a) => (await std.sort(a.u32)).keys.free() },
  { name: "histogram 256 bins f32", peer: "torch.histc 256", unit: "GB/s", figure: (n, ms) => (4 * n) / ms / 1e6, target: 3.0, run: (std, a) => std.histogram(a.f32, { bins: 256, lo: 0, hi: 1, out: a.counts }) },
  { name: "transpose f32", peer: "m.t().contiguous()", unit: "GB/s", figure: (n, ms) => (8 * side(n) ** 2) / ms / 1e6, target: 2.5, run: (std, a, n) => std.transpose(a.square, side(n), side(n), { out: a.f32out2 }) },
  { name: "uniform f32 random", peer: "torch.rand", unit: "G numbers/s", figure: (n, ms) => n / ms / 1e6, target: 1.0, run: (std, a, n) => std.random(n, { seed: 7, out: a.f32out }) },
];
const side = (n) => Math.floor(Math.sqrt(n));

/** Kernel and wall ms per call; with `queued`, the kernel time is that of reps calls made at once (their kernels back to back), the wall time still that of calls one after another. */
async function timeCall(gpu, mod, run, reps, queued = false) {
  let kernelMs = 0;
  mod.kernelTime = (ms) => {
    kernelMs += ms;
  };
  for (let i = 0; i < 3; i++) await run();
  await gpu.sync();
  kernelMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await run();
  await gpu.sync();
  const wall = (performance.now() - t0) / reps;
  if (queued) {
    kernelMs = 0;
    await Promise.all(Array.from({ length: reps }, () => run()));
    await gpu.sync();
  }
  mod.kernelTime = undefined;
  return { kernel: kernelMs / reps, wall };
}

/** The calls again at the largest size with other launch shapes (std.tuning), to choose the defaults from a GPU run (the scan's: bench/stdlib_tune.mjs). */
async function tune(gpu, std, mod) {
  const n = SMOKE ? 1 << 12 : 1 << 26;
  const f32 = await gpu.array(Float32Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 8) / 2 ** 24));
  const u32 = await gpu.array(Uint32Array.from({ length: n }, (_, i) => Math.imul(i ^ (i >>> 13), 2654435761) >>> 0));
  const counts = await gpu.zeros("u32", 256);
  const variants = [
    { call: "sort u32", setting: "sortItems", values: [8, 12], run: async () => (await std.sort(u32)).keys.free() },
    { call: "sum f32", setting: "reduceGrid", values: [528, 1056, 2048, 4096], queued: true, run: () => std.sum(f32) },
    { call: "histogram f32", setting: "reduceBlocks", values: [528, 1056, 2048, 4096], run: () => std.histogram(f32, { bins: 256, lo: 0, hi: 1, out: counts }) },
  ];
  const rows = [];
  for (const v of variants) {
    const initial = std.tuning[v.setting];
    for (const value of v.values) {
      std.tuning[v.setting] = value;
      const t = await timeCall(gpu, mod, v.run, SMOKE ? 1 : 10, v.queued);
      rows.push({ call: v.call, setting: v.setting, value, default: initial, kernelMs: t.kernel, callMs: t.wall });
    }
    std.tuning[v.setting] = initial;
  }
  for (const a of [f32, u32, counts]) a.free();
  return rows;
}

function peers() {
  const only = WORDS.length ? [...ROWS.filter((r) => chosen(r.name)).map((r) => r.peer), ...(chosen("matmul f32") ? ["torch.matmul (TF32 off)"] : [])] : undefined;
  try {
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "stdlib_peers.py"), JSON.stringify({ sizes: SIZES, sides: chosen("matmul f32") ? SIDES : [], ...(only && { only }) })], { encoding: "utf8", maxBuffer: 1 << 24 });
    return JSON.parse(out.trim().split("\n").pop());
  } catch (e) {
    return { skipped: `peers not measured: ${String(e.message ?? e).split("\n")[0]}` };
  }
}

export async function benchStdlib() {
  const gpu = await openDevice({ device: SMOKE ? "cpu" : "auto" });
  if (gpu.kind !== "cuda" && !SMOKE) {
    console.log(`\ngk's stdlib vs PyTorch/CuPy: skipped (no GPU: ${gpu.reason})`);
    writeResult("stdlib", { skipped: gpu.reason });
    await gpu.close();
    return;
  }
  const std = stdlib(gpu);
  const mod = await std.module();
  const results = [];
  for (const n of SIZES) {
    const a = {
      f32: await gpu.array(make(Float32Array, n, (i) => ((i * 2654435761) >>> 8) / 2 ** 24)),
      i32: await gpu.array(make(Int32Array, n, (i) => (((i * 2654435761) >>> 0) % 2001) - 1000)),
      u32: await gpu.array(make(Uint32Array, n, (i) => Math.imul(i ^ (i >>> 13), 2654435761) >>> 0)),
    };
    a.f32out = await gpu.zeros("f32", n);
    a.f32out2 = await gpu.zeros("f32", side(n) ** 2);
    a.i32out = await gpu.zeros("i32", n);
    a.counts = await gpu.zeros("u32", 256);
    a.square = await gpu.array(make(Float32Array, side(n) ** 2, (i) => (i % 1000) * 0.001));
    for (const row of ROWS.filter((r) => chosen(r.name))) {
      const t = await timeCall(gpu, mod, () => row.run(std, a, n), repsFor(n), row.queued);
      results.push({ name: row.name, size: n, kernelMs: t.kernel, callMs: t.wall });
    }
    for (const arr of Object.values(a)) arr.free();
  }
  for (const s of chosen("matmul f32") ? SIDES : []) {
    const A = await gpu.array(Float32Array.from({ length: s * s }, (_, i) => ((i * 7) % 13) / 13));
    const B = await gpu.array(Float32Array.from({ length: s * s }, (_, i) => ((i * 5) % 11) / 11));
    const C = await gpu.zeros("f32", s * s);
    const t = await timeCall(gpu, mod, () => std.matmul(A, B, s, s, s, { out: C }), SMOKE ? 1 : s <= 1024 ? 20 : 5);
    results.push({ name: "matmul f32", size: s, kernelMs: t.kernel, callMs: t.wall });
    for (const x of [A, B, C]) x.free();
  }
  const tuning = WORDS.length ? [] : await tune(gpu, std, mod);
  const peer = SMOKE ? { skipped: "smoke run" } : peers();
  const rows = results.map((r) => {
    const def = ROWS.find((x) => x.name === r.name);
    const flops = (ms) => (2 * r.size ** 3) / ms / 1e9;
    const fig = def ? (ms) => def.figure(r.size, ms) : flops;
    const peerName = def ? def.peer : "torch.matmul (TF32 off)";
    const pms = peer.ms?.[peerName]?.[String(r.size)];
    const ratio = pms !== undefined ? pms / r.kernelMs : undefined;
    return {
      ...r,
      unit: def ? def.unit : "TFLOP/s",
      gk: fig(r.kernelMs),
      peer: peerName,
      peerMs: pms,
      peerFigure: pms !== undefined ? fig(pms) : undefined,
      ratio,
      target: def ? def.target : 0.95,
    };
  });
  console.log(
    table(
      `gk's stdlib vs its peers on ${gpu.name}${peer.skipped ? ` (${peer.skipped})` : ""}`,
      ["primitive", "size", "gk kernel ms", "gk call ms", "gk", "peer", "peer ms", "peer fig", "gk / peer", "target"],
      rows.map((r) => [r.name, r.name === "matmul f32" ? `${r.size}^2` : `2^${Math.log2(r.size)}`, r.kernelMs.toFixed(4), r.callMs.toFixed(4), `${r.gk.toFixed(1)} ${r.unit}`, r.peer, r.peerMs?.toFixed(4) ?? "-", r.peerFigure?.toFixed(1) ?? "-", r.ratio?.toFixed(2) ?? "-", `>= ${r.target}`]),
    ),
  );
  if (tuning.length) {
    console.log(
      table(
        `launch shapes at ${SMOKE ? "2^12" : "2^26"} elements (gk kernel ms; the defaults are marked *)`,
        ["call", "setting", "value", "kernel ms", "call ms"],
        tuning.map((t) => [t.call, t.setting, `${t.value}${t.value === t.default ? " *" : ""}`, t.kernelMs.toFixed(4), t.callMs.toFixed(4)]),
      ),
    );
  }
  const chart = barChart({
    title: `gk's stdlib / its peer (kernel time ratio; above 1: gk is faster) on ${gpu.name}`,
    unit: "x",
    bars: rows.filter((r) => r.ratio !== undefined).map((r) => ({ group: `${r.name} ${r.name === "matmul f32" ? `${r.size}^2` : `2^${Math.log2(r.size)}`}`, label: "gk / peer", value: r.ratio, series: "gk / peer" })),
    ...(rows.every((r) => r.ratio === undefined) && { note: "no peer figures (PyTorch or CuPy missing)" }),
  });
  const path = writeResult(`stdlib${WORDS.length ? `-${WORDS.join("-")}` : ""}${SMOKE ? "-smoke" : ""}`, { device: gpu.name, peers: peer, rows, tuning }, chart);
  console.log(`\nwritten: ${path}`);
  await gpu.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStdlib();

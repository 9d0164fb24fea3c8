// The examples' kernels as WGSL on WebGPU against the same kernels as CUDA, on one GPU in one
// run (issue 27): each workload is an example's kernel at a size a GPU notices, launched
// through gk's API on GPU arrays of each device (`openDevice({ device: "cuda" })`, in-process,
// and `openDevice({ device: "webgpu" })`: Dawn's Node binding over the GPU's Vulkan driver).
// The figure is wall time per launch over REPS launches (fewer for a kernel slower than 40 ms) queued back to back, then one wait
// (so WebGPU's submit per launch counts, as a program pays it); each device's median kernel
// time beside it, from a second round (CUDA events; WebGPU's pass timestamps, the
// timestamp-query feature). Each workload's outputs on the two devices are compared (integers bit for bit,
// floats within 1e-4 of the largest magnitude: WGSL may contract a*b+c and has its own
// builtins), and the row says whether they agree. Grids stay within WebGPU's 65535 workgroups
// per dimension, so sizes are not all powers of two.
//
// On the GPU machine, WebGPU needs the Vulkan loader: `source bench/webgpu-gpu-setup.sh`
// first (WEBGPU.md). Without a CUDA GPU it measures nothing and says why (a WebGPU adapter
// there is SwiftShader, a CPU); GK_WGSL_BENCH_SMOKE=1 runs tiny sizes on whatever devices
// there are, a check of the bench itself.
//
//   npm run build && node bench/wgsl.mjs        (GK_WGSL_BENCH_SMOKE=1: tiny sizes, 2 launches)
import { openDevice } from "../dist/index.js";
import { join } from "node:path";
import { ROOT, barChart, fmt, table, writeResult } from "./lib.mjs";

const SMOKE = process.env.GK_WGSL_BENCH_SMOKE === "1";
/**
 * Dawn's instance flags: timestamps unquantized (Dawn rounds them to 2^16 ns by default, which
 * a 0.06 ms kernel's time cannot survive), and GK_WGSL_DAWN_FLAGS's, comma-separated (e.g.
 * enable-dawn-features=disable_robustness, to see what bounds clamping costs).
 */
const DAWN_FLAGS = ["disable-dawn-features=timestamp_quantization", ...(process.env.GK_WGSL_DAWN_FLAGS ?? "").split(",").filter(Boolean)];
/** The results' name (bench/results/NAME.json, .svg). */
const NAME = process.env.GK_WGSL_BENCH_NAME ?? "wgsl";
/** GK_WGSL_BENCH_ONLY: the workloads whose names start with one of these (comma-separated); all without it. */
const ONLY = (process.env.GK_WGSL_BENCH_ONLY ?? "").split(",").filter(Boolean);
const REPS = SMOKE ? 2 : Number(process.env.GK_BENCH_REPS ?? 50);
/** Grid sizes are multiples of `unit`, at most 65535 per dimension. */
const S = SMOKE ? 1 / 256 : 1;
const rand = (n, seed) => Float32Array.from({ length: n }, (_, i) => (((Math.imul(i + 1, 2654435761) ^ seed) >>> 8) / 2 ** 24) * 2 - 1);

/**
 * The workloads: an example's file and kernel, its arguments (`a(gpu)` makes the GPU arrays),
 * its launch, and the figure (bytes or flops per launch, in the unit named).
 */
function workloads() {
  const blocks1 = Math.max(1, Math.floor(65280 * S));
  const n1 = blocks1 * 256; // one element per thread
  const n8 = Math.max(2048, Math.floor(2 ** 26 * S)); // saxpy8: 8 per thread
  const side = SMOKE ? 64 : 4096;
  const mm = SMOKE ? 64 : 2048;
  const sg = SMOKE ? 128 : 4096;
  return [
    { name: `saxpy ${n1}`, file: "saxpy.gk", kernel: "saxpy", grid: [blocks1], block: [256], unit: "GB/s", work: 12 * n1, args: { n: n1, alpha: 2.5, x: ["f32", rand(n1, 1)], y: ["f32", rand(n1, 2)], out: ["f32", n1] } },
    { name: `saxpy8 (f32x4) ${n8}`, file: "saxpy4.gk", kernel: "saxpy8", grid: [n8 / 2048], block: [256], unit: "GB/s", work: 12 * n8, args: { n: n8, alpha: 2.5, x: ["f32", rand(n8, 1)], y: ["f32", rand(n8, 2)], out: ["f32", n8] } },
    { name: `block_sum ${n1}`, file: "reduce.gk", kernel: "block_sum", grid: [blocks1], block: [256], unit: "GB/s", work: 4 * n1, args: { n: n1, x: ["f32", rand(n1, 3)], partial: ["f32", blocks1], total: ["f32", 1] }, compare: ["partial"] },
    { name: `histogram 16 bins ${n1}`, file: "histogram.gk", kernel: "histogram", grid: [Math.min(blocks1, 4096)], block: [256], unit: "GB/s", work: 4 * n1, args: { n: n1, data: ["u32", Uint32Array.from({ length: n1 }, (_, i) => Math.imul(i, 2654435761) >>> 24)], hist: ["u32", 16] } },
    { name: `blackScholes ${n1}`, file: "black_scholes.gk", kernel: "blackScholes", grid: [blocks1], block: [256], unit: "GB/s", work: 20 * n1, args: { n: n1, price: ["f32", rand(n1, 4).map((v) => 17.5 + 12.5 * v)], strike: ["f32", rand(n1, 5).map((v) => 50.5 + 49.5 * v)], years: ["f32", rand(n1, 6).map((v) => 5.125 + 4.875 * v)], r: 0.02, v: 0.3, call: ["f32", n1], put: ["f32", n1] } },
    { name: `transpose ${side}²`, file: "transpose.gk", kernel: "transpose", grid: [side / 32, side / 32], block: [32, 8], unit: "GB/s", work: 8 * side * side, args: { rows: side, cols: side, input: ["f32", rand(side * side, 7)], output: ["f32", side * side] } },
    { name: `stencil ${side}²`, file: "stencil.gk", kernel: "stencil", grid: [side / 8, side / 8], block: [8, 8], unit: "GB/s", work: 8 * side * side, args: { W: side, H: side, src: ["f32", rand(side * side, 8)], dst: ["f32", side * side] } },
    { name: `matmul (16² tiles) ${mm}³`, file: "matmul.gk", kernel: "matmul", grid: [mm / 16, mm / 16], block: [16, 16], unit: "TFLOP/s", work: 2 * mm ** 3 / 1e3, args: { A: ["f32", rand(mm * mm, 9)], B: ["f32", rand(mm * mm, 10)], C: ["f32", mm * mm], M: mm, N: mm, K: mm } },
    { name: `sgemm ${sg}³`, file: "sgemm.gk", kernel: "sgemm", grid: [sg / 128, sg / 128], block: [256], unit: "TFLOP/s", work: 2 * sg ** 3 / 1e3, args: { M: sg, N: sg, K: sg, A: ["f32", rand(sg * sg, 11)], B: ["f32", rand(sg * sg, 12)], C: ["f32", sg * sg] } },
  ];
}

/** The workload's arguments on `gpu`: GPU arrays for [elem, data | length], scalars as they are. */
async function argsOn(gpu, w) {
  const out = {};
  for (const [k, v] of Object.entries(w.args)) {
    if (!Array.isArray(v)) out[k] = v;
    else out[k] = typeof v[1] === "number" ? await gpu.zeros(v[0], v[1]) : await gpu.array(v[1]);
  }
  return out;
}

/** Wall ms per launch (REPS queued, then a wait), CUDA's kernel ms, and the outputs of one launch. */
async function measure(gpu, w) {
  const mod = await gpu.compile(join(ROOT, "examples", w.file));
  const args = await argsOn(gpu, w);
  const cfg = { grid: w.grid, block: w.block };
  const launch = (extra = {}) => mod[w.kernel]({ ...cfg, ...extra }, args);
  await launch();
  await gpu.sync();
  // Outputs of the first launch (a kernel that accumulates, as histogram's counts, is compared on what one launch writes;
  // block_sum's total, a float atomic sum in the order the GPU takes, is left out).
  const outputs = {};
  for (const [k, v] of Object.entries(w.args)) if (Array.isArray(v) && typeof v[1] === "number" && (!w.compare || w.compare.includes(k))) outputs[k] = await args[k].read();
  const tw = performance.now();
  for (let i = 0; i < 2; i++) await launch();
  await gpu.sync();
  // A slow kernel (a float atomic's compare-exchange loop under contention) gets fewer launches: about 2 s a round.
  const reps = Math.max(3, Math.min(REPS, Math.ceil(4000 / (performance.now() - tw))));
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) await launch();
  await gpu.sync();
  const wall = (performance.now() - t0) / reps;
  // Kernel times in a second round, so that timing costs nothing in the first.
  const kernel = [];
  for (let i = 0; i < reps; i++) await launch({ kernelTime: (ms) => kernel.push(ms) });
  await gpu.sync();
  for (const v of Object.values(args)) if (typeof v === "object") v.free();
  return { wallMs: wall, kernelMs: kernel.length ? kernel.sort((a, b) => a - b)[kernel.length >> 1] : undefined, outputs };
}

/** Whether two runs' outputs agree: integers bit for bit, floats within 1e-4 of the largest magnitude. */
function agree(a, b) {
  for (const k of Object.keys(a)) {
    const x = a[k];
    const y = b[k];
    if (!y || x.length !== y.length) return `${k}: lengths differ`;
    const floats = x instanceof Float32Array;
    let scale = 0;
    if (floats) for (const v of x) scale = Math.max(scale, Math.abs(v));
    for (let i = 0; i < x.length; i++) {
      if (floats ? Math.abs(x[i] - y[i]) > 1e-4 * scale && !(Number.isNaN(x[i]) && Number.isNaN(y[i])) : x[i] !== y[i]) return `${k}[${i}]: CUDA ${x[i]}, WebGPU ${y[i]}`;
    }
  }
  return "yes";
}

async function open(device) {
  try {
    const gpu = await openDevice({ device, ...(device === "webgpu" && { webgpu: { powerPreference: "high-performance", dawnFlags: DAWN_FLAGS } }) });
    return { gpu };
  } catch (e) {
    return { reason: String(e.message ?? e).split("\n")[0] };
  }
}

export async function benchWgsl() {
  // One device at a time: a CUDA context and a Vulkan device open together on one GPU made
  // CUDA's wall times jump (0.07 to 0.19 ms a saxpy, 0.15 to 1.5 ms a Black-Scholes, from run
  // to run on an H200), so CUDA runs every workload and closes, then WebGPU does.
  const chosen = workloads().filter((w) => ONLY.length === 0 || ONLY.some((o) => w.name.startsWith(o)));
  const cuda = await open("cuda");
  const found = { cuda: cuda.gpu?.name, cudaReason: cuda.reason };
  const results = { cuda: new Map(), webgpu: new Map() };
  const run = async (key, gpu) => {
    for (const w of chosen) {
      console.log(`wgsl: ${w.name} on ${key} ...`);
      try {
        const m = await measure(gpu, w);
        const r = { wallMs: m.wallMs, kernelMs: m.kernelMs, figure: w.work / m.wallMs / 1e6, kernelFigure: m.kernelMs ? w.work / m.kernelMs / 1e6 : undefined, outputs: m.outputs };
        results[key].set(w.name, r);
        console.log(`wgsl: ${w.name} on ${key}: ${fmt(r.figure)} ${w.unit}, ${fmt(r.wallMs)} ms a launch (kernel ${r.kernelMs !== undefined ? `${fmt(r.kernelMs)} ms` : "-"})`);
      } catch (e) {
        results[key].set(w.name, { error: String(e.message ?? e).split("\n")[0] });
        console.log(`wgsl: ${w.name} on ${key}: error: ${results[key].get(w.name).error}`);
      }
      // The JSON as it stands, after each row: a run stopped by a time limit keeps what it measured.
      report(false);
    }
    await gpu.close();
  };
  let webgpuName;
  let webgpuReason;
  /** The rows measured so far; `final` prints the table too. */
  const report = (final) => {
    const rows = [];
    for (const w of chosen) {
      const row = { workload: w.name, example: `${w.file} ${w.kernel}`, unit: w.unit, grid: w.grid, block: w.block };
      const c = results.cuda.get(w.name);
      const g = results.webgpu.get(w.name);
      if (c) row.cuda = { ...c, outputs: undefined };
      if (g) row.webgpu = { ...g, outputs: undefined };
      row.agree = c?.outputs && g?.outputs ? agree(c.outputs, g.outputs) : "n/a";
      rows.push(row);
    }
    const devices = { cuda: found.cuda ?? `none: ${found.cudaReason}`, webgpu: webgpuName ?? `none: ${webgpuReason ?? "not opened yet"}` };
    const bars = rows.flatMap((r) => [
      { group: `${r.workload} (${r.unit})`, label: "CUDA", series: "CUDA", value: r.cuda?.figure ?? NaN },
      { group: `${r.workload} (${r.unit})`, label: "WGSL on WebGPU", series: "WGSL on WebGPU", value: r.webgpu?.figure ?? NaN },
    ]);
    const chart = barChart({ title: "gk's examples: WGSL on WebGPU against CUDA, same GPU", unit: "", log: true, note: `CUDA: ${devices.cuda}; WebGPU: ${devices.webgpu}`, bars });
    const written = writeResult(NAME, { devices, reps: REPS, smoke: SMOKE, dawnFlags: DAWN_FLAGS, complete: final, rows }, chart);
    if (!final) return;
    const ms = (m) => (m?.wallMs !== undefined ? `${fmt(m.wallMs)} (${m.kernelMs !== undefined ? fmt(m.kernelMs) : "-"})` : m?.error ? "error" : "-");
    const cell = (r, key) => (r[key]?.error ? "error" : r[key] ? r[key].figure : "-");
    console.log(
      table(
        `WGSL (WebGPU) against CUDA, the examples on one GPU, wall time per launch over ${REPS} queued launches\n  CUDA: ${devices.cuda}\n  WebGPU: ${devices.webgpu}`,
        ["workload", "unit", "CUDA", "WebGPU", "WebGPU/CUDA", "CUDA ms (kernel)", "WebGPU ms (kernel)", "agree"],
        rows.map((r) => [r.workload, r.unit, cell(r, "cuda"), cell(r, "webgpu"), r.cuda?.figure && r.webgpu?.figure ? r.webgpu.figure / r.cuda.figure : "-", ms(r.cuda), ms(r.webgpu), r.agree]),
      ),
    );
    for (const r of rows) for (const k of ["cuda", "webgpu"]) if (r[k]?.error) console.log(`  ${r.workload} on ${k}: ${r[k].error}`);
    console.log(`  -> ${written}`);
  };
  if (cuda.gpu) await run("cuda", cuda.gpu);
  // Without a GPU, a WebGPU adapter is a CPU (SwiftShader): the smoke run alone uses it.
  const webgpu = cuda.gpu || SMOKE ? await open("webgpu") : { reason: "not opened without a CUDA GPU to compare with" };
  if (!webgpu.gpu && !cuda.gpu) {
    const skipped = `no CUDA GPU (${cuda.reason}); WebGPU: ${webgpu.reason} (GK_WGSL_BENCH_SMOKE=1 checks the bench on any adapter)`;
    console.log(`\nwgsl: skipped: ${skipped}`);
    console.log(`  -> ${writeResult(NAME, { skipped })}`);
    return;
  }
  webgpuName = webgpu.gpu?.name;
  webgpuReason = webgpu.reason;
  if (webgpu.gpu) await run("webgpu", webgpu.gpu);
  report(true);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWgsl();

// gk's generated CUDA against hand-written CUDA of the same algorithms
// (bench/reference/kernels.cu), on one GPU, side by side: kernel time (CUDA events, median
// of 20 launches), the figure that matters for each kernel, and whether the outputs agree
// bit for bit. Reference figures on an H100 (DESIGN.md): device copy 3003 GB/s, a 16x16
// shared-memory-tile SGEMM at 4096: 8.2 TFLOP/s. Kernels that read constant memory get it
// filled by the launch (`constants`: gk's `constant` array and the reference's `__constant__`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { LauncherSession } from "../dist/runtime/launcher.js";
import { compileCuda } from "../dist/build/nvcc.js";
import { barChart, findGpu, ROOT, table, writeResult } from "./lib.mjs";

const f32 = (n, f) => Float32Array.from({ length: n }, (_, i) => f(i));

/** Each case: the example, its kernel, the reference kernel, sizes, arguments, and the figure. */
function cases() {
  const n = 1 << 26;
  const m = 4096;
  const side = 8192;
  const x = f32(n, (i) => (i % 1000) * 0.001);
  const y = f32(n, (i) => 1 - (i % 7) * 0.125);
  const A = f32(m * m, (i) => ((i * 7) % 13) / 13);
  const B = f32(m * m, (i) => ((i * 5) % 11) / 11);
  const img = x.subarray(0, side * side);
  const bytes = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 24);
  // A 17-tap binomial filter, normalized, for the separable convolution (gk's TAPS, the reference's c_taps).
  const taps = Float32Array.from({ length: 17 }, (_, k) => binomial(16, k) / 2 ** 16);
  const convolution = [{ gk: "TAPS", ref: "c_taps", elem: "f32", data: taps }];
  const options = 1 << 24;
  const spread = (lo, hi, salt) => f32(options, (i) => lo + (hi - lo) * (((i * 2654435761 + salt) >>> 0) / 2 ** 32));
  const sc = (type, value) => ({ kind: "scalar", type, value });
  const arr = (data) => ({ kind: "in", data });
  const out = (elem, length) => ({ kind: "out", elem, length });
  return [
    { name: "saxpy 2^26", file: "saxpy.gk", kernel: "saxpy", ref: "ref_saxpy", grid: [n / 256, 1, 1], block: [256, 1, 1], args: [sc("i32", n), sc("f32", 2.5), arr(x), arr(y), out("f32", n)], figure: (s) => `${((12 * n) / s / 1e9).toFixed(0)} GB/s` },
    { name: "matmul 4096 (16x16 tiles)", file: "matmul.gk", kernel: "matmul", ref: "ref_matmul", grid: [m / 16, m / 16, 1], block: [16, 16, 1], args: [arr(A), arr(B), out("f32", m * m), sc("i32", m), sc("i32", m), sc("i32", m)], figure: (s) => `${((2 * m ** 3) / s / 1e12).toFixed(2)} TFLOP/s` },
    { name: "block_sum 2^26", file: "reduce.gk", kernel: "block_sum", ref: "ref_block_sum", grid: [n / 256, 1, 1], block: [256, 1, 1], args: [sc("i32", n), arr(x), out("f32", n / 256), out("f32", 1)], figure: (s) => `${((4 * n) / s / 1e9).toFixed(0)} GB/s` },
    { name: "warp_reduce 2^26", file: "warp_reduce.gk", kernel: "block_sum", ref: "ref_warp_sum", grid: [n / 256, 1, 1], block: [256, 1, 1], args: [sc("i32", n), arr(x), out("f32", n / 256), out("f32", 1)], figure: (s) => `${((4 * n) / s / 1e9).toFixed(0)} GB/s` },
    { name: "transpose 8192^2", file: "transpose.gk", kernel: "transpose", ref: "ref_transpose", grid: [side / 32, side / 32, 1], block: [32, 8, 1], args: [sc("i32", side), sc("i32", side), arr(img), out("f32", side * side)], figure: (s) => `${((8 * side * side) / s / 1e9).toFixed(0)} GB/s` },
    { name: "stencil 8192^2", file: "stencil.gk", kernel: "stencil", ref: "ref_stencil", grid: [side / 16, side / 16, 1], block: [16, 16, 1], args: [sc("i32", side), sc("i32", side), arr(img), out("f32", side * side)], figure: (s) => `${((8 * side * side) / s / 1e9).toFixed(0)} GB/s` },
    { name: "histogram 2^26", file: "histogram.gk", kernel: "histogram", ref: "ref_histogram", grid: [1024, 1, 1], block: [256, 1, 1], args: [sc("i32", n), arr(bytes), out("u32", 16)], figure: (s) => `${((4 * n) / s / 1e9).toFixed(0)} GB/s` },
    {
      name: "convolution rows 8192^2 (17 taps)", file: "convolution.gk", kernel: "convolveRows", ref: "ref_convolve_rows", grid: [side / 128, side / 4, 1], block: [16, 4, 1],
      args: [sc("i32", side), arr(img), out("f32", side * side)], constants: convolution, figure: (s) => `${((8 * side * side) / s / 1e9).toFixed(0)} GB/s`,
    },
    {
      name: "convolution columns 8192^2 (17 taps)", file: "convolution.gk", kernel: "convolveColumns", ref: "ref_convolve_columns", grid: [side / 16, side / 64, 1], block: [16, 8, 1],
      args: [sc("i32", side), sc("i32", side), arr(img), out("f32", side * side)], constants: convolution, figure: (s) => `${((8 * side * side) / s / 1e9).toFixed(0)} GB/s`,
    },
    {
      name: "black-scholes 2^24 options", file: "black_scholes.gk", kernel: "blackScholes", ref: "ref_black_scholes", grid: [options / 512, 1, 1], block: [128, 1, 1],
      args: [sc("i32", options), arr(spread(5, 30, 1)), arr(spread(1, 100, 2)), arr(spread(0.25, 10, 3)), sc("f32", 0.02), sc("f32", 0.3), out("f32", options), out("f32", options)],
      figure: (s) => `${(options / s / 1e9).toFixed(1)} G options/s`,
    },
  ];
}

function binomial(n, k) {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** `constants`: the module's constant variables to fill, each `{ name, elem, data }`. */
async function timeKernel(session, module, kernel, c, buffers, constants) {
  const args = c.args.map((a, i) => (a.kind === "scalar" ? a : { kind: "buffer", buffer: buffers[i] }));
  const t = await session.launch({ module, kernel, grid: c.grid, block: c.block, args, repeat: 20, ...(constants.length ? { constants } : {}) });
  return t.kernelMedianMs;
}

export async function benchKernels() {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk vs hand-written CUDA: skipped (no GPU: ${gpu.reason})`);
    writeResult("kernels", { skipped: gpu.reason });
    return;
  }
  const arch = gpu.device.arch;
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-ref-"));
  const session = new LauncherSession();
  const rows = [];
  try {
    const ref = await compileCuda({ source: readFileSync(join(ROOT, "bench", "reference", "kernels.cu"), "utf8"), arch, outDir: dir, baseName: "reference" });
    const refModule = await session.loadModule(ref.cubin);
    for (const c of cases()) {
      const fe = frontEnd(join(ROOT, "examples", c.file));
      const built = await buildModule(fe.ir, fe.sources, { arch });
      const gkModule = await session.loadModule(built.cubin);
      const buffers = [];
      for (const a of c.args) buffers.push(a.kind === "in" ? await session.upload(a.data) : a.kind === "out" ? await session.alloc(a.elem, a.length) : undefined);
      const outIndex = c.args.findIndex((a) => a.kind === "out");
      const constants = c.constants ?? [];
      const gkConstants = constants.map((k) => ({ name: built.constantSymbols.get(k.gk), elem: k.elem, data: k.data }));
      const refConstants = constants.map((k) => ({ name: k.ref, elem: k.elem, data: k.data }));
      const gkMs = await timeKernel(session, gkModule, built.symbols.get(c.kernel), c, buffers, gkConstants);
      const gkOut = await session.read(buffers[outIndex]);
      const refMs = await timeKernel(session, refModule, c.ref, c, buffers, refConstants);
      const refOut = await session.read(buffers[outIndex]);
      const same = Buffer.from(gkOut.buffer, gkOut.byteOffset, gkOut.byteLength).equals(Buffer.from(refOut.buffer, refOut.byteOffset, refOut.byteLength));
      for (const b of buffers) if (b) await session.free(b);
      rows.push({ name: c.name, gkMs, refMs, ratio: refMs / gkMs, gkFigure: c.figure(gkMs / 1000), refFigure: c.figure(refMs / 1000), sameBits: same });
    }
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    table(
      `gk vs hand-written CUDA on ${gpu.device.name} (kernel time, median of 20)`,
      ["kernel", "gk ms", "hand-written ms", "speed vs hand-written", "gk", "hand-written", "same output bits"],
      rows.map((r) => [r.name, r.gkMs, r.refMs, r.ratio, r.gkFigure, r.refFigure, r.sameBits ? "yes" : "no (atomics order)"]),
    ),
  );
  const chart = barChart({
    title: `gk vs hand-written CUDA on ${gpu.device.name}, kernel ms (median of 20)`,
    unit: "ms",
    bars: rows.flatMap((r) => [{ group: r.name, label: "gk", value: r.gkMs, series: "gk" }, { group: r.name, label: "hand-written", value: r.refMs, series: "hand-written CUDA" }]),
  });
  console.log(`wrote ${writeResult("kernels", { device: gpu.device.name, arch, rows }, chart)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchKernels();

// gk's vector-load kernels against PyTorch on one GPU, in one run (issue 11's targets):
//   saxpy 2^26 f32 (examples/saxpy4.gk)   >= 0.99 x torch.add(y, x, alpha=a, out=o)   (3057 GB/s on an H100)
//   sum 2^26 f32 (examples/sum4.gk)       >= 1.0  x x.sum()                           (2872 GB/s)
//   SGEMM 4096^2 f32 (examples/sgemm.gk)  >= 0.8  x torch.matmul, allow_tf32 = False  (51.8 TFLOP/s)
// The kernels are built here, through gk's cache, as `gkc build` builds them (FMA contraction
// on); bench/peers/torch_vectors.py loads their cubins with CuPy and times both sides the same
// way, with CUDA events around back-to-back launches on PyTorch's stream, and checks each gk
// result against PyTorch's. Needs a GPU, python3 with torch and cupy, and `npm run build`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { barChart, findGpu, ROOT, table, writeResult } from "./lib.mjs";

const N = 1 << 26;
const M = 4096;

async function build(example, arch) {
  const fe = frontEnd(join(ROOT, "examples", example));
  if (!fe.ir) throw new Error(`${example} does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
  const b = await buildModule(fe.ir, fe.sources, { arch });
  return { cubin: b.cubin, symbol: (k) => b.symbols.get(k) };
}

export async function benchVectors() {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk's vector kernels vs PyTorch: skipped (no GPU: ${gpu.reason})`);
    writeResult("vectors", { skipped: gpu.reason });
    return;
  }
  const { arch, multiprocessorCount: sms, name } = gpu.device;
  const saxpy = await build("saxpy4.gk", arch);
  const sum = await build("sum4.gk", arch);
  const sgemm = await build("sgemm.gk", arch);
  const cases = [
    { name: "saxpy 2^26 (1 f32x4 per thread)", kind: "saxpy", n: N, cubin: saxpy.cubin, kernel: saxpy.symbol("saxpy4"), grid: [N / 4 / 256, 1, 1], block: [256, 1, 1], reps: 50, bytes: 12 * N, target: 0.99 },
    { name: "saxpy 2^26 (2 f32x4 per thread)", kind: "saxpy", n: N, cubin: saxpy.cubin, kernel: saxpy.symbol("saxpy8"), grid: [N / 8 / 256, 1, 1], block: [256, 1, 1], reps: 50, bytes: 12 * N, target: 0.99 },
    { name: "sum 2^26 (f32x4, 8 blocks per SM)", kind: "sum", n: N, cubin: sum.cubin, kernel: sum.symbol("sum4"), grid: [8 * sms, 1, 1], block: [256, 1, 1], reps: 50, bytes: 4 * N, target: 1.0 },
    { name: "sum 2^26 (f32x4, 4 blocks per SM)", kind: "sum", n: N, cubin: sum.cubin, kernel: sum.symbol("sum4"), grid: [4 * sms, 1, 1], block: [256, 1, 1], reps: 50, bytes: 4 * N, target: 1.0 },
    { name: "SGEMM 4096^2 f32", kind: "sgemm", m: M, cubin: sgemm.cubin, kernel: sgemm.symbol("sgemm"), grid: [M / 128, M / 128, 1], block: [256, 1, 1], reps: 10, flops: 2 * M ** 3, target: 0.8 },
  ];
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-vectors-"));
  let result;
  try {
    const jobFile = join(dir, "job.json");
    writeFileSync(jobFile, JSON.stringify({ cases }));
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "torch_vectors.py"), jobFile], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    result = JSON.parse(out);
  } catch (e) {
    const reason = String(e.message ?? e).split("\n")[0];
    console.log(`\ngk's vector kernels vs PyTorch: the PyTorch side failed (${reason}); it needs python3 with torch and cupy`);
    writeResult("vectors", { device: name, error: reason });
    return;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = result.cases.map((r, i) => {
    const c = cases[i];
    const figure = (ms) => (c.flops ? `${(c.flops / (ms * 1e-3) / 1e12).toFixed(1)} TFLOP/s` : `${(c.bytes / (ms * 1e-3) / 1e9).toFixed(0)} GB/s`);
    const ratio = r.torch_ms / r.gk_ms;
    return { ...r, gk: figure(r.gk_ms), peer: figure(r.torch_ms), ratio, target: c.target, met: ratio >= c.target };
  });
  console.log(
    table(
      `gk's vector-load kernels vs PyTorch ${result.torch} on ${result.device} (CUDA events around back-to-back launches, median of 5 rounds)`,
      ["kernel", "gk ms", "torch ms", "gk", "torch", "gk / torch", "target", "met", "result"],
      rows.map((r) => [r.name, r.gk_ms, r.torch_ms, r.gk, r.peer, r.ratio, `>= ${r.target}`, r.met ? "yes" : "no", r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  const chart = barChart({
    title: `gk's vector-load kernels vs PyTorch ${result.torch} on ${result.device}, ms`,
    unit: "ms",
    bars: rows.flatMap((r) => [{ group: r.name, label: "gk", value: r.gk_ms, series: "gk" }, { group: r.name, label: "PyTorch", value: r.torch_ms, series: "PyTorch" }]),
  });
  console.log(`wrote ${writeResult("vectors", { device: result.device, arch, torch: result.torch, cupy: result.cupy, rows }, chart)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchVectors();

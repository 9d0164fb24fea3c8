// gk's HGEMM (examples/hgemm.gk: mma.sync on the tensor cores, f16 or bf16 in, f32 accumulated)
// against cuBLAS through PyTorch on one GPU, in one run (issue 22's target: >= 0.7 x cuBLAS):
//   f16 and bf16, M = N = K = 4096 and 8192; gk computes C = A x B^T (B given N x K) into f32,
//   PyTorch computes torch.matmul(A, B.t()) in the input type (cuBLAS accumulates in f32).
// The kernel is built here through gk's cache as `gkc build` builds it; bench/peers/hgemm_peers.py
// loads its cubin with CuPy, times both sides with CUDA events around back-to-back launches on
// PyTorch's stream (median of 5 alternating rounds), and checks gk's C against an f64 product of
// the same inputs. Needs a GPU, python3 with torch and cupy, and `npm run build`.
//
//   node bench/hgemm.mjs            (prints a table, writes bench/results/hgemm.json)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { probeGpu } from "../dist/runtime/target.js";
import { ROOT, table, writeResult } from "./lib.mjs";

/** cuBLAS on the H200, measured 2026-11-29 (issue 22), for the table's last column. */
const CUBLAS_H200 = { "f16 4096": 690, "bf16 4096": 712, "f16 8192": 757, "bf16 8192": 695 };
const TARGET = 0.7;

export async function benchHgemm() {
  const gpu = await probeGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk's HGEMM vs cuBLAS: skipped (no GPU: ${gpu.reason})`);
    writeResult("hgemm", { skipped: gpu.reason });
    return;
  }
  const { arch, name } = gpu.device;
  const fe = frontEnd(join(ROOT, "examples", "hgemm.gk"));
  if (!fe.ir) throw new Error(`hgemm.gk does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
  const built = await buildModule(fe.ir, fe.sources, { arch });
  const cases = [];
  for (const m of [4096, 8192]) for (const dtype of ["f16", "bf16"]) {
    cases.push({ name: `${dtype} ${m}`, dtype, m, cubin: built.cubin, kernel: built.symbols.get("hgemm"), grid: [m / 128, m / 128, 1], block: [256, 1, 1], reps: m === 4096 ? 20 : 5, flops: 2 * m ** 3 });
  }
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-hgemm-"));
  let result;
  try {
    const jobFile = join(dir, "job.json");
    writeFileSync(jobFile, JSON.stringify({ cases }));
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "hgemm_peers.py"), jobFile], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    result = JSON.parse(out);
  } catch (e) {
    const reason = String(e.message ?? e).split("\n")[0];
    console.log(`\ngk's HGEMM vs cuBLAS: the PyTorch side failed (${reason}); it needs python3 with torch and cupy`);
    writeResult("hgemm", { device: name, error: reason });
    return;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const tflops = (c, ms) => c.flops / (ms * 1e-3) / 1e12;
  const rows = result.cases.map((r, i) => {
    const c = cases[i];
    const ratio = r.torch_ms / r.gk_ms;
    return { ...r, gk_tflops: tflops(c, r.gk_ms), torch_tflops: tflops(c, r.torch_ms), ratio, target: TARGET, met: ratio >= TARGET, cublas_2026_11_29: CUBLAS_H200[c.name] };
  });
  console.log(
    table(
      `gk's HGEMM (examples/hgemm.gk, mma.sync) vs torch.matmul ${result.torch} on ${result.device} (CUDA events, median of 5 rounds)`,
      ["case", "gk ms", "torch ms", "gk TFLOP/s", "torch TFLOP/s", "gk / torch", "target", "met", "gk vs f64 (max rel)", "result"],
      rows.map((r) => [r.name, r.gk_ms, r.torch_ms, r.gk_tflops.toFixed(1), r.torch_tflops.toFixed(1), r.ratio, `>= ${TARGET}`, r.met ? "yes" : "no", r.max_rel_err.toExponential(2), r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  console.log(`wrote ${writeResult("hgemm", { device: name, arch, torch: result.torch, cupy: result.cupy, rows })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHgemm();

// gk's flash attention (examples/flash_attention.gk: mma.sync on the tensor cores, online
// softmax) against PyTorch's scaled_dot_product_attention on one GPU, in one run (issue 22's
// target: >= 0.8 x SDPA at head dim 64): f16 and bf16, causal and not, (B, H, S, D) of
// (1, 32, 2048, 64), (1, 32, 2048, 128) and (4, 32, 4096, 128). The kernels are built here
// through gk's cache as `gkc build` builds them; bench/peers/attention_peers.py loads the cubin
// with CuPy, times both sides with CUDA events around back-to-back launches on PyTorch's stream
// (median of 5 alternating rounds), and checks both outputs against f64 attention of the same
// inputs (first two heads). FLOPs: 4 B H S² D, half that when causal. Afterwards, where the
// tools are on PATH, flash_f16_d64 is disassembled (counts in the JSON, SASS to
// bench/results/attention-d64.sass) and profiled beside SDPA at (1, 32, 2048, 64) (ncu, to
// bench/results/attention-ncu.csv). Needs a GPU, python3 with torch and cupy, `npm run build`.
//
//   node bench/attention.mjs [--no-profile]   (prints a table, writes bench/results/attention.json)
//   node bench/attention.mjs --build-only     (no GPU needed: builds the kernels for sm_90)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { probeGpu } from "../dist/runtime/target.js";
import { disassemble, printProfile, profile } from "./gpuTools.mjs";
import { RESULTS, ROOT, table, writeResult } from "./lib.mjs";

/** SDPA f16 on the H200, measured 2026-11-29 (issue 22), in TFLOP/s. */
const SDPA_H200 = { "f16 1x32x2048x64": 333, "f16 4x32x4096x128": 652 };
const TARGET = 0.8; // at head dim 64
const SHAPES = [[1, 32, 2048, 64], [1, 32, 2048, 128], [4, 32, 4096, 128]];

export async function buildAttention(arch) {
  const fe = frontEnd(join(ROOT, "examples", "flash_attention.gk"));
  if (!fe.ir) throw new Error(`flash_attention.gk does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
  return buildModule(fe.ir, fe.sources, { arch });
}

export async function benchAttention({ profileFirst = true } = {}) {
  const gpu = await probeGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk's flash attention vs SDPA: skipped (no GPU: ${gpu.reason})`);
    writeResult("attention", { skipped: gpu.reason });
    return;
  }
  const { arch, name } = gpu.device;
  const built = await buildAttention(arch);
  const cases = [];
  for (const shape of SHAPES) for (const dtype of ["f16", "bf16"]) for (const causal of [false, true]) {
    const [b, h, s, d] = shape;
    const kernel = built.symbols.get(`flash_${dtype}_d${d}${causal ? "_causal" : ""}`);
    cases.push({ name: `${dtype} ${shape.join("x")}${causal ? " causal" : ""}`, key: `${dtype} ${shape.join("x")}`, dtype, shape, causal, cubin: built.cubin, kernel, reps: s > 2048 ? 3 : 10, flops: (4 * b * h * s * s * d) / (causal ? 2 : 1) });
  }
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-attention-"));
  const jobFile = join(dir, "job.json");
  const peerScript = join(ROOT, "bench", "peers", "attention_peers.py");
  let result;
  try {
    writeFileSync(jobFile, JSON.stringify({ cases }));
    result = JSON.parse(execFileSync("python3", [peerScript, jobFile], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 }));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const reason = String(e.message ?? e).split("\n")[0];
    console.log(`\ngk's flash attention vs SDPA: the PyTorch side failed (${reason}); it needs python3 with torch and cupy`);
    writeResult("attention", { device: name, error: reason });
    return;
  }
  const tflops = (c, ms) => c.flops / (ms * 1e-3) / 1e12;
  const rows = result.cases.map((r, i) => {
    const c = cases[i];
    const ratio = r.torch_ms / r.gk_ms;
    return { ...r, gk_tflops: tflops(c, r.gk_ms), torch_tflops: tflops(c, r.torch_ms), ratio, target: c.shape[3] === 64 ? TARGET : undefined, sdpa_2026_11_29: c.causal ? undefined : SDPA_H200[c.key] };
  });
  const err = (x) => (x === null ? "NaN" : x.toExponential(2));
  console.log(
    table(
      `gk's flash attention (mma.sync) vs scaled_dot_product_attention ${result.torch} on ${result.device} (CUDA events, median of 5 rounds; target gk / torch >= ${TARGET} at D = 64)`,
      ["case", "gk ms", "torch ms", "gk TFLOP/s", "torch TFLOP/s", "gk / torch", "met", "gk vs f64", "torch vs f64", "result"],
      rows.map((r) => [r.name, r.gk_ms, r.torch_ms, r.gk_tflops.toFixed(1), r.torch_tflops.toFixed(1), r.ratio.toFixed(3), r.target ? (r.ratio >= r.target ? "yes" : "no") : "-", err(r.rel_err), err(r.torch_rel_err), r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  const sass = disassemble(built.cubin, built.symbols.get("flash_f16_d64"), join(RESULTS, "attention-d64.sass"));
  console.log(`SASS of flash_f16_d64: ${JSON.stringify(sass)}`);
  const ncu = profileFirst ? profile(["python3", peerScript, jobFile, "--profile", "0"], join(RESULTS, "attention-ncu.csv")) : { skipped: "--no-profile" };
  printProfile(ncu);
  rmSync(dir, { recursive: true, force: true });
  console.log(`wrote ${writeResult("attention", { device: name, arch, torch: result.torch, cupy: result.cupy, target: TARGET, rows, sass, ncu })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--build-only")) {
    const built = await buildAttention("sm_90");
    console.log(`built ${built.symbols.size} kernels: ${built.cubin}`);
  } else {
    await benchAttention({ profileFirst: !process.argv.includes("--no-profile") });
  }
}

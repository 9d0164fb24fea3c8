// gk's flash attention (examples/flash_attention.gk: mma.sync on the tensor cores, online
// softmax) against PyTorch's scaled_dot_product_attention on one GPU, in one run (issue 22's
// target: >= 0.8 x SDPA at head dim 64): f16 and bf16, causal and not, (B, H, S, D) of
// (1, 32, 2048, 64) and (4, 32, 4096, 128); at f16 also bench/attention_tiles.gk in the tilings
// of VARIANTS (keys a tile, m-tiles a warp), where it names any. The kernels are built here
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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { memoryHost, nodeHost } from "../dist/load/program.js";
import { buildModule } from "../dist/build/build.js";
import { probeGpu } from "../dist/runtime/target.js";
import { launchSharedBytes } from "../dist/ir/kernelMemory.js";
import { CUDA_TARGET } from "../dist/codegen/cuda/target.js";
import { disassemble, printProfile, profile } from "./gpuTools.mjs";
import { RESULTS, ROOT, table, writeResult } from "./lib.mjs";

/** SDPA f16 on the H200, measured 2026-11-29 (issue 22), in TFLOP/s. */
const SDPA_H200 = { "f16 1x32x2048x64": 333, "f16 4x32x4096x128": 652 };
const TARGET = 0.8; // at head dim 64
const SHAPES = [[1, 32, 2048, 64], [4, 32, 4096, 128]];

/**
 * bench/attention_tiles.gk's tilings timed beside the example's, f16: [BN, DW, MT] by head dim.
 * On the H200 (2026-11-29, P packed by halfBits) none beat the example's at D = 64 (64 keys x 1
 * m-tile, 32 x 2) or D = 128 (16 x 2). With P packed by one conversion (packHalves) and shared
 * arrays past 48 KB lifted into dynamic shared memory, the final run compares tiles of twice
 * the keys: 128 keys x 1 m-tile at D = 64, 64 keys x 1 at D = 128 (64 KB of K and V each).
 */
const VARIANTS = { 64: [[128, 32, 1]], 128: [[64, 64, 1]] };

const tileName = ([bn, dw, mt]) => `tiles bn${bn} mt${mt}`;

async function build(file, text, arch) {
  const fe = frontEnd(file, text === undefined ? {} : { host: memoryHost({ [file]: text }, nodeHost) });
  if (!fe.ir) throw new Error(`${file} does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
  return { ...(await buildModule(fe.ir, fe.sources, { arch })), ir: fe.ir };
}

/** The dynamic shared memory a launch of `kernel` gives (its fixed-size arrays where they pass 48 KB; 0 otherwise). */
function sharedBytes(mod, kernel) {
  const fn = mod.ir.kernels.find((k) => k.name === kernel);
  if (!fn) throw new Error(`no kernel ${kernel} in the built module`);
  return launchSharedBytes(fn, [], CUDA_TARGET.limits);
}

/** The tiles file with a launch statement per instance (launches make instances; none runs here). */
function tilesProgram() {
  const text = readFileSync(join(ROOT, "bench", "attention_tiles.gk"), "utf8");
  const launches = [];
  for (const [d, vs] of Object.entries(VARIANTS)) for (const [bn, dw, mt] of vs) for (const causal of [false, true]) {
    launches.push(`launch flash<f16, false, ${causal}, ${bn}, ${dw}, ${mt}>(S = 128, scale = 0.125, Q = fill(${64 * d}, 0), K = fill(${64 * d}, 0), V = fill(${64 * d}, 0), O = zeros(${128 * d})) grid(1, 1) block(128);`);
  }
  return `${text}\n${launches.join("\n")}\n`;
}

/** The example's module and the tiles' module, built for `arch`. */
export async function buildAttention(arch) {
  return { example: await build(join(ROOT, "examples", "flash_attention.gk"), undefined, arch), tiles: await build(join(ROOT, "bench", "attention_tiles.gk"), tilesProgram(), arch) };
}

export async function benchAttention({ profileFirst = true } = {}) {
  const gpu = await probeGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk's flash attention vs SDPA: skipped (no GPU: ${gpu.reason})`);
    writeResult("attention", { skipped: gpu.reason });
    return;
  }
  const { arch, name } = gpu.device;
  const { example, tiles } = await buildAttention(arch);
  const cases = [];
  for (const shape of SHAPES) for (const dtype of ["f16", "bf16"]) for (const causal of [false, true]) {
    const [b, h, s, d] = shape;
    const variants = [{ name: "examples/flash_attention.gk", cubin: example.cubin, kernel: example.symbols.get(`flash_${dtype}_d${d}${causal ? "_causal" : ""}`), grid: [s / (d === 64 && !causal ? 128 : 64), b * h, 1] }];
    if (dtype === "f16") for (const v of VARIANTS[d]) {
      const k = `flash<f16, false, ${causal}, ${v.join(", ")}>`;
      variants.push({ name: tileName(v), cubin: tiles.cubin, kernel: tiles.symbols.get(k), shared: sharedBytes(tiles, k), grid: [s / (64 * v[2]), b * h, 1] });
    }
    cases.push({ name: `${dtype} ${shape.join("x")}${causal ? " causal" : ""}`, key: `${dtype} ${shape.join("x")}`, dtype, shape, causal, reps: s > 2048 ? 3 : 10, flops: (4 * b * h * s * s * d) / (causal ? 2 : 1), variants });
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
  const rows = [];
  result.cases.forEach((r, i) => {
    const c = cases[i];
    for (const v of r.variants) {
      const ratio = r.torch_ms / v.gk_ms;
      rows.push({ case: c.name, variant: v.name, gk_ms: v.gk_ms, torch_ms: r.torch_ms, gk_tflops: tflops(c, v.gk_ms), torch_tflops: tflops(c, r.torch_ms), ratio, target: c.shape[3] === 64 ? TARGET : undefined, rel_err: v.rel_err, torch_rel_err: r.torch_rel_err, ok: v.ok, sdpa_2026_11_29: c.causal ? undefined : SDPA_H200[c.key] });
    }
  });
  const err = (x) => (x === null ? "NaN" : x.toExponential(2));
  console.log(
    table(
      `gk's flash attention (mma.sync) vs scaled_dot_product_attention ${result.torch} on ${result.device} (CUDA events, median of 5 rounds; target gk / torch >= ${TARGET} at D = 64)`,
      ["case", "gk kernel", "gk ms", "torch ms", "gk TFLOP/s", "torch TFLOP/s", "gk / torch", "met", "gk vs f64", "torch vs f64", "result"],
      rows.map((r) => [r.case, r.variant, r.gk_ms, r.torch_ms, r.gk_tflops.toFixed(1), r.torch_tflops.toFixed(1), r.ratio.toFixed(3), r.target ? (r.ratio >= r.target ? "yes" : "no") : "-", err(r.rel_err), err(r.torch_rel_err), r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  const sass = disassemble(example.cubin, example.symbols.get("flash_f16_d64"), join(RESULTS, "attention-d64.sass"));
  console.log(`SASS of flash_f16_d64: ${JSON.stringify(sass)}`);
  const ncu = profileFirst ? profile(["python3", peerScript, jobFile, "--profile", "0"], join(RESULTS, "attention-ncu.csv")) : { skipped: "--no-profile" };
  printProfile(ncu);
  rmSync(dir, { recursive: true, force: true });
  console.log(`wrote ${writeResult("attention", { device: name, arch, torch: result.torch, cupy: result.cupy, target: TARGET, rows, sass, ncu })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--build-only")) {
    const { example, tiles } = await buildAttention("sm_90");
    console.log(`built ${example.symbols.size} + ${tiles.symbols.size} kernels: ${example.cubin}, ${tiles.cubin}`);
    for (const [d, vs] of Object.entries(VARIANTS)) for (const v of vs) console.log(`  D = ${d} ${tileName(v)}: ${sharedBytes(tiles, `flash<f16, false, false, ${v.join(", ")}>`)} bytes of dynamic shared memory a launch`);
  } else {
    await benchAttention({ profileFirst: !process.argv.includes("--no-profile") });
  }
}

// gk's flash attention (examples/flash_attention.gk: mma.sync on the tensor cores, online
// softmax) against PyTorch's scaled_dot_product_attention on one GPU, in one run (issue 22's
// target: >= 0.8 x SDPA at head dim 64), SDPA as PyTorch picks its backend (cuDNN's wgmma kernel
// on the H200) and with each of its FlashAttention-2 (mma.sync), memory-efficient (CUTLASS) and
// cuDNN backends forced, the kernels each launches named: f16 and bf16, causal and not, (B, H, S, D) of
// (1, 32, 2048, 64) and (4, 32, 4096, 128); beside each example kernel bench/attention_tiles.gk's
// tilings of VARIANTS. The kernels are built here through gk's cache as
// `gkc build` builds them; bench/peers/attention_peers.py loads the cubins with CuPy, times both
// sides with CUDA events around back-to-back launches on PyTorch's stream (median of 5
// alternating rounds), and checks every output against f64 attention of the same inputs (first
// two heads). FLOPs: 4 B H S² D, half that when causal. Afterwards, where the tools are on
// PATH, the f16 D = 64 kernels are disassembled (counts in the JSON and a table, SASS to
// bench/results/attention-d64-*.sass) and the example's flash_f16_d64, or the variants
// --profile= names, profiled beside SDPA at (1, 32, 2048, 64) (ncu, to
// bench/results/attention-ncu-*.csv). Needs a GPU, python3 with torch and cupy, `npm run build`.
//
//   node bench/attention.mjs [--no-profile] [--profile=NAME,...]   (prints tables, writes bench/results/attention.json)
//   node bench/attention.mjs --build-only     (no GPU needed: builds the kernels for sm_90)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { memoryHost, nodeHost } from "../dist/load/program.js";
import { buildModule } from "../dist/build/build.js";
import { launchSharedBytes } from "../dist/ir/kernelMemory.js";
import { CUDA_TARGET } from "../dist/codegen/cuda/target.js";
import { disassemble, NCU_METRICS, printProfile, profile } from "./gpuTools.mjs";
import { findGpu, RESULTS, ROOT, table, writeResult } from "./lib.mjs";

/** SDPA f16 on the H200, measured 2026-11-29 (issue 22), in TFLOP/s. */
const SDPA_H200 = { "f16 1x32x2048x64": 333, "f16 4x32x4096x128": 652 };
const TARGET = 0.8; // at head dim 64
/** ncu's metrics here: gpuTools' and the issue slots, the MUFU (xu) and FMA pipes, more stall reasons. */
const NCU_EXTRA = [...NCU_METRICS, "smsp__inst_executed.sum", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", "smsp__warp_issue_stalled_not_selected_per_warp_active.pct", "smsp__warp_issue_stalled_selected_per_warp_active.pct", "smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct", "smsp__warp_issue_stalled_no_instruction_per_warp_active.pct", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", "smsp__warp_issue_stalled_tex_throttle_per_warp_active.pct", "smsp__warp_issue_stalled_imc_miss_per_warp_active.pct", "smsp__warps_active.avg.per_cycle_active"];
const SHAPES = [[1, 32, 2048, 64], [4, 32, 4096, 128]];

/**
 * bench/attention_tiles.gk's kernels timed beside the example's, by head dim and causal:
 * [BN keys a tile, MT m-tiles a warp, PIPE, bf16, qs], f16, and bf16 where `bf16` is set; `qs`:
 * flashq (Q's tile in shared memory, read by ldmatrix) in place of flash (Q's fragments in
 * registers). The H200 batch of 2026-11-29 11:20 (TFLOP/s, f16; SDPA 429 at D = 64, 670 at
 * (4, 32, 4096, 128)) chose the example's: D = 64 BN 64 MT 2 PIPE 2 280 (with @flushToZero; 270
 * without, 251 PIPE 0, 226 BN 32 PIPE 2, 258 Q in shared memory, 226 BN 32 PIPE 1); causal BN 64
 * MT 1 PIPE 0 169 (165 MT 2 PIPE 2, 163 MT 1 PIPE 1, all without the flush); D = 128 Q in shared
 * memory, BN 32 MT 2 PIPE 0 309 (299 BN 64 MT 1 PIPE 2, 288 BN 64 MT 1 PIPE 0), causal 275 (272
 * BN 64 MT 1). The batch of 2026-11-29 13:37 (SDPA 422 and 648; PyTorch's FlashAttention-2 280
 * and 338) timed FA2's own tiles in gk: 128 × 128 at D = 64 265 (the example 279), 128 × 64 with
 * Q in shared memory at D = 128 326 (the example then, 32 keys a tile, 294; 322 against 314 in
 * the batch of 13:52: the example now takes it); and PIPE 3 to 5 (tile j - 1's P V in 16-key groups between the softmax's
 * exponentials in program order, FA2's SASS order; 4 with a syncWarp() before each group, 5 also
 * between its mma and its exponentials): 266, 261, 262 at D = 64, 312 at D = 128 MT 1. Here the
 * runners-up of that batch beside the example, and the D = 128 example before (32 keys a tile).
 */
const VARIANTS = {
  "64": [[64, 2, 0], [64, 1, 0], [128, 2, 0], [64, 2, 3, true]],
  "64c": [[64, 1, 2, true], [64, 1, 1], [128, 2, 0], [64, 2, 3]],
  "128": [[32, 2, 0, true, true], [64, 1, 2, true], [64, 1, 3, true], [32, 2, 4, false, true]],
  "128c": [[32, 2, 0, true, true], [64, 1, 0, true], [64, 1, 3]],
};

const variantName = ([bn, mt, pipe, , qs]) => `${qs ? "q" : "x"} bn${bn} mt${mt} pipe${pipe}`;
const instance = (dtype, causal, d, [bn, mt, pipe, , qs]) => `flash${qs ? "q" : ""}<${dtype}, ${dtype === "bf16"}, ${causal}, ${bn}, ${d / 2}, ${mt}, ${pipe}>`;
const variantsOf = (d, causal) => VARIANTS[`${d}${causal ? "c" : ""}`];

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

/** The tiles file with a launch statement per instance of one group (launches make instances; none runs here). */
function tilesProgram(d, causal) {
  const text = readFileSync(join(ROOT, "bench", "attention_tiles.gk"), "utf8");
  const launches = [];
  for (const v of variantsOf(d, causal)) for (const dtype of v[3] ? ["f16", "bf16"] : ["f16"]) {
    launches.push(`launch ${instance(dtype, causal, d, v)}(S = 128, scale = 0.125, Q = fill(${64 * d}, 0), K = fill(${64 * d}, 0), V = fill(${64 * d}, 0), O = zeros(${128 * d})) grid(1, 1) block(128);`);
  }
  return `${text}\n${launches.join("\n")}\n`;
}

/** A SASS listing's instructions by opcode (the part before the first dot), NOPs left out, and their total. */
function opcodes(text) {
  const counts = {};
  for (const m of text.matchAll(/\/\*[0-9a-f]{4,}\*\/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)/g)) if (m[1] !== "NOP") counts[m[1]] = (counts[m[1]] ?? 0) + 1;
  return { total: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
}

/** The example's module and the tiles' modules (one a head dim and causal, built side by side), for `arch`. */
export async function buildAttention(arch) {
  const file = join(ROOT, "bench", "attention_tiles.gk");
  const groups = [[64, false], [64, true], [128, false], [128, true]];
  const [example, ...tiles] = await Promise.all([build(join(ROOT, "examples", "flash_attention.gk"), undefined, arch), ...groups.map(([d, c]) => build(file, tilesProgram(d, c), arch))]);
  return { example, tiles: (d, causal) => tiles[groups.findIndex(([e, c]) => e === d && c === causal)] };
}

export async function benchAttention({ profileFirst = true } = {}) {
  const gpu = await findGpu();
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
    const kernel = `flash_${dtype}_d${d}${causal ? "_causal" : ""}`;
    const variants = [{ name: "examples/flash_attention.gk", cubin: example.cubin, kernel: example.symbols.get(kernel), shared: sharedBytes(example, kernel), grid: [s / (d === 64 && causal ? 64 : 128), b * h, 1] }];
    for (const v of variantsOf(d, causal)) if (dtype === "f16" || v[3]) {
      const mod = tiles(d, causal);
      const k = instance(dtype, causal, d, v);
      variants.push({ name: variantName(v), cubin: mod.cubin, kernel: mod.symbols.get(k), shared: sharedBytes(mod, k), grid: [s / (64 * v[1]), b * h, 1] });
    }
    cases.push({ name: `${dtype} ${shape.join("x")}${causal ? " causal" : ""}`, key: `${dtype} ${shape.join("x")}`, dtype, shape, causal, reps: s > 2048 ? 3 : 10, flops: (4 * b * h * s * s * d) / (causal ? 2 : 1), variants });
  }
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-attention-"));
  const jobFile = join(dir, "job.json");
  const peerScript = join(ROOT, "bench", "peers", "attention_peers.py");
  let result;
  try {
    writeFileSync(jobFile, JSON.stringify({ cases }));
    // Kept for ncu runs of the peer script's --profile-all mode after this one.
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, "attention-job.json"), JSON.stringify({ cases }));
    result = JSON.parse(execFileSync("python3", [peerScript, jobFile], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 }));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const reason = String(e.message ?? e).split("\n")[0];
    console.log(`\ngk's flash attention vs SDPA: the PyTorch side failed (${reason}); it needs python3 with torch and cupy`);
    writeResult("attention", { device: name, error: reason });
    return;
  }
  const tflops = (c, ms) => c.flops / (ms * 1e-3) / 1e12;
  const peerTflops = (c, r, name) => (r.peers[name]?.ms === undefined ? undefined : tflops(c, r.peers[name].ms));
  const rows = [];
  const peerRows = [];
  result.cases.forEach((r, i) => {
    const c = cases[i];
    const fa2 = r.peers.fa2?.ms;
    for (const v of r.variants) {
      const ratio = r.torch_ms / v.gk_ms;
      rows.push({ case: c.name, variant: v.name, gk_ms: v.gk_ms, torch_ms: r.torch_ms, gk_tflops: tflops(c, v.gk_ms), torch_tflops: tflops(c, r.torch_ms), fa2_tflops: peerTflops(c, r, "fa2"), mem_efficient_tflops: peerTflops(c, r, "mem-efficient"), cudnn_tflops: peerTflops(c, r, "cudnn"), ratio, vs_fa2: fa2 === undefined ? undefined : fa2 / v.gk_ms, target: c.shape[3] === 64 ? TARGET : undefined, rel_err: v.rel_err, torch_rel_err: r.torch_rel_err, ok: v.ok, sdpa_2026_11_29: c.causal ? undefined : SDPA_H200[c.key] });
    }
    for (const [name, p] of Object.entries(r.peers)) peerRows.push({ case: c.name, backend: name, ...p, tflops: p.ms === undefined ? undefined : tflops(c, p.ms), vs_sdpa: p.ms === undefined ? undefined : r.torch_ms / p.ms });
  });
  const err = (x) => (x === null ? "NaN" : x.toExponential(2));
  const num = (x, digits) => (x === undefined ? "-" : x.toFixed(digits));
  console.log(
    table(
      `gk's flash attention (mma.sync) vs scaled_dot_product_attention ${result.torch} on ${result.device}: PyTorch's choice (SDPA) and its FlashAttention-2 (FA2, mma.sync), memory-efficient (CUTLASS) and cuDNN backends forced (CUDA events, median of 5 rounds; target gk / SDPA >= ${TARGET} at D = 64)`,
      ["case", "gk kernel", "gk ms", "gk TFLOP/s", "SDPA", "FA2", "mem-eff", "cuDNN", "gk / SDPA", "gk / FA2", "met", "gk vs f64", "SDPA vs f64", "result"],
      rows.map((r) => [r.case, r.variant, r.gk_ms, r.gk_tflops.toFixed(1), r.torch_tflops.toFixed(1), num(r.fa2_tflops, 1), num(r.mem_efficient_tflops, 1), num(r.cudnn_tflops, 1), r.ratio.toFixed(3), num(r.vs_fa2, 3), r.target ? (r.ratio >= r.target ? "yes" : "no") : "-", err(r.rel_err), err(r.torch_rel_err), r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  console.log(
    table(
      "The peers (TFLOP/s; each output against f64 attention; the CUDA kernels each launched, by torch.profiler)",
      ["case", "backend", "ms", "TFLOP/s", "× SDPA", "vs f64", "result", "kernels"],
      peerRows.map((p) => (p.error ? [p.case, p.backend, "-", "-", "-", "-", "refused", p.error] : [p.case, p.backend, p.ms, p.tflops.toFixed(1), p.vs_sdpa.toFixed(3), err(p.rel_err), p.ok ? "agrees" : "DIFFERS", (p.kernels ?? []).map((k) => k.slice(0, 90)).join(" | ")])),
    ),
  );
  // SASS counts of the example's flash_f16_d64 and of every variant at f16, D = 64, not causal.
  const first = cases[0];
  const sass = {};
  for (const v of first.variants) {
    const file = join(RESULTS, `attention-d64-${v.name.replace(/[^a-z0-9]+/gi, "_")}.sass`);
    const d = disassemble(v.cubin, v.kernel, file);
    sass[v.name] = d.total === undefined ? d : opcodes(readFileSync(file, "utf8"));
  }
  const picked = ["total", "HMMA", "LDSM", "MUFU", "FFMA", "FMUL", "FADD", "FMNMX", "F2FP", "FSEL", "FSETP", "MOV", "SHFL", "BRA", "BAR", "IMAD", "IADD3", "LOP3", "LDL", "STL"];
  if (Object.values(sass).every((c) => c.total !== undefined)) console.log(table(`SASS instructions of the f16 D = 64 kernels (cuobjdump; NOPs left out)`, ["kernel", ...picked], Object.entries(sass).map(([n, c]) => [n, ...picked.map((k) => c[k] ?? 0)])));
  else console.log(`SASS: ${JSON.stringify(sass)}`);
  // ncu beside SDPA: the variants --profile=NAME,NAME names, or the example's flash_f16_d64.
  const names = process.argv.find((a) => a.startsWith("--profile="))?.slice(10).split(",") ?? ["examples/flash_attention.gk"];
  const ncu = {};
  if (!profileFirst) ncu.skipped = "--no-profile";
  else for (const n of names) {
    const i = first.variants.findIndex((v) => v.name === n);
    if (i < 0) throw new Error(`--profile: no variant ${n} at ${first.name}`);
    ncu[n] = profile(["python3", peerScript, jobFile, "--profile", "0", String(i)], join(RESULTS, `attention-ncu-${i}.csv`), NCU_EXTRA);
    console.log(`ncu of ${n}:`);
    printProfile(ncu[n]);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`wrote ${writeResult("attention", { device: name, arch, torch: result.torch, cupy: result.cupy, target: TARGET, rows, peers: peerRows, sass, ncu })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--build-only")) {
    const { example, tiles } = await buildAttention("sm_90");
    console.log(`built ${example.symbols.size} kernels: ${example.cubin}`);
    for (const d of [64, 128]) for (const causal of [false, true]) {
      const mod = tiles(d, causal);
      console.log(`built ${mod.symbols.size} kernels: ${mod.cubin}`);
      for (const v of variantsOf(d, causal)) console.log(`  D = ${d}${causal ? " causal" : ""} ${variantName(v)}: ${sharedBytes(mod, instance("f16", causal, d, v))} bytes of dynamic shared memory a launch`);
    }
  } else {
    await benchAttention({ profileFirst: !process.argv.includes("--no-profile") });
  }
}

// gk's HGEMM (mma.sync on the tensor cores, f16 or bf16 in, f32 accumulated) against cuBLAS
// through PyTorch on one GPU, in one run (issue 22's target: >= 0.7 x cuBLAS): f16 and bf16,
// M = N = K = 4096 and 8192. gk computes C = A x B^T (B given N x K) into f32; PyTorch computes
// torch.matmul(A, B.t()) in the input type (cuBLAS accumulates in f32). Timed in each case:
//   examples/hgemm.gk    hgemm_f16 / hgemm_bf16 (256 x 128 tiles, 64 x 64 per warp, BK 64, 3
//                        stages, fragments double-buffered in registers)
//   bench/hgemm_tiles.gk the same code with its tiling as generic parameters (hgemm without the
//                        fragments' double buffer, hgemmDb with it), in the shapes of VARIANTS
//                        below, so that one GPU run compares them; and first, mmaPeak: the
//                        tensor cores' rate for mma.sync with no global memory (PEAK_ITERS)
// The kernels are built here through gk's cache as `gkc build` builds them; bench/peers/
// hgemm_peers.py loads the cubins with CuPy, times every kernel and cuBLAS with CUDA events
// around back-to-back launches on PyTorch's stream (median of 5 alternating rounds), and checks
// each gk C against an f64 product of the same inputs. Afterwards, where the tools are on PATH,
// the fastest variant at f16 4096 is disassembled (cuobjdump: its instruction counts go into
// the JSON, its SASS to bench/results/hgemm-best.sass) and profiled beside cuBLAS (ncu: tensor
// pipe activity, occupancy, stall reasons, to bench/results/hgemm-ncu.csv). Needs a GPU, python3
// with torch and cupy, and `npm run build`. Where a build of bench/peers/hgemm_cutlass.cu's library
// is at $HGEMM_CUTLASS (default .gpubatch/hgemm_cutlass.so; CUTLASS is not part of gk, its header
// says how to build it), CUTLASS 2.x's sm80 mma.sync GEMM joins the same rounds: the best-known
// mma.sync kernel, the reference for what mma.sync reaches on this GPU.
//
//   node bench/hgemm.mjs [--no-profile]   (prints a table, writes bench/results/hgemm.json)
//   node bench/hgemm.mjs --build-only     (no GPU needed: builds every kernel for sm_90)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { memoryHost, nodeHost } from "../dist/load/program.js";
import { buildModule } from "../dist/build/build.js";
import { launchSharedBytes } from "../dist/ir/kernelMemory.js";
import { CUDA_TARGET } from "../dist/codegen/cuda/target.js";
import { disassemble, printProfile, profile } from "./gpuTools.mjs";
import { findGpu, RESULTS, ROOT, table, writeResult } from "./lib.mjs";

/** cuBLAS on the H200, measured 2026-11-29 (issue 22), beside this run's own figure. */
const CUBLAS_H200 = { "f16 4096": 690, "bf16 4096": 712, "f16 8192": 757, "bf16 8192": 695 };
const TARGET = 0.7;
/** The shared library hgemm_cutlass.cu builds into (see its header); absent: no CUTLASS rows. */
const CUTLASS = process.env.HGEMM_CUTLASS ?? join(ROOT, ".gpubatch", "hgemm_cutlass.so");

/**
 * bench/hgemm_tiles.gk's kernels and shapes: [kernel, BM, BN, WN, BK, STAGES, GROUP] and for
 * hgemmDb SPREAD and ORDER (0: copies, fragments, mmas; 1: CUTLASS's fragments, mmas, copies; 2:
 * 1 with its serpentine mma order); warps = BM/64 · BN/WN. hgemm is the old example's code; hgemmDb double-buffers
 * the fragments in registers (the next k16 step's ldmatrix before this step's mmas, across tiles
 * too), computes each thread's copy addresses once, and spreads a tile's copies over SPREAD k16
 * steps (1: all at the first; CUTLASS interleaves them with its mma steps). On the H200
 * (2026-11-29, f16 4096³, TFLOP/s): before session 3 hgemm 128 x 128, BK 32, 3 stages 392, 2
 * stages 312, 8 warps of 64 x 32 313, 128 x 256 or 256 x 128 in 2 stages 275, BK 16 217-288,
 * 64 x 128 344. Session 3 (mma.sync alone: 618-647; with its ldmatrix: 601-623): hgemm BK 32 in 3
 * or 4 stages 359-379, BK 64 in 4 stages 295; hgemmDb BK 64 in 3 stages 378-392 (the example),
 * 256 x 128 BK 64 in 3 stages 375 (8192: 393), 128 x 256 372-385, BK 32 in 4 or 5 stages 361-387;
 * the block order within 1-4%. Session 4: SPREAD 2 or 4 within noise of 1; 256 x 128 BK 64 in 3
 * stages 392-414 (+4-7% on 128 x 128 at 8192: the example since); CUTLASS's same tilings 2-5%
 * ahead at BK 64, 12-15% at 128 x 256 BK 32 (its best: 423-448, 0.57-0.59 x cuBLAS); ORDER 1 / 2
 * -2-6% at 128 x 256 BK 32, within 2.5% at 256 x 128 BK 64, +2-4.5% at 128 x 128 (one run). Shared memory
 * past 48 KB is lifted into dynamic shared memory (launchSharedBytes).
 */
const VARIANTS = [
  ["hgemm", 128, 128, 64, 32, 3, 8],
  ["hgemmDb", 128, 128, 64, 64, 3, 8, 1, 0],
  ["hgemmDb", 128, 128, 64, 64, 3, 8, 1, 2],
  ["hgemmDb", 128, 256, 64, 32, 4, 8, 1, 0],
  ["hgemmDb", 128, 256, 64, 32, 4, 8, 1, 1],
  ["hgemmDb", 128, 256, 64, 32, 4, 8, 1, 2],
  ["hgemmDb", 256, 128, 64, 32, 4, 8, 1, 0],
  ["hgemmDb", 256, 128, 64, 32, 4, 8, 1, 2],
  ["hgemmDb", 256, 128, 64, 64, 3, 8, 1, 0],
  ["hgemmDb", 256, 128, 64, 64, 3, 8, 1, 1],
  ["hgemmDb", 256, 128, 64, 64, 3, 8, 1, 2],
  ["hgemmDb", 256, 128, 64, 64, 3, 8, 3, 2],
  ["hgemmDb", 128, 256, 64, 64, 3, 8, 1, 2],
];

/**
 * mmaPeak<BF16, LDSM> (bench/hgemm_tiles.gk): the tensor cores' rate for mma.sync alone (LDSM
 * false) and with a 64 x 64 warp tile's ldmatrix_x4 traffic (true), no global memory; blocks of
 * 4 warps, PEAK_BLOCKS_PER_SM blocks a multiprocessor (8: 8 warps a scheduler; 2: the GEMMs' 2 warps
 * a scheduler, as hgemmDb 128 x 128 at 2 blocks an SM and CUTLASS's 8-warp blocks at 1), PEAK_ITERS
 * k-tiles of 32 each.
 */
const PEAK_ITERS = 4096;
const PEAK_BLOCKS_PER_SM = [8, 2];

const variantName = ([kernel, bm, bn, wn, bk, st, gr, sp, order]) => `${kernel} ${bm}x${bn} w64x${wn} bk${bk} s${st} g${gr}${sp === undefined ? "" : ` sp${sp} o${order}`}`;
const instanceName = (bf16, [kernel, ...shape]) => `${kernel}<${bf16}, ${shape.join(", ")}>`;
const threadsOf = (v) => (v[1] / 64) * (v[2] / v[3]) * 32;

/** The tiles file with a launch statement per instance (launches make instances; none runs here). */
function tilesProgram() {
  const text = readFileSync(join(ROOT, "bench", "hgemm_tiles.gk"), "utf8");
  const launches = [];
  for (const bf16 of [false, true]) {
    for (const v of VARIANTS) {
      launches.push(`launch ${instanceName(bf16, v)}(M = 256, N = 256, K = 128, A = fill(16384, 0), B = fill(16384, 0), C = zeros(65536)) grid(${256 / v[2]}, ${256 / v[1]}) block(${threadsOf(v)});`);
    }
    for (const ldsm of [false, true]) launches.push(`launch mmaPeak<${bf16}, ${ldsm}>(iters = 1, X = fill(2048, 0), C = zeros(128)) grid(1) block(128);`);
  }
  return `${text}\n${launches.join("\n")}\n`;
}

async function build(file, text, arch) {
  const fe = frontEnd(file, text === undefined ? {} : { host: memoryHost({ [file]: text }, nodeHost) });
  if (!fe.ir) throw new Error(`${file} does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
  return { ...(await buildModule(fe.ir, fe.sources, { arch })), ir: fe.ir };
}

/** Both modules built for `arch`: the example's two kernels, and every variant in f16 and bf16. */
export async function buildKernels(arch) {
  return { example: await build(join(ROOT, "examples", "hgemm.gk"), undefined, arch), tiles: await build(join(ROOT, "bench", "hgemm_tiles.gk"), tilesProgram(), arch) };
}

/** The dynamic shared memory a launch of `kernel` gives (its fixed-size arrays where they pass 48 KB; 0 otherwise). */
function sharedBytes(mod, kernel) {
  const fn = mod.ir.kernels.find((k) => k.name === kernel);
  if (!fn) throw new Error(`no kernel ${kernel} in the built module`);
  return launchSharedBytes(fn, [], CUDA_TARGET.limits);
}

export async function benchHgemm({ profileBest = true } = {}) {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\ngk's HGEMM vs cuBLAS: skipped (no GPU: ${gpu.reason})`);
    writeResult("hgemm", { skipped: gpu.reason });
    return;
  }
  const { arch, name, multiprocessorCount: sms } = gpu.device;
  const t0 = performance.now();
  const { example, tiles } = await buildKernels(arch);
  const buildSeconds = (performance.now() - t0) / 1000;
  const cases = [];
  for (const m of [4096, 8192]) for (const dtype of ["f16", "bf16"]) {
    const bf16 = dtype === "bf16";
    const variants = [{ name: "examples/hgemm.gk", cubin: example.cubin, kernel: example.symbols.get(`hgemm_${dtype}`), shared: sharedBytes(example, `hgemm_${dtype}`), grid: [m / 128, m / 256, 1], block: [256, 1, 1] }];
    for (const v of VARIANTS) {
      const k = instanceName(bf16, v);
      variants.push({ name: variantName(v), cubin: tiles.cubin, kernel: tiles.symbols.get(k), shared: sharedBytes(tiles, k), grid: [m / v[2], m / v[1], 1], block: [threadsOf(v), 1, 1] });
    }
    cases.push({ name: `${dtype} ${m}`, dtype, m, reps: m === 4096 ? 20 : 5, flops: 2 * m ** 3, variants });
  }
  const peaks = [];
  for (const perSm of PEAK_BLOCKS_PER_SM) for (const bf16 of [false, true]) for (const ldsm of [false, true]) {
    const blocks = sms * perSm;
    peaks.push({ name: `${bf16 ? "bf16" : "f16"} mma.sync${ldsm ? " + ldmatrix_x4" : " alone"}, ${perSm} warps a scheduler`, cubin: tiles.cubin, kernel: tiles.symbols.get(`mmaPeak<${bf16}, ${ldsm}>`), grid: [blocks, 1, 1], block: [128, 1, 1], iters: PEAK_ITERS, flops: blocks * 4 * PEAK_ITERS * 2 * 32 * 4096 });
  }
  let result;
  // The job stays in bench/results, for a profiler to run the peer on again (--profile).
  mkdirSync(RESULTS, { recursive: true });
  const jobFile = join(RESULTS, "hgemm-job.json");
  try {
    const cutlass = existsSync(CUTLASS) ? CUTLASS : undefined;
    if (!cutlass) console.log(`CUTLASS rows skipped: no build of bench/peers/hgemm_cutlass.cu at ${CUTLASS} (its header says how to build it)`);
    writeFileSync(jobFile, JSON.stringify({ cases, peaks, cutlass }));
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "hgemm_peers.py"), jobFile], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 });
    result = JSON.parse(out);
  } catch (e) {
    const reason = String(e.message ?? e).split("\n")[0];
    console.log(`\ngk's HGEMM vs cuBLAS: the PyTorch side failed (${reason}); it needs python3 with torch and cupy`);
    writeResult("hgemm", { device: name, error: reason });
    return;
  }
  if (result.cutlass_error) console.log(`CUTLASS rows left out: ${result.cutlass_error}`);
  const tflops = (c, ms) => c.flops / (ms * 1e-3) / 1e12;
  const peakRows = result.peaks.map((r, i) => ({ name: peaks[i].name, ms: r.ms, tflops: tflops(peaks[i], r.ms) }));
  console.log(table(`The tensor cores' rate for mma.sync m16n8k16 (f32 accumulators) without global memory, ${PEAK_BLOCKS_PER_SM.map((b) => b * sms).join(" or ")} blocks of 4 warps, each warp ${PEAK_ITERS} x 64 mmas of a 64 x 64 tile`, ["kernel", "ms", "TFLOP/s"], peakRows.map((r) => [r.name, r.ms, r.tflops.toFixed(1)])));
  const rows = [];
  result.cases.forEach((r, i) => {
    const c = cases[i];
    r.variants.forEach((v, j) => {
      const ratio = r.torch_ms / v.gk_ms;
      rows.push({ case: c.name, variant: v.name, peer: j >= c.variants.length ? "cutlass" : undefined, gk_ms: v.gk_ms, torch_ms: r.torch_ms, gk_tflops: tflops(c, v.gk_ms), torch_tflops: tflops(c, r.torch_ms), ratio, met: ratio >= TARGET, max_rel_err: v.max_rel_err, ok: v.ok, cublas_2026_11_29: CUBLAS_H200[c.name] });
    });
  });
  console.log(
    table(
      `gk's HGEMM (mma.sync) and CUTLASS's (mma.sync) vs torch.matmul ${result.torch} on ${result.device} (CUDA events, median of 5 rounds; target gk / torch >= ${TARGET})`,
      ["case", "kernel", "gk ms", "torch ms", "gk TFLOP/s", "torch TFLOP/s", "gk / torch", "met", "vs f64 (max rel)", "result"],
      rows.map((r) => [r.case, r.variant, r.gk_ms, r.torch_ms, r.gk_tflops.toFixed(1), r.torch_tflops.toFixed(1), r.ratio.toFixed(3), r.met ? "yes" : "no", r.max_rel_err === null ? "NaN" : r.max_rel_err.toExponential(2), r.ok ? "agrees" : "DIFFERS"]),
    ),
  );
  // The fastest correct kernel of each case, and a look inside the one at f16 4096.
  const best = cases.map((c, i) => {
    const vs = result.cases[i].variants.map((v, j) => ({ ...v, j })).filter((v) => v.ok && v.j < c.variants.length);
    const b = vs.reduce((x, y) => (y.gk_ms < x.gk_ms ? y : x), vs[0] ?? { j: 0, gk_ms: NaN, name: "none correct" });
    return { case: c.name, variant: b.name, index: b.j, gk_tflops: tflops(c, b.gk_ms), ratio: result.cases[i].torch_ms / b.gk_ms };
  });
  console.log(table("The fastest correct gk kernel of each case", ["case", "gk kernel", "gk TFLOP/s", "gk / torch"], best.map((b) => [b.case, b.variant, b.gk_tflops.toFixed(1), b.ratio.toFixed(3)])));
  // The summary: the example, the best gk kernel, the best CUTLASS configuration and cuBLAS.
  const summary = cases.map((c, i) => {
    const r = result.cases[i];
    const tf = (ms) => tflops(c, ms);
    const cut = r.variants.slice(c.variants.length).filter((v) => v.ok).reduce((x, y) => (x && x.gk_ms <= y.gk_ms ? x : y), undefined);
    return { case: c.name, example: tf(r.variants[0].gk_ms), best: best[i].gk_tflops, bestName: best[i].variant, cutlass: cut ? tf(cut.gk_ms) : undefined, cutlassName: cut?.name, cublas: tf(r.torch_ms) };
  });
  const cell = (x, s) => (x === undefined ? "-" : `${x.toFixed(0)} (${(x / s.cublas).toFixed(2)})`);
  console.log(
    table(
      "TFLOP/s (x cuBLAS of this run)",
      ["case", "examples/hgemm.gk", "best gk", "best CUTLASS sm80", "cuBLAS", "best gk kernel", "best CUTLASS kernel"],
      summary.map((s) => [s.case, cell(s.example, s), cell(s.best, s), cell(s.cutlass, s), s.cublas.toFixed(0), s.bestName, s.cutlassName ?? (result.cutlass?.length ? "none correct" : result.cutlass_error ? "failed" : "not built")]),
    ),
  );
  const v0 = cases[0].variants[best[0].index];
  const sass = disassemble(v0.cubin, v0.kernel, join(RESULTS, "hgemm-best.sass"));
  console.log(`SASS of ${v0.name} (f16 4096's fastest): ${JSON.stringify(sass)}`);
  const peer = ["python3", join(ROOT, "bench", "peers", "hgemm_peers.py"), jobFile, "--profile", "0", String(best[0].index)];
  const ncu = profileBest ? profile(peer, join(RESULTS, "hgemm-ncu.csv")) : { skipped: "--no-profile" };
  printProfile(ncu);
  console.log(`wrote ${writeResult("hgemm", { device: name, arch, torch: result.torch, cupy: result.cupy, build_seconds: buildSeconds, target: TARGET, rows, best, summary, cutlass: result.cutlass, cutlass_error: result.cutlass_error, peaks: peakRows, sass, ncu })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--build-only")) {
    // Without a GPU: build every kernel for sm_90 (nvcc only), to see that the bench will run.
    const { example, tiles } = await buildKernels("sm_90");
    console.log(`built ${example.symbols.size} + ${tiles.symbols.size} kernels: ${example.cubin}, ${tiles.cubin}`);
    for (const v of VARIANTS) console.log(`  ${variantName(v)}: ${sharedBytes(tiles, instanceName(false, v))} bytes of dynamic shared memory a launch`);
  } else {
    await benchHgemm({ profileBest: !process.argv.includes("--no-profile") });
  }
}

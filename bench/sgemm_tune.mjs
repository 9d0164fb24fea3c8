// SGEMM variants (bench/sgemm_tiles.gk: BK, stages, the warps' shape, fragments loaded a step
// ahead) beside gk/std/matmul's (gpu.matmul: A's transpose, then sgemmT) and cuBLAS (torch.matmul,
// TF32 off, measured first in the same run), to choose the library's kernel. Each variant's C
// is checked: bit for bit against the library's (every element is the same chain of fused
// multiply-adds over k in increasing order), and the library's at sampled elements against an
// f64 product. gk's figure is its kernel time (CUDA events), the median of ROUNDS rounds of REPS
// launches. Prints each row as it is measured; writes JSON to $OUT/sgemm_tune.json (else
// bench/results/sgemm_tune.json).
//
//   npm run build && node bench/sgemm_tune.mjs [side]...
// GK_STDLIB_BENCH_SMOKE=1 runs it on the simulator at 128 x 128 x 32 without peers (checks the bench only).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDevice, stdlib } from "../dist/index.js";
import { ROOT, RESULTS, median } from "./lib.mjs";

const SMOKE = process.env.GK_STDLIB_BENCH_SMOKE === "1";
const SIDES = SMOKE ? [128] : process.argv.slice(2).length ? process.argv.slice(2).map(Number) : [4096];
const ROUNDS = SMOKE ? 1 : 5;
const REPS = SMOKE ? 1 : 5;
// [BK, STAGES, WARPS, FRAGMENTS, GROUP] of sgemmAsync (which multiplies A's transpose: its time is the
// transpose's and its own). The library's sgemmT is [16, 3, true, false, 0]. Batch 1 (H200): 8 x 3
// 0.877x cuBLAS, 8 x 4 0.871x, 16 x 3 0.926x, 16 x 4 0.904x; register-staged sgemm variants
// (BK 8 or 16, either warp shape, fragments ahead or not) 0.892-0.897x.
const ASYNC = [[16, 3, true, false, 0], [16, 3, true, false, 8], [16, 3, false, false, 0], [16, 2, true, false, 0], [16, 3, true, true, 0], [16, 4, true, true, 0], [32, 2, true, false, 0], [32, 3, true, false, 0]];

function peers() {
  if (SMOKE) return { skipped: "smoke run" };
  try {
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "stdlib_peers.py"), JSON.stringify({ sizes: [], sides: SIDES, only: ["torch.matmul (TF32 off)"] })], { encoding: "utf8", maxBuffer: 1 << 24 });
    return JSON.parse(out.trim().split("\n").pop());
  } catch (e) {
    return { skipped: `peers not measured: ${String(e.message ?? e).split("\n")[0]}` };
  }
}

/** Kernel ms per launch (median of rounds); `run(kernelTime)` launches once. */
async function timeKernel(gpu, run) {
  let ms = 0;
  const add = (t) => {
    ms += t;
  };
  for (let i = 0; i < 2; i++) await run(add);
  await gpu.sync();
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    ms = 0;
    for (let i = 0; i < REPS; i++) await run(add);
    await gpu.sync();
    rounds.push(ms / REPS);
  }
  return median(rounds);
}

const gpu = await openDevice({ device: SMOKE ? "cpu" : "auto" });
if (gpu.kind !== "cuda" && !SMOKE) {
  console.log(`sgemm_tune: skipped (no GPU: ${gpu.reason})`);
  process.exit(0);
}
const peer = peers();
const std = stdlib(gpu);
const mod = await std.module();
const tiles = await gpu.compileSource(readFileSync(join(ROOT, "bench", "sgemm_tiles.gk"), "utf8"), { filename: join(ROOT, "bench", "sgemm_tiles.gk") });
const rows = [];
const show = (r) => {
  rows.push(r);
  console.log(`  ${r.variant} | ${r.side}^2 | ${r.ms.toFixed(4)} ms | ${r.tflops.toFixed(1)} TFLOP/s | peer ${r.peerMs?.toFixed(4) ?? "-"} ms | ${r.ratio?.toFixed(3) ?? "-"} | ${r.check}`);
};
for (const s of SIDES) {
  const n = s * s;
  const ha = new Float32Array(n), hb = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ha[i] = ((Math.imul(i, 2654435761) >>> 8) / 2 ** 24) * 2 - 1;
    hb[i] = ((Math.imul(i + 977, 2246822519) >>> 8) / 2 ** 24) * 2 - 1;
  }
  const a = await gpu.array(ha), b = await gpu.array(hb), c = await gpu.zeros("f32", n);
  const pms = peer.ms?.["torch.matmul (TF32 off)"]?.[String(s)];
  const flops = (ms) => (2 * s ** 3) / ms / 1e9;
  // The library's C, checked against f64 at sampled elements (within 1e-5 of the sum of |products|).
  await std.matmul(a, b, s, s, s, { out: c });
  const ref = await c.read();
  let check = "ok";
  for (let q = 0; q < 64 && check === "ok"; q++) {
    const i = Math.imul(q, 40503) % s, j = Math.imul(q + 11, 9973) % s;
    let sum = 0, mag = 0;
    for (let k = 0; k < s; k++) {
      sum += ha[i * s + k] * hb[k * s + j];
      mag += Math.abs(ha[i * s + k] * hb[k * s + j]);
    }
    if (!(Math.abs(ref[i * s + j] - sum) <= 1e-5 * mag)) check = `C[${i}][${j}] = ${ref[i * s + j]}, expected ${sum}`;
  }
  mod.kernelTime = undefined;
  const libMs = await timeKernel(gpu, async (kernelTime) => {
    mod.kernelTime = kernelTime;
    await std.matmul(a, b, s, s, s, { out: c });
    mod.kernelTime = undefined;
  });
  show({ variant: "gpu.matmul (transpose + sgemmT)", side: s, ms: libMs, tflops: flops(libMs), peerMs: pms, ratio: pms && pms / libMs, check });
  const at = await gpu.zeros("f32", n);
  const transposeMs = await timeKernel(gpu, async (kernelTime) => {
    mod.kernelTime = kernelTime;
    await std.transpose(a, s, s, { out: at });
    mod.kernelTime = undefined;
  });
  for (const [BK, STAGES, WARPS, FRAGMENTS, GROUP] of ASYNC) {
    const k = tiles.sgemmAsync.with({ BK, STAGES, WARPS, FRAGMENTS, GROUP });
    const args = { M: s, N: s, K: s, AT: at, B: b, C: c };
    const cfg = { grid: [s / 128, s / 128], block: 256 };
    const variant = `sgemmAsync BK=${BK} STAGES=${STAGES} WARPS=${WARPS} FRAGMENTS=${FRAGMENTS} GROUP=${GROUP} (+ transpose ${transposeMs.toFixed(4)} ms)`;
    try {
      const ms = transposeMs + (await timeKernel(gpu, (kernelTime) => k({ ...cfg, kernelTime }, args)));
      await c.fill(-7);
      await k(cfg, args);
      const got = await c.read();
      let bad = -1;
      for (let i = 0; i < n && bad < 0; i++) if (!Object.is(got[i], ref[i])) bad = i;
      show({ variant, side: s, ms, tflops: flops(ms), peerMs: pms, ratio: pms && pms / ms, check: bad < 0 ? "ok (= library)" : `element ${bad}: ${got[bad]} (library ${ref[bad]})` });
    } catch (e) {
      show({ variant, side: s, ms: NaN, tflops: NaN, check: `failed: ${String(e.message ?? e).split("\n")[0].slice(0, 160)}` });
    }
  }
  for (const x of [a, b, c, at]) x.free();
}
if (peer.skipped) console.log(`  (${peer.skipped})`);
const dir = process.env.OUT ?? RESULTS;
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "sgemm_tune.json"), JSON.stringify({ device: gpu.name, date: new Date().toISOString(), peers: peer, rows }, null, 2));
console.log(`written: ${join(dir, "sgemm_tune.json")}`);
await gpu.close();

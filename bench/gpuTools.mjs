// What the tensor-core benches (bench/hgemm.mjs, bench/attention.mjs) ask of NVIDIA's tools on
// the GPU machine, each where it is on PATH: a kernel's SASS and its instruction counts
// (cuobjdump), and a profile (ncu) of the kernels a peer script launches in its --profile mode.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The metrics asked of ncu: time, tensor-pipe activity, occupancy, memory, stall reasons. */
export const NCU_METRICS = [
  "gpu__time_duration.sum",
  "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
  "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active",
  "sm__warps_active.avg.pct_of_peak_sustained_active",
  "sm__throughput.avg.pct_of_peak_sustained_elapsed",
  "dram__throughput.avg.pct_of_peak_sustained_elapsed",
  "lts__t_sector_hit_rate.pct",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
  "launch__registers_per_thread",
  "smsp__issue_active.avg.pct_of_peak_sustained_active",
  "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
  "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
  "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
  "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
  "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
  "smsp__warp_issue_stalled_wait_per_warp_active.pct",
];

export function onPath(tool) {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).status === 0;
}

/** The SASS of one kernel of a cubin, written to `file`, and its counts of telling instructions. */
export function disassemble(cubin, symbol, file) {
  if (!onPath("cuobjdump")) return { skipped: "cuobjdump is not on PATH" };
  const sass = spawnSync("cuobjdump", ["-sass", "-fun", symbol, cubin], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (sass.status !== 0) return { error: sass.stderr.trim().split("\n")[0] };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, sass.stdout);
  const counts = {};
  for (const m of sass.stdout.matchAll(/\/\*[0-9a-f]{4,}\*\/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)/g)) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
  const pick = ["HMMA", "LDSM", "LDGSTS", "BAR", "LDS", "STS", "LDG", "STG", "LDL", "STL", "BRA", "MUFU", "FFMA", "FMUL", "FADD", "FMNMX", "SHFL", "IMAD", "IADD3", "LOP3", "SHF", "FLO", "F2F", "F2I", "I2F", "SEL", "FSEL", "ISETP", "FSETP", "DEPBAR"];
  return { total: Object.values(counts).reduce((a, b) => a + b, 0), ...Object.fromEntries(pick.map((k) => [k, counts[k] ?? 0])) };
}

/**
 * ncu over `peer` (a command whose kernels are launched 3 times each, gk's and the library's,
 * the first two as warm-ups): the last launch of each, with `asked` (NCU_METRICS unless given; where
 * ncu refuses one of them, the first two), its CSV written to `file`.
 */
export function profile(peer, file, asked = NCU_METRICS) {
  if (!onPath("ncu")) return { skipped: "ncu is not on PATH" };
  for (const metrics of [asked, asked.slice(0, 2)]) {
    const r = spawnSync("ncu", ["--csv", "--metrics", metrics.join(","), "--launch-skip", "4", "--launch-count", "2", "-k", "regex:gemm|nvjet|xmma|cutlass|sm90|flash|fmha|attention|cudnn", ...peer], { encoding: "utf8", maxBuffer: 64 << 20, timeout: 120_000 });
    if (r.status === 0 && r.stdout.includes('"ID"')) {
      const text = r.stdout.slice(r.stdout.indexOf('"ID"'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return { csv: file, metrics: ncuRows(text) };
    }
    if (metrics.length === 2) return { error: (r.stderr || r.stdout || String(r.error)).trim().split("\n").slice(-3).join(" | ") };
  }
}

/** ncu's CSV (one row per kernel and metric) as { "ID kernel": { metric: "value unit" } }. */
function ncuRows(text) {
  const [head, ...rows] = text.trim().split("\n").map((l) => l.slice(1, -1).split('","'));
  const col = (n) => head.indexOf(n);
  const out = {};
  for (const r of rows) {
    const k = `${r[col("ID")]} ${r[col("Kernel Name")].slice(0, 60)}`;
    (out[k] ??= {})[r[col("Metric Name")]] = `${r[col("Metric Value")]} ${r[col("Metric Unit")] ?? ""}`.trim();
  }
  return out;
}

/** Prints a profile's metrics, kernel by kernel, or why there is none. */
export function printProfile(ncu) {
  if (ncu.metrics) for (const [k, m] of Object.entries(ncu.metrics)) console.log(`ncu ${k}\n  ${Object.entries(m).map(([a, b]) => `${a} = ${b}`).join("\n  ")}`);
  else console.log(`ncu: ${JSON.stringify(ncu)}`);
}

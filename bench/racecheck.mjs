// NVIDIA's racecheck beside gk's race detector (issue 24), on the GPU machine:
//
//   npm run build && node scripts/build-native.mjs && node bench/racecheck.mjs
//
// Runs each case of test/runtime/sim/fixtures/races.gk (a racy kernel and its corrected
// version) twice: on the simulator with race checking (`gkc run --check-races`), and on the
// GPU under `compute-sanitizer --tool racecheck` (`gkc run --device cuda`); prints a table of
// both verdicts and writes bench/results/racecheck.json. racecheck sees shared memory only,
// so the global-memory cases show what the simulator finds beyond it. Skips with a one-line
// reason where there is no GPU or no compute-sanitizer.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findGpu, ROOT, table, writeResult } from "./lib.mjs";

const FILE = join(ROOT, "test", "runtime", "sim", "fixtures", "races.gk");
const GKC = join(ROOT, "bin", "gkc.js");

/** Each case: the kernel, its launch (gkc run's flags), the memory it races on, whether it should race. */
const CASES = [
  ["reduce_racy", "shared", true, 1, 64, ["x=iota(64)", "out=zeros(1)"]],
  ["reduce_ok", "shared", false, 1, 64, ["x=iota(64)", "out=zeros(1)"]],
  ["stencil_racy", "shared", true, 2, 64, ["x=iota(128)", "out=zeros(128)"]],
  ["stencil_ok", "shared", false, 2, 64, ["x=iota(128)", "out=zeros(128)"]],
  ["warp_racy", "shared", true, 1, 32, ["x=iota(32)", "out=zeros(1)"]],
  ["warp_ok", "shared", false, 1, 32, ["x=iota(32)", "out=zeros(1)"]],
  ["histogram_racy", "global", true, 2, 64, ["data=[1, 2, 1, 3, 1, 2, 1, 3]", "bins=zeros(4)"]],
  ["histogram_ok", "global", false, 2, 64, ["data=[1, 2, 1, 3, 1, 2, 1, 3]", "bins=zeros(4)"]],
  ["blocks_racy", "global", true, 4, 32, ["out=zeros(1)"]],
  ["blocks_ok", "global", false, 4, 32, ["out=zeros(1)"]],
  ["handoff", "global", false, 4, 32, ["data=zeros(1)", "flag=zeros(4)"]],
  ["handoff_unfenced", "global", true, 4, 32, ["data=zeros(1)", "flag=zeros(4)"]],
  ["handoff_block_fence", "global", true, 4, 32, ["data=zeros(1)", "flag=zeros(4)"]],
];

/** The histogram's data must cover every thread: 128 values, bins 0..3. */
function fix(args, threads) {
  return args.map((a) => (a.startsWith("data=[") ? `data=[${Array.from({ length: threads }, (_, i) => [1, 2, 1, 3][i % 4]).join(", ")}]` : a));
}

function gkcArgs(kernel, grid, block, args, device) {
  return [GKC, "run", ...device, FILE, "--kernel", kernel, "--grid", String(grid), "--block", String(block), ...fix(args, grid * block).flatMap((a) => ["--arg", a])];
}

function sanitizer() {
  const home = process.env.CUDA_HOME ?? "/usr/local/cuda";
  for (const p of [join(home, "bin", "compute-sanitizer"), join(home, "compute-sanitizer", "compute-sanitizer")]) if (existsSync(p)) return p;
  const r = spawnSync("compute-sanitizer", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? "compute-sanitizer" : undefined;
}

/** The simulator's verdict: "race (line a / line b)", "clean", or the error it stopped with. */
function simulated(kernel, grid, block, args) {
  const r = spawnSync(process.execPath, gkcArgs(kernel, grid, block, args, ["--check-races"]), { encoding: "utf8" });
  if (r.status === 0) return { race: false, text: "clean" };
  const m = /error GK8040: data race on (\S+ \S+?):.* at (line \d+, column \d+), and .* at (line \d+, column \d+)/.exec(r.stderr);
  if (m) return { race: true, text: `race on ${m[1]} (${m[2].replace(", column ", ":")} / ${m[3].replace(", column ", ":")})` };
  return { race: false, text: `error: ${r.stderr.split("\n").find((l) => /GK\d{4}/.test(l)) ?? r.stderr.slice(-200)}` };
}

/** racecheck's verdict: its hazard summary ("RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)"). */
function racechecked(tool, kernel, grid, block, args) {
  const argv = ["--tool", "racecheck", "--target-processes", "all", process.execPath, ...gkcArgs(kernel, grid, block, args, ["--device", "cuda"])];
  const r = spawnSync(tool, argv, { encoding: "utf8", env: { ...process.env, GK_ISOLATION: "in-process" } });
  const out = `${r.stdout}\n${r.stderr}`;
  const s = /RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)/.exec(out);
  if (!s) return { race: undefined, text: `no summary (exit ${r.status}): ${out.trim().split("\n").slice(-2).join(" | ")}` };
  const hazards = Number(s[1]);
  return { race: hazards > 0, text: hazards > 0 ? `${hazards} hazards (${s[2]} errors, ${s[3]} warnings)` : "clean" };
}

export async function benchRacecheck() {
  const gpu = await findGpu();
  if (!("device" in gpu)) return skip(`no GPU: ${gpu.reason}`);
  const tool = sanitizer();
  if (!tool) return skip("no compute-sanitizer (set CUDA_HOME or put it on PATH)");
  const rows = CASES.map(([kernel, memory, racy, grid, block, args]) => {
    const sim = simulated(kernel, grid, block, args);
    const rc = racechecked(tool, kernel, grid, block, args);
    const agree = memory === "global" ? (sim.race === racy ? "simulator only (racecheck sees shared memory)" : "SIMULATOR WRONG") : rc.race === sim.race && sim.race === racy ? "yes" : "NO";
    return { kernel, memory, racy, racecheck: rc.text, simulator: sim.text, agree };
  });
  console.log(table(`racecheck (${gpu.device.name}) and gk's simulator`, ["case", "memory", "racy", "racecheck", "simulator (--check-races)", "agree"], rows.map((r) => [r.kernel, r.memory, r.racy ? "yes" : "no", r.racecheck, r.simulator, r.agree])));
  console.log(`wrote ${writeResult("racecheck", { device: gpu.device.name, rows })}`);
  return rows;
}

function skip(reason) {
  console.log(`\nracecheck comparison: skipped (${reason})`);
  writeResult("racecheck", { skipped: reason });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchRacecheck();

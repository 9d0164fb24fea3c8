// Start-up time of the gkc command: each command as a fresh process, side by side with
// `node -e 0` (the floor: starting Node itself) in one run. The commands run in rounds, one
// of each per round, so that the machine's load at any moment weighs on all of them alike;
// the median of the rounds is reported, with its ratio to `node -e 0`. The target is
// `gkc check` within 3x of `node -e 0`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, median, table, writeResult } from "./lib.mjs";

const GKC = join(ROOT, "bin", "gkc.js");
const EXAMPLE = "examples/saxpy.gk";
const TS_EXAMPLE = "examples/saxpy.ts";
const TARGET_RATIO = 3;
/** A kernel cache that keeps the TypeScript example's lowering between runs, and one emptied before each. */
const WARM_CACHE = mkdtempSync(join(tmpdir(), "gk-bench-startup-"));
const COLD_CACHE = join(WARM_CACHE, "cold");

export const COMMANDS = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "gkc --version", args: [GKC, "--version"] },
  { name: `gkc check ${EXAMPLE}`, args: [GKC, "check", EXAMPLE] },
  { name: `gkc cuda ${EXAMPLE}`, args: [GKC, "cuda", EXAMPLE] },
  { name: `gkc run ${EXAMPLE} --device cpu`, args: [GKC, "run", EXAMPLE, "--device", "cpu"] },
  // A TypeScript kernel file: its lowering cached by content (no TypeScript loaded), and not (TypeScript loaded and run).
  { name: `gkc check ${TS_EXAMPLE} (lowering cached)`, args: [GKC, "check", TS_EXAMPLE], env: { GK_CACHE_DIR: WARM_CACHE } },
  { name: `gkc check ${TS_EXAMPLE} (cold: TypeScript loaded)`, args: [GKC, "check", TS_EXAMPLE], env: { GK_CACHE_DIR: COLD_CACHE }, before: () => rmSync(COLD_CACHE, { recursive: true, force: true }) },
];

/** One run of a command: its wall time in ms. A command that fails stops the benchmark. */
function timeOnce(cmd) {
  cmd.before?.();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, cmd.args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...cmd.env } });
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`${cmd.name}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd.name} exited with ${r.status}:\n${r.stderr}`);
  return ms;
}

export async function benchStartup(rounds = Number(process.env.GK_BENCH_ROUNDS ?? 15)) {
  for (const c of COMMANDS) timeOnce(c); // warm-up: the OS file cache
  const times = COMMANDS.map(() => []);
  for (let i = 0; i < rounds; i++) COMMANDS.forEach((c, j) => times[j].push(timeOnce(c)));
  const floor = median(times[0]);
  const rows = COMMANDS.map((c, j) => ({ command: c.name, medianMs: median(times[j]), minMs: Math.min(...times[j]), ratio: median(times[j]) / floor }));
  console.log(
    table(`Start-up, ms (a fresh process each, median of ${rounds} rounds)`, ["command", "median", "min", "x node -e 0"], rows.map((r) => [r.command, r.medianMs, r.minMs, r.ratio.toFixed(2)])),
  );
  const check = rows.find((r) => r.command.startsWith("gkc check"));
  console.log(`gkc check: ${check.ratio.toFixed(2)}x node -e 0 (target: within ${TARGET_RATIO}x): ${check.ratio <= TARGET_RATIO ? "met" : "NOT met"}`);
  console.log(`wrote ${writeResult("startup", { rounds, example: EXAMPLE, targetRatio: TARGET_RATIO, rows })}`);
  rmSync(WARM_CACHE, { recursive: true, force: true });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();

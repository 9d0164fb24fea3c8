// Start-up time, each command a fresh process, side by side with `node -e 0` (the floor:
// starting Node itself) in one run. The commands run in rounds, one of each per round, so
// that the machine's load at any moment weighs on all of them alike; the median of the rounds
// is reported, in CPU seconds (user + sys, from /usr/bin/time where it is installed: a loaded
// machine stretches wall time, not the work done) and in wall time, with its ratio to
// `node -e 0`. Two groups, each with its own `node -e 0`:
//
//   gkc      the command line: target `gkc check` within 3x of `node -e 0`
//   library  `import "gk"` from a project (target within 3x of `node -e 0`), a program of two
//            .gk kernels run on the simulator through `node --import gk/register` against
//            the same program through compile() (target within 1.3x), and tsx running a file
//            that only imports gk, beside tsx running an empty one
//
//   node bench/startup.mjs [gkc|library]      GK_BENCH_ROUNDS=15 by default
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, barChart, median, table, writeResult } from "./lib.mjs";

const GKC = join(ROOT, "bin", "gkc.js");
const EXAMPLE = "examples/saxpy.gk";
const TS_EXAMPLE = "examples/saxpy.ts";
const TARGET_RATIO = 3;
const REGISTER_TARGET = 1.3;
const TIME = "/usr/bin/time";
const work = mkdtempSync(join(tmpdir(), "gk-bench-startup-"));
/** A kernel cache that keeps the TypeScript example's lowering between runs, and one emptied before each. */
const WARM_CACHE = join(work, "warm");
const COLD_CACHE = join(work, "cold");

/** A project that depends on gk (node_modules/gk is this repository) with a program of two .gk kernels, written three ways. */
const PROJECT = join(work, "project");
function makeProject() {
  mkdirSync(join(PROJECT, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(PROJECT, "node_modules", "gk"), "dir");
  writeFileSync(join(PROJECT, "package.json"), JSON.stringify({ name: "startup-bench", type: "module", private: true }));
  for (const f of ["saxpy.gk", "reduce.gk"]) copyFileSync(join(ROOT, "examples", f), join(PROJECT, f));
  const run = (saxpy, blockSum) => `const n = 1000;
const x = Float32Array.from({ length: n }, (_, i) => i);
const { out } = await ${saxpy}({ grid: 4, block: 256 }, { n, alpha: 2, x, y: new Float32Array(n), out: new Float32Array(n) });
const { total } = await ${blockSum}({ grid: 4, block: 256 }, { n, x: out, partial: new Float32Array(4), total: new Float32Array(1) });
if (total[0] !== 999000) throw new Error("wrong sum: " + total[0]);
`;
  writeFileSync(join(PROJECT, "imported.mjs"), `import { saxpy } from "./saxpy.gk";\nimport { block_sum } from "./reduce.gk";\n${run("saxpy", "block_sum")}`);
  writeFileSync(
    join(PROJECT, "compiled.mjs"),
    `import { compile } from "gk";\nconst a = await compile("saxpy.gk", { device: "cpu" });\nconst b = await compile("reduce.gk", { device: "cpu" });\n${run("a.saxpy", "b.block_sum")}await a.close();\nawait b.close();\n`,
  );
  writeFileSync(join(PROJECT, "empty.ts"), "export {};\n");
  writeFileSync(join(PROJECT, "only-import.ts"), `import { compile } from "gk";\nconst f: typeof compile = compile;\nvoid f;\n`);
}

const GROUPS = {
  gkc: [
    { name: "node -e 0", args: ["-e", "0"] },
    { name: "gkc --version", args: [GKC, "--version"] },
    { name: `gkc check ${EXAMPLE}`, args: [GKC, "check", EXAMPLE], target: TARGET_RATIO },
    { name: `gkc cuda ${EXAMPLE}`, args: [GKC, "cuda", EXAMPLE] },
    { name: `gkc run ${EXAMPLE} --device cpu`, args: [GKC, "run", EXAMPLE, "--device", "cpu"] },
    // A TypeScript kernel file: its lowering cached by content (no TypeScript loaded), and not (TypeScript loaded and run).
    { name: `gkc check ${TS_EXAMPLE} (lowering cached)`, args: [GKC, "check", TS_EXAMPLE], env: { GK_CACHE_DIR: WARM_CACHE } },
    { name: `gkc check ${TS_EXAMPLE} (cold: TypeScript loaded)`, args: [GKC, "check", TS_EXAMPLE], env: { GK_CACHE_DIR: COLD_CACHE }, before: () => rmSync(COLD_CACHE, { recursive: true, force: true }) },
  ],
  library: [
    { name: "node -e 0", args: ["-e", "0"], cwd: PROJECT },
    { name: `node -e "await import('gk')"`, args: ["--input-type=module", "-e", "await import('gk')"], cwd: PROJECT, target: TARGET_RATIO },
    { name: "two .gk kernels through compile()", args: ["compiled.mjs"], cwd: PROJECT, id: "compiled" },
    { name: "the same, node --import gk/register", args: ["--import", "gk/register", "imported.mjs"], cwd: PROJECT, env: { GK_DEVICE: "cpu" }, against: "compiled", target: REGISTER_TARGET },
    { name: "tsx: an empty file (tsx's own start-up)", args: [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "empty.ts"], cwd: PROJECT },
    { name: "tsx: a file that imports gk", args: [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "only-import.ts"], cwd: PROJECT },
  ],
};

/** One run of a command: its wall and CPU (user + sys) seconds. A command that fails stops the benchmark. */
function timeOnce(cmd) {
  cmd.before?.();
  const cpuFile = join(work, "cpu.txt");
  const timed = existsSync(TIME);
  const [exe, args] = timed ? [TIME, ["-f", "%U %S", "-o", cpuFile, process.execPath, ...cmd.args]] : [process.execPath, cmd.args];
  const t0 = performance.now();
  const r = spawnSync(exe, args, { cwd: cmd.cwd ?? ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", GK_CACHE_DIR: join(work, "cache"), ...cmd.env } });
  const wall = (performance.now() - t0) / 1000;
  if (r.error) throw new Error(`${cmd.name}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd.name} exited with ${r.status}:\n${r.stderr}`);
  const cpu = timed ? readFileSync(cpuFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number).reduce((a, b) => a + b, 0) : NaN;
  return { wall, cpu };
}

function benchGroup(name, commands, rounds) {
  for (const c of commands) timeOnce(c); // warm-up: the OS file cache, the kernel cache
  const runs = commands.map(() => []);
  for (let i = 0; i < rounds; i++) commands.forEach((c, j) => runs[j].push(timeOnce(c)));
  const floor = median(runs[0].map((r) => r.cpu));
  const floorWall = median(runs[0].map((r) => r.wall));
  const rows = commands.map((c, j) => {
    const cpu = median(runs[j].map((r) => r.cpu));
    const wall = median(runs[j].map((r) => r.wall));
    const base = c.against ? median(runs[commands.findIndex((d) => d.id === c.against)].map((r) => r.cpu)) : floor;
    return { command: c.name, cpuS: cpu, wallS: wall, minCpuS: Math.min(...runs[j].map((r) => r.cpu)), ratio: cpu / floor, wallRatio: wall / floorWall, ...(c.target ? { target: c.target, against: c.against ? commands.find((d) => d.id === c.against).name : "node -e 0", targetRatio: cpu / base } : {}) };
  });
  console.log(
    table(
      `Start-up (${name}), seconds, a fresh process each, median of ${rounds} rounds`,
      ["command", "CPU s", "min CPU", "wall s", "x node -e 0 (CPU)", "x node -e 0 (wall)"],
      rows.map((r) => [r.command, r.cpuS, r.minCpuS, r.wallS, r.ratio.toFixed(2), r.wallRatio.toFixed(2)]),
    ),
  );
  for (const r of rows.filter((r) => r.target)) {
    console.log(`${r.command}: ${r.targetRatio.toFixed(2)}x ${r.against} in CPU time (target: within ${r.target}x): ${r.targetRatio <= r.target ? "met" : "NOT met"}`);
  }
  return rows;
}

export async function benchStartup(rounds = Number(process.env.GK_BENCH_ROUNDS ?? 15), only = undefined) {
  makeProject();
  const result = { rounds, cpu: existsSync(TIME) ? "user+sys, /usr/bin/time" : "unmeasured (no /usr/bin/time)", groups: {} };
  try {
    for (const [name, commands] of Object.entries(GROUPS)) if (!only || only === name) result.groups[name] = benchGroup(name, commands, rounds);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const bars = Object.entries(result.groups).flatMap(([g, rows]) => rows.map((r) => ({ group: g, label: r.command, value: Number.isNaN(r.cpuS) ? r.wallS : r.cpuS })));
  const chart = barChart({ title: `Start-up, ${Number.isNaN(bars[0]?.value) ? "wall" : "CPU"} seconds (median of ${rounds})`, unit: "s", bars });
  console.log(`wrote ${writeResult("startup", result, chart)}`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup(undefined, process.argv[2]);

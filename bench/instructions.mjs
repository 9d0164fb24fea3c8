// Instructions, not milliseconds: the front end (parse + check + fold of every .gk example)
// and a few simulator runs, counted by valgrind's callgrind, so that two versions of the
// compiler compare on a loaded machine where wall-clock times do not. Node runs single-
// threaded with fixed seeds (--single-threaded --predictable --hash-seed --random-seed); the
// JIT and the garbage collector still vary a little, so two runs of one build differ by up to
// about 2% (measured: 0.6% on the front end, 2% on the simulator): compare within that.
//
//   node bench/instructions.mjs [--dist DIR]
// DIR: compiled JavaScript, default dist/; inside the repository, so that it finds node_modules
// (an older commit's: npx tsc -p tsconfig.build.json --outDir bench/results/dist-old).
//
// Three runs under callgrind: "startup" only imports the compiler; "frontend" and "sim"
// import it and then do their work; each figure below is its run less the startup run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./lib.mjs";

const NODE_FLAGS = ["--single-threaded", "--predictable", "--hash-seed=1", "--random-seed=1", "--max-semi-space-size=64"];
const argAfter = (flag) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dist = resolve(argAfter("--dist") ?? join(ROOT, "dist"));
const phase = argAfter("--phase");

async function compiler() {
  const { frontEnd } = await import(pathToFileURL(join(dist, "pipeline.js")).href);
  const { compileKernel, runKernel } = await import(pathToFileURL(join(dist, "runtime/sim/index.js")).href);
  return { frontEnd, compileKernel, runKernel };
}

function checked(frontEnd, name) {
  const fe = frontEnd(join(ROOT, "examples", name));
  if (!fe.ir) throw new Error(`${name} does not check`);
  return fe;
}

/** The work of one phase, in this process (run under callgrind by the outer script). */
async function runPhase(name) {
  const { frontEnd, compileKernel, runKernel } = await compiler();
  if (name === "startup") return;
  if (name === "frontend") {
    for (const f of readdirSync(join(ROOT, "examples")).filter((x) => x.endsWith(".gk")).sort()) checked(frontEnd, f);
    return;
  }
  if (name !== "sim") throw new Error(`unknown phase ${name}`);
  const run = (file, kernel, grid, block, args) => {
    const fe = checked(frontEnd, file);
    runKernel(compileKernel(fe.ir, kernel, fe.sources), { grid, block }, args);
  };
  const n = 1 << 14;
  run("saxpy.gk", "saxpy", [n / 256, 1, 1], [256, 1, 1], [n, 2.5, Float32Array.from({ length: n }, (_, i) => i * 0.5), Float32Array.from({ length: n }, (_, i) => 1 - i), new Float32Array(n)]);
  const m = 64;
  const A = Float32Array.from({ length: m * m }, (_, i) => (i % 17) / 16);
  const B = Float32Array.from({ length: m * m }, (_, i) => (i % 13) / 12);
  run("matmul.gk", "matmul", [m / 16, m / 16, 1], [16, 16, 1], [A, B, new Float32Array(m * m), m, m, m]);
  const r = 1 << 14;
  const data = Float32Array.from({ length: r }, (_, i) => i % 7);
  run("reduce.gk", "block_sum", [r / 256, 1, 1], [256, 1, 1], [r, data, new Float32Array(r / 256), new Float32Array(1)]);
  run("warp_reduce.gk", "block_sum", [r / 256, 1, 1], [256, 1, 1], [r, data, new Float32Array(r / 256), new Float32Array(1)]);
}

function countInstructions(name) {
  const script = join(ROOT, "bench", "instructions.mjs");
  const r = spawnSync("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, ...NODE_FLAGS, script, "--phase", name, "--dist", dist], { encoding: "utf8" });
  if (r.error) throw new Error(`valgrind could not start (${r.error.message}); install valgrind to run this bench`);
  const m = /Collected\s*:\s*(\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`the ${name} run failed (exit ${r.status}):\n${r.stderr.split("\n").slice(-20).join("\n")}`);
  return Number(m[1]);
}

if (phase) await runPhase(phase);
else {
  const startup = countInstructions("startup");
  const frontend = countInstructions("frontend");
  const sim = countInstructions("sim");
  const fmt = (n) => n.toLocaleString("en-US").padStart(16);
  console.log(`instructions (callgrind), compiler in ${dist}`);
  console.log(`  startup (import the compiler)          ${fmt(startup)}`);
  console.log(`  front end, every .gk example           ${fmt(frontend - startup)}`);
  console.log(`  simulator: saxpy, matmul, 2 reductions ${fmt(sim - startup)}`);
}

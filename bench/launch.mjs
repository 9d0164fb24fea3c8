// The whole cost of a launch on a GPU, split into its parts, for saxpy from 2^10 to 2^26
// elements: one-shot (a gpu_launcher process per launch, like cLean's ~50 ms per launch),
// a persistent session (buffers resident on the GPU), and the TypeScript API; with CuPy's
// RawKernel measured in the same run as the reference (6.6 us async / 11.9 us with a sync
// on an H100 in DESIGN.md); then the targets of GPU-resident arrays through the public API,
// in each isolation, beside CuPy (launch_targets.mjs).
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { compile } from "../dist/runtime/api.js";
import { buildModule } from "../dist/build/build.js";
import { LauncherSession, launchOnce } from "../dist/runtime/launcher.js";
import { benchTargets } from "./launch_targets.mjs";
import { barChart, findGpu, ROOT, median, table, writeResult } from "./lib.mjs";

const SIZES = (process.env.GK_BENCH_SIZES ?? "10,14,18,22,24,26").split(",").map((e) => 2 ** Number(e));

async function timed(fn) {
  const t0 = performance.now();
  const r = await fn();
  return { r, ms: performance.now() - t0 };
}

// The floor under a session's round trip: 200 bytes to `cat` and back through pipes, timed like
// the launches (30 trips after 30 warm-ups, median), in microseconds.
async function pipeBaselineUs() {
  const child = spawn("cat", [], { stdio: ["pipe", "pipe", "ignore"] });
  let waiting;
  child.stdout.on("data", () => waiting?.());
  const msg = Buffer.alloc(200, 0x61);
  const once = () => new Promise((r) => {
    waiting = r;
    child.stdin.write(msg);
  });
  for (let i = 0; i < 30; i++) await once();
  const trips = [];
  for (let i = 0; i < 30; i++) trips.push((await timed(once)).ms * 1000);
  child.stdin.end();
  return median(trips);
}

function cupyRows(sizes) {
  try {
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "cupy_saxpy.py"), ...sizes.map(String)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return JSON.parse(out);
  } catch (e) {
    return { error: String(e.message ?? e).split("\n")[0] };
  }
}

export async function benchLaunch() {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\nLaunch costs: skipped (no GPU: ${gpu.reason})`);
    writeResult("launch", { skipped: gpu.reason });
    return;
  }
  const device = gpu.device;
  const fe = frontEnd(join(ROOT, "examples", "saxpy.gk"));
  const built = await buildModule(fe.ir, fe.sources, { arch: device.arch });
  const symbol = built.symbols.get("saxpy");
  const session = new LauncherSession();
  const startup = await timed(() => session.device());
  const module = await session.loadModule(built.cubin);
  const mod = await compile(join(ROOT, "examples", "saxpy.gk"), { device: "cuda" });
  await mod.saxpy({ grid: 1, block: 256 }, { n: 1, alpha: 1, x: [1], y: [1], out: new Float32Array(1) });

  const pipeUs = await pipeBaselineUs();
  const oneShot = [];
  const resident = [];
  for (const n of SIZES) {
    const x = Float32Array.from({ length: n }, (_, i) => i % 1024);
    const y = new Float32Array(n).fill(1);
    const grid = [Math.ceil(n / 256), 1, 1];
    const block = [256, 1, 1];
    const args = (out) => [
      { kind: "scalar", type: "i32", value: n },
      { kind: "scalar", type: "f32", value: 2.5 },
      { kind: "array", elem: "f32", data: x, copyBack: false },
      { kind: "array", elem: "f32", data: y, copyBack: false },
      out,
    ];
    // One-shot: a process per launch.
    const shots = [];
    for (let i = 0; i < 3; i++) {
      const { r, ms } = await timed(() => launchOnce({ module: built.cubin, kernel: symbol, grid, block, args: args({ kind: "array", elem: "f32", length: n, copyBack: true }) }));
      shots.push({ wall: ms, t: r.timing });
    }
    shots.sort((a, b) => a.wall - b.wall);
    const s = shots[1];
    oneShot.push({ n, wallMs: s.wall, processMs: s.wall - s.t.totalMs, initMs: s.t.initMs, moduleLoadMs: s.t.moduleLoadMs, allocMs: s.t.allocMs, h2dMs: s.t.h2dMs, kernelMs: s.t.kernelMs, d2hMs: s.t.d2hMs });

    // Session: a full run (upload, launch, download), then launches on resident buffers.
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push((await timed(() => session.run({ module: built.cubin, kernel: symbol, grid, block, args: args({ kind: "array", elem: "f32", length: n, copyBack: true }) }))).ms);
    const bx = await session.upload(x);
    const by = await session.upload(y);
    const bo = await session.alloc("f32", n);
    const launchArgs = [
      { kind: "scalar", type: "i32", value: n },
      { kind: "scalar", type: "f32", value: 2.5 },
      { kind: "buffer", buffer: bx },
      { kind: "buffer", buffer: by },
      { kind: "buffer", buffer: bo },
    ];
    const trips = [];
    for (let i = 0; i < 30; i++) trips.push((await timed(() => session.launch({ module, kernel: symbol, grid, block, args: launchArgs }))).ms);
    const rep = await session.launch({ module, kernel: symbol, grid, block, args: launchArgs, repeat: 20 });
    await session.free(bx);
    await session.free(by);
    await session.free(bo);
    // The TypeScript API, typed arrays in and out.
    const api = [];
    for (let i = 0; i < 5; i++) {
      const out = new Float32Array(n);
      api.push((await timed(() => mod.saxpy({ grid: grid[0], block: 256 }, { n, alpha: 2.5, x, y, out }))).ms);
    }
    resident.push({
      n,
      sessionRunMs: median(runs),
      launchRoundTripUs: median(trips) * 1000,
      kernelUs: rep.kernelMedianMs * 1000,
      gbps: (12 * n) / (rep.kernelMedianMs / 1000) / 1e9,
      apiMs: median(api),
    });
  }
  await session.close();
  await mod.close();
  const cupy = cupyRows(SIZES);
  const cupyBy = new Map((cupy.rows ?? []).map((r) => [r.n, r]));

  console.log(`\nLaunch costs on ${device.name} (${device.arch}); session start-up (spawn + CUDA context): ${startup.ms.toFixed(1)} ms; pipe ping-pong with cat (the floor under a round trip): ${pipeUs.toFixed(1)} us`);
  console.log(
    table(
      "One-shot: a gpu_launcher process per launch, ms (process = spawn, JSON, exit)",
      ["elements", "wall", "process", "context", "module load", "alloc", "host->device", "kernel", "device->host"],
      oneShot.map((r) => [r.n, r.wallMs, r.processMs, r.initMs, r.moduleLoadMs, r.allocMs, r.h2dMs, r.kernelMs, r.d2hMs]),
    ),
  );
  console.log(
    table(
      "Persistent session and API (same GPU, same run), with CuPy RawKernel as reference",
      ["elements", "session run ms", "API call ms", "launch round trip us", "kernel us", "GB/s", "CuPy async us", "CuPy sync us", "CuPy GB/s"],
      resident.map((r) => {
        const c = cupyBy.get(r.n);
        return [r.n, r.sessionRunMs, r.apiMs, r.launchRoundTripUs, r.kernelUs, r.gbps, c ? c.async_launch_us : "-", c ? c.sync_launch_us_median : "-", c ? c.gbps : "-"];
      }),
    ),
  );
  if (cupy.error) console.log(`CuPy not measured: ${cupy.error}`);
  const targets = await benchTargets(device);
  const chart = barChart({
    title: `Launch round trip on ${device.name} (${device.arch}), us: gk's session against CuPy's synchronized launch`,
    unit: "us",
    log: true,
    bars: resident.flatMap((r) => {
      const c = cupyBy.get(r.n);
      return [
        { group: `${r.n} elements`, label: "gk launch round trip", value: r.launchRoundTripUs, series: "gk" },
        { group: `${r.n} elements`, label: "CuPy launch + sync", value: c ? c.sync_launch_us_median : NaN, series: "CuPy" },
        { group: `${r.n} elements`, label: "kernel", value: r.kernelUs, series: "kernel" },
      ];
    }),
  });
  console.log(`wrote ${writeResult("launch", { device: device.name, arch: device.arch, sessionStartupMs: startup.ms, pipePingPongUs: pipeUs, oneShot, resident, cupy, targets }, chart)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLaunch();

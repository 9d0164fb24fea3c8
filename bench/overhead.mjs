// gk's own cost per launch, without a GPU: the same public API calls as the launch targets
// (bench/launch_targets.mjs), on the fake CUDA driver of the tests
// (test/runtime/launcher/fake-driver/fake_libcuda.cpp), whose kernels run inside
// cuLaunchKernel and whose queries answer at once. What is left is gk's overhead: argument
// checks, packing, the Node-API calls or the frames to the launcher, the waits. Split into
// steps, each timed alone (microseconds per call, the median of several rounds):
//
//   in-process: addon.launch (a packed launch block: Node-API + C++ + the fake driver),
//               addon.poll (an idle queue), engine.launch (the JS packing above it),
//               the API's queued launch (argument checks and all), gpu.sync() when idle,
//               launch + sync round trip
//   process:    the API's queued launch, launch + sync round trip, and a pipe ping-pong with
//               `cat` (the floor under any round trip through pipes)
//
// Needs g++ (to build the fake driver) and nvcc (the module is built as for a GPU); says
// why it is skipped otherwise. `node bench/run.mjs overhead`; GK_BENCH_ROUNDS rounds
// (default 7). Regressions in gk's per-launch cost show here, on any machine.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, barChart, fmt, median, saxpy1K, table, writeResult } from "./lib.mjs";

const ROUNDS = Number(process.env.GK_BENCH_ROUNDS ?? 7);

/**
 * Per-call microseconds of `step`, `n` calls a round: the fastest round's wall time, and the
 * median round's CPU time of this process (user + system). The fastest round is the one the
 * rest of the machine disturbed least: on a shared machine that is gk's own cost.
 */
async function perCall(n, step) {
  for (let i = 0; i < n; i++) await step(); // warm
  const cpu = [];
  const wall = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await step();
    wall.push(((performance.now() - t0) * 1000) / n);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / n);
  }
  return { cpu: median(cpu), wall: Math.min(...wall) };
}

/** As perCall, for a step that returns no promise (not awaited: no microtask is counted). */
function perCallSync(n, step) {
  for (let i = 0; i < n; i++) step();
  const cpu = [];
  const wall = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) step();
    wall.push(((performance.now() - t0) * 1000) / n);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / n);
  }
  return { cpu: median(cpu), wall: Math.min(...wall) };
}

/** Round trips (launch + sync), each timed alone: the lowest of the rounds' median wall times, and this process's CPU time per trip. */
async function roundTrips(n, trip) {
  for (let i = 0; i < n; i++) await trip();
  const medians = [];
  const c0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    const wall = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await trip();
      wall.push((performance.now() - t0) * 1000);
    }
    medians.push(median(wall));
  }
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / (n * ROUNDS), wall: Math.min(...medians) };
}

async function pipeFloorUs() {
  const child = spawn("cat", [], { stdio: ["pipe", "pipe", "ignore"] });
  let waiting;
  child.stdout.on("data", () => waiting?.());
  const msg = Buffer.alloc(200, 0x61);
  const once = () =>
    new Promise((r) => {
      waiting = r;
      child.stdin.write(msg);
    });
  const { wall } = await roundTrips(200, once);
  child.stdin.end();
  return wall;
}

async function measure(api, isolation) {
  const gpu = await api.openDevice({ device: "cuda", isolation });
  try {
    const { mod, args, cfg } = await saxpy1K(gpu);
    const { out } = args;
    const row = { isolation };
    row.apiLaunchUs = await perCall(5000, () => mod.saxpy(cfg, args));
    await gpu.sync();
    row.syncIdleUs = await perCall(5000, () => gpu.sync());
    row.roundTripUs = await roundTrips(1000, async () => {
      await mod.saxpy(cfg, args);
      await gpu.sync();
    });
    if ((await out.read())[3] !== 2.5 * 3 + 1) throw new Error("the fake driver's saxpy gave a wrong result");
    if (isolation === "in-process") Object.assign(row, await lowerSteps(api, gpu, out));
    return row;
  } finally {
    await gpu.close();
  }
}

/** The steps under the API, in-process: the engine's packing, and the addon's calls alone. */
async function lowerSteps(api, gpu, out) {
  const { buildModule } = await import("../dist/build/build.js");
  const { frontEnd } = await import("../dist/pipeline.js");
  const { loadAddon } = await import("../dist/runtime/device/addon.js");
  const engine = gpu.engine;
  const fe = frontEnd(join(ROOT, "examples", "saxpy.gk"));
  const built = await buildModule(fe.ir, fe.sources, { arch: engine.info.arch });
  const kernel = await engine.kernel(built.cubin, built.symbols.get("saxpy"), "saxpy");
  const mem = out.store.mem;
  let seq = 1_000_000;
  const launch = () => ({
    kernel,
    grid: [4, 1, 1],
    block: [256, 1, 1],
    args: [
      { kind: "scalar", type: "i32", value: 1024 },
      { kind: "scalar", type: "f32", value: 2.5 },
      { kind: "memory", mem },
      { kind: "memory", mem },
      { kind: "memory", mem },
    ],
    queue: 0,
    seq: seq++,
    timing: false,
  });
  const engineLaunchUs = perCallSync(5000, () => engine.launch(launch()));
  await gpu.sync();
  // The addon alone: one launch block, packed once.
  const { addon } = loadAddon();
  const block = new Uint8Array(48 + 8 * 5);
  const w = new Uint32Array(block.buffer);
  w.set([4, 1, 1, 256, 1, 1, 0, 0, 0, 0, 5], 0);
  const view = new DataView(block.buffer);
  view.setInt32(48, 1024, true);
  view.setFloat32(56, 2.5, true);
  for (const at of [64, 72, 80]) {
    view.setUint32(at, mem.handle % 2 ** 32, true);
    view.setUint32(at + 4, Math.floor(mem.handle / 2 ** 32), true);
  }
  const handle = kernel.handle;
  const raw = rawAddon(addon, handle, block, w);
  const addonLaunchUs = raw ? perCallSync(5000, () => raw.launch(seq++)) : undefined;
  await gpu.sync();
  const addonPollUs = raw ? perCallSync(5000, () => raw.poll()) : undefined;
  return { engineLaunchUs, addonLaunchUs, addonPollUs };
}

/** The addon's launch and poll calls, as native.ts makes them (undefined if their shape is unknown here). */
function rawAddon(addon, handle, block, words) {
  if (typeof addon.launch !== "function" || typeof addon.poll !== "function") return undefined;
  return {
    launch: (seq) => {
      words[8] = seq;
      addon.launch(0, handle, block);
    },
    poll: () => addon.poll(0, 0, 0),
  };
}

export async function benchOverhead() {
  let dir;
  try {
    try {
      execFileSync("nvcc", ["--version"], { stdio: "ignore" });
    } catch {
      if (!process.env.GK_NVCC) throw new Error("nvcc not found (the module is built as for a GPU)");
    }
    dir = mkdtempSync(join(tmpdir(), "gk-overhead-"));
    const lib = join(dir, "libcuda.so.1");
    execFileSync("g++", ["-O2", "-std=c++17", "-shared", "-fPIC", "-o", lib, join(ROOT, "test", "runtime", "launcher", "fake-driver", "fake_libcuda.cpp")]);
    process.env.GK_LIBCUDA = lib;
    process.env.GK_CACHE_DIR ??= join(dir, "cache");
  } catch (e) {
    console.log(`\ngk's launch overhead on the fake driver: skipped (${String(e.message ?? e).split("\n")[0]})`);
    writeResult("overhead", { skipped: String(e.message ?? e) });
    return;
  }
  try {
    const api = await import("../dist/index.js");
    const { loadAddon } = await import("../dist/runtime/device/addon.js");
    const rows = [];
    const skipped = [];
    const a = loadAddon();
    if ("addon" in a) rows.push(await measure(api, "in-process"));
    else skipped.push(`in-process not measured: ${a.why}`);
    rows.push(await measure(api, "process"));
    const pipeUs = await pipeFloorUs();
    const cell = (v) => (v === undefined ? "-" : `${fmt(v.wall)} (${fmt(v.cpu)})`);
    const steps = [
      ["addon.launch (packed block: Node-API + C++ + fake driver)", "addonLaunchUs"],
      ["addon.poll (idle queue)", "addonPollUs"],
      ["engine.launch (JS packing + addon.launch)", "engineLaunchUs"],
      ["API queued launch (checks + launching + engine)", "apiLaunchUs"],
      ["API sync when idle", "syncIdleUs"],
      ["API launch + sync round trip", "roundTripUs"],
    ];
    const by = Object.fromEntries(rows.map((r) => [r.isolation, r]));
    console.log(
      table(
        `gk's own cost per call on the fake CUDA driver (no GPU work): wall us, fastest of ${ROUNDS} rounds (this process's CPU us); pipe ping-pong with cat: ${pipeUs.toFixed(1)} us`,
        ["step", "in-process", "process"],
        steps.map(([what, key]) => [what, cell(by["in-process"]?.[key]), cell(by.process?.[key])]),
      ),
    );
    for (const s of skipped) console.log(s);
    const chart = barChart({
      title: `gk's own cost per call on the fake CUDA driver, wall us (fastest of ${ROUNDS} rounds)`,
      unit: "us",
      log: true,
      bars: steps.flatMap(([what, key]) => rows.map((r) => ({ group: what, label: r.isolation, value: r[key]?.wall ?? NaN, series: r.isolation }))),
    });
    console.log(`wrote ${writeResult("overhead", { rounds: ROUNDS, pipePingPongUs: pipeUs, rows, skipped }, chart)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchOverhead();

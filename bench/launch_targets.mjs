// The launch targets of GPU-resident arrays (README, "From TypeScript"), measured through the
// public API in each isolation (in-process: the addon; process: gpu_launcher --serve), side
// by side with CuPy in the same run (bench/peers/cupy_targets.py):
//   launch + sync round trip, warm, 1K elements    target <= 15 us in-process, <= 40 us process
//   async launch (queue only)                      target <= 8 us
//   host<->device 256 MB, pageable and pinned      target >= 90% of CuPy's, each
//   500-step 2-D stencil 4096^2 f32, ping-pong     target <= 1.1x CuPy's total
// Every row says which mode it was measured in. Process isolation is measured twice: as it
// runs where the addon is built (its host helpers: answers awaited on Node's thread, the shared
// file mapped and copied by threads) and without them (hostIo: false), as where it is not.
// Called by bench/launch.mjs.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { openDevice } from "../dist/index.js";
import { loadAddon } from "../dist/runtime/device/addon.js";
import { ROOT, median, saxpy1K, table } from "./lib.mjs";

function cupy() {
  try {
    return JSON.parse(execFileSync("python3", [join(ROOT, "bench", "peers", "cupy_targets.py")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 }));
  } catch (e) {
    return { error: String(e.message ?? e).split("\n")[0] };
  }
}

async function measure(isolation, mode = isolation, launcher = undefined) {
  const gpu = await openDevice({ device: "cuda", isolation, ...(launcher && { launcher }) });
  try {
    const { mod: saxpy, args, cfg } = await saxpy1K(gpu);
    const stencil = await gpu.compile(join(ROOT, "examples", "stencil.gk"));
    // Warm as a program that launches in a loop is: V8 optimizes the launch path only after a
    // few thousand calls (with 200 the median round trip in-process was 18-26 us, not 12).
    for (let i = 0; i < 5000; i++) {
      await saxpy.saxpy(cfg, args);
      await gpu.sync();
    }
    const trips = [];
    for (let i = 0; i < 1000; i++) {
      const t0 = performance.now();
      await saxpy.saxpy(cfg, args);
      await gpu.sync();
      trips.push((performance.now() - t0) * 1000);
    }
    for (let i = 0; i < 5000; i++) await saxpy.saxpy(cfg, args); // warm the queued path's code too
    await gpu.sync();
    // The median of 10 batches of 500 queued launches (each batch's time over 500), a wait
    // between batches: one stall of the machine moves one batch, not the figure.
    const batches = [];
    for (let b = 0; b < 10; b++) {
      const t0 = performance.now();
      for (let i = 0; i < 500; i++) await saxpy.saxpy(cfg, args);
      batches.push(((performance.now() - t0) * 1000) / 500);
      await gpu.sync();
    }
    const asyncUs = median(batches);

    const big = 64 << 20; // 256 MB of f32
    const dev = await gpu.zeros("f32", big);
    const pageable = new Float32Array(big).fill(1);
    const pinned = gpu.hostArray("f32", big);
    pinned.fill(1);
    const pinnedReal = isolation === "in-process";
    const gbps = async (f) => {
      const times = [];
      for (let i = 0; i < 6; i++) {
        await gpu.sync();
        const s = performance.now();
        await f();
        times.push(performance.now() - s);
      }
      return (big * 4) / (median(times.slice(1)) / 1000) / 1e9;
    };
    const transfers = {
      h2d_pageable_gbps: await gbps(() => dev.write(pageable)),
      d2h_pageable_gbps: await gbps(() => dev.read(pageable)),
      h2d_pinned_gbps: pinnedReal ? await gbps(() => dev.write(pinned)) : undefined,
      d2h_pinned_gbps: pinnedReal ? await gbps(() => dev.read(pinned)) : undefined,
    };
    dev.free();

    const side = 4096;
    let a = await gpu.array(Float32Array.from({ length: side * side }, (_, i) => (i * 2654435761 % 1000) / 1000));
    let b = await gpu.zeros("f32", side * side);
    const sc = { grid: [side / 16, side / 16], block: [16, 16] };
    for (let i = 0; i < 10; i++) {
      await stencil.stencil(sc, { W: side, H: side, src: a, dst: b });
      [a, b] = [b, a];
    }
    await gpu.sync();
    const s0 = performance.now();
    for (let i = 0; i < 500; i++) {
      await stencil.stencil(sc, { W: side, H: side, src: a, dst: b });
      [a, b] = [b, a];
    }
    await gpu.sync();
    const stencilMs = performance.now() - s0;
    return { isolation, mode, roundTripUs: median(trips), asyncUs, ...transfers, stencilMs };
  } finally {
    await gpu.close();
  }
}

export async function benchTargets(device) {
  const modes = [];
  const skipped = [];
  const addon = loadAddon();
  if ("addon" in addon) modes.push(["in-process"], ["process"]);
  else skipped.push(`in-process, and process with the addon's host helpers, not measured: ${addon.why}`);
  modes.push(["process", "process, no host helpers", { hostIo: false }]);
  const rows = [];
  for (const m of modes) rows.push(await measure(...m));
  const c = cupy();
  const has = (v) => typeof v === "number";
  const line = (measure, mode, gk, peer, target, ok) => [measure, mode, has(gk) ? gk : "-", has(peer) ? peer : "-", target, has(gk) && has(peer) ? (ok(gk, peer) ? "yes" : "NO") : "-"];
  const out = [];
  for (const r of rows) {
    const limit = r.isolation === "in-process" ? 15 : 40;
    out.push(line("launch + sync round trip, 1K, us", r.mode, r.roundTripUs, c.round_trip_us, `<= ${limit} us`, (g) => g <= limit));
  }
  for (const r of rows) out.push(line("async launch (queue only), us", r.mode, r.asyncUs, c.async_launch_us, "<= 8 us", (g) => g <= 8));
  for (const [key, what] of [["h2d_pageable_gbps", "host->device 256 MB, pageable, GB/s"], ["h2d_pinned_gbps", "host->device 256 MB, pinned, GB/s"], ["d2h_pageable_gbps", "device->host 256 MB, pageable, GB/s"], ["d2h_pinned_gbps", "device->host 256 MB, pinned, GB/s"]]) {
    for (const r of rows) out.push(line(what, r.isolation === "process" && key.includes("pinned") ? `${r.mode} (no pinned host arrays)` : r.mode, r[key], c[key], ">= 90% of CuPy", (g, p) => g >= 0.9 * p));
  }
  for (const r of rows) out.push(line("500-step stencil 4096^2 f32, total ms", r.mode, r.stencilMs, c.stencil_500_ms, "<= 1.1x CuPy", (g, p) => g <= 1.1 * p));
  console.log(table(`Launch targets on ${device.name} (${device.arch}), each row in the mode it names, CuPy ${c.cupy ?? "-"} in the same run`, ["measure", "mode", "gk", "CuPy", "target", "met"], out));
  for (const s of skipped) console.log(s);
  if (c.error) console.log(`CuPy not measured: ${c.error}`);
  return { rows, cupy: c, skipped };
}

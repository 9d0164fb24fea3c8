// GPU arrays' fill() and copyFrom() on the device (launcher/device.cpp) against CuPy's in the
// same run (bench/peers/cupy_arrays.py), on 1 GiB arrays, in each isolation: a fill is one
// cuMemsetD32 where the element repeats every 4 bytes or fewer (f32, an f32x4 of equal lanes),
// else an upload of its first 64 KiB and copies on the device, doubling (f64, an f32x4 of
// different lanes); a copy is cuMemcpyDtoDAsync, an overlapping one two of them through a
// temporary. Each figure: the
// median of 5 rounds of 10 back-to-back operations and one wait, per operation; GB/s counts the
// bytes written (a copy: read and written). Needs a GPU and `npm run build`; CuPy for its side.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { openDevice } from "../dist/index.js";
import { barChart, findGpu, median, ROOT, table, writeResult } from "./lib.mjs";

/** Each array's bytes: 1 GiB, or $GK_ARRAYS_BENCH_BYTES (a check of the bench on the fake driver, not a measurement). */
const BYTES = Number(process.env.GK_ARRAYS_BENCH_BYTES ?? 2 ** 30);

function cupy() {
  try {
    return JSON.parse(execFileSync("python3", [join(ROOT, "bench", "peers", "cupy_arrays.py")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 }));
  } catch (e) {
    return { error: String(e.message ?? e).split("\n")[0] };
  }
}

async function timed(gpu, op) {
  await op();
  await gpu.sync();
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) await op();
    await gpu.sync();
    rounds.push((performance.now() - t0) / 10);
  }
  return median(rounds);
}

async function measure(isolation) {
  const gpu = await openDevice({ device: "cuda", isolation });
  try {
    const f32 = await gpu.zeros("f32", BYTES / 4);
    const f64 = await gpu.zeros("f64", BYTES / 8);
    const quads = await gpu.zeros("f32x4", BYTES / 16);
    const other = await gpu.zeros("f32", BYTES / 4);
    const ms = {
      "fill f32": await timed(gpu, () => f32.fill(3)),
      "fill f64": await timed(gpu, () => f64.fill(Math.PI)),
      "fill f32x4, equal lanes": await timed(gpu, () => quads.fill([7, 7, 7, 7])),
      "fill f32x4, different lanes": await timed(gpu, () => quads.fill([1, 2, 3, 4])),
      "copy f32": await timed(gpu, () => other.copyFrom(f32)),
      "copy f32, overlapping (shift by one)": await timed(gpu, () => f32.view(1).copyFrom(f32, { length: BYTES / 4 - 1 })),
    };
    return ms;
  } finally {
    await gpu.close();
  }
}

export async function benchArrays() {
  const found = await findGpu();
  if (!("device" in found)) {
    console.log(`\nGPU arrays' fill and copy: skipped (no GPU: ${found.reason})`);
    writeResult("arrays", { skipped: found.reason });
    return;
  }
  const gk = {};
  for (const isolation of ["in-process", "process"]) {
    try {
      gk[isolation] = await measure(isolation);
    } catch (e) {
      gk[isolation] = { error: String(e.message ?? e).split("\n")[0] };
    }
  }
  const peer = cupy();
  const cases = Object.keys(gk["in-process"].error ? gk.process : gk["in-process"]);
  const gbs = (name, ms) => (typeof ms === "number" ? ((name.startsWith("copy") ? 2 : 1) * BYTES) / (ms * 1e6) : NaN);
  const rows = cases.map((c) => {
    const [a, b, p] = [gk["in-process"][c], gk.process[c], peer.ms?.[c]];
    return [c, a ?? "n/a", gbs(c, a), b ?? "n/a", gbs(c, b), p ?? "n/a", gbs(c, p), typeof a === "number" && typeof p === "number" ? p / a : "n/a"];
  });
  const size = `${BYTES / 2 ** 20} MiB`;
  const shown = rows.map((r) => r.map((x) => (typeof x === "number" && !Number.isFinite(x) ? "n/a" : x)));
  console.log(table(`GPU arrays' fill and copy on ${size}, ${found.device.name} (ms per operation; GB/s written, a copy's read and written)`, ["case", "in-process ms", "GB/s", "process ms", "GB/s", "CuPy ms", "GB/s", "CuPy/gk"], shown));
  if (peer.error) console.log(`CuPy's side failed: ${peer.error}`);
  const bars = rows.flatMap((r) => [
    { group: r[0], label: "gk in-process", value: r[2], series: "gk in-process" },
    { group: r[0], label: "gk process", value: r[4], series: "gk process" },
    { group: r[0], label: "CuPy", value: r[6], series: "CuPy" },
  ]);
  console.log(`wrote ${writeResult("arrays", { device: found.device.name, bytes: BYTES, gk, cupy: peer }, barChart({ title: `GPU arrays' fill and copy, ${size}, ${found.device.name}`, unit: "GB/s", bars }))}`);
}


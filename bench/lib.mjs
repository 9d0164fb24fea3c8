// Shared helpers for the benchmarks: timing, tables, and writing results as JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const RESULTS = join(ROOT, "bench", "results");

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs fn `n` times (after `warm` warm-ups) and returns each run's milliseconds. */
export async function timeRuns(fn, n, warm = 1) {
  for (let i = 0; i < warm; i++) await fn();
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export function fmt(x, digits = 3) {
  if (typeof x !== "number") return String(x);
  if (x === 0) return "0";
  if (Number.isInteger(x) || Math.abs(x) >= 1000) return Math.round(x).toLocaleString("en-US");
  return x.toPrecision(digits);
}

/** An aligned text table; `rows` are arrays of cells. */
export function table(title, header, rows) {
  const cells = [header, ...rows].map((r) => r.map((c) => (typeof c === "number" ? fmt(c) : String(c))));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [`\n${title}`, line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export function writeResult(name, data) {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, date: new Date().toISOString(), node: process.version, ...data }, null, 2));
  return path;
}

/** examples/saxpy.gk's `saxpy` on 1K-element GPU arrays of `gpu` (the launch benches' kernel): its module, arguments and launch shape. */
export async function saxpy1K(gpu) {
  const mod = await gpu.compile(join(ROOT, "examples", "saxpy.gk"));
  const n = 1024;
  const x = await gpu.array(Float32Array.from({ length: n }, (_, i) => i));
  const y = await gpu.array(new Float32Array(n).fill(1));
  const out = await gpu.zeros("f32", n);
  return { mod, args: { n, alpha: 2.5, x, y, out }, cfg: { grid: 4, block: 256 } };
}

/**
 * The GPU the benchmarks measure, or why there is none: a device opened as gk opens one (in a
 * launcher process, so that this process holds no CUDA context of its own), then closed.
 */
export async function findGpu() {
  const { openDevice } = await import("../dist/runtime/device/device.js");
  const d = await openDevice({ isolation: "process" });
  await d.close();
  return d.info ? { device: d.info } : { reason: d.reason };
}

// Shared helpers for the benchmarks: timing, tables, writing results as JSON, and a bar
// chart of them as a self-contained SVG file beside the JSON (no dependency, no script).
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

/**
 * Writes bench/results/<name>.json, and beside it <name>.svg: `chart` (barChart's SVG), or
 * where a bench measured nothing (`data.skipped` or `data.error`) a chart that says why, so
 * that no chart of an earlier run is left to be read as this one's. Returns both paths.
 */
export function writeResult(name, data, chart) {
  mkdirSync(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, date: new Date().toISOString(), node: process.version, ...data }, null, 2));
  const svg = join(RESULTS, `${name}.svg`);
  writeFileSync(svg, chart ?? barChart({ title: `${name}: not measured`, unit: "", bars: [], note: String(data.skipped ?? data.error ?? "no figures") }));
  return `${path}, ${svg}`;
}

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];

/**
 * A horizontal bar chart as a self-contained SVG document: one bar per entry, labelled with
 * its value; entries with a `group` are drawn under that group's heading, and entries with a
 * `series` get one colour per series (with a legend). A value that is not a finite number
 * (a skipped measure) is drawn as "n/a". `log: true` scales the bars logarithmically (for
 * values spanning decades); `note` is a line under the title.
 *
 * @param {{ title: string, unit: string, log?: boolean, note?: string, bars: { label: string, value: number, group?: string, series?: string }[] }} spec
 */
export function barChart({ title, unit, log = false, note, bars }) {
  const labelW = Math.min(520, 12 + 6.6 * Math.max(10, ...bars.map((b) => String(b.label).length)));
  const plotW = 420;
  const barH = 18;
  const gap = 6;
  const series = [...new Set(bars.map((b) => b.series).filter((s) => s !== undefined))];
  const colour = (b) => PALETTE[Math.max(0, series.indexOf(b.series)) % PALETTE.length];
  const finite = bars.map((b) => b.value).filter((v) => Number.isFinite(v) && (!log || v > 0));
  const max = Math.max(...finite, 0);
  const min = log ? Math.min(...finite) : 0;
  const scale = (v) => {
    if (!Number.isFinite(v) || max <= 0) return 0;
    if (!log) return (v / max) * plotW;
    const lo = Math.log10(min) - 0.3;
    return Math.max(2, ((Math.log10(v) - lo) / (Math.log10(max) - lo)) * plotW);
  };
  const parts = [];
  let y = 44;
  let group;
  for (const b of bars) {
    if (b.group !== undefined && b.group !== group) {
      group = b.group;
      y += 8;
      parts.push(`<text x="8" y="${y + 12}" font-weight="bold">${esc(group)}</text>`);
      y += barH + gap;
    }
    const w = scale(b.value);
    const value = Number.isFinite(b.value) ? `${fmt(b.value)} ${unit}` : "n/a";
    parts.push(
      `<text x="${labelW - 8}" y="${y + 13}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${colour(b)}"><title>${esc(b.label)}: ${esc(value)}</title></rect>`,
      `<text x="${(labelW + w + 4).toFixed(1)}" y="${y + 13}">${esc(value)}</text>`,
    );
    y += barH + gap;
  }
  if (series.length > 1) {
    y += 6;
    series.forEach((s, i) => {
      const x = 8 + i * 160;
      parts.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/>`, `<text x="${x + 16}" y="${y + 11}">${esc(s)}</text>`);
    });
    y += 20;
  }
  const width = labelW + plotW + 120;
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${height}" viewBox="0 0 ${Math.ceil(width)} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    log || note ? `<text x="8" y="38" fill="#666">${esc([note, log ? "logarithmic scale" : undefined].filter(Boolean).join("; "))}</text>` : "",
    ...parts,
    "</svg>",
    "",
  ].join("\n");
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

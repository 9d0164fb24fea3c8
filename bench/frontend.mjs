// Front-end time per example: parse + check + lower (the fold pass), cold (first in this
// process) and warm (median of 50).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { ROOT, barChart, median, table, writeResult } from "./lib.mjs";

export async function benchFrontend() {
  const dir = join(ROOT, "examples");
  const rows = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".gk")).sort()) {
    const path = join(dir, f);
    const lines = readFileSync(path, "utf8").split("\n").length;
    const t0 = performance.now();
    const first = frontEnd(path);
    const cold = performance.now() - t0;
    if (!first.ir) throw new Error(`${f} does not check`);
    const runs = [];
    for (let i = 0; i < 50; i++) {
      const s = performance.now();
      frontEnd(path);
      runs.push(performance.now() - s);
    }
    rows.push({ example: f, lines, coldMs: cold, warmMs: median(runs) });
  }
  console.log(table("Front end (parse + check + fold), ms", ["example", "lines", "cold", "warm median of 50"], rows.map((r) => [r.example, r.lines, r.coldMs, r.warmMs])));
  const chart = barChart({
    title: "Front end (parse + check + fold), ms",
    unit: "ms",
    bars: rows.flatMap((r) => [{ group: r.example, label: "cold", value: r.coldMs, series: "cold" }, { group: r.example, label: "warm (median of 50)", value: r.warmMs, series: "warm" }]),
  });
  console.log(`wrote ${writeResult("frontend", { rows }, chart)}`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFrontend();

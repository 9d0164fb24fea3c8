// Building per example: front end, CUDA generation, nvcc (PTX + cubin, into an empty
// cache), and a cache hit (median of 20, in-process; the reference: nvcc takes about 0.4 s
// for a small kernel, a hit should cost a few milliseconds at most).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emitCuda } from "../dist/codegen/cuda/index.js";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { ROOT, barChart, median, table, writeResult } from "./lib.mjs";

export async function benchBuild(arch = "sm_90") {
  const root = mkdtempSync(join(tmpdir(), "gk-bench-cache-"));
  const rows = [];
  try {
    for (const f of readdirSync(join(ROOT, "examples")).filter((x) => x.endsWith(".gk")).sort()) {
      const path = join(ROOT, "examples", f);
      const t0 = performance.now();
      const fe = frontEnd(path);
      const feMs = performance.now() - t0;
      const t1 = performance.now();
      emitCuda(fe.ir, { sources: fe.sources });
      const cudaMs = performance.now() - t1;
      const cold = await buildModule(fe.ir, fe.sources, { arch, cacheRoot: root });
      if (cold.hit) throw new Error("expected a cold build");
      const hits = [];
      for (let i = 0; i < 20; i++) {
        const s = performance.now();
        const h = await buildModule(fe.ir, fe.sources, { arch, cacheRoot: root });
        hits.push(performance.now() - s);
        if (!h.hit) throw new Error("expected a cache hit");
      }
      rows.push({ example: f, frontEndMs: feMs, codegenMs: cudaMs, nvccMs: cold.timings.nvccMs, hitMs: median(hits) });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(table(`Build (${arch}), ms`, ["example", "front end", "CUDA codegen", "nvcc ptx+cubin", "cache hit (median of 20)"], rows.map((r) => [r.example, r.frontEndMs, r.codegenMs, r.nvccMs, r.hitMs])));
  const parts = [["front end", "frontEndMs"], ["CUDA codegen", "codegenMs"], ["nvcc ptx+cubin", "nvccMs"], ["cache hit", "hitMs"]];
  const chart = barChart({ title: `Build (${arch}), ms`, unit: "ms", log: true, bars: rows.flatMap((r) => parts.map(([series, k]) => ({ group: r.example, label: series, value: r[k], series }))) });
  console.log(`wrote ${writeResult("build", { arch, rows }, chart)}`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBuild();

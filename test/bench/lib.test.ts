/** bench/lib.mjs's chart writer: a self-contained SVG of bars, groups and series, beside each result's JSON. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a JavaScript module without declarations
import { barChart } from "../../bench/lib.mjs";

const chart = barChart as (spec: { title: string; unit: string; log?: boolean; note?: string; bars: { label: string; value: number; group?: string; series?: string }[] }) => string;

describe("barChart", () => {
  it("draws one bar per finite value, sized by value, labelled, grouped, one colour per series, with a legend", () => {
    const svg = chart({
      title: "Start-up <CPU> & wall",
      unit: "s",
      bars: [
        { group: "gkc", label: "node -e 0", value: 0.05, series: "floor" },
        { group: "gkc", label: "gkc check", value: 0.1, series: "gk" },
        { group: "library", label: "skipped", value: NaN, series: "gk" },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith("</svg>")).toBe(true);
    expect(svg).not.toMatch(/<script|href=/); // self-contained: nothing to fetch or run
    expect(svg).toContain("Start-up &lt;CPU&gt; &amp; wall");
    const widths = [...svg.matchAll(/<rect x="\d+(?:\.\d+)?" y="\d+" width="([\d.]+)" height="18" fill="(#\w+)"/g)].map((m) => [Number(m[1]), m[2]]);
    expect(widths).toHaveLength(3);
    expect(widths[1]![0]).toBeCloseTo(2 * (widths[0]![0] as number), 0);
    expect(widths[0]![1]).not.toBe(widths[1]![1]);
    expect(widths[2]![0]).toBe(0);
    expect(svg).toContain(">n/a<");
    expect(svg).toContain(">library<");
    expect(svg).toContain(">floor<"); // the legend
  });

  it("says why where nothing was measured", () => {
    expect(chart({ title: "kernels: not measured", unit: "", bars: [], note: "no GPU: no CUDA driver found" })).toContain("no GPU: no CUDA driver found");
  });
});

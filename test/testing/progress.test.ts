/** The progress lines of a long differential run (src/testing/progress.ts). */
import { describe, expect, it } from "vitest";
import { runProgress } from "../../src/testing/progress.js";

describe("runProgress", () => {
  it("writes where the run is at most every everyMs, and nothing before", () => {
    const lines: string[] = [];
    let clock = 0;
    const p = runProgress("differential", 100, {}, { everyMs: 30_000, write: (l) => lines.push(l), now: () => clock });
    for (let k = 1; k <= 100; k++) {
      clock += 1_000;
      p.step(k, k > 50 ? 1 : 0);
    }
    expect(lines).toEqual(["differential: 30 of 100 kernels, 0 mismatches, 30 s", "differential: 60 of 100 kernels, 1 mismatches, 60 s", "differential: 90 of 100 kernels, 1 mismatches, 90 s"]);
    const checked: string[] = [];
    const q = runProgress("differential (CI)", 10, { problems: "problems" }, { everyMs: 0, write: (l) => checked.push(l), now: () => 5_000 });
    q.step(3, 2);
    expect(checked).toEqual(["differential (CI): 3 of 10 kernels, 2 problems, 0 s"]);
  });
});

/** The status line of long work (src/runtime/progress.ts): shown after a while, throttled, cleared at the end; nothing without one. */
import { afterEach, describe, expect, it } from "vitest";
import { setStatusLine, startTask } from "../src/progress.js";

afterEach(() => {
  setStatusLine(undefined, {});
});

describe("a task's progress", () => {
  it("shows once the task has run `after` ms, at most every `every` ms, and is cleared when it ends", () => {
    const shown: (string | undefined)[] = [];
    setStatusLine((t) => shown.push(t));
    let clock = 0;
    let n = 0;
    const task = startTask(() => `step ${n}`, { after: 1000, every: 200, now: () => clock });
    for (; n < 30; n++, clock += 100) task.tick();
    task.end();
    // Ticks at 0, 100, ..., 2900 ms: shown at 1000, 1200, ..., 2800.
    expect(shown).toEqual([...[10, 12, 14, 16, 18, 20, 22, 24, 26, 28].map((i) => `step ${i}`), undefined]);
  });

  it("shows nothing, and clears nothing, without a status line or before `after`", () => {
    const shown: (string | undefined)[] = [];
    const task = startTask(() => "never");
    task.tick();
    task.end();
    setStatusLine((t) => shown.push(t));
    const quick = startTask(() => "quick", { after: 1000, now: () => 0 });
    quick.tick();
    quick.end();
    expect(shown).toEqual([]);
  });
});

/** A session's calls one at a time and in order (src/runtime/launcher/callQueue.ts). */
import { describe, expect, it } from "vitest";
import { CallQueue } from "../../../src/runtime/launcher/callQueue.js";

describe("CallQueue", () => {
  it("starts a call at once when none runs, and the next only when the running one releases", () => {
    const q = new CallQueue();
    const log: string[] = [];
    q.enqueue(() => log.push("a"));
    q.enqueue(() => log.push("b"));
    expect(log).toEqual(["a"]);
    q.release();
    expect(log).toEqual(["a", "b"]);
    q.release();
    q.enqueue(() => log.push("c"));
    expect(log).toEqual(["a", "b", "c"]);
  });

  it("starts 100,000 calls that release as they start, behind one call in flight, in order and without nesting", () => {
    const q = new CallQueue();
    let depth = 0;
    let deepest = 0;
    const order: number[] = [];
    q.enqueue(() => undefined); // in flight
    for (let i = 0; i < 100_000; i++) {
      q.enqueue(() => {
        depth++;
        deepest = Math.max(deepest, depth);
        order.push(i);
        q.release();
        depth--;
      });
    }
    q.release();
    expect(order.length).toBe(100_000);
    expect(order.every((v, i) => v === i)).toBe(true);
    expect(deepest).toBe(1);
    // Idle again: the next call starts at once.
    let ran = false;
    q.enqueue(() => (ran = true));
    expect(ran).toBe(true);
  });

  it("stops at a call that does not release at once, and goes on when it does", () => {
    const q = new CallQueue();
    const log: string[] = [];
    q.enqueue(() => undefined);
    q.enqueue(() => {
      log.push("quick");
      q.release();
    });
    q.enqueue(() => log.push("slow")); // releases later
    q.enqueue(() => {
      log.push("after");
      q.release();
    });
    q.release();
    expect(log).toEqual(["quick", "slow"]);
    q.release();
    expect(log).toEqual(["quick", "slow", "after"]);
  });
});

/**
 * The Fifo of src/runtime/launcher/frames.ts (the server's pending batches and the answers
 * read): items come out in the order they went in, across the compactions that keep shift()
 * cheap, however pushes and shifts interleave.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Fifo } from "../../../src/runtime/launcher/frames.js";

describe("Fifo", () => {
  it("gives items back in order, as an array's push and shift would", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constant(-1)), { maxLength: 40 }), (ops) => {
        const fifo = new Fifo<number>();
        const model: number[] = [];
        let next = 0;
        for (const op of ops) {
          if (op < 0) {
            // shift everything
            while (model.length > 0) expect(fifo.shift()).toBe(model.shift());
            expect(fifo.shift()).toBeUndefined();
          } else {
            for (let i = 0; i < op; i++) {
              fifo.push(next);
              model.push(next++);
            }
            const take = Math.floor(op / 2) + 1;
            for (let i = 0; i < take && model.length > 0; i++) expect(fifo.shift()).toBe(model.shift());
          }
          expect(fifo.length).toBe(model.length);
          expect(fifo.first()).toBe(model[0]);
        }
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * The calls of a launcher session (session.ts), run one at a time and in order: a call starts
 * when every call before it has released the queue. A queued launch releases as it starts, so
 * thousands of them can wait behind one call in flight (a sync, a read); they then start from
 * one loop, one stack level deep, and leave the queue in constant time each.
 */
export class CallQueue {
  private busy = false;
  /** Calls waiting to start, from `head` on. */
  private waiting: ((() => void) | undefined)[] = [];
  private head = 0;
  /** release()'s loop: releases not yet acted on, and whether the loop is running. */
  private releases = 0;
  private releasing = false;

  /** Runs `start` when every call before it has released: at once when none is running. */
  enqueue(start: () => void): void {
    if (this.busy) {
      this.waiting.push(start);
    } else {
      this.busy = true;
      start();
    }
  }

  /** The running call has finished: the next one starts (from the loop, when a release is running already). */
  release(): void {
    this.releases++;
    if (this.releasing) return;
    this.releasing = true;
    try {
      while (this.releases > 0) {
        this.releases--;
        const next = this.waiting[this.head];
        if (next === undefined) {
          this.busy = false;
          continue;
        }
        this.waiting[this.head++] = undefined;
        if (this.head === this.waiting.length) {
          this.waiting = [];
          this.head = 0;
        }
        next();
      }
    } finally {
      this.releasing = false;
    }
  }
}

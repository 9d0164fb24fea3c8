/**
 * Progress of long work (a simulation, an nvcc build, a differential run), shown on one
 * status line that rewrites itself: where a program set one (`gkc` on a terminal's stderr,
 * gk/testing), once a task has run for `after` ms (default 1 s), at most every `every` ms
 * (default 200), and cleared when the task ends. Without a status line a task costs a
 * comparison per tick.
 */

/** Shows `text` on the status line, replacing what it showed; undefined clears it. */
export type StatusLine = (text: string | undefined) => void;

let statusLine: StatusLine | undefined;
let defaultTiming: TaskTiming = {};

/**
 * Sets where progress is shown (undefined: nowhere), and, where given, when tasks show it
 * (tests: `{ after: 0, every: 0 }`, every tick); returns the status line set before.
 */
export function setStatusLine(line: StatusLine | undefined, timing?: TaskTiming): StatusLine | undefined {
  const before = statusLine;
  statusLine = line;
  if (timing) defaultTiming = timing;
  return before;
}

/** A status line on a terminal's stream (`\r`, the text, the rest of the line erased), or undefined for a stream that is no terminal. */
export function terminalStatusLine(stream: NodeJS.WriteStream): StatusLine | undefined {
  if (!stream.isTTY) return undefined;
  const width = () => Math.max(20, (stream.columns || 80) - 1);
  return (text) => {
    stream.write(text === undefined ? "\r\x1b[K" : `\r\x1b[K${text.length > width() ? `${text.slice(0, width() - 1)}…` : text}`);
  };
}

export interface Task {
  /** Says the task moved on; shows `describe()` when it is time. */
  tick(): void;
  /** Ends the task: clears what it showed. */
  end(): void;
}

export interface TaskTiming {
  readonly after?: number;
  readonly every?: number;
  /** The clock, in ms (tests give their own). */
  readonly now?: () => number;
}

const NO_TASK: Task = { tick() {}, end() {} };

/** A task whose progress `describe` words. */
export function startTask(describe: () => string, timing: TaskTiming = defaultTiming): Task {
  const line = statusLine;
  if (!line) return NO_TASK;
  const now = timing.now ?? (() => performance.now());
  const after = timing.after ?? 1000;
  const every = timing.every ?? 200;
  const start = now();
  let shown = -Infinity;
  return {
    tick() {
      const t = now();
      if (t - start < after || t - shown < every) return;
      shown = t;
      line(describe());
    },
    end() {
      if (shown > -Infinity) line(undefined);
    },
  };
}

/**
 * Shows `describe(seconds so far)` while `work` runs (an nvcc build): asynchronous work
 * ticks a task from a timer, which does not keep Node running.
 */
export async function showWhile<T>(describe: (seconds: number) => string, work: Promise<T>, timing: TaskTiming = defaultTiming): Promise<T> {
  if (!statusLine) return work;
  const now = timing.now ?? (() => performance.now());
  const start = now();
  const task = startTask(() => describe(Math.floor((now() - start) / 1000)), timing);
  const timer = setInterval(() => task.tick(), Math.max(10, Math.min(timing.every ?? 200, 200)));
  timer.unref();
  try {
    return await work;
  } finally {
    clearInterval(timer);
    task.end();
  }
}

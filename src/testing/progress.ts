/**
 * The progress of a long differential run (many kernels compared, or checked, built and
 * simulated): a line such as `differential: 120 of 1000 kernels, 0 mismatches, 45 s`, written
 * at most every `everyMs` (default 30 s) and not before, so a run that takes minutes says
 * where it is while a short one says nothing. The caller writes its own summary at the end.
 */
export interface RunProgress {
  /** `done` kernels of the run are done, with `problems` problems so far. */
  step(done: number, problems: number): void;
}

export interface RunProgressOptions {
  readonly everyMs?: number;
  /** Where the line goes (default console.log, which test runners show). */
  readonly write?: (line: string) => void;
  /** The clock, in ms (tests give their own). */
  readonly now?: () => number;
}

export function runProgress(label: string, total: number, what: { readonly items?: string; readonly problems?: string } = {}, opts: RunProgressOptions = {}): RunProgress {
  const now = opts.now ?? (() => performance.now());
  const write = opts.write ?? ((line: string) => console.log(line));
  const every = opts.everyMs ?? 30_000;
  const start = now();
  let last = start;
  return {
    step(done, problems) {
      const t = now();
      if (t - last < every) return;
      last = t;
      write(`${label}: ${done} of ${total} ${what.items ?? "kernels"}, ${problems} ${what.problems ?? "mismatches"}, ${Math.round((t - start) / 1000)} s`);
    },
  };
}

// Helpers the standard library's benches share (bench/stdlib.mjs, bench/stdlib_tune.mjs,
// bench/issue23.mjs): their inputs, the scan's reference and check, and kernel time through a
// stdlib module's kernelTime hook (CUDA events per launch).
import { median } from "./lib.mjs";

/** A well-mixed u32 of i (the inputs' element i). */
export const hash = (i) => Math.imul(i ^ (i >>> 13), 2654435761) >>> 0;

/** A typed array of n elements, element i = f(i) (a loop: TypedArray.from of a length is about ten times slower at 2^26). */
export function make(Type, n, f) {
  const a = new Type(n);
  for (let i = 0; i < n; i++) a[i] = f(i);
  return a;
}

/** The inclusive (or exclusive) sum of `x` as the kernel computes it for i32, or in f64 for f32. */
export function refScan(x, exclusive) {
  const out = new Float64Array(x.length);
  const int = x instanceof Int32Array;
  let acc = 0;
  for (let i = 0; i < x.length; i++) {
    const next = int ? (acc + x[i]) | 0 : acc + x[i];
    out[i] = exclusive ? acc : next;
    acc = next;
  }
  return out;
}

/** "ok", or what is wrong with the scan y against ref: bit for bit when `exact`, else within 1e-5 of the largest prefix. */
export function compareScan(y, ref, exact) {
  const scale = exact ? 0 : Math.max(1, ...[ref[0], ref[ref.length - 1]].map(Math.abs));
  for (let i = 0; i < ref.length; i++) {
    const bad = exact ? y[i] !== ref[i] : !(Math.abs(y[i] - ref[i]) <= 1e-5 * scale);
    if (bad) return `element ${i}: ${y[i]} (expected ${ref[i]})`;
  }
  return "ok";
}

/**
 * Kernel ms per call (median of `rounds` rounds of `reps` calls) of `run`, through `mod`'s
 * kernelTime hook: the calls of a round one after another, or with `queued` all made at once
 * (a call that waits for its result, as sum does, leaves the GPU idle between calls one after
 * another, and each kernel's start event is then recorded before the host has launched it).
 */
export async function timeKernel(gpu, mod, run, reps, rounds, queued = false) {
  let ms = 0;
  mod.kernelTime = (t) => {
    ms += t;
  };
  for (let i = 0; i < 2; i++) await run();
  await gpu.sync();
  const each = [];
  for (let r = 0; r < rounds; r++) {
    ms = 0;
    if (queued) await Promise.all(Array.from({ length: reps }, () => run()));
    else for (let i = 0; i < reps; i++) await run();
    await gpu.sync();
    each.push(ms / reps);
  }
  mod.kernelTime = undefined;
  return median(each);
}

/** Kernel ms per launch (median of `rounds` rounds of `reps`) of `launch(kernelTime)`, which queues one launch reporting its time. */
export async function timeLaunch(gpu, launch, reps, rounds) {
  for (let i = 0; i < 2; i++) await launch();
  await gpu.sync();
  const each = [];
  for (let r = 0; r < rounds; r++) {
    let ms = 0;
    for (let i = 0; i < reps; i++) await launch((t) => (ms += t));
    await gpu.sync();
    each.push(ms / reps);
  }
  return median(each);
}

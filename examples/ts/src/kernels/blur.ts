// A three-tap blur written in TypeScript: a constant table, a device function, a kernel.
// With noUncheckedIndexedAccess, TypeScript types every element read as possibly undefined,
// so reads are written x[i]!; gk reads the `!` as nothing.
import { deviceFn, f32, globalId, kernel, table, type Global, type i32, type ReadonlyGlobal } from "gk";

const TAPS = table(f32, [0.25, 0.5, 0.25]);

/** x[i], or 0 outside the array. */
const at = deviceFn((x: ReadonlyGlobal<f32>, n: i32, i: i32): f32 => (i < 0 || i >= n ? 0.0 : x[i]!));

export const blur = kernel((n: i32, x: ReadonlyGlobal<f32>, out: Global<f32>) => {
  const i = globalId.x;
  if (i < n) {
    out[i] = TAPS[0]! * at(x, n, i - 1) + TAPS[1]! * at(x, n, i) + TAPS[2]! * at(x, n, i + 1);
  }
});

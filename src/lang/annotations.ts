/**
 * gk's annotations spelled as TypeScript statements (spec/typescript.md): `unroll();` or
 * `unroll(4);` right before a loop is `@unroll` / `@unroll(4)`, and `flushToZero();` at the top
 * level of a file is `@flushToZero;`. gk reads them from the source. On the host,
 * flushToZero() runs when the file is loaded and does nothing there (the option is the
 * compiled module's); unroll() exists only in kernel bodies and throws (GK8019).
 */
import { GkRuntimeError } from "../runtime/errors.js";

/** `@unroll` (no count: fully) or `@unroll(n)` on the loop after it: nvcc's `#pragma unroll`. */
export function unroll(count?: number): void {
  void count;
  throw new GkRuntimeError("GK8019", "unroll() annotates a loop in a kernel body: it runs only on the device, and host code cannot call it");
}

/** `@flushToZero;`: the file's f32 operations flush subnormals to zero (nvcc -ftz=true). Nothing to do on the host. */
export function flushToZero(): void {}

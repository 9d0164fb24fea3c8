/**
 * gk's annotations spelled as TypeScript statements (spec/typescript.md): `unroll();` or
 * `unroll(4);` right before a loop is `@unroll` / `@unroll(4)`, `flushToZero();` at the top
 * level of a file is `@flushToZero;`, and `launchBounds(256, 2);` / `maxRegisters(64);` as the
 * first statement of a kernel's body are its `@launchBounds(256, 2)` / `@maxRegisters(64)`. gk
 * reads them from the source. On the host, flushToZero() runs when the file is loaded and does
 * nothing there (the option is the compiled module's); the others exist only in kernel bodies
 * and throw (GK8019).
 */
import { GkRuntimeError } from "../runtime/errors.js";

/** `@unroll` (no count: fully) or `@unroll(n)` on the loop after it: nvcc's `#pragma unroll`. */
export function unroll(count?: number): void {
  void count;
  throw new GkRuntimeError("GK8019", "unroll() annotates a loop in a kernel body: it runs only on the device, and host code cannot call it");
}

/** `@flushToZero;`: the file's f32 operations flush subnormals to zero (nvcc -ftz=true). Nothing to do on the host. */
export function flushToZero(): void {}

/** `@launchBounds(maxThreads, minBlocks)` on the kernel whose body it starts: CUDA's `__launch_bounds__` (spec/language.md, Launch bounds). */
export function launchBounds(maxThreads: number, minBlocks?: number): void {
  void maxThreads, void minBlocks;
  throw new GkRuntimeError("GK8019", "launchBounds() annotates a kernel in its body: it runs only on the device, and host code cannot call it");
}

/** `@maxRegisters(n)` on the kernel whose body it starts: CUDA's `__maxnreg__`. */
export function maxRegisters(n: number): void {
  void n;
  throw new GkRuntimeError("GK8019", "maxRegisters() annotates a kernel in its body: it runs only on the device, and host code cannot call it");
}

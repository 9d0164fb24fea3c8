/**
 * The aliasing rule of a launch (spec/language.md, Types): an array argument the kernel
 * may write shares no memory with any other array argument of the same launch. Two
 * TypedArrays share memory when they view overlapping bytes of one buffer (the same
 * array, a subarray of it, or another view of its ArrayBuffer); two GPU arrays share memory
 * when they cover overlapping elements of one array (the same array, or views of it:
 * `a.view(offset, length)`). One function for every
 * path that takes host arrays — the TypeScript API (api.ts), the simulator's argument
 * check (sim/args.ts) and gk/testing (testing/cpuGpu.ts) — each of which refuses the
 * launch, before anything runs, with its own error type.
 */
import type { Function, Param } from "../ir/nodes.js";

/** GPU arrays carry this brand (device/gpuArray.ts), so that this file, which the simulator loads, needs none of the device code. */
export const GPU_ARRAY: unique symbol = Symbol.for("gk.GpuArray");

interface GpuArrayLike {
  readonly [GPU_ARRAY]: true;
  describe(): string;
  /** The array it views; undefined for an array of its own. */
  readonly base: object | undefined;
  /** The array whose memory it covers (itself, or the array it views) and the bytes of it. */
  span(): { readonly root: object; readonly lo: number; readonly hi: number };
}

/** Whether two GPU arrays cover some of the same bytes (arrays of their own: only when they are one). */
function gpuOverlap(a: GpuArrayLike, b: GpuArrayLike): boolean {
  if (a === b) return true;
  if (a.base === undefined && b.base === undefined) return false; // the launch path's usual case, without a span
  const s = a.span();
  const t = b.span();
  return s.root === t.root && s.lo < t.hi && t.lo < s.hi;
}

function isGpuArray(x: unknown): x is GpuArrayLike {
  return typeof x === "object" && x !== null && (x as Partial<GpuArrayLike>)[GPU_ARRAY] === true;
}

export interface SharedMemory {
  /** The parameter the kernel may write. */
  readonly written: Param;
  /** The other parameter whose argument shares memory with it. */
  readonly other: Param;
  /** Both parameters, the bytes they share and what to do: "arguments 'out' (written by the kernel) and 'x' share memory ...". */
  readonly message: string;
}

function isWritten(p: Param): boolean {
  return p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly;
}

/** The bytes of the buffer that two views both cover, or undefined when they share none. */
function overlap(a: ArrayBufferView, b: ArrayBufferView): [number, number] | undefined {
  if (a.buffer !== b.buffer) return undefined;
  const lo = Math.max(a.byteOffset, b.byteOffset);
  const hi = Math.min(a.byteOffset + a.byteLength, b.byteOffset + b.byteLength);
  return lo < hi ? [lo, hi] : undefined;
}

/**
 * The first pair of arguments (in parameter order) that breaks the rule: a written array
 * parameter and another array parameter whose values share memory. `values` are the
 * arguments in parameter order; values that are not TypedArrays are left to the type checks.
 */
export function sharedMemory(fn: Function, values: readonly unknown[]): SharedMemory | undefined {
  for (let i = 0; i < fn.params.length; i++) {
    const written = fn.params[i]!;
    const a = values[i];
    if (!isWritten(written)) continue;
    if (isGpuArray(a)) {
      for (let j = 0; j < values.length; j++) {
        const b = values[j];
        if (j === i || !isGpuArray(b) || !gpuOverlap(a, b)) continue;
        const other = fn.params[j]!;
        const where = b === a ? `they are the same GPU array: ${a.describe()}` : `${a.describe()} and ${b.describe()} overlap`;
        return {
          written,
          other,
          message: `arguments '${written.name}' (written by the kernel) and '${other.name}' share memory (${where}); an array a kernel writes may share memory with no other argument of its launch: pass another GPU array, or views that do not overlap`,
        };
      }
      continue;
    }
    if (!ArrayBuffer.isView(a)) continue;
    for (let j = 0; j < fn.params.length; j++) {
      const other = fn.params[j]!;
      const b = values[j];
      if (j === i || other.kind !== "arrayVar" || !ArrayBuffer.isView(b)) continue;
      const bytes = overlap(a, b);
      if (!bytes) continue;
      const where = a === b ? "they are the same array" : `bytes ${bytes[0]} to ${bytes[1] - 1} of one ArrayBuffer`;
      return {
        written,
        other,
        message: `arguments '${written.name}' (written by the kernel) and '${other.name}' share memory (${where}); an array a kernel writes may share memory with no other argument of its launch: pass a copy (e.g. ${other.name}.slice())`,
      };
    }
  }
  return undefined;
}

/**
 * gk's limits: what a target's record says of them (`Limits`, one row per target: CUDA's in
 * src/codegen/cuda/target.ts), the rules that read a row (the launch shapes a GPU accepts, so
 * that the API, the simulator and the checker's `launch` statements refuse the same launches;
 * the shared memory of a block), and the limits that are the language's own (an array type's
 * sizes, the layout of dynamic shared memory). Each caller words its own message.
 */

/** The sizes of a grid or a block, [x, y, z]: what a launch statement holds, and what every engine, the simulator and the launcher take. */
export type Dim3 = readonly [number, number, number];

/**
 * The sizes a target's GPU accepts, one field per limit: a row of a target record
 * (src/ir/target.ts; CUDA's in src/codegen/cuda/target.ts). The checker refuses declarations
 * and launch statements past them, the API and the simulator launches past them, each reading
 * its device's target; each words its own message from these figures.
 */
export interface Limits {
  /** The largest grid on each axis, in blocks. */
  readonly grid: Dim3;
  /** The largest block on each axis, in threads. */
  readonly block: Dim3;
  /** The most threads of one block. */
  readonly blockThreads: number;
  /**
   * A kernel's fixed-size shared arrays, together, in bytes, that the target declares as such:
   * past it they lie in the kernel's dynamic shared memory (CUDA: nvcc refuses larger
   * `__shared__` arrays; src/ir/kernelMemory.ts, `liftedSharedLayout`), up to `sharedBytes`
   * (GK4008).
   */
  readonly staticSharedBytes: number;
  /**
   * The shared memory one block may use, static and dynamic together, in bytes: the most a
   * launch may give (GK5006 in the checker, GK8010 in the API and the simulator).
   */
  readonly sharedBytes: number;
  /** What `sharedBytes` is, in a message's words ("the H100's opt-in maximum"). */
  readonly sharedBytesWhat: string;
  /** A module's constant arrays, together, in bytes (GK4014). */
  readonly constantBytes: number;
  /** One thread's local arrays, one value, one constant table, in bytes (GK4009). */
  readonly localBytes: number;
  /** The most arguments a kernel takes; a vector or struct parameter counts one per scalar (GK4007). */
  readonly kernelArgs: number;
}

/** The largest size of one dimension of an array type (the language's: indices are i32). */
export const ARRAY_DIM_MAX = 0x7fffffff;

/**
 * Sizes of a grid or block as [x, y, z], or what is wrong with them for a target of these
 * `limits`: `count` (not 1 to 3 sizes), `size` (axis `axis` outside 1..`max`), or `threads`
 * (a block of more than `limits.blockThreads` threads).
 */
export type ShapeCheck =
  | { readonly ok: true; readonly dims: Dim3 }
  | { readonly ok: false; readonly why: "count" }
  | { readonly ok: false; readonly why: "size"; readonly axis: 0 | 1 | 2; readonly max: number; readonly got: unknown }
  | { readonly ok: false; readonly why: "threads"; readonly dims: Dim3; readonly threads: number };

export function checkShape(what: "grid" | "block", sizes: readonly unknown[], limits: Limits): ShapeCheck {
  if (sizes.length < 1 || sizes.length > 3) return { ok: false, why: "count" };
  const dims = [1, 1, 1];
  for (let i = 0; i < sizes.length; i++) {
    const n = sizes[i];
    const max = limits[what][i]!;
    const value = typeof n === "bigint" ? Number(n) : n;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) return { ok: false, why: "size", axis: i as 0 | 1 | 2, max, got: n };
    dims[i] = value;
  }
  const shape: Dim3 = [dims[0]!, dims[1]!, dims[2]!];
  const threads = shape[0] * shape[1] * shape[2];
  if (what === "block" && threads > limits.blockThreads) return { ok: false, why: "threads", dims: shape, threads };
  return { ok: true, dims: shape };
}

/**
 * Why a launch with `block` breaks its kernel's `@launchBounds(maxThreads, ...)` (a GPU refuses
 * it: the kernel was compiled for at most maxThreads threads per block), or undefined. The
 * checker's launch statements (GK5006), the simulator and the API (GK8010) say it alike.
 */
export function launchBoundsProblem(kernel: { readonly launchBounds?: { readonly maxThreads: number } }, block: Dim3): string | undefined {
  const max = kernel.launchBounds?.maxThreads;
  const threads = block[0] * block[1] * block[2];
  if (max === undefined || threads <= max) return undefined;
  return `the kernel is declared @launchBounds(${max}): its blocks have at most ${max} threads, but block [${block.join(", ")}] has ${threads}`;
}

// ---------------------------------------------------------------- shared memory at launch

/** Where each dynamic shared array starts, and each fixed-size one placed in dynamic shared memory: a multiple of this many bytes, so that 16-byte accesses of any of them are aligned. */
export const DYNAMIC_SHARED_ALIGN = 16;

/**
 * Where a kernel's dynamic shared arrays lie in its dynamic shared memory, for these lengths
 * (elements): widest elements first, then in declaration order (`order` lists the arrays'
 * positions in layout order), each starting at a multiple of DYNAMIC_SHARED_ALIGN bytes, so
 * that load4/store4 (and load8/store8) may move 16 bytes of any of them at once; an array's
 * end is rounded up to it, where the next one starts (at most 15 bytes of padding each).
 */
export function dynamicSharedLayout(elemBytes: readonly number[], lengths: readonly number[]): { offsets: number[]; bytes: number; order: number[] } {
  const order = elemBytes.map((_, i) => i).sort((a, b) => elemBytes[b]! - elemBytes[a]! || a - b);
  const offsets: number[] = new Array<number>(elemBytes.length).fill(0);
  let at = 0;
  order.forEach((i, k) => {
    offsets[i] = at;
    at += elemBytes[i]! * lengths[i]!;
    if (k < order.length - 1) at = Math.ceil(at / DYNAMIC_SHARED_ALIGN) * DYNAMIC_SHARED_ALIGN;
  });
  return { offsets, bytes: at, order };
}

/**
 * Whether a block's shared memory fits a target of these `limits`: `staticBytes` (the
 * kernel's fixed-size shared arrays) plus `dynamicBytes`; undefined when it does, else the
 * total. Above the static limit the launcher opts the kernel in (spec/launcher-protocol.md,
 * `sharedBytes`); on a GPU whose own maximum is lower than its target's, the launcher refuses
 * the launch with the GPU's figure (GK8010).
 */
export function sharedOverLimit(staticBytes: number, dynamicBytes: number, limits: Limits): number | undefined {
  const total = staticBytes + dynamicBytes;
  return total > limits.sharedBytes ? total : undefined;
}

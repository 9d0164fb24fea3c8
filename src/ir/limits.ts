/**
 * gk's limits, one place for each: the launch shapes a GPU accepts (the API, the simulator and
 * the checker's `launch` statements refuse the same launches), and the sizes of memory the
 * checker allows. Each caller words its own message from the facts here.
 */

/** The sizes of a grid or a block, [x, y, z]: what a launch statement holds, and what every engine, the simulator and the launcher take. */
export type Dim3 = readonly [number, number, number];

/** The largest grid and block on each axis, and the most threads of a block (CUDA's limits, every GPU gk targets). */
export const LAUNCH_LIMITS = {
  grid: [0x7fffffff, 65535, 65535],
  block: [1024, 1024, 64],
  blockThreads: 1024,
} as const;

/** CUDA's static shared memory per block without opting in to more, in bytes. */
export const SHARED_LIMIT_BYTES = 48 * 1024;

/** CUDA's constant memory per module (`__constant__`), for all the module's `constant` arrays together, in bytes. */
export const CONSTANT_LIMIT_BYTES = 64 * 1024;

/** CUDA's local memory per thread (one thread's local arrays, and a module's constant table), in bytes. */
export const LOCAL_ARRAY_LIMIT_BYTES = 512 * 1024;

/** The most arguments a kernel takes on the GPU (the launcher's limit); a vector or struct parameter counts one per scalar. */
export const KERNEL_ARGS_MAX = 1024;

/** The largest size of one dimension of an array type. */
export const ARRAY_DIM_MAX = 0x7fffffff;

/**
 * Sizes of a grid or block as [x, y, z], or what is wrong with them: `count` (not 1 to 3
 * sizes), `size` (axis `axis` outside 1..`max`), or `threads` (a block of more than
 * `LAUNCH_LIMITS.blockThreads` threads).
 */
export type ShapeCheck =
  | { readonly ok: true; readonly dims: Dim3 }
  | { readonly ok: false; readonly why: "count" }
  | { readonly ok: false; readonly why: "size"; readonly axis: 0 | 1 | 2; readonly max: number; readonly got: unknown }
  | { readonly ok: false; readonly why: "threads"; readonly dims: Dim3; readonly threads: number };

export function checkShape(what: "grid" | "block", sizes: readonly unknown[]): ShapeCheck {
  if (sizes.length < 1 || sizes.length > 3) return { ok: false, why: "count" };
  const dims = [1, 1, 1];
  for (let i = 0; i < sizes.length; i++) {
    const n = sizes[i];
    const max = LAUNCH_LIMITS[what][i]!;
    const value = typeof n === "bigint" ? Number(n) : n;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) return { ok: false, why: "size", axis: i as 0 | 1 | 2, max, got: n };
    dims[i] = value;
  }
  const shape: Dim3 = [dims[0]!, dims[1]!, dims[2]!];
  const threads = shape[0] * shape[1] * shape[2];
  if (what === "block" && threads > LAUNCH_LIMITS.blockThreads) return { ok: false, why: "threads", dims: shape, threads };
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

/**
 * The most shared memory one block may use, static and dynamic together, in bytes: the
 * H100's opt-in maximum (227 KiB). The simulator, the API and the checker's launch statements
 * refuse launches past it; on a GPU whose own maximum is lower, the launcher refuses them
 * with the GPU's figure (GK8010). Above SHARED_LIMIT_BYTES the launcher opts the kernel in
 * (spec/launcher-protocol.md, `sharedBytes`).
 */
export const SHARED_OPTIN_LIMIT_BYTES = 227 * 1024;

/** Alignment of the dynamic shared memory region (CUDA aligns `extern __shared__` storage to at least 16 bytes). */
export const DYNAMIC_SHARED_ALIGN = 16;

/**
 * Where a kernel's dynamic shared arrays lie in its dynamic shared memory, for these lengths
 * (elements): widest elements first, so that each array starts aligned to its element with no
 * padding, then in declaration order; `order` lists the arrays' positions in layout order.
 */
export function dynamicSharedLayout(elemBytes: readonly number[], lengths: readonly number[]): { offsets: number[]; bytes: number; order: number[] } {
  const order = elemBytes.map((_, i) => i).sort((a, b) => elemBytes[b]! - elemBytes[a]! || a - b);
  const offsets: number[] = new Array<number>(elemBytes.length).fill(0);
  let at = 0;
  for (const i of order) {
    offsets[i] = at;
    at += elemBytes[i]! * lengths[i]!;
  }
  return { offsets, bytes: at, order };
}

/**
 * Whether a block's shared memory fits: `staticBytes` (the kernel's fixed-size shared arrays)
 * plus `dynamicBytes`; undefined when it does, else the total.
 */
export function sharedOverLimit(staticBytes: number, dynamicBytes: number): number | undefined {
  const total = staticBytes + dynamicBytes;
  return total > SHARED_OPTIN_LIMIT_BYTES ? total : undefined;
}

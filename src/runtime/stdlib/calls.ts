/**
 * The standard library's device-wide algorithms as calls on GPU arrays (spec/stdlib.md, Host
 * calls): `const std = stdlib(gpu); await std.sum(a)`, `std.scan(a)`, `std.sort(keys)`, ...
 * The same on a GPU and on the simulator: each call launches gk/std kernels through the
 * device's own launch path (a module compiled once per device, modules.ts), on the device's
 * default queue, with GPU arrays and scalars only, so every launch is queued and
 * temporaries stay on the device. A call that returns an array returns as soon as its
 * launches are queued; one that returns a scalar (`sum`) reads it back.
 */
import type { GpuDevice } from "../device/device.js";
import type { GpuArray } from "../device/gpuArray.js";
import { describeValue } from "../device/gpuArray.js";
import { GkRuntimeError } from "../errors.js";
import { stdModule, type StdModule } from "./modules.js";

/** The element types the device-wide calls take (32- and 64-bit integers and floats). */
export type NumElem = "i32" | "u32" | "i64" | "u64" | "f32" | "f64";
export type FloatElem = "f32" | "f64";
export type IntElem = "i32" | "u32" | "i64" | "u64";
/** A scalar of an element type as JavaScript holds it. */
export type ScalarOf<E extends NumElem> = E extends "i64" | "u64" ? bigint : number;
/** The operators of gk/std/ops; AND, OR and XOR only on integer arrays. */
export type ReduceOp = "sum" | "min" | "max" | "and" | "or" | "xor";

const OP_CODE: Record<ReduceOp, number> = { sum: 0, min: 1, max: 2, and: 3, or: 4, xor: 5 };
const NUM: readonly string[] = ["i32", "u32", "i64", "u64", "f32", "f64"];
const BLOCK = 256;
/** reduce()'s most blocks: 8 of BLOCK threads on each of an H200's 132 multiprocessors (bench/issue23_lab.py: 0.0637 ms for 2^26 f32 against 0.0648 at 2048 blocks; torch.sum 0.0696). */
const REDUCE_GRID = 1056;
/** The launch shapes the calls use: the defaults, which bench/stdlib.mjs varies to measure others (Stdlib.tuning). */
export interface Tuning {
  /** The scan's tile shapes, by size: the first whose `below` is above the array's length (the last's is Infinity). */
  scan: readonly ScanShape[];
  /** Threads per block of the sort's passes (a multiple of 32, at least 256), keys per thread for 32-bit keys and for 64-bit keys (a tile, sorted in shared memory, is sortBlock * items keys; fewer where the tile and its values would not fit 48 KiB), and the threads per block (at least 256) and most blocks of its histogram. */
  sortBlock: number;
  sortItems: number;
  sortItemsWide: number;
  sortHistBlock: number;
  sortHistBlocks: number;
  /** Below sortSmall.below keys, the sort's passes take blocks of sortSmall.block threads and at most sortSmall.items keys a thread (smaller tiles, so that more blocks share a small sort). */
  sortSmall: { readonly block: number; readonly items: number; readonly below: number };
  /** The most blocks argmin/argmax, the histogram and the float sort's key pass launch (at most MAX_PARTIALS). */
  reduceBlocks: number;
  /**
   * The most blocks reduce() (sum, min, max, ...) launches (at most MAX_PARTIALS): a number, not
   * the device's multiprocessors, so that a GPU and the simulator fold in the same order.
   */
  reduceGrid: number;
}
/**
 * A scan's launch for arrays of fewer than `below` elements: blocks of `block` threads (a multiple
 * of 32, at most 1024), `items` elements a thread (a multiple of 4, at most 64), so a tile is
 * block * items elements; for 32-bit types (scanPacked) `minBlocks` blocks a multiprocessor
 * (the register cap, @launchBounds), `windows` look-back windows of 32 tiles read at once, and
 * `stride` u64 status words a tile (16: each tile's word in a 128-byte line of its own).
 */
export interface ScanShape {
  readonly below: number;
  readonly block: number;
  readonly items: number;
  readonly minBlocks: number;
  readonly windows: number;
  readonly stride: number;
}
/**
 * On the H200 (bench/stdlib_tune.mjs, 2026-11-29): small tiles keep enough blocks busy at 2^16 and 2^20; at 2^26 each
 * tile's status word in a line of its own (bench/issue23.mjs, batch 4: 0.174 ms against 0.206 packed, torch.cumsum 0.218;
 * bench/notes-issue23.md), and once the CUDA backend kept the warp mask in a local (batch 5), 256 x 32 at four blocks a
 * multiprocessor: f32 0.152 ms, i32 0.154, where 512 x 32 at two ran 0.159 and 0.161 (torch.cumsum 0.214).
 */
const SCAN_SHAPES: readonly ScanShape[] = [
  { below: 2 ** 18, block: 128, items: 8, minBlocks: 8, windows: 4, stride: 16 },
  { below: 2 ** 22, block: 256, items: 16, minBlocks: 4, windows: 4, stride: 16 },
  { below: Infinity, block: 256, items: 32, minBlocks: 4, windows: 1, stride: 16 },
];
const DEFAULT_TUNING: Tuning = { scan: SCAN_SHAPES, sortBlock: 512, sortItems: 12, sortItemsWide: 8, sortHistBlock: BLOCK, sortHistBlocks: 1056, sortSmall: { block: 512, items: 4, below: 2 ** 19 }, reduceBlocks: 2048, reduceGrid: REDUCE_GRID };
/** Bins a histogram block counts in shared memory; more go straight to global memory. */
const SHARED_BINS = 4096;

const stdlibs = new WeakMap<GpuDevice, Stdlib>();

/** The standard library's calls on `gpu`'s arrays (one object per device). */
export function stdlib(gpu: GpuDevice): Stdlib {
  let s = stdlibs.get(gpu);
  if (!s) stdlibs.set(gpu, (s = new Stdlib(gpu)));
  return s;
}

export interface ScanOptions {
  /** y[i] leaves x[i] out (y[0] is the identity). Default false. */
  readonly exclusive?: boolean;
  readonly op?: "sum" | "min" | "max" | "and" | "or" | "xor";
  /** Write the result here (a.length elements of a's type, not a) instead of a new array. */
  readonly out?: GpuArray;
}

/** Where an array-returning call writes: a given array of the right type and length instead of a new one. */
export interface OutOption<E extends NumElem | "u32"> {
  readonly out?: GpuArray<E>;
}

export interface SortOptions<V extends "i32" | "u32" | "f32"> {
  /** Values moved with their keys (a stable sort). */
  readonly values?: GpuArray<V>;
}

export interface HistogramOptions<E extends FloatElem> {
  readonly bins: number;
  readonly lo: ScalarOf<E>;
  readonly hi: ScalarOf<E>;
  /** Count into this u32 array of `bins` elements (cleared first) instead of a new one. */
  readonly out?: GpuArray<"u32">;
}

export interface RandomOptions<E extends FloatElem> {
  /** The generator's key: a safe integer or a bigint below 2^64. Default 0. */
  readonly seed?: number | bigint;
  /** Which stream of the key (a u32): the same seed and stream give the same numbers. Default 0. */
  readonly stream?: number;
  readonly dist?: "uniform" | "normal";
  readonly elem?: E;
  /** Write the numbers here (n elements of elem) instead of a new array. */
  readonly out?: GpuArray<E>;
}

export class Stdlib {
  private mod: Promise<StdModule> | undefined;
  /** @internal The launch shapes (bench/stdlib.mjs sets others to measure them; within the limits of Tuning). */
  readonly tuning: Tuning = { ...DEFAULT_TUNING };

  /** @internal Made by stdlib(gpu). */
  constructor(readonly gpu: GpuDevice) {}

  /** @internal The module of kernels (bench/stdlib.mjs sets its kernelTime). */
  module(): Promise<StdModule> {
    this.mod ??= stdModule(this.gpu);
    return this.mod;
  }

  /** The sum of a's elements (wrapping for integers; for floats the order is spec/stdlib.md's: the same bits run to run). */
  sum<E extends NumElem>(a: GpuArray<E>): Promise<ScalarOf<E>> {
    return this.reduce(a, "sum");
  }

  /** The smallest element (+Infinity or the type's largest value for an empty array). */
  min<E extends NumElem>(a: GpuArray<E>): Promise<ScalarOf<E>> {
    return this.reduce(a, "min");
  }

  /** The largest element (-Infinity or the type's smallest value for an empty array). */
  max<E extends NumElem>(a: GpuArray<E>): Promise<ScalarOf<E>> {
    return this.reduce(a, "max");
  }

  /** a's elements combined with `op`, in one launch. */
  async reduce<E extends NumElem>(a: GpuArray<E>, op: ReduceOp): Promise<ScalarOf<E>> {
    this.own(a, "reduce", NUM);
    checkOp(a, op, "reduce");
    const m = await this.module();
    const grid = Math.max(1, Math.min(this.tuning.reduceGrid, Math.ceil(a.length / (BLOCK * 4))));
    const t = await m.temporaries(a.elem);
    const out = await this.gpu.zeros(a.elem, 1, { label: "reduce's result" });
    try {
      await m.kernel("reduce", { T: a.elem, OP: OP_CODE[op], BLOCK })({ grid, block: BLOCK }, { n: a.length, x: a, out, partial: t.partial, counter: t.counter });
      return (await out.read())[0] as ScalarOf<E>;
    } finally {
      out.free();
    }
  }

  /** The index of a's first smallest element (NaNs are never chosen); -1 for an empty array or one of NaNs. */
  argmin<E extends NumElem>(a: GpuArray<E>): Promise<number> {
    return this.argReduce(a, false);
  }

  /** The index of a's first largest element, as argmin. */
  argmax<E extends NumElem>(a: GpuArray<E>): Promise<number> {
    return this.argReduce(a, true);
  }

  private async argReduce<E extends NumElem>(a: GpuArray<E>, maximum: boolean): Promise<number> {
    const call = maximum ? "argmax" : "argmin";
    this.own(a, call, NUM);
    const m = await this.module();
    const grid = Math.max(1, Math.min(this.tuning.reduceBlocks, Math.ceil(a.length / (BLOCK * 4))));
    const t = await m.temporaries(a.elem);
    const partialI = await m.indices();
    const out = await this.gpu.zeros("i32", 1, { label: `${call}'s result` });
    try {
      await m.kernel("argReduce", { T: a.elem, MAXIMUM: maximum, BLOCK })({ grid, block: BLOCK }, { n: a.length, x: a, out, partialV: t.partial, partialI, counter: t.counter });
      return (await out.read())[0]!;
    } finally {
      out.free();
    }
  }

  /** The inclusive (or exclusive) scan of a, a new array, in one launch (scanPacked for 32-bit types, else scan). */
  async scan<E extends NumElem>(a: GpuArray<E>, opts: ScanOptions = {}): Promise<GpuArray<E>> {
    this.own(a, "scan", NUM);
    const op = opts.op ?? "sum";
    checkOp(a, op, "scan");
    const y = await this.result(opts.out as GpuArray<E> | undefined, a.elem, a.length, "scan", [a]);
    await this.scanInto(a, y, op, opts.exclusive ?? false);
    return y;
  }

  /** y = scan(x), both of x's type and length. */
  private async scanInto<E extends NumElem>(x: GpuArray<E>, y: GpuArray<E>, op: ReduceOp, exclusive: boolean): Promise<void> {
    const m = await this.module();
    const shapes = this.tuning.scan;
    const { block, items, minBlocks, windows, stride } = shapes.find((s) => x.length < s.below) ?? shapes[shapes.length - 1]!;
    const tiles = Math.max(1, Math.ceil(x.length / (block * items)));
    await m.inOrder(async () => {
      const look = await m.lookback(x.elem, tiles, stride);
      const common = { n: x.length, x, y, ticket: look.ticket, epoch: look.epoch, ticketBase: look.ticketBase };
      if (look.packed) {
        await m.kernel("scanPacked", { T: x.elem, OP: OP_CODE[op], BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive, MINB: minBlocks, LOOK: windows, STRIDE: stride })({ grid: tiles, block }, { ...common, words: look.words });
      } else {
        await m.kernel("scan", { T: x.elem, OP: OP_CODE[op], BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive })({ grid: tiles, block }, { ...common, status: look.flags, aggregates: look.aggregates, prefixes: look.prefixes });
      }
    });
  }

  /**
   * The keys in ascending order (signed keys as numbers, negative first; floats in IEEE total
   * order: -NaN, -Infinity, ..., -0, +0, ..., +Infinity, +NaN), a new array, and the values
   * moved with them (stable: equal keys keep their order). LSD radix sort, 8 bits a pass.
   */
  async sort<K extends NumElem, V extends "i32" | "u32" | "f32" = "u32">(keys: GpuArray<K>, opts: SortOptions<V> = {}): Promise<{ keys: GpuArray<K>; values?: GpuArray<V> }> {
    this.own(keys, "sort", NUM);
    const values = opts.values;
    if (values !== undefined) {
      this.own(values, "sort", ["i32", "u32", "f32"], "values");
      if (values.length !== keys.length) throw new GkRuntimeError("GK8005", `sort(): the values (${values.describe()}) must be as many as the keys (${keys.describe()})`);
    }
    const n = keys.length;
    if (n >= 2 ** 30) throw new GkRuntimeError("GK8005", `sort(): sorts fewer than 2^30 keys; ${keys.describe()} holds ${n}`);
    if (keys.elem !== "f32" && keys.elem !== "f64") return this.radixSort(keys as GpuArray<IntElem>, values) as Promise<{ keys: GpuArray<K>; values?: GpuArray<V> }>;
    // Floats: sorted as the unsigned integers of their IEEE total order, then made floats again.
    const m = await this.module();
    const wide = keys.elem === "f64";
    const grid = Math.max(1, Math.min(this.tuning.reduceBlocks, Math.ceil(n / BLOCK)));
    const bits = await this.gpu.zeros(wide ? "u64" : "u32", n, { label: "sort's key bits" });
    try {
      await m.kernel(wide ? "floatKeys64" : "floatKeys32", {})({ grid, block: BLOCK }, { n, x: keys, y: bits });
      const r = await this.radixSort(bits, values);
      const out = await this.gpu.zeros(keys.elem, n, { label: "sort's keys" });
      await m.kernel(wide ? "floatsOfKeys64" : "floatsOfKeys32", {})({ grid, block: BLOCK }, { n, x: r.keys, y: out });
      r.keys.free();
      return { keys: out, ...(r.values && { values: r.values }) };
    } finally {
      bits.free();
    }
  }

  /** sort() of integer keys: LSD radix sort, a histogram launch, then one onesweep launch per 8 bits. */
  private async radixSort<K extends IntElem, V extends "i32" | "u32" | "f32">(keys: GpuArray<K>, values: GpuArray<V> | undefined): Promise<{ keys: GpuArray<K>; values?: GpuArray<V> }> {
    const n = keys.length;
    const m = await this.module();
    const wide = keys.elem === "i64" || keys.elem === "u64";
    const top = wide ? 63 : 31;
    const passes = wide ? 8 : 4;
    const small = n < this.tuning.sortSmall.below;
    const block = small ? this.tuning.sortSmall.block : this.tuning.sortBlock;
    // As many keys per thread as asked, or as many as the tile's shared memory takes.
    const perKey = (wide ? 8 : 4) + (values ? 4 : 0);
    const fixed = (block / 32) * 256 * 4 + 2 * 256 * 4 + 32 * 4 + 16;
    const asked = Math.min(wide ? this.tuning.sortItemsWide : this.tuning.sortItems, small ? this.tuning.sortSmall.items : Infinity);
    const items = Math.max(1, Math.min(asked, Math.floor((this.gpu.target.limits.staticSharedBytes - fixed) / (block * perKey))));
    const tiles = Math.max(1, Math.ceil(n / (block * items)));
    // hist: each pass's digit counts (then first positions) and radixHistogram's block counter; a ticket per pass.
    const hist = await this.gpu.zeros("u32", passes * 256 + 1, { label: "sort's digit counts" });
    const tickets = await this.gpu.zeros("u32", passes, { label: "sort's tickets" });
    const status = await this.gpu.zeros("u32", passes * tiles * 256, { label: "sort's look-back counts" });
    // Passes alternate between two arrays of the call's own; the caller's are only read.
    const kBufs = [await this.gpu.zeros(keys.elem, n, { label: "sort's keys" }), await this.gpu.zeros(keys.elem, n, { label: "sort's keys" })] as const;
    const vElem: V = values?.elem ?? ("u32" as V);
    const vLen = values ? n : 0;
    const vBufs = [await this.gpu.zeros(vElem, vLen, { label: "sort's values" }), await this.gpu.zeros(vElem, vLen, { label: "sort's values" })] as const;
    let kIn: GpuArray<K> = keys;
    let vIn: GpuArray<V> = values ?? vBufs[1];
    let pass = 0;
    try {
      const { sortHistBlock: histBlock } = this.tuning;
      const histGrid = Math.max(1, Math.min(this.tuning.sortHistBlocks, Math.ceil(n / (histBlock * 16))));
      await m.kernel("radixHistogram", { K: keys.elem, BLOCK: histBlock, PASSES: passes })({ grid: histGrid, block: histBlock }, { n, keys, top, hist });
      const onesweep = m.kernel("radixOnesweep", { K: keys.elem, V: vElem, BLOCK: block, ITEMS: items, VALUES: values !== undefined });
      for (; pass < passes; pass++) {
        const kOut = kBufs[pass % 2]!, vOut = vBufs[pass % 2]!;
        await onesweep({ grid: tiles, block }, { n, keysIn: kIn, keysOut: kOut, valuesIn: vIn, valuesOut: vOut, pass, top, hist, status, ticket: tickets, tiles });
        kIn = kOut;
        vIn = vOut;
      }
    } finally {
      hist.free();
      tickets.free();
      status.free();
      kBufs[pass % 2]!.free();
      vBufs[pass % 2]!.free();
      if (values === undefined) vBufs[1 - (pass % 2)]!.free();
    }
    return values ? { keys: kIn, values: vIn } : { keys: kIn };
  }

  /** Counts of a's elements in `bins` equal bins over [lo, hi] (hi in the last bin; others ignored), a new u32 array. */
  async histogram<E extends FloatElem>(a: GpuArray<E>, opts: HistogramOptions<E>): Promise<GpuArray<"u32">> {
    this.own(a, "histogram", ["f32", "f64"]);
    const { bins, lo, hi } = opts;
    if (!Number.isSafeInteger(bins) || bins < 1 || bins > 2 ** 31 - 1) throw new GkRuntimeError("GK8005", `histogram(): bins must be a positive integer, got ${describeValue(bins)}`);
    if (typeof lo !== "number" || typeof hi !== "number" || !(lo < hi) || !Number.isFinite(hi - lo)) {
      throw new GkRuntimeError("GK8005", `histogram(): lo and hi must be finite numbers with lo < hi, got ${describeValue(lo)} and ${describeValue(hi)}`);
    }
    const m = await this.module();
    const counts = await this.result(opts.out, "u32", bins, "histogram", []);
    if (opts.out) await m.fill(counts, bins, 0);
    const grid = Math.max(1, Math.min(this.tuning.reduceBlocks, Math.ceil(a.length / (BLOCK * 16))));
    await m.kernel("histogram", { T: a.elem, SHARED_BINS })({ grid, block: BLOCK }, { n: a.length, x: a, bins, lo, hi, counts });
    return counts;
  }

  /** The transpose of the rows x cols row-major matrix m, a new cols x rows array. */
  async transpose<E extends NumElem>(mat: GpuArray<E>, rows: number, cols: number, opts: OutOption<E> = {}): Promise<GpuArray<E>> {
    this.own(mat, "transpose", NUM);
    dims("transpose", { rows, cols });
    if (rows * cols !== mat.length) throw new GkRuntimeError("GK8005", `transpose(): ${rows} x ${cols} is ${rows * cols} elements, but ${mat.describe()} holds ${mat.length}`);
    const m = await this.module();
    const out = await this.result(opts.out, mat.elem, mat.length, "transpose", [mat]);
    await m.kernel("transpose", { T: mat.elem, TILE: 32, ROWS: 8 })({ grid: [Math.max(1, Math.ceil(cols / 32)), Math.max(1, Math.ceil(rows / 32))], block: [32, 8] }, { rows, cols, a: mat, b: out });
    return out;
  }

  /** C = A x B for row-major m x k and k x n matrices, a new m x n array (each element summed over k in order): f32 with m and n multiples of 128 through sgemmT (k a multiple of 32, after A's transpose) or sgemm (k of 8), else matmulTiled. */
  async matmul<E extends FloatElem>(a: GpuArray<E>, b: GpuArray<E>, m: number, n: number, k: number, opts: OutOption<E> = {}): Promise<GpuArray<E>> {
    this.own(a, "matmul", ["f32", "f64"]);
    this.own(b, "matmul", ["f32", "f64"]);
    dims("matmul", { m, n, k });
    if (a.elem !== b.elem) throw new GkRuntimeError("GK8005", `matmul(): ${a.describe()} and ${b.describe()} must have one element type`);
    if (a.length !== m * k) throw new GkRuntimeError("GK8005", `matmul(): A is m x k = ${m} x ${k}, but ${a.describe()} holds ${a.length} elements`);
    if (b.length !== k * n) throw new GkRuntimeError("GK8005", `matmul(): B is k x n = ${k} x ${n}, but ${b.describe()} holds ${b.length} elements`);
    const mod = await this.module();
    const c = await this.result(opts.out, a.elem, m * n, "matmul", [a, b]);
    const args = { M: m, N: n, K: k, A: a, B: b, C: c };
    if (a.elem === "f32" && m % 128 === 0 && n % 128 === 0 && k % 32 === 0) {
      // sgemmT multiplies A's transpose (k x m), made here and freed once the product is queued.
      const at = await this.gpu.zeros("f32", k * m, { label: "matmul's transpose of A" });
      try {
        await mod.kernel("transpose", { T: "f32", TILE: 32, ROWS: 8 })({ grid: [Math.ceil(k / 32), m / 32], block: [32, 8] }, { rows: m, cols: k, a, b: at });
        await mod.kernel("sgemmT", {})({ grid: [n / 128, m / 128], block: 256 }, { M: m, N: n, K: k, AT: at, B: b, C: c });
      } finally {
        at.free();
      }
    } else if (a.elem === "f32" && m % 128 === 0 && n % 128 === 0 && k % 8 === 0) {
      await mod.kernel("sgemm", {})({ grid: [n / 128, m / 128], block: 256 }, args);
    } else {
      await mod.kernel("matmulTiled", { T: a.elem })({ grid: [Math.max(1, Math.ceil(n / 16)), Math.max(1, Math.ceil(m / 16))], block: [16, 16] }, args);
    }
    return c;
  }

  /** n random numbers of Philox4x32-10, uniform in [0, 1) or standard normal, a new array (f32 unless opts.elem). */
  async random<E extends FloatElem = "f32">(n: number, opts: RandomOptions<E> = {}): Promise<GpuArray<E>> {
    dims("random", { n }, true);
    const elem = (opts.elem ?? "f32") as E;
    if (elem !== "f32" && elem !== "f64") throw new GkRuntimeError("GK8005", `random(): elem must be "f32" or "f64", got ${describeValue(elem)}`);
    const seed = BigInt.asUintN(64, toSeed(opts.seed ?? 0));
    const stream = opts.stream ?? 0;
    if (!Number.isInteger(stream) || stream < 0 || stream > 0xffffffff) throw new GkRuntimeError("GK8005", `random(): stream must be an integer in [0, 2^32), got ${describeValue(stream)}`);
    const dist = opts.dist ?? "uniform";
    if (dist !== "uniform" && dist !== "normal") throw new GkRuntimeError("GK8005", `random(): dist must be "uniform" or "normal", got ${describeValue(dist)}`);
    const m = await this.module();
    const out = await this.result(opts.out, elem, n, "random", []);
    const per = elem === "f32" ? 4 : 2;
    const threads = Math.ceil(n / per);
    const seedLo = Number(seed & 0xffffffffn), seedHi = Number(seed >> 32n);
    if (threads > 0) {
      await m.kernel(elem === "f32" ? "randomF32" : "randomF64", { NORMAL: dist === "normal" })({ grid: Math.ceil(threads / BLOCK), block: BLOCK }, { n, seedLo, seedHi, stream, out });
    }
    return out;
  }

  /** One result per segment: segment s is a[offsets[s] .. offsets[s + 1]) (offsets: i32, non-decreasing, within a). */
  async segmentedReduce<E extends NumElem>(a: GpuArray<E>, offsets: GpuArray<"i32">, op: ReduceOp = "sum"): Promise<GpuArray<E>> {
    this.own(a, "segmentedReduce", NUM);
    this.own(offsets, "segmentedReduce", ["i32"], "offsets");
    checkOp(a, op, "segmentedReduce");
    if (offsets.length < 1) throw new GkRuntimeError("GK8005", `segmentedReduce(): offsets holds segments + 1 elements, so at least 1; ${offsets.describe()} holds none`);
    const m = await this.module();
    const segments = offsets.length - 1;
    const out = await this.gpu.zeros(a.elem, segments, { label: "segmentedReduce's result" });
    if (segments > 0) {
      await m.kernel("segmentedReduce", { T: a.elem, OP: OP_CODE[op] })({ grid: Math.min(segments, 65535), block: BLOCK }, { segments, offsets, x: a, out });
    }
    return out;
  }

  /** `out` checked (this device's, `elem`, `length` elements, none of `inputs`), or a new zeroed array. */
  private async result<E extends NumElem | "u32">(out: GpuArray<E> | undefined, elem: E, length: number, call: string, inputs: readonly GpuArray[]): Promise<GpuArray<E>> {
    if (out === undefined) return this.gpu.zeros(elem, length, { label: `${call}'s result` });
    this.own(out, call, [elem], "out");
    if (out.length !== length) throw new GkRuntimeError("GK8005", `${call}(): out must hold ${length} elements, but ${out.describe()} holds ${out.length}`);
    if (inputs.includes(out)) throw new GkRuntimeError("GK8005", `${call}(): out (${out.describe()}) is also an input; give another array`);
    return out;
  }

  /** Checks that `a` (the call's `role` argument, when named) is a live GPU array of this device with one of `elems`. */
  private own(a: GpuArray, call: string, elems: readonly string[], role = ""): void {
    const what = role ? `${role}: ` : "";
    if (!a || typeof a !== "object" || !("elem" in a) || !("live" in a)) throw new GkRuntimeError("GK8005", `${call}(): ${what || "it "}takes a GPU array, got ${describeValue(a)}`);
    if (a.owner !== this.gpu) throw new GkRuntimeError("GK8005", `${call}(): ${what}${a.describe()} belongs to ${a.owner.name}, not to ${this.gpu.name}`);
    a.live(`${call}()`);
    if (typeof a.elem !== "string" || !elems.includes(a.elem)) throw new GkRuntimeError("GK8005", `${call}(): ${what}${a.describe()} has elements of ${a.layout.name}; it takes ${elems.join(", ")}`);
  }
}

function checkOp(a: GpuArray, op: ReduceOp, call: string): void {
  if (!Object.hasOwn(OP_CODE, op)) throw new GkRuntimeError("GK8005", `${call}(): op must be one of ${Object.keys(OP_CODE).join(", ")}, got ${describeValue(op)}`);
  if ((a.elem === "f32" || a.elem === "f64") && OP_CODE[op] >= 3) throw new GkRuntimeError("GK8005", `${call}(): '${op}' works on integer arrays; ${a.describe()} holds floats`);
}

/** Checks sizes: positive integers (or 0 with `zero`) whose products fit an i32 index. */
function dims(call: string, sizes: Record<string, number>, zero = false): void {
  for (const [name, v] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(v) || v < (zero ? 0 : 1) || v > 2 ** 31 - 1) throw new GkRuntimeError("GK8005", `${call}(): ${name} must be ${zero ? "a non-negative" : "a positive"} integer below 2^31, got ${describeValue(v)}`);
  }
}

function toSeed(s: number | bigint): bigint {
  if (typeof s === "bigint" && s >= 0n && s < 2n ** 64n) return s;
  if (typeof s === "number" && Number.isSafeInteger(s) && s >= 0) return BigInt(s);
  throw new GkRuntimeError("GK8005", `random(): seed must be a non-negative safe integer or a bigint below 2^64, got ${describeValue(s)}`);
}

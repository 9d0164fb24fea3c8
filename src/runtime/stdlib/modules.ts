/**
 * The gk/std kernels the host calls launch (calls.ts): one module per device, compiled once
 * from a source that imports them all, with each instance made once (`with()`), and the
 * temporaries the calls reuse (a reduction's partial results and counter, a scan's look-back
 * flags), kept on the device and grown when a call needs more.
 */
import type { GpuDevice } from "../device/device.js";
import type { ElemName, GpuArray } from "../device/gpuArray.js";
import type { GenericArgs, KernelFn, LoadedModule } from "../api.js";
import { stdlibDir } from "../../load/packagePaths.js";
import * as path from "node:path";

/** Every kernel of gk/std the host calls use. */
const SOURCE = `// The kernels of gk's host calls (src/runtime/stdlib/calls.ts).
import { fill } from "gk/std/fill";
import { reduce, argReduce } from "gk/std/reduce";
import { scan, scanPacked } from "gk/std/scan";
import { radixHistogram, radixOnesweep, floatKeys32, floatsOfKeys32, floatKeys64, floatsOfKeys64 } from "gk/std/sort";
import { histogram } from "gk/std/histogram";
import { transpose } from "gk/std/transpose";
import { sgemm, sgemmT, matmulTiled } from "gk/std/matmul";
import { randomF32, randomF64 } from "gk/std/random";
import { segmentedReduce } from "gk/std/segmented";
`;

/** The largest grid a reduction launches: its partial results have this many elements. */
export const MAX_PARTIALS = 4096;

/** The element types whose scan packs each tile's status and value into one u64 word (scanPacked). */
export const PACKED_SCAN: readonly ElemName[] = ["i32", "u32", "f32"];

/** A scan's look-back state: scanPacked's words for 32-bit types, else scan's flags, aggregates and prefixes. */
export type Lookback<E extends ElemName> = { readonly ticket: GpuArray<"u32"> } & (
  | {
      readonly packed: true;
      /** Each tile's status and value, (epoch << 34) | (status << 32) | bits (gk/std/scan's tileWord), `stride` words a tile. */
      readonly words: GpuArray<"u64">;
    }
  | {
      readonly packed: false;
      /** Each tile's status word, (epoch << 2) | status (gk/std/scan). */
      readonly flags: GpuArray<"u32">;
      readonly aggregates: GpuArray<E>;
      readonly prefixes: GpuArray<E>;
    }
);

export class StdModule {
  private readonly instances = new Map<string, KernelFn>();
  private readonly reduceTemps = new Map<ElemName, Promise<{ partial: GpuArray; counter: GpuArray<"u32"> }>>();
  private partialIndices: Promise<GpuArray<"i32">> | undefined;
  /** Each element type's look-back state: `slots` status words (packed) or flags, aggregates and prefixes, the last epoch and the tickets issued. */
  private readonly lookbacks = new Map<ElemName, { slots: number; arrays: Promise<Lookback<ElemName>>; epoch: number; issued: number }>();
  private scansQueued: Promise<unknown> = Promise.resolve();
  /** Called with each launch's kernel time (CUDA events; the simulator's time there), when set: bench/stdlib.mjs. */
  kernelTime: ((ms: number) => void) | undefined;

  constructor(
    readonly gpu: GpuDevice,
    readonly mod: LoadedModule,
  ) {}

  /** The instance of kernel `name` with these generic arguments (made once). */
  kernel(name: string, generic: GenericArgs): KernelFn {
    const key = `${name}${JSON.stringify(generic)}`;
    let k = this.instances.get(key);
    if (!k) {
      const fn = this.mod[name]!;
      const inst = Object.keys(generic).length ? fn.with(generic) : fn;
      const timed: KernelFn = Object.assign((cfg: Parameters<KernelFn>[0], args: Parameters<KernelFn>[1]) => inst(this.kernelTime ? { ...cfg, kernelTime: this.kernelTime } : cfg, args), { with: inst.with });
      k = timed;
      this.instances.set(key, k);
    }
    return k;
  }

  /** a[0..n) = v, queued. */
  async fill(a: GpuArray<ElemName>, n: number, v: number): Promise<void> {
    if (n === 0) return;
    await this.kernel("fill", { T: a.elem })({ grid: Math.min(1024, Math.ceil(n / 256)), block: 256 }, { n, a, v });
  }

  /** A reduction's partial results (MAX_PARTIALS of `elem`) and its counter (0 between launches: the kernel resets it). */
  temporaries<E extends ElemName>(elem: E): Promise<{ partial: GpuArray<E>; counter: GpuArray<"u32"> }> {
    let t = this.reduceTemps.get(elem);
    if (!t) {
      t = (async () => ({ partial: await this.gpu.zeros(elem, MAX_PARTIALS, { label: "reduce's partial results" }), counter: await this.gpu.zeros("u32", 1, { label: "reduce's counter" }) }))();
      this.reduceTemps.set(elem, t);
    }
    return t as Promise<{ partial: GpuArray<E>; counter: GpuArray<"u32"> }>;
  }

  /** An argmin's or argmax's partial indices (MAX_PARTIALS of i32). */
  indices(): Promise<GpuArray<"i32">> {
    this.partialIndices ??= this.gpu.zeros("i32", MAX_PARTIALS, { label: "argmin's partial indices" });
    return this.partialIndices;
  }

  /**
   * Runs `launch` (a scan's: its look-back state taken, its launch queued) once the scans
   * started before it have queued theirs. A scan's tiles are its tickets minus the ticket's value
   * before it (lookback's ticketBase), so scans must reach the queue in the order they took their
   * state; a kernel's first launch on a GPU waits for its build, which would let a later scan of
   * another instance pass it.
   */
  inOrder(launch: () => Promise<void>): Promise<void> {
    const done = this.scansQueued.then(launch);
    this.scansQueued = done.catch(() => undefined);
    return done;
  }

  /**
   * A scan's look-back state for at least `tiles` tiles (`stride` status words a tile where they
   * are packed), with the epoch and ticket base of the next scan: each scan takes the next epoch,
   * so the flags are never cleared (a word left by an earlier scan, at any stride, is of another
   * epoch), and its tickets follow the previous scan's. The flags are cleared (one fill) only
   * when the epochs run out.
   */
  async lookback<E extends ElemName>(elem: E, tiles: number, stride: number): Promise<Lookback<E> & { epoch: number; ticketBase: number }> {
    const slots = PACKED_SCAN.includes(elem) ? tiles * stride : tiles;
    let have = this.lookbacks.get(elem);
    if (!have || have.slots < slots) {
      const size = Math.max(slots, 2 * (have?.slots ?? 0));
      const old = have?.arrays;
      const arrays = (async (): Promise<Lookback<ElemName>> => {
        if (old) for (const a of Object.values(await old)) if (typeof a === "object") a.free();
        const ticket = await this.gpu.zeros("u32", 1, { label: "scan's ticket" });
        if (PACKED_SCAN.includes(elem)) return { packed: true, ticket, words: await this.gpu.zeros("u64", size, { label: "scan's tile words" }) };
        return {
          packed: false,
          ticket,
          flags: await this.gpu.zeros("u32", size, { label: "scan's tile flags" }),
          aggregates: await this.gpu.zeros(elem, size, { label: "scan's tile aggregates" }),
          prefixes: await this.gpu.zeros(elem, size, { label: "scan's tile prefixes" }),
        };
      })();
      have = { slots: size, arrays, epoch: 0, issued: 0 };
      this.lookbacks.set(elem, have);
    }
    const arrays = (await have.arrays) as Lookback<E>;
    if (have.epoch >= MAX_EPOCH) {
      if (arrays.packed) await this.fill(arrays.words, have.slots, 0);
      else await this.fill(arrays.flags, have.slots, 0);
      have.epoch = 0;
    }
    have.epoch++;
    const ticketBase = have.issued;
    have.issued = (have.issued + tiles) >>> 0;
    return { ...arrays, epoch: have.epoch, ticketBase };
  }
}

/** The last epoch a status word can hold (30 bits, in either form). */
const MAX_EPOCH = 2 ** 30 - 1;

/** Compiles the host calls' module for `gpu`. */
export async function stdModule(gpu: GpuDevice): Promise<StdModule> {
  const mod = await gpu.compileSource(SOURCE, { filename: path.join(stdlibDir(), "host-calls.gk") });
  return new StdModule(gpu, mod);
}

/**
 * Asynchronous copies on the simulator (`cpAsync`, src/ir/asyncCopyBuiltins.ts), with the
 * visibility rule checked exactly. A kernel that starts a copy runs on generators, so the
 * scheduler (scheduler.ts) tells this tracker when a block starts and ends, which thread runs,
 * and when a barrier() or a syncWarp() passes; generated code (src/codegen/js/emitAsync.ts)
 * calls it at each copy, commit, wait and fence, and at every access of a shared array of the
 * kernel that an element's state says may be a copy's destination.
 *
 * A copy reads its source when it starts (the simulator's moment; on the GPU any moment up to
 * the wait, so a write of a pending copy's source is an error too) and keeps the data; the destination's elements are marked with the copy's id in
 * their array's `state` (an Int32Array beside each shared array, 0 for an ordinary element).
 * `cpAsyncCommit()` closes the thread's open copies into a group; `cpAsyncWait(n)` completes
 * every group of the thread but the `n` most recent (`cpAsyncWaitAll()` every copy): the data
 * is written then, as the thread's own writes (the race detector sees them there, and the
 * uninitialized-shared flags are set). A completed copy stays marked until a barrier() passes
 * (or a fence of the copying thread), which publishes it: the elements become ordinary again;
 * a syncWarp() of the copying thread's warp publishes it to that warp's threads.
 *
 * Reported, each naming the access's line and the copy's (spec/builtins.md, "Asynchronous copies"):
 *   - GK8050: a read of an element whose copy is pending (not waited for), by any thread, or by
 *     another thread after the wait but before a barrier() published it;
 *   - GK8051: a write of such an element (a store, an atomic, another copy), or of an element a
 *     pending copy reads (its source: the GPU may read it at any moment up to the wait);
 *   - GK8052: a copy the thread never waited for when its block ends.
 */
import { error, type RelatedNote } from "../../diagnostics/diagnostic.js";
import type { DiagnosticCode } from "../../diagnostics/catalog.js";
import type { Span } from "../../diagnostics/source.js";
import type { Dim3 } from "../../ir/limits.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { dim3, lineOf, SimError, type FaultContext } from "./errors.js";
import type { RaceDetector } from "./races.js";

/** One copy: its destination, its data, and how far along it is. */
interface Copy {
  readonly id: number;
  /** The copying thread, linear in its block. */
  readonly thread: number;
  /** The copy's site (its destination's write access). */
  readonly site: number;
  /** -1 until committed, then the thread's group number (1, 2, ...). */
  group: number;
  /** Waited for: the data is in place, not yet published to other threads. */
  done: boolean;
  /** A syncWarp() of the copying thread's warp passed since: published to that warp. */
  warp: boolean;
  readonly dst: AnyTypedArray;
  readonly state: Int32Array;
  readonly o: number;
  readonly data: AnyTypedArray;
  readonly flags: Uint8Array | undefined;
  /** The source and the elements read, counted in `sources` until the copy completes. */
  readonly src: AnyTypedArray;
  readonly so: number;
  readonly valid: number;
}

/** A shared array the kernel declares, with its elements' states. */
interface Tracked {
  readonly state: Int32Array;
  readonly name: string;
  readonly dims: readonly number[];
}

/** The tracker of one compiled kernel; `start` readies it for a launch. */
export class AsyncCopies {
  private ctx!: FaultContext;
  private blockDim: Dim3 = [1, 1, 1];
  private races: RaceDetector | null = null;
  private arrays = new WeakMap<object, Tracked>();
  private tracked: Tracked[] = [];
  private byState = new Map<Int32Array, Tracked>();
  /** By id (0 is no copy); emptied at each block's start. */
  private copies: (Copy | undefined)[] = [undefined];
  /** Per thread: its copies not yet waited for, in the order started. */
  private open: Copy[][] = [];
  /** Per thread: the groups it has committed. */
  private groups = new Int32Array(1);
  /** Completed copies not yet published. */
  private done: Copy[] = [];
  private block: Dim3 = [0, 0, 0];
  private t = 0;
  /** Per source array, how many pending copies read each element. */
  private sources = new Map<object, Int32Array>();
  /** Pending copies that read anything: generated code calls sourceWrite only while there are some. */
  reading = 0;

  start(ctx: FaultContext, block: Dim3, races: RaceDetector | null): void {
    this.ctx = ctx;
    this.blockDim = block;
    this.races = races;
    this.arrays = new WeakMap();
    this.tracked = [];
    this.byState = new Map();
    this.sources = new Map();
    this.reading = 0;
    this.groups = new Int32Array(block[0] * block[1] * block[2]);
  }

  /** The states of a shared array of the kernel (`dims` its dimensions), once per launch. */
  shared(arr: AnyTypedArray, name: string, dims: readonly number[]): Int32Array {
    const t: Tracked = { state: new Int32Array(arr.length), name, dims };
    this.arrays.set(arr, t);
    this.tracked.push(t);
    this.byState.set(t.state, t);
    return t.state;
  }

  /** The states of the array a device function's parameter or view reaches; none for other memory. */
  of(arr: object): Int32Array | undefined {
    return this.arrays.get(arr)?.state;
  }

  beginBlock(bx: number, by: number, bz: number): void {
    this.block = [bx, by, bz];
    for (const t of this.tracked) t.state.fill(0);
    this.copies = [undefined];
    this.open = Array.from({ length: this.groups.length }, () => []);
    this.groups.fill(0);
    this.done = [];
  }

  thread(i: number): void {
    this.t = i;
  }

  /**
   * Starts a copy of `n` elements to `dst` from element `o` (its states `state`, its written
   * flags `flags`), of `src` from `so`, reading `valid` of them (the rest zeros). Bounds and
   * alignment were checked by the caller.
   */
  copy(dst: AnyTypedArray, state: Int32Array, o: number, n: number, src: AnyTypedArray, so: number, valid: number, site: number, flags: Uint8Array | undefined): void {
    this.hit(state, o, n, site, true);
    const data = new (dst.constructor as new (n: number) => AnyTypedArray)(n);
    (data as Float64Array).set((src as Float64Array).subarray(so, so + valid));
    if (this.races && valid > 0) this.races.rn(this.races.of(src), so, valid, site);
    const c: Copy = { id: this.copies.length, thread: this.t, site, group: -1, done: false, warp: false, dst, state, o, data, flags, src, so, valid };
    this.copies.push(c);
    if (valid > 0) {
      let counts = this.sources.get(src);
      if (!counts) this.sources.set(src, (counts = new Int32Array(src.length)));
      for (let k = 0; k < valid; k++) counts[so + k]!++;
      this.reading++;
    }
    this.open[this.t]!.push(c);
    for (let k = 0; k < n; k++) state[o + k] = c.id;
  }

  commit(): void {
    const g = ++this.groups[this.t]!;
    for (const c of this.open[this.t]!) if (c.group < 0) c.group = g;
  }

  /** cpAsyncWait(pending): completes the thread's groups but the `pending` most recent. */
  wait(pending: number): void {
    const last = this.groups[this.t]! - pending;
    this.complete((c) => c.group >= 0 && c.group <= last);
  }

  waitAll(): void {
    this.groups[this.t]!++;
    this.complete(() => true);
  }

  private complete(which: (c: Copy) => boolean): void {
    const open = this.open[this.t]!;
    const keep: Copy[] = [];
    for (const c of open) {
      if (!which(c)) {
        keep.push(c);
        continue;
      }
      (c.dst as Float64Array).set(c.data as Float64Array, c.o);
      if (c.flags) c.flags.fill(1, c.o, c.o + c.data.length);
      if (this.races) this.races.wn(this.races.of(c.dst), c.o, c.data.length, c.site);
      c.done = true;
      this.done.push(c);
      if (c.valid > 0) {
        const counts = this.sources.get(c.src)!;
        for (let k = 0; k < c.valid; k++) counts[c.so + k]!--;
        this.reading--;
      }
    }
    this.open[this.t] = keep;
  }

  /** A barrier() passed: every completed copy is published. */
  barrier(): void {
    for (const c of this.done) this.publish(c);
    this.done = [];
  }

  /** Warp `w` completed a syncWarp(): its threads' completed copies are published to its threads. */
  syncWarp(w: number): void {
    for (const c of this.done) if (c.thread >> 5 === w) c.warp = true;
  }

  /** A fence of the running thread publishes its completed copies. */
  fence(): void {
    this.done = this.done.filter((c) => (c.thread === this.t ? (this.publish(c), false) : true));
  }

  private publish(c: Copy): void {
    for (let k = 0; k < c.data.length; k++) if (c.state[c.o + k] === c.id) c.state[c.o + k] = 0;
  }

  /**
   * A write of `n` elements from `o` of global memory `arr` at `site`, while some copy reads: an
   * error when a pending copy reads one of them (GK8051), since it may read its source at any
   * moment until its wait.
   */
  sourceWrite(arr: object, o: number, n: number, site: number): void {
    const counts = this.sources.get(arr);
    if (!counts) return;
    for (let k = 0; k < n; k++) {
      if (counts[o + k] === 0) continue;
      for (const open of this.open) {
        const c = open.find((x) => x.src === arr && o + k >= x.so && o + k < x.so + x.valid);
        if (c) throw this.sourceWritten(c, o + k, site);
      }
    }
  }

  /** A read or write of an `inout`/`out` parameter's element `o` of `container` (an array, or a box that is none). */
  ref(container: object, o: number, site: number, write: boolean): void {
    const state = this.arrays.get(container)?.state;
    if (state !== undefined && state[o] !== 0) this.hit(state, o, 1, site, write);
    if (write && this.reading !== 0) this.sourceWrite(container, o, 1, site);
  }

  /** The block's threads have all ended: a copy never waited for is an error. */
  endBlock(): void {
    for (const open of this.open) {
      const c = open[0];
      if (c) throw this.neverWaited(c);
    }
  }

  /**
   * An access of `n` elements from `o` of an array with states `state`, at `site`: an error
   * when one is a pending copy's destination, or a completed copy's that another thread wrote
   * and no barrier() has published. Generated code calls it only where a state is not 0.
   */
  hit(state: Int32Array, o: number, n: number, site: number, write: boolean): void {
    for (let k = 0; k < n; k++) {
      const id = state[o + k]!;
      if (id === 0) continue;
      const c = this.copies[id]!;
      if (!c.done || (c.thread !== this.t && !(c.warp && c.thread >> 5 === this.t >> 5))) throw this.early(c, state, o + k, site, write);
    }
  }

  private coords(i: number): Dim3 {
    const [x, y] = this.blockDim;
    return [i % x, Math.floor(i / x) % y, Math.floor(i / (x * y))];
  }

  private who(i: number): string {
    return `thread ${dim3(this.coords(i))} of block ${dim3(this.block)}`;
  }

  private elementName(state: Int32Array, o: number): string {
    const t = this.byState.get(state);
    if (!t) return `element ${o}`;
    const idx: number[] = [];
    let rest = o;
    for (let d = t.dims.length - 1; d >= 0; d--) {
      idx.unshift(rest % t.dims[d]!);
      rest = Math.floor(rest / t.dims[d]!);
    }
    return `shared ${t.name}${idx.map((i) => `[${i}]`).join("")}`;
  }

  private at(site: number): Span | undefined {
    return this.ctx.sites.get(site)?.span;
  }

  private where(site: number): string {
    const s = this.at(site);
    return s ? lineOf(this.ctx, s) : "an unknown place";
  }

  /** GK8050 or GK8051: an access of `c`'s destination before it is visible to the accessing thread. */
  private early(c: Copy, state: Int32Array, o: number, site: number, write: boolean): SimError {
    const element = this.elementName(state, o);
    const access = write ? "write of" : "read of";
    const copy = `the asynchronous copy into it started at ${this.where(c.site)}`;
    let message: string;
    if (c.thread === this.t) {
      message = `${access} ${element} while ${copy} is pending: ${this.who(c.thread)} has not waited for it; wait first (cpAsyncCommit(), then cpAsyncWait(n) or cpAsyncWaitAll())`;
    } else if (!c.done) {
      message = `${access} ${element} by ${this.who(this.t)} while ${copy} by ${this.who(c.thread)} is pending: the copying thread must wait for it (cpAsyncWait) and the block pass a barrier() before other threads use it`;
    } else {
      message = `${access} ${element} by ${this.who(this.t)}, which ${this.who(c.thread)} filled by an asynchronous copy (started at ${this.where(c.site)}) and waited for, with no barrier() since: other threads see a copy's data only after the copying thread's wait and a barrier()`;
    }
    const notes: RelatedNote[] = [];
    const copySpan = this.at(c.site);
    if (copySpan) notes.push({ message: `${this.who(c.thread)} started the asynchronous copy here`, span: copySpan });
    return this.fail(write ? "GK8051" : "GK8050", this.at(site), message, notes);
  }

  /** GK8051: a write of element `o` of a pending copy's source. */
  private sourceWritten(c: Copy, o: number, site: number): SimError {
    const who = c.thread === this.t ? "" : ` by ${this.who(this.t)}`;
    const s = this.ctx.sites.get(site);
    const array = s && (s.kind === "access" || s.kind === "atomic") ? s.array : undefined;
    const element = array?.type.kind === "global" ? `global ${array.name}[${o}]` : `element ${o} of the global array${array ? ` the view '${array.name}' reaches` : ""}`;
    const message = `write of ${element}${who} while the asynchronous copy started at ${this.where(c.site)} by ${this.who(c.thread)} reads it: a copy reads its source at any moment until the copying thread waits for it (cpAsyncWait), so write it after that wait (and, from another thread, after a barrier())`;
    const notes: RelatedNote[] = [];
    const copySpan = this.at(c.site);
    if (copySpan) notes.push({ message: `${this.who(c.thread)} started the asynchronous copy here`, span: copySpan });
    return this.fail("GK8051", this.at(site), message, notes);
  }

  /** GK8052: a copy its thread never waited for. */
  private neverWaited(c: Copy): SimError {
    const committed = c.group < 0 ? "never committed (cpAsyncCommit) nor" : "committed but never";
    const message = `${this.who(c.thread)} ended with an asynchronous copy into ${this.elementName(c.state, c.o)} ${committed} waited for: wait for every copy (cpAsyncWait(0) or cpAsyncWaitAll()) before a thread ends, as the GPU requires its shared memory to stay while a copy writes it`;
    return this.fail("GK8052", this.at(c.site), message, []);
  }

  private fail(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[]): SimError {
    notes.push({ message: `in kernel '${this.ctx.kernel.name}': an asynchronous copy's destination holds its data for the copying thread after its wait, for other threads after that wait and a barrier() (spec/builtins.md, Asynchronous copies)`, span: this.ctx.kernel.span });
    return new SimError(error(code, span, `${message} (kernel '${this.ctx.kernel.name}')`, notes), this.ctx.sources);
  }
}

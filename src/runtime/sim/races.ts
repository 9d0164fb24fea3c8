/**
 * The race detector (SimOptions.checkRaces; spec/memory-model.md is the rule it checks). In
 * race mode the code generator calls it at every access of global and shared memory
 * (src/codegen/js/emitMemory.ts) and at every fence, and the scheduler tells it which thread
 * runs, when a block starts, when a barrier() passes and when a syncWarp() completes. It
 * reports the first two accesses to one element, at least one a write and not both of them
 * atomic or ordered (volatile, acquire, release), that nothing orders (GK8040), naming both.
 *
 * What orders two accesses of different threads (happens-before), kept cheaply:
 *   - a barrier() between them, for threads of one block: a block epoch `e`, counted up at
 *     each barrier the block passes (accesses of an earlier epoch are ordered);
 *   - a syncWarp() between them, for threads of one warp: a warp epoch per warp;
 *   - release and acquire (`storeRelease`/`loadAcquire`, or a fence before a volatile store or
 *     an atomic / a volatile load or an atomic before a fence): a clock (`Clock`) that the
 *     release leaves on the element and the acquire takes. A clock says which accesses are
 *     known to be done: of a block, those before its barrier epoch E; of a warp, those before
 *     its warp epoch W; of a thread, those up to its release count S. A thread's clock is what
 *     it acquired (`own`), what its warp's syncWarp()s gave it and what its block's barriers
 *     gave it; barriers and syncWarp()s merge the clocks of the threads they synchronize.
 *
 * Per element a shadow keeps the last write and the last two reads by different threads
 * (FastTrack's epochs, with the read set cut to two): each as the thread's id in the launch,
 * the block and warp epochs, the thread's release count, the site and whether it was atomic or
 * ordered. Two reads are enough to find a race whenever one exists between a write and an
 * earlier read in the simulator's order of warps; a report always names two accesses that
 * nothing orders, so the detector never reports a race-free kernel.
 */
import { error, type RelatedNote } from "../../diagnostics/diagnostic.js";
import { lineColOf, type Span } from "../../diagnostics/source.js";
import { dim3, SimError, type FaultContext } from "./errors.js";
import type { Dim3 } from "../../ir/limits.js";

/** Fields of one access record, and records per element (the write, then two reads). */
const G = 0, EPOCH = 1, WARP = 2, SEQ = 3, SITE = 4, STRONG = 5;
const REC = 6;
const STRIDE = 3 * REC;
const R1 = REC, R2 = 2 * REC;

/** What a release publishes: the accesses it orders before whoever acquires it. */
interface Clock {
  /** By block: its accesses of block epochs below this. */
  readonly E: Map<number, number>;
  /** By block * warps + warp: its accesses of warp epochs below this. */
  readonly W: Map<number, number>;
  /** By thread id in the launch: its accesses of release counts up to this. */
  readonly S: Map<number, number>;
  /** -1, or the block a threadfenceBlock() release reaches (no other block acquires it). */
  block: number;
  /** The block of the thread that released it; -1 when merged from several (an atomic's). */
  origin: number;
}

const newClock = (): Clock => ({ E: new Map(), W: new Map(), S: new Map(), block: -1, origin: -1 });

function joinInto(into: Clock, from: Clock | undefined): void {
  if (!from) return;
  for (const [k, v] of from.E) if ((into.E.get(k) ?? -1) < v) into.E.set(k, v);
  for (const [k, v] of from.W) if ((into.W.get(k) ?? -1) < v) into.W.set(k, v);
  for (const [k, v] of from.S) if ((into.S.get(k) ?? -1) < v) into.S.set(k, v);
}

/** Whether clock `k` holds an access of thread `g1` (block `b1`) made at block epoch `e1`, warp epoch `w1` (of warp `warpKey`), release count `s1`. */
function covers(k: Clock | undefined, g1: number, b1: number, e1: number, warpKey: number, w1: number, s1: number): boolean {
  return k !== undefined && ((k.E.get(b1) ?? -1) > e1 || (k.W.get(warpKey) ?? -1) > w1 || (k.S.get(g1) ?? -1) >= s1);
}

/** The race state of one array of global or shared memory. */
export interface Shadow {
  readonly name: string;
  readonly space: "global" | "shared";
  /** The array's dimensions (row-major), to name an element by its indices; null for a flat array. */
  readonly dims: readonly number[] | null;
  readonly rec: Int32Array;
  /** The clock the last release left on an element, by element. */
  readonly sync: Map<number, Clock>;
}

/** How an access takes part in the memory model. */
const Kind = { Read: 0, Write: 1, Atomic: 2, LoadAcquire: 3, LoadVolatile: 4, StoreRelease: 5, StoreVolatile: 6 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The detector of one compiled kernel; `start` readies it for a launch. */
export class RaceDetector {
  private ctx!: FaultContext;
  private grid: Dim3 = [1, 1, 1];
  private blockDim: Dim3 = [1, 1, 1];
  private nT = 1;
  private nW = 1;
  private shadows = new WeakMap<object, Shadow>();
  private sharedShadows: Shadow[] = [];
  /** The running block (linear), thread (linear in the block) and the block's barrier epoch. */
  private b = 0;
  private t = 0;
  private e = 0;
  private warpEp = new Int32Array(1);
  private seq = new Int32Array(1);
  private own: (Clock | undefined)[] = [];
  private warpK: (Clock | undefined)[] = [];
  private blockK: Clock | undefined;
  /**
   * Clocks met by volatile loads and atomics, acquired at the thread's next fence: every one at
   * a threadfence(), those released in the thread's own block at a threadfenceBlock().
   */
  private pending: (Clock | undefined)[] = [];
  private pendingBlock: (Clock | undefined)[] = [];
  /** What the thread's last fence published, for the volatile stores and atomics after it. */
  private fenced: (Clock | undefined)[] = [];

  start(ctx: FaultContext, grid: Dim3, block: Dim3): void {
    this.ctx = ctx;
    this.grid = grid;
    this.blockDim = block;
    this.nT = block[0] * block[1] * block[2];
    this.nW = Math.ceil(this.nT / 32);
    if (grid[0] * grid[1] * grid[2] * this.nT > 0x7fffffff) {
      throw new SimError(error("GK8010", ctx.kernel.span, `race checking follows at most 2^31 - 1 threads in a launch (kernel '${ctx.kernel.name}'): check races on a smaller grid`, []), ctx.sources);
    }
    this.shadows = new WeakMap();
    this.sharedShadows = [];
    this.warpEp = new Int32Array(this.nW);
    this.seq = new Int32Array(this.nT);
  }

  /** The shadow of a global array argument of `length` elements (one per array, however many parameters it is given to). */
  global(arr: object, name: string, length: number): Shadow {
    let s = this.shadows.get(arr);
    if (!s) this.shadows.set(arr, (s = makeShadow(name, "global", null, length)));
    return s;
  }

  /** The shadow of a shared array (`dims` null for a dynamic one), emptied at the start of every block. */
  shared(arr: object, name: string, dims: readonly number[] | null, length: number): Shadow {
    const s = makeShadow(name, "shared", dims, length);
    this.shadows.set(arr, s);
    this.sharedShadows.push(s);
    return s;
  }

  /** The shadow of the array a device function, view or reference reaches; none for local memory. */
  of(arr: object): Shadow | undefined {
    return this.shadows.get(arr);
  }

  beginBlock(bx: number, by: number, bz: number): void {
    this.b = bx + this.grid[0] * (by + this.grid[1] * bz);
    this.e = 0;
    this.warpEp.fill(0);
    this.seq.fill(0);
    this.own = new Array(this.nT);
    this.pending = new Array(this.nT);
    this.pendingBlock = new Array(this.nT);
    this.fenced = new Array(this.nT);
    this.warpK = new Array(this.nW);
    this.blockK = undefined;
    for (const s of this.sharedShadows) {
      s.rec.fill(-1);
      s.sync.clear();
    }
  }

  thread(i: number): void {
    this.t = i;
  }

  /** Every thread of the block passed a barrier: what each knows, all know. */
  barrier(): void {
    this.e++;
    let k = this.blockK;
    for (const c of [...this.own, ...this.warpK]) {
      if (!c) continue;
      k ??= newClock();
      joinInto(k, c);
    }
    this.blockK = k;
    this.own = new Array(this.nT);
    this.warpK = new Array(this.nW);
  }

  /** The threads of warp `w` completed a syncWarp(). */
  syncWarp(w: number): void {
    this.warpEp[w]!++;
    const hi = Math.min(this.nT, (w + 1) * 32);
    for (let i = w * 32; i < hi; i++) {
      const c = this.own[i];
      if (!c) continue;
      joinInto((this.warpK[w] ??= newClock()), c);
      this.own[i] = undefined;
    }
  }

  /** threadfence() (`device`) or threadfenceBlock(): acquires what the thread's volatile loads and atomics met, and publishes for its later stores. */
  fence(device: boolean): void {
    const t = this.t;
    const p = device ? this.pending[t] : this.pendingBlock[t];
    if (p) joinInto((this.own[t] ??= newClock()), p);
    if (device) this.pending[t] = undefined;
    this.pendingBlock[t] = undefined;
    const c = this.publish();
    if (!device) c.block = this.b;
    this.fenced[t] = c;
  }

  // The hooks generated code calls: shadow (undefined for local memory), flat element offset, site.
  r(s: Shadow | undefined, o: number, site: number): void {
    if (s) this.access(s, o, site, Kind.Read);
  }
  /** A plain store; `arr` and `v` (the value as stored) tell a report whether both writes stored the same value. */
  w(s: Shadow | undefined, o: number, site: number, arr?: ArrayLike<unknown>, v?: unknown): void {
    if (s) this.access(s, o, site, Kind.Write, arr, v);
  }
  a(s: Shadow | undefined, o: number, site: number): void {
    if (s) this.access(s, o, site, Kind.Atomic);
  }
  la(s: Shadow | undefined, o: number, site: number): void {
    if (s) this.access(s, o, site, Kind.LoadAcquire);
  }
  lv(s: Shadow | undefined, o: number, site: number): void {
    if (s) this.access(s, o, site, Kind.LoadVolatile);
  }
  sr(s: Shadow | undefined, o: number, site: number, arr?: ArrayLike<unknown>, v?: unknown): void {
    if (s) this.access(s, o, site, Kind.StoreRelease, arr, v);
  }
  sv(s: Shadow | undefined, o: number, site: number, arr?: ArrayLike<unknown>, v?: unknown): void {
    if (s) this.access(s, o, site, Kind.StoreVolatile, arr, v);
  }
  /** `n` consecutive elements read (a vector, a struct) from `o` on. */
  rn(s: Shadow | undefined, o: number, n: number, site: number): void {
    if (s) for (let k = 0; k < n; k++) this.access(s, o + k, site, Kind.Read);
  }
  wn(s: Shadow | undefined, o: number, n: number, site: number): void {
    if (s) for (let k = 0; k < n; k++) this.access(s, o + k, site, Kind.Write);
  }

  private access(s: Shadow, o: number, site: number, kind: Kind, arr?: ArrayLike<unknown>, v?: unknown): void {
    const rec = s.rec;
    const base = o * STRIDE;
    const g = this.b * this.nT + this.t;
    const strong = kind !== Kind.Read && kind !== Kind.Write;
    const writes = kind === Kind.Write || kind === Kind.Atomic || kind === Kind.StoreRelease || kind === Kind.StoreVolatile;
    if (this.conflicts(rec, base, g, strong)) this.report(s, o, site, writes, rec, base, arr, v);
    if (writes) {
      if (this.conflicts(rec, base + R1, g, strong)) this.report(s, o, site, true, rec, base + R1);
      if (this.conflicts(rec, base + R2, g, strong)) this.report(s, o, site, true, rec, base + R2);
      this.record(rec, base, g, site, strong);
      this.release(s, o, kind);
    } else {
      // Keep the last read and the last one by another thread.
      if (rec[base + R1 + G] !== g && rec[base + R1 + G]! >= 0) for (let k = 0; k < REC; k++) rec[base + R2 + k] = rec[base + R1 + k]!;
      this.record(rec, base + R1, g, site, strong);
      if (kind === Kind.LoadAcquire) this.acquire(s.sync.get(o), false);
      else if (kind === Kind.LoadVolatile) this.acquire(s.sync.get(o), true);
    }
    if (kind === Kind.Atomic) this.acquire(s.sync.get(o), true);
  }

  private record(rec: Int32Array, at: number, g: number, site: number, strong: boolean): void {
    const t = this.t;
    rec[at + G] = g;
    rec[at + EPOCH] = this.e;
    rec[at + WARP] = this.warpEp[t >> 5]!;
    rec[at + SEQ] = this.seq[t]!;
    rec[at + SITE] = site;
    rec[at + STRONG] = strong ? 1 : 0;
  }

  /** Whether the access recorded at `at` conflicts with one by thread `g` now: another thread's, not both ordered, and nothing orders them. */
  private conflicts(rec: Int32Array, at: number, g: number, strong: boolean): boolean {
    const g1 = rec[at + G]!;
    if (g1 < 0 || g1 === g || (strong && rec[at + STRONG] === 1)) return false;
    const nT = this.nT;
    const b1 = Math.floor(g1 / nT);
    const t1 = g1 - b1 * nT;
    const e1 = rec[at + EPOCH]!;
    const w1 = rec[at + WARP]!;
    if (b1 === this.b) {
      if (e1 < this.e) return false;
      if (t1 >> 5 === this.t >> 5 && w1 < this.warpEp[this.t >> 5]!) return false;
    }
    if (this.blockK === undefined && this.warpK[this.t >> 5] === undefined && this.own[this.t] === undefined) return true;
    const s1 = rec[at + SEQ]!;
    const warpKey = b1 * this.nW + (t1 >> 5);
    return !(covers(this.blockK, g1, b1, e1, warpKey, w1, s1) || covers(this.warpK[this.t >> 5], g1, b1, e1, warpKey, w1, s1) || covers(this.own[this.t], g1, b1, e1, warpKey, w1, s1));
  }

  /** The running thread's clock now, counted as a release: what it did so far is in it, what it does next is not. */
  private publish(): Clock {
    const t = this.t;
    const w = t >> 5;
    const c = newClock();
    c.origin = this.b;
    joinInto(c, this.blockK);
    joinInto(c, this.warpK[w]);
    joinInto(c, this.own[t]);
    c.E.set(this.b, Math.max(c.E.get(this.b) ?? -1, this.e));
    const wk = this.b * this.nW + w;
    c.W.set(wk, Math.max(c.W.get(wk) ?? -1, this.warpEp[w]!));
    c.S.set(this.b * this.nT + t, this.seq[t]!);
    this.seq[t]!++;
    return c;
  }

  /** What a write leaves on its element for acquirers: a release's clock, a fenced store's, or (a plain store) nothing. */
  private release(s: Shadow, o: number, kind: Kind): void {
    if (kind === Kind.StoreRelease) s.sync.set(o, this.publish());
    else if (kind === Kind.StoreVolatile || kind === Kind.Atomic) {
      const f = this.fenced[this.t];
      if (kind === Kind.StoreVolatile || !f) {
        if (f) s.sync.set(o, f);
        else if (kind === Kind.StoreVolatile) s.sync.delete(o);
      } else {
        // An atomic continues the releases before it on the element.
        const c = newClock();
        joinInto(c, s.sync.get(o));
        joinInto(c, f);
        c.block = f.block;
        c.origin = s.sync.has(o) ? -1 : f.origin;
        s.sync.set(o, c);
      }
    } else if (s.sync.size) s.sync.delete(o);
  }

  /** Takes a release's clock: now (`loadAcquire`), or at the thread's next fence (`later`). */
  private acquire(c: Clock | undefined, later: boolean): void {
    if (!c || (c.block >= 0 && c.block !== this.b)) return;
    const t = this.t;
    if (later) {
      joinInto((this.pending[t] ??= newClock()), c);
      if (c.origin === this.b) joinInto((this.pendingBlock[t] ??= newClock()), c);
    } else joinInto((this.own[t] ??= newClock()), c);
  }

  private report(s: Shadow, o: number, site: number, writes: boolean, rec: Int32Array, at: number, arr?: ArrayLike<unknown>, v?: unknown): never {
    throw raceError(this.ctx, {
      shadow: s,
      offset: o,
      now: { g: this.b * this.nT + this.t, site, writes },
      before: { g: rec[at + G]!, site: rec[at + SITE]!, writes: at % STRIDE === 0 },
      same: at % STRIDE === 0 && writes && arr !== undefined ? Object.is(arr[o], v) : undefined,
      nT: this.nT,
      grid: this.grid,
      block: this.blockDim,
    });
  }
}

function makeShadow(name: string, space: "global" | "shared", dims: readonly number[] | null, length: number): Shadow {
  return { name, space, dims, rec: new Int32Array(Math.max(0, length) * STRIDE).fill(-1), sync: new Map() };
}

interface RaceAccess {
  readonly g: number;
  readonly site: number;
  readonly writes: boolean;
}

interface Race {
  readonly shadow: Shadow;
  readonly offset: number;
  readonly now: RaceAccess;
  readonly before: RaceAccess;
  /** Both wrote, and the second stored the value the first left (undefined: not known). */
  readonly same: boolean | undefined;
  readonly nT: number;
  readonly grid: Dim3;
  readonly block: Dim3;
}

function coords(i: number, d: Dim3): Dim3 {
  return [i % d[0], Math.floor(i / d[0]) % d[1], Math.floor(i / (d[0] * d[1]))];
}

/** "line 12, column 5" (of another file when it is not the kernel's); a byte offset without the source. */
function placeOf(ctx: FaultContext, s: Span | undefined): string {
  if (!s) return "an unknown place";
  const f = ctx.sources?.get(s.file);
  const other = s.file === ctx.kernel.file ? "" : ` of ${s.file}`;
  if (!f) return `offset ${s.start} of ${s.file}`;
  const { line, col } = lineColOf(f, s.start);
  return `line ${line}, column ${col}${other}`;
}

/** "tile[2][5]" from a flat offset and the array's dimensions (a shared scalar is an array of one: "x[0]"). */
function elementName(s: Shadow, o: number): string {
  if (s.dims === null || s.dims.length === 1) return `${s.name}[${o}]`;
  const idx: number[] = [];
  let rest = o;
  for (let d = s.dims.length - 1; d >= 0; d--) {
    idx.unshift(rest % s.dims[d]!);
    rest = Math.floor(rest / s.dims[d]!);
  }
  return `${s.name}${idx.map((i) => `[${i}]`).join("")}`;
}

/** GK8040, at the second access (in the simulator's order), with a note at the first. */
export function raceError(ctx: FaultContext, r: Race): SimError {
  const who = (a: RaceAccess) => {
    const b = Math.floor(a.g / r.nT);
    return `thread ${dim3(coords(a.g - b * r.nT, r.block))} of block ${dim3(coords(b, r.grid))}`;
  };
  const what = (a: RaceAccess, past: boolean) => {
    const site = ctx.sites.get(a.site);
    if (site?.kind === "atomic") return `${past ? "applied" : "applies"} ${site.builtin} to`;
    return a.writes ? (past ? "wrote" : "writes") : past ? "read" : "reads";
  };
  const nowSite = ctx.sites.get(r.now.site);
  const beforeSite = ctx.sites.get(r.before.site);
  const element = `${r.shadow.space} ${elementName(r.shadow, r.offset)}`;
  const sameBlock = Math.floor(r.now.g / r.nT) === Math.floor(r.before.g / r.nT);
  const order = sameBlock
    ? r.shadow.space === "shared"
      ? "with no barrier() between them"
      : "with no barrier() between them and no release/acquire ordering them"
    : "and nothing orders them: threads of different blocks are ordered only by a release and an acquire (storeRelease/loadAcquire, or threadfence() with a volatile or atomic flag)";
  const same = r.same ? "; both wrote the same value, which is still a race: a GPU may let either write land, and a read may see neither" : "";
  const message =
    `data race on ${element}: ${who(r.now)} ${what(r.now, false)} it at ${placeOf(ctx, nowSite?.span)}, ` +
    `and ${who(r.before)} ${what(r.before, true)} it at ${placeOf(ctx, beforeSite?.span)}, ${order}${same} (kernel '${ctx.kernel.name}')`;
  const notes: RelatedNote[] = [];
  if (beforeSite) notes.push({ message: `${who(r.before)} ${what(r.before, true)} ${elementName(r.shadow, r.offset)} here`, span: beforeSite.span });
  notes.push({ message: `in kernel '${ctx.kernel.name}': two accesses of different threads to one element, one a write, must be ordered (spec/memory-model.md)`, span: ctx.kernel.span });
  return new SimError(error("GK8040", nowSite?.span, message, notes), ctx.sources);
}

/**
 * The simulator's errors. Generated code throws a `Fault` (a plain value: what went wrong at
 * which site); the code that runs threads knows which thread was running and wraps it in a
 * `LocatedFault`; `explainFault` turns that into a `SimError` carrying a Diagnostic whose
 * span is the `.gk` expression and whose message names the kernel, thread and block.
 * Anything else thrown while a kernel runs is a bug in the simulator and becomes GK9001.
 */
import type { DiagnosticCode } from "../../diagnostics/catalog.js";
import { error, type Diagnostic, type RelatedNote } from "../../diagnostics/diagnostic.js";
import { lineColOf, type SourceMap, type Span } from "../../diagnostics/source.js";
import type { Function } from "../../ir/nodes.js";
import { sizeOf, typeToString } from "../../ir/types.js";
import type { Dim3 } from "../../ir/limits.js";
import type { Site, SiteTable } from "../../codegen/js/sites.js";

/** An error of a simulated kernel launch: `diagnostic` says what, where and in which thread. */
export class SimError extends Error {
  override readonly name = "SimError";
  readonly diagnostic: Diagnostic;

  constructor(diagnostic: Diagnostic, sources?: SourceMap, cause?: unknown) {
    const at = diagnostic.span ? ` (${sources ? sources.locate(diagnostic.span) : diagnostic.span.file})` : "";
    super(`${diagnostic.code}: ${diagnostic.message}${at}`, cause === undefined ? undefined : { cause });
    this.diagnostic = diagnostic;
  }

  get code(): DiagnosticCode {
    return this.diagnostic.code;
  }
}

export type FaultKind = "bounds" | "uninitialized" | "divisionByZero" | "budget" | "misaligned" | "viewRange" | "copyCount";

/** Where a view lies in its array: its first element, its stride, and the site that made it (which names the array). */
export interface ViewPlace {
  readonly offset: number;
  readonly stride: number;
  readonly site: number;
}

/** What generated code throws: a fault of a kind at a site, with the indices of an access. */
export class Fault {
  constructor(
    readonly kind: FaultKind,
    readonly site: number,
    readonly indices: readonly (number | bigint)[] = [],
    /** The length of a global array, dynamic shared array or view, for out-of-bounds accesses of one; a viewed array's, for `viewRange`; the lanes of a misaligned vector access. */
    readonly length = 0,
    /** For an access through a view, or a view that does not fit its array (`viewRange`, whose length is `indices[0]`). */
    readonly view?: ViewPlace,
  ) {}
}

/** A fault (or any other exception) with the thread that was running when it was thrown. */
export class LocatedFault {
  constructor(
    readonly cause: unknown,
    readonly thread: Dim3,
    readonly block: Dim3,
  ) {}
}

/**
 * Threads of a block that did not all reach the same barrier, found by the region path
 * (src/codegen/js/regions/launch.ts): threads by their index in the block (x fastest), barriers by their
 * barrier point. `first` stopped at `firstAt`, or ended when `firstAt` is -1; `second` stopped
 * at `secondAt`. The runner turns it into the generator scheduler's GK8002 (scheduler.ts).
 */
export class BarrierDivergence {
  constructor(
    readonly block: Dim3,
    readonly first: number,
    readonly firstAt: number,
    readonly second: number,
    readonly secondAt: number,
  ) {}
}

/** A launch of fewer threads than this gets the step budget of this many (kernel.ts). */
export const MIN_BUDGET_THREADS = 1000;

/** What `$sim.block()` calls when a block of the launch has run (kernel.ts sets it for a launch that shows progress). */
let blockHook: (() => void) | undefined;

export function setBlockHook(hook: (() => void) | undefined): void {
  blockHook = hook;
}

/** The `$sim` object generated code calls on its cold paths; each call but block() throws. */
export const faultHandlers = {
  /** A block has run (once per block, for progress). */
  block(): void {
    blockHook?.();
  },
  bounds(site: number, indices: readonly (number | bigint)[], length: number): never {
    throw new Fault("bounds", site, indices, length);
  },
  /** An index out of the view's `length` elements, which are elements offset, offset + stride, ... of the array `viewSite` made it of. */
  viewBounds(site: number, indices: readonly (number | bigint)[], length: number, offset: number, stride: number, viewSite: number): never {
    throw new Fault("bounds", site, indices, length, { offset, stride, site: viewSite });
  },
  /** A view made at `site` (offset, length, stride) whose elements are not all elements of its array of `arrayLength`. */
  viewRange(site: number, offset: number, length: number, stride: number, arrayLength: number): never {
    throw new Fault("viewRange", site, [length], arrayLength, { offset, stride, site });
  },
  uninitialized(site: number, indices: readonly (number | bigint)[]): never {
    throw new Fault("uninitialized", site, indices);
  },
  budget(site: number): never {
    throw new Fault("budget", site);
  },
  /** A vector access of `lanes` elements whose first element's flat index is not a multiple of `lanes`. */
  misaligned(site: number, indices: readonly (number | bigint)[], lanes: number): never {
    throw new Fault("misaligned", site, indices, lanes);
  },
  divisionByZero(site: number): never {
    throw new Fault("divisionByZero", site);
  },
  /** An asynchronous copy of `lanes` elements told to read `valid` of them, which is not in 0..lanes. */
  copyCount(site: number, valid: number, lanes: number): never {
    throw new Fault("copyCount", site, [valid], lanes);
  },
  /** Thread `t2` stopped at barrier point `b2` where thread `t1` stopped at `b1`. */
  differentBarriers(bx: number, by: number, bz: number, t1: number, b1: number, t2: number, b2: number): never {
    throw new BarrierDivergence([bx, by, bz], t1, b1, t2, b2);
  },
  /** Thread `ended` ended while thread `waiter` waits at barrier point `b`. */
  exitedAtBarrier(bx: number, by: number, bz: number, ended: number, waiter: number, b: number): never {
    throw new BarrierDivergence([bx, by, bz], ended, -1, waiter, b);
  },
  located(cause: unknown, tx: number, ty: number, tz: number, bx: number, by: number, bz: number): LocatedFault | BarrierDivergence {
    if (cause instanceof LocatedFault || cause instanceof BarrierDivergence) return cause;
    return new LocatedFault(cause, [tx, ty, tz], [bx, by, bz]);
  },
};
export type FaultHandlers = typeof faultHandlers;

/** What explaining a fault needs to know about the kernel. */
export interface FaultContext {
  readonly kernel: Function;
  readonly sites: SiteTable;
  readonly sources: SourceMap | undefined;
  /** The launch's budget; where it comes from stepsPerThread, that and the launch's threads. */
  readonly stepBudget: number;
  readonly perThread?: number;
  readonly threads?: number;
}

export function dim3(d: Dim3): string {
  return `(${d[0]},${d[1]},${d[2]})`;
}

/** "line 12" (or "line 12 of util.gk" in another file); a byte offset when the source is not loaded. */
export function lineOf(ctx: FaultContext, s: Span): string {
  const f = ctx.sources?.get(s.file);
  const other = s.file === ctx.kernel.file ? "" : ` of ${s.file}`;
  if (!f) return `offset ${s.start}${other || ` of ${s.file}`}`;
  return `line ${lineColOf(f, s.start).line}${other}`;
}

/**
 * A barrier's or warp operation's span, and the calls that led to it, from its identity
 * ("c4.c9.b12", "c4.w7"): "line 12 via the call of f at line 9".
 */
export function stopPlace(ctx: FaultContext, id: string): { span: Span | undefined; text: string } {
  const steps = id.split(".").map((p) => ({ kind: p[0], site: ctx.sites.get(Number(p.slice(1))) }));
  const last = steps[steps.length - 1];
  const span = last?.kind === "b" || last?.kind === "w" ? last.site?.span : undefined;
  if (!span) return { span: undefined, text: `an unknown place (${id})` };
  const via = steps.slice(0, -1).map((s) => (s.site ? ` via the call of ${s.site.kind === "call" ? s.site.callee : "?"} at ${lineOf(ctx, s.site.span)}` : ""));
  return { span, text: `${lineOf(ctx, span)}${via.reverse().join("")}` };
}

function sourceText(ctx: FaultContext, s: Span): string | undefined {
  const f = ctx.sources?.get(s.file);
  return f ? f.text.slice(s.start, s.end).replace(/\s+/g, " ") : undefined;
}

/** "kernel 'k', thread (1,0,0), block (0,0,0)", naming the device_fn when the site is in one. */
function who(ctx: FaultContext, fn: string | undefined, thread: Dim3, block: Dim3): string {
  const k = ctx.kernel.name;
  const inFn = fn !== undefined && fn !== k ? `device_fn '${fn}' called by ` : "";
  return `${inFn}kernel '${k}', thread ${dim3(thread)}, block ${dim3(block)}`;
}

function threadNote(ctx: FaultContext, thread: Dim3, block: Dim3): RelatedNote {
  return { message: `in kernel '${ctx.kernel.name}', thread ${dim3(thread)} of block ${dim3(block)}`, span: ctx.kernel.span };
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

type ArraySite = Site & { kind: "access" | "atomic" | "elemRef" };

function accessText(site: ArraySite, indices: readonly (number | bigint)[]): string {
  const target = `${site.array.name}${indices.map((i) => `[${i}]`).join("")}`;
  if (site.kind === "atomic") return `${site.builtin} on ${target}`;
  if (site.kind === "elemRef") return `reference to ${target} for parameter '${site.param}' of ${site.callee}()`;
  return `${site.access} ${target}`;
}

/** An index of an array field of a struct value out of its bounds. */
function fieldBoundsMessage(site: Site & { kind: "field" }, f: Fault): string {
  const t = site.type;
  const dim = Math.max(0, t.dims.findIndex((d, i) => f.indices[i]! < 0 || f.indices[i]! >= d));
  const which = t.dims.length === 1 ? "the index" : `the ${ORDINALS[dim] ?? `#${dim + 1}`} index`;
  return `out-of-bounds index ${f.indices.map((i) => `[${i}]`).join("")} of an array field (${typeToString(t)}): ${which} must be in 0..${t.dims[dim]! - 1}`;
}

/** A vector access whose first element is not at a multiple of its lanes. */
function misalignedMessage(site: Site & { kind: "access" }, f: Fault): string {
  const t = site.array.type;
  const flat = t.kind !== "array" ? Number(f.indices[0]) : f.indices.reduce((acc: number, x, d) => acc * t.dims[d]! + Number(x), 0);
  const elem = typeToString(t.elem);
  const n = f.length;
  const where = t.kind !== "array" || t.dims.length === 1 ? `element ${flat}` : `element ${flat} of ${site.array.name} (${typeToString(t)}, row-major)`;
  return `misaligned ${n}-lane vector ${site.access} of ${site.array.name}${f.indices.map((i) => `[${i}]`).join("")}: it starts at ${where}, not a multiple of ${n}; a ${n}-lane access of ${elem} must start at one (on the GPU it is one ${n * sizeOf(t.elem)}-byte access, which faults otherwise)`;
}

const elements = (n: number) => `${n} element${n === 1 ? "" : "s"}`;

/** "a view of 'tile' from its element 16, every 2nd element" (`view.site` made it). */
function viewOrigin(ctx: FaultContext, view: ViewPlace): string {
  const made = ctx.sites.get(view.site);
  const of = made?.kind === "view" ? `'${made.array.name}'` : "an array";
  const every = view.stride === 1 ? "" : `, every ${view.stride === 0 ? "0th (the same)" : ordinal(view.stride)} element`;
  return `a view of ${of} from its element ${view.offset}${every}`;
}

function ordinal(n: number): string {
  const m = Math.abs(n) % 100;
  const suffix = m >= 11 && m <= 13 ? "th" : ["th", "st", "nd", "rd"][Math.abs(n) % 10] ?? "th";
  return `${n}${suffix}`;
}

function boundsMessage(ctx: FaultContext, site: ArraySite, f: Fault): string {
  const t = site.array.type;
  const name = site.array.name;
  if (t.kind === "view") {
    const origin = f.view ? `, ${viewOrigin(ctx, f.view)}` : "";
    return `out-of-bounds ${accessText(site, f.indices)}: the view '${name}' has ${elements(f.length)}${origin}`;
  }
  if (t.kind === "global") return `out-of-bounds ${accessText(site, f.indices)}: ${name} has ${elements(f.length)}`;
  if (t.kind === "dynamicShared") return `out-of-bounds ${accessText(site, f.indices)}: ${name} (${typeToString(t)}) has ${elements(f.length)} in this launch`;
  const dim = Math.max(
    0,
    t.dims.findIndex((d, i) => {
      const x = f.indices[i]!;
      return x < 0 || x >= d;
    }),
  );
  const which = t.dims.length === 1 ? "the index" : `the ${ORDINALS[dim] ?? `#${dim + 1}`} index`;
  const space = t.space === "local" ? "local " : "";
  return `out-of-bounds ${accessText(site, f.indices)}: ${name} is ${space}${typeToString(t)}, so ${which} must be in 0..${t.dims[dim]! - 1}`;
}

/** GK8001 for a view whose elements are not all its array's. */
function viewRangeMessage(site: Site & { kind: "view" }, f: Fault): string {
  const length = Number(f.indices[0] ?? 0);
  const v = f.view!;
  const of = `'${site.array.name}' (${elements(f.length)})`;
  if (length < 0) return `a view of ${of} for parameter '${site.param}' of ${site.callee}() with length ${length}: a view has 0 or more elements`;
  const last = v.offset + (length - 1) * v.stride;
  const bad = v.offset < 0 || v.offset >= f.length ? v.offset : last;
  return `the view for parameter '${site.param}' of ${site.callee}() is ${elements(length)} of ${of} from element ${v.offset}, ${v.stride} apart, so it reaches element ${bad}, which ${of.slice(0, of.indexOf(" "))} does not have`;
}

function divisionMessage(ctx: FaultContext, site: Site & { kind: "division" }): string {
  const text = sourceText(ctx, site.span);
  const what = site.op === "div" ? "division" : "remainder";
  return text
    ? `integer ${what} by zero in '${text}' (${site.type.name})`
    : `integer ${what} by zero: an ${site.type.name} '${site.op === "div" ? "/" : "%"}' has divisor 0`;
}

/** The SimError for something thrown while a thread ran. */
export function explainFault(ctx: FaultContext, lf: LocatedFault): SimError {
  const { cause, thread, block } = lf;
  const site = cause instanceof Fault ? ctx.sites.get(cause.site) : undefined;
  if (!(cause instanceof Fault) || !site) return internalSimError(ctx, cause, thread, block);
  const where = who(ctx, site.fn, thread, block);
  const notes = [threadNote(ctx, thread, block)];
  const make = (code: DiagnosticCode, message: string) =>
    new SimError(error(code, site.span, `${message} (${where})`, notes), ctx.sources);
  switch (cause.kind) {
    case "bounds":
      if (site.kind === "field") return make("GK8001", fieldBoundsMessage(site, cause));
      if (site.kind !== "access" && site.kind !== "atomic" && site.kind !== "elemRef") break;
      return make("GK8001", boundsMessage(ctx, site, cause));
    case "misaligned":
      if (site.kind !== "access") break;
      return make("GK8030", misalignedMessage(site, cause));
    case "viewRange":
      if (site.kind !== "view" || !cause.view) break;
      return make("GK8001", viewRangeMessage(site, cause));
    case "uninitialized":
      if (site.kind === "ref") {
        return make(
          "GK8013",
          `read of shared memory through '${site.param.name}' (an inout parameter) before any thread of block ${dim3(block)} wrote it: store it first, and put a barrier() between the store and this read when another thread stores it`,
        );
      }
      if (site.kind !== "access" && site.kind !== "atomic") break;
      {
        const target = `shared ${site.array.name}${cause.indices.map((i) => `[${i}]`).join("")}`;
        const what = site.kind === "atomic" ? `${site.builtin} on ${target}` : `read of ${target}`;
        return make(
          "GK8013",
          `${what} before any thread of block ${dim3(block)} wrote it: store it first, and put a barrier() between the store and this ${site.kind === "atomic" ? site.builtin : "read"} when another thread stores it`,
        );
      }
    case "copyCount":
      if (site.kind !== "access") break;
      return make(
        "GK8053",
        `the valid count of an asynchronous copy from ${site.array.name} is ${String(cause.indices[0])}: a copy of ${cause.length} elements reads 0 to ${cause.length} of them, and zero-fills the rest`,
      );
    case "divisionByZero":
      if (site.kind !== "division") break;
      return make("GK8003", divisionMessage(ctx, site));
    case "budget":
      if (site.kind !== "loop") break;
      return make(
        "GK8004",
        ctx.perThread === undefined
          ? `step budget exceeded: more than ${ctx.stepBudget} loop iterations in this launch; does this loop ever end? (raise SimOptions.stepBudget if it should run longer)`
          : `step budget exceeded: more than ${ctx.stepBudget.toLocaleString("en-US")} loop iterations in this launch (${ctx.perThread.toLocaleString("en-US")} per thread, ${ctx.threads!.toLocaleString("en-US")} threads${ctx.threads! < MIN_BUDGET_THREADS ? `, counted as ${MIN_BUDGET_THREADS.toLocaleString("en-US")}` : ""}); does this loop ever end? (if it should run longer: gkc run --steps-per-thread N, GK_STEPS_PER_THREAD=N, or openDevice({ sim: { stepsPerThread: N } }))`,
      );
  }
  return internalSimError(ctx, cause, thread, block);
}

/** A bug in the simulator (never the user's): GK9001 with the original exception as its cause. */
export function internalSimError(ctx: FaultContext, cause: unknown, thread?: Dim3, block?: Dim3): SimError {
  const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : cause instanceof Fault ? `fault ${cause.kind} at unknown site ${cause.site}` : String(cause);
  const notes = thread && block ? [threadNote(ctx, thread, block)] : [];
  const message = `internal error in the simulator (a bug in gk; please report it with the kernel that caused it): ${detail}`;
  return new SimError(error("GK9001", ctx.kernel.span, message, notes), ctx.sources, cause);
}

/** A user error found outside generated code (arguments, launch shape, barriers). */
export function simError(code: DiagnosticCode, span: Span | undefined, message: string, notes: RelatedNote[] = [], sources?: SourceMap): SimError {
  return new SimError(error(code, span, message, notes), sources);
}

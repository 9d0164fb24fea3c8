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
import type { Site, SiteTable } from "../../backends/js/sites.js";

export type Dim3 = readonly [number, number, number];

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

export type FaultKind = "bounds" | "uninitialized" | "divisionByZero" | "budget" | "misaligned";

/** What generated code throws: a fault of a kind at a site, with the indices of an access. */
export class Fault {
  constructor(
    readonly kind: FaultKind,
    readonly site: number,
    readonly indices: readonly (number | bigint)[] = [],
    /** The length of a global array, for out-of-bounds accesses of one; the lanes of a misaligned vector access. */
    readonly length = 0,
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
 * (src/backends/js/regions/launch.ts): threads by their index in the block (x fastest), barriers by their
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

/** The `$sim` object generated code calls on its cold paths; each call throws. */
export const faultHandlers = {
  bounds(site: number, indices: readonly (number | bigint)[], length: number): never {
    throw new Fault("bounds", site, indices, length);
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
  readonly stepBudget: number;
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

function accessText(site: Site & { kind: "access" | "atomic" }, indices: readonly (number | bigint)[]): string {
  const target = `${site.array.name}${indices.map((i) => `[${i}]`).join("")}`;
  if (site.kind === "atomic") return `${site.builtin} on ${target}`;
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
  const flat = t.kind === "global" ? Number(f.indices[0]) : f.indices.reduce((acc: number, x, d) => acc * t.dims[d]! + Number(x), 0);
  const elem = typeToString(t.elem);
  const n = f.length;
  const where = t.kind === "global" || t.dims.length === 1 ? `element ${flat}` : `element ${flat} of ${site.array.name} (${typeToString(t)}, row-major)`;
  return `misaligned ${n}-lane vector ${site.access} of ${site.array.name}${f.indices.map((i) => `[${i}]`).join("")}: it starts at ${where}, not a multiple of ${n}; a ${n}-lane access of ${elem} must start at one (on the GPU it is one ${n * sizeOf(t.elem)}-byte access, which faults otherwise)`;
}

function boundsMessage(site: Site & { kind: "access" | "atomic" }, f: Fault): string {
  const t = site.array.type;
  const name = site.array.name;
  if (t.kind === "global") {
    return `out-of-bounds ${accessText(site, f.indices)}: ${name} has ${f.length} element${f.length === 1 ? "" : "s"}`;
  }
  const dim = Math.max(
    0,
    t.dims.findIndex((d, i) => {
      const x = f.indices[i]!;
      return x < 0 || x >= d;
    }),
  );
  const which = t.dims.length === 1 ? "the index" : `the ${ORDINALS[dim] ?? `#${dim + 1}`} index`;
  const space = t.space === "shared" ? "" : "local ";
  return `out-of-bounds ${accessText(site, f.indices)}: ${name} is ${space}${typeToString(t)}, so ${which} must be in 0..${t.dims[dim]! - 1}`;
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
      if (site.kind !== "access" && site.kind !== "atomic") break;
      return make("GK8001", boundsMessage(site, cause));
    case "misaligned":
      if (site.kind !== "access") break;
      return make("GK8030", misalignedMessage(site, cause));
    case "uninitialized":
      if (site.kind !== "access" && site.kind !== "atomic") break;
      {
        const target = `shared ${site.array.name}${cause.indices.map((i) => `[${i}]`).join("")}`;
        const what = site.kind === "atomic" ? `${site.builtin} on ${target}` : `read of ${target}`;
        return make(
          "GK8013",
          `${what} before any thread of block ${dim3(block)} wrote it: store it first, and put a barrier() between the store and this ${site.kind === "atomic" ? site.builtin : "read"} when another thread stores it`,
        );
      }
    case "divisionByZero":
      if (site.kind !== "division") break;
      return make("GK8003", divisionMessage(ctx, site));
    case "budget":
      if (site.kind !== "loop") break;
      return make(
        "GK8004",
        `step budget exceeded: more than ${ctx.stepBudget} loop iterations in this launch; does this loop ever end? (raise SimOptions.stepBudget if it should run longer)`,
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

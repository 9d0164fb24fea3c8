/**
 * The compiler, one named step after another:
 *   load (read + parse every file)  →  check (AST → typed IR)  →  passes (fold)
 *   →  legalize (what the target lacks)  →  CUDA C++ (src/codegen)  →  cache + nvcc (src/build)
 *   →  run (launcher or simulator)
 * The front end (`frontEnd`) runs the steps up to legalize for a target, CUDA's unless told;
 * the target's record (src/ir/target.ts) is handed to the checker and to legalize. Each step
 * reports diagnostics into one log; a crash of the compiler itself becomes a GK9001
 * diagnostic, never a stack trace.
 */
import { DiagnosticLog, sortDiagnostics, type Diagnostic } from "./diagnostics/diagnostic.js";
import { SourceMap, type Span } from "./diagnostics/source.js";
import type { InstanceRequest } from "./check/instanceRequest.js";
import { checkLoadedProgram } from "./check/program.js";
import type { Module } from "./ir/nodes.js";
import { foldModule } from "./ir/passes/fold.js";
import { legalize } from "./ir/passes/legalize.js";
import type { Target } from "./ir/target.js";
import { CUDA_TARGET } from "./codegen/cuda/target.js";
import type * as ast from "./parser/ast.js";
import { loadProgram, nodeHost, type LoadedProgram, type SourceHost } from "./load/program.js";

export interface Pass {
  readonly name: string;
  readonly run: (m: Module) => Module;
}

/** The IR passes, in order. `gkc ir --after <name>` prints the IR after one of them. */
export const PASSES: readonly Pass[] = [{ name: "fold", run: foldModule }];

export interface FrontEndOptions {
  readonly host?: SourceHost;
  /**
   * Instances of the entry file's generic kernels to make besides those its launch
   * statements name (`{ kernel: "reduce", args: ["f32", 256] }`): the IR's kernels then
   * include them, named `reduce<f32, 256>`.
   */
  readonly instances?: readonly InstanceRequest[];
  /** Stop after this pass ("check" stops before any pass); a front end that stops early does not legalize. */
  readonly after?: string;
  /** The target whose record the checker and legalize read; CUDA's by default. */
  readonly target?: Target;
}

export interface FrontEndResult {
  /** The IR, when the program has no errors. */
  readonly ir?: Module;
  readonly sources: SourceMap;
  /** Sorted by file and position. */
  readonly diagnostics: readonly Diagnostic[];
}

export function frontEnd(entry: string, opts: FrontEndOptions = {}): FrontEndResult {
  const sources = new SourceMap();
  const log = new DiagnosticLog();
  let ir: Module | undefined;
  let diagnostics: readonly Diagnostic[];
  const target = opts.target ?? CUDA_TARGET;
  try {
    const program = loadProgram(entry, opts.host ?? nodeHost, sources, log);
    const parsed = log.all.length;
    const checked = program && checkLoadedProgram(program, log, target, opts.instances);
    const passed = checked && runPasses(checked, opts.after);
    ir = passed && (opts.after === undefined ? legalized(passed, target, log) : passed);
    diagnostics = program ? withoutCascades(log.all.slice(0, parsed), log.all.slice(parsed), program) : log.all;
  } catch (e) {
    // The parser keeps programs within the stack of every later step (parser/nesting.ts);
    // should one still run out, the diagnostic at least names the file.
    log.add(internalError(e, sources.get(entry) ? { file: entry, start: 0, end: 0 } : undefined));
    ir = undefined;
    diagnostics = log.all;
  }
  return { ir, sources, diagnostics: sortDiagnostics(diagnostics) };
}

/** Checker diagnostics that a missing declaration can cause: after a parse error they are likely its echoes. */
const ECHO_CODES = new Set(["GK2001", "GK2004", "GK5001", "GK6002"]);

/**
 * A syntax error drops what it broke from the AST, so checking a file with parse errors
 * can report echoes of it (a name whose declaration was dropped is "unknown"). Keep
 * checker diagnostics of such a file only where they stand in a declaration that parsed
 * without error, and never the kinds a dropped declaration causes.
 */
function withoutCascades(parseDiags: readonly Diagnostic[], checkDiags: readonly Diagnostic[], program: LoadedProgram): Diagnostic[] {
  // Where each file's syntax errors start, sorted (a file may have a hundred thousand).
  const broken = new Map<string, number[]>();
  for (const d of parseDiags) {
    if (d.severity !== "error" || !d.span) continue;
    let starts = broken.get(d.span.file);
    if (!starts) broken.set(d.span.file, (starts = []));
    starts.push(d.span.start);
  }
  if (broken.size === 0) return [...parseDiags, ...checkDiags];
  for (const starts of broken.values()) starts.sort((a, b) => a - b);
  const kept = checkDiags.filter((d) => {
    const errs = d.span && broken.get(d.span.file);
    if (!errs) return true;
    if (ECHO_CODES.has(d.code)) return false;
    const item = itemAround(program.files.get(d.span!.file)?.ast.items ?? [], d.span!);
    return item !== undefined && !anyWithin(errs, item.span.start, item.span.end);
  });
  return [...parseDiags, ...kept];
}

/** The item (in source order) whose span contains `span`, by binary search. */
function itemAround(items: readonly ast.Item[], span: Span): ast.Item | undefined {
  let lo = 0;
  let hi = items.length - 1;
  let found: ast.Item | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.span.start <= span.start) (found = items[mid]), (lo = mid + 1);
    else hi = mid - 1;
  }
  return found && span.end <= found.span.end ? found : undefined;
}

/** Whether a sorted list holds a value in [from, to]. */
function anyWithin(sorted: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= to;
}

export function runPasses(m: Module, after?: string): Module {
  if (after === "check") return m;
  let ir = m;
  for (const p of PASSES) {
    ir = p.run(ir);
    if (p.name === after) break;
  }
  return ir;
}

/** The module when its target has all it uses; else undefined, with a GK7008 per capability it lacks in the log. */
function legalized(m: Module, target: Target, log: DiagnosticLog): Module | undefined {
  const refused = legalize(m, target);
  for (const d of refused) log.add(d);
  return refused.length === 0 ? m : undefined;
}

/** A crash of the compiler as a diagnostic: it is always a bug in gk. */
export function internalError(e: unknown, span?: Span): Diagnostic {
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return { code: "GK1014", severity: "error", message: "the program nests too deeply for gk (expressions or statements hundreds of levels deep): split it into several statements or device functions", span, notes: [] };
  }
  // The JavaScript stack only on request (GK_DEBUG=1): users get a message, not a stack trace.
  const stack = e instanceof Error && e.stack && process.env.GK_DEBUG ? `\n${e.stack.split("\n").slice(1, 4).join("\n")}` : "";
  const detail = e instanceof Error ? `${e.message}${stack}` : String(e);
  return {
    code: "GK9001",
    severity: "error",
    message: `internal compiler error (a bug in gk; please report it with the input that caused it): ${detail}`,
    notes: [],
  };
}

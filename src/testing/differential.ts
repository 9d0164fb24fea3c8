/**
 * The machinery of differential runs over many generated kernels, shared by the CI tier
 * (check, build PTX, simulate; no GPU) and the GPU tier (GPU against simulator):
 *
 * - kernel i of a run is drawn from its own seed (`kernelSeed`), so it can be regenerated
 *   and shrunk alone;
 * - kernels are checked, built and run in batches: one module per batch;
 * - a failing kernel is shrunk by fast-check, replaying its seed, to the smallest kernel
 *   that still fails the same way.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { formatDiagnostic } from "../diagnostics/format.js";
import type { SourceMap } from "../diagnostics/source.js";
import { lineColOf } from "../diagnostics/source.js";
import { emitCuda } from "../codegen/cuda/index.js";
import { CUDA_TARGET } from "../codegen/cuda/target.js";
import { parseInstanceSpelling } from "../ir/instances.js";
import type { Dim3 } from "../ir/limits.js";
import type { Module } from "../ir/nodes.js";
import type { AnyTypedArray } from "../ir/values.js";
import { memoryHost } from "../load/program.js";
import { frontEnd, runPasses } from "../pipeline.js";
import { nvccFlags } from "../build/build.js";
import { findNvcc, nvccArgs } from "../build/nvcc.js";
import { parseNvccOutput, type NvccMessage } from "../build/nvccMessages.js";
import { runInGroup } from "../build/processGroup.js";
import { launchExtras } from "../runtime/launchExtras.js";
import { compileKernel, runKernel, SimError, type SimOptions } from "../runtime/sim/index.js";
import { compareValues, describeMismatches } from "./compare.js";
import { arbKernel, arbProgram, cloneArgs, kernelAtLine, printBatch, type ArgValue, type Batch, type GeneratedKernel, type GenOptions, type Program } from "./gen/index.js";

/** The seed of kernel `i` of a run with seed `seed` (a 32-bit mix of both). */
export function kernelSeed(seed: number, i: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h | 0;
}

/** The program drawn from `seed` (the first value fast-check generates with it, as in a replay). */
export function sampleProgram(seed: number, gen: GenOptions = {}): Program {
  return fc.sample(arbProgram(gen), { seed, numRuns: 1 })[0]!;
}

export type Stage = "check" | "simulate" | "fold" | "nvcc" | "gpu";

/** Something wrong with one kernel of a batch. */
export interface Problem {
  /** The kernel's name as printed (GeneratedKernel.name: `k12`, also for the instance `k12<64>`). */
  readonly kernel: string;
  readonly stage: Stage;
  readonly detail: string;
}

export interface CheckedBatch {
  readonly batch: Batch;
  /** The IR after all passes, and straight from the checker; absent when the batch has errors. */
  readonly ir?: Module;
  readonly unfolded?: Module;
  readonly sources: SourceMap;
  readonly problems: readonly Problem[];
}

/**
 * Checks a batch as one module, with the instances of its generic kernels that its entries
 * run; every diagnostic (warnings included) is a problem of the kernel whose lines it points at.
 */
export function checkBatch(batch: Batch, file = "batch.gk"): CheckedBatch {
  const instances = batch.kernels.flatMap((k) => {
    const parsed = parseInstanceSpelling(k.kernel);
    return parsed && !("error" in parsed) ? [{ kernel: parsed.name, args: parsed.args }] : [];
  });
  const fe = frontEnd(file, { host: memoryHost({ [file]: batch.source }), after: "check", instances });
  const problems = fe.diagnostics.map((d): Problem => {
    const f = d.span && fe.sources.get(d.span.file);
    const at = f && d.span ? kernelAtLine(batch, lineColOf(f, d.span.start).line) : undefined;
    return { kernel: at?.name ?? "(unknown)", stage: "check", detail: formatDiagnostic(d, fe.sources) };
  });
  if (!fe.ir || problems.length) return { batch, sources: fe.sources, problems };
  return { batch, ir: runPasses(fe.ir), unfolded: fe.ir, sources: fe.sources, problems };
}

export type SimOutcome = { readonly outputs: ReadonlyMap<string, AnyTypedArray>; readonly ms: number } | { readonly error: SimError };

/** What `simulate` runs: a kernel, its launch, arguments, dynamic shared lengths and constant arrays (by name). */
export interface SimulatedKernel {
  readonly kernel: string;
  readonly grid: readonly number[];
  readonly block: readonly number[];
  readonly args: readonly ArgValue[];
  readonly shared?: Readonly<Record<string, number>>;
  readonly constants?: Readonly<Record<string, AnyTypedArray>>;
}

/** Runs a kernel on the simulator on copies of `args`; the arrays it may write, by name. `opts`: the simulator's (race checking, for one). */
export function simulate(ir: Module, sources: SourceMap, k: SimulatedKernel, opts: SimOptions = {}): SimOutcome {
  const fn = ir.kernels.find((f) => f.name === k.kernel)!;
  const args = cloneArgs(k.args);
  try {
    const extras = launchExtras(ir, fn, k.shared ?? {}, k.constants ?? {}, CUDA_TARGET.limits);
    const launch = { grid: k.grid as Dim3, block: k.block as Dim3, shared: extras.sharedLengths };
    const r = runKernel(compileKernel(ir, k.kernel, sources, opts), launch, args, extras.constants);
    const outputs = new Map<string, AnyTypedArray>();
    fn.params.forEach((p, i) => {
      if (p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly) outputs.set(p.name, args[i] as AnyTypedArray);
    });
    return { outputs, ms: r.ms };
  } catch (e) {
    if (e instanceof SimError) return { error: e };
    throw e;
  }
}

/**
 * Simulates one kernel of a checked batch twice, on the folded and on the unfolded IR: a
 * SimError means the generator made an ill-defined kernel (or the simulator has a bug), and
 * any difference between the two runs is a bug in constant folding.
 */
export function simulateBoth(c: CheckedBatch, k: GeneratedKernel): Problem[] {
  const folded = simulate(c.ir!, c.sources, k);
  if ("error" in folded) return [{ kernel: k.name, stage: "simulate", detail: folded.error.message }];
  const plain = simulate(c.unfolded!, c.sources, k);
  if ("error" in plain) return [{ kernel: k.name, stage: "fold", detail: `only the unfolded IR fails: ${plain.error.message}` }];
  const diffs = [...folded.outputs].flatMap(([name, a]) => {
    const elem = c.ir!.kernels.find((f) => f.name === k.kernel)!.params.find((p) => p.name === name)!;
    if (elem.type.kind !== "global") return [];
    return compareValues(name, elem.type.elem, a, plain.outputs.get(name)!).flatMap((c2) => describeMismatches(c2, ["folded", "unfolded"]));
  });
  return diffs.length ? [{ kernel: k.name, stage: "fold", detail: `the folded and the unfolded IR compute different results:\n${diffs.join("\n")}` }] : [];
}

export interface PtxResult {
  readonly ok: boolean;
  /** nvcc's errors and warnings, located at `.gk` lines through `#line`. */
  readonly messages: readonly NvccMessage[];
  readonly output: string;
  readonly ms: number;
}

/** Generates CUDA for a module and compiles it to PTX only (the quick half of a build; no cubin). */
export async function buildPtx(ir: Module, sources: SourceMap, o: { readonly dir: string; readonly name: string; readonly arch?: string; readonly fmad?: boolean }): Promise<PtxResult> {
  const t0 = performance.now();
  const cuda = emitCuda(ir, { sources });
  await mkdir(o.dir, { recursive: true });
  await writeFile(path.join(o.dir, `${o.name}.cu`), cuda.source);
  const args = nvccArgs(o.arch ?? "sm_90", nvccFlags({ fmad: o.fmad ?? false, flushToZero: ir.flushToZero ?? false }), "ptx", o.name);
  // In a process group of its own, so that the time limit stops nvcc's stages (cicc) too.
  const r = await runInGroup(findNvcc().path, args, { cwd: o.dir, timeoutMs: 10 * 60_000 });
  const output = r.kind === "ok" ? `${r.stderr}${r.stdout}` : r.kind === "spawn" ? `${r.code}: ${r.detail}` : r.kind === "canceled" ? "" : r.output;
  return { ok: r.kind === "ok", messages: parseNvccOutput(output).messages, output, ms: performance.now() - t0 };
}

/** nvcc's errors about a batch as problems of the kernels at their lines (warnings are not problems: see `nvccWarnings`). */
export function nvccProblems(batch: Batch, r: PtxResult): Problem[] {
  const located = r.messages
    .filter((m) => m.severity === "error")
    .map((m): Problem => {
      const at = m.line !== undefined && m.file?.endsWith(".gk") ? kernelAtLine(batch, m.line) : undefined;
      return { kernel: at?.name ?? "(unknown)", stage: "nvcc", detail: `${m.text}${m.context.length ? `\n${m.context.join("\n")}` : ""}` };
    });
  if (!r.ok && located.length === 0) located.push({ kernel: "(unknown)", stage: "nvcc", detail: r.output.slice(-3000) });
  return located;
}

/** nvcc's warnings, counted by message (names of variables replaced by `…`). */
export function nvccWarnings(results: readonly PtxResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of results) {
    for (const m of r.messages) {
      if (m.severity !== "warning") continue;
      const text = m.text.replace(/"[^"]*"/g, "\"…\"");
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  }
  return counts;
}

/** Every problem one kernel has on its own: check, simulate (folded and not), and (when `nvccDir` is given) PTX. */
export async function kernelProblems(k: GeneratedKernel, nvccDir?: string): Promise<Problem[]> {
  const batch = printBatch([{ name: k.name, program: k.program }]);
  const c = checkBatch(batch, `${k.name}.gk`);
  if (!c.ir) return [...c.problems];
  const problems = [...c.problems, ...simulateBoth(c, batch.kernels[0]!)];
  if (nvccDir) problems.push(...nvccProblems(batch, await buildPtx(c.ir, c.sources, { dir: nvccDir, name: k.name })));
  return problems;
}

export interface Shrunk {
  readonly kernel: GeneratedKernel;
  readonly reason: string;
  readonly shrinks: number;
}

/**
 * Replays the kernel drawn from `seed` under fast-check and shrinks it while `fails` still
 * returns a reason. After `timeLimitMs`, candidates are no longer tried (the smallest failing
 * kernel so far is kept). Undefined when the kernel from `seed` does not fail.
 */
export async function shrinkKernel(
  seed: number,
  gen: GenOptions,
  fails: (k: GeneratedKernel) => Promise<string | undefined>,
  timeLimitMs = 120_000,
): Promise<Shrunk | undefined> {
  const deadline = performance.now() + timeLimitMs;
  let last: { kernel: GeneratedKernel; reason: string } | undefined;
  const r = await fc.check(
    fc.asyncProperty(arbKernel({ ...gen, name: "k" }), async (k) => {
      if (last && performance.now() > deadline) return true;
      const reason = await fails(k);
      if (reason === undefined) return true;
      last = { kernel: k, reason };
      return false;
    }),
    { seed, numRuns: 1 },
  );
  if (!r.failed || !last) return undefined;
  return { ...last, shrinks: r.numShrinks };
}

/** A problem report: what failed, the shrunk kernel's source, launch and arguments. */
export function describeShrunk(s: Shrunk, seed: number): string {
  const k = s.kernel;
  const args = k.params.map((p, i) => `  ${p.name} = ${argText(k.args[i]!)}`);
  return [
    `${s.reason}`,
    `smallest failing kernel (after ${s.shrinks} shrinks; replay with GK_DIFF_REPLAY=${seed}):`,
    k.source,
    `launch: grid(${k.grid.join(", ")}) block(${k.block.join(", ")})${Object.keys(k.shared).length ? ` shared(${Object.entries(k.shared).map(([n, l]) => `${n} = ${l}`).join(", ")})` : ""}`,
    "arguments:",
    ...args,
    ...Object.entries(k.constants).map(([n, a]) => `  ${n} = ${argText(a)} (constant)`),
  ].join("\n");
}

function argText(a: ArgValue): string {
  if (Array.isArray(a)) return `[${a.map((x) => argText(x as ArgValue)).join(", ")}]`; // a vector or struct value
  if (!ArrayBuffer.isView(a)) return typeof a === "number" && Object.is(a, -0) ? "-0" : String(a);
  const arr = Array.from(a as ArrayLike<number | bigint>, (v) => (Object.is(v, -0) ? "-0" : String(v)));
  return `[${arr.slice(0, 24).join(", ")}${arr.length > 24 ? `, ... (${arr.length})` : ""}]`;
}

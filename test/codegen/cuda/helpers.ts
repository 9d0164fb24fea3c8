/** One-line helpers for CUDA backend tests, and running the real nvcc on generated code. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import fc from "fast-check";
import { expect } from "vitest";
import { emitCuda, type CudaOptions, type CudaOutput } from "../../../src/codegen/cuda/index.js";
import type { Module } from "../../../src/ir/nodes.js";
import { findNvcc, parseNvccOutput } from "../../../src/build/nvcc.js";
import { checkSource, irOf } from "../../helpers.js";

/** The CUDA for a gk source (the file `test.gk`), without `#line` directives unless asked. */
export function cudaOf(src: string, opts: CudaOptions = { lineDirectives: false }): string {
  return emitCuda(irOf(src), opts).source;
}

/** The CUDA for a gk source, with `#line` directives pointing into it. */
export function cudaWithLines(src: string): CudaOutput {
  const r = checkSource(src);
  expect(r.ir, "the source checks").toBeDefined();
  return emitCuda(r.ir!, { sources: r.sources });
}

/** Expects the CUDA of `src` to contain each fragment. */
export function expectCuda(src: string, ...fragments: string[]): void {
  const cuda = cudaOf(src);
  for (const f of fragments) expect(cuda, `expected the CUDA to contain:\n  ${f}\n`).toContain(f);
}

/** The statements of the kernel `k` in the CUDA of `src`, one string, each line trimmed. */
export function kernelBody(src: string): string {
  return statementsOfK(cudaOf(src));
}

/** The statements of the kernel `k` of a module built by hand, as `kernelBody` gives them. */
export function bodyOf(m: Module): string {
  return statementsOfK(emitCuda(m, { lineDirectives: false }).source);
}

function statementsOfK(cuda: string): string {
  const start = cuda.indexOf("void k(");
  expect(start, "a kernel named k").toBeGreaterThanOrEqual(0);
  const lines = cuda.slice(start).split("\n");
  const end = lines.findIndex((l) => l === "}");
  return lines.slice(1, end).map((l) => l.trim()).join("\n");
}

/** Finite f32 values, spread over every exponent (subnormals included), as property-test input. */
export const finiteF32 = fc
  .integer({ min: 0, max: 0xffffffff })
  .map((bits) => new Float32Array(new Uint32Array([bits]).buffer)[0]!)
  .filter(Number.isFinite);

// ---------------------------------------------------------------- nvcc

export function nvccPath(): string | undefined {
  try {
    return findNvcc().path;
  } catch {
    return undefined;
  }
}

export interface CompileJob {
  readonly name: string;
  readonly source: string;
  readonly mode: "ptx" | "cubin";
}

export interface CompileResult {
  readonly name: string;
  readonly ok: boolean;
  /** nvcc's messages (errors and warnings), one per line; empty for a clean build. */
  readonly messages: string[];
}

/** Compiles each job with `nvcc -O3 -lineinfo -arch=sm_90 -<mode>`, a few at a time. */
export async function compileAll(nvcc: string, jobs: readonly CompileJob[]): Promise<CompileResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "gk-codegen-nvcc-"));
  try {
    const results: CompileResult[] = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < jobs.length; i = next++) results[i] = await compileOne(nvcc, dir, jobs[i]!, i);
    };
    await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function compileOne(nvcc: string, dir: string, job: CompileJob, i: number): Promise<CompileResult> {
  const cu = path.join(dir, `m${i}.cu`);
  writeFileSync(cu, job.source);
  const r = await execa(nvcc, ["-O3", "-lineinfo", "-arch=sm_90", `-${job.mode}`, cu, "-o", path.join(dir, `m${i}.${job.mode}`)], {
    reject: false,
    stdin: "ignore",
  });
  const { messages, other } = parseNvccOutput(`${r.stderr}\n${r.stdout}`);
  const text = [
    ...messages.map((m) => `${m.file ?? ""}(${m.line ?? ""}): ${m.severity}: ${m.text}${m.context.length ? `\n    ${m.context[0]!.trim()}` : ""}`),
    ...other,
  ];
  return { name: job.name, ok: r.exitCode === 0, messages: text };
}

/** Expects every build to succeed with no message at all. */
export function expectClean(results: readonly CompileResult[]): void {
  const bad = results.filter((r) => !r.ok || r.messages.length > 0);
  expect(bad.map((r) => `${r.name}${r.ok ? "" : " (failed)"}:\n  ${r.messages.join("\n  ")}`)).toEqual([]);
}

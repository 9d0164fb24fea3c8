/**
 * From IR to a cached PTX + cubin: legalize for the GPU's architecture (the front end checked
 * for CUDA's record; an sm_75 GPU lacks the tensor cores gk uses, GK7008), generate CUDA, then
 * build it through the content-addressed cache.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceMap } from "../diagnostics/source.js";
import { emitCuda } from "../codegen/cuda/index.js";
import type { Module } from "../ir/nodes.js";
import { getOrBuild, gkVersion } from "./cache.js";
import { BuildError } from "./nvcc.js";
import { legalize } from "../ir/passes/legalize.js";
import { cudaTargetFor } from "../codegen/cuda/target.js";

export interface BuildOptions {
  /** nvcc `-arch`, e.g. sm_90. */
  readonly arch: string;
  /** false: build with `--fmad=false`, so float results equal the simulator's bit for bit. */
  readonly fmad?: boolean;
  /** The cache folder (default: $GK_CACHE_DIR, else the user's cache folder). */
  readonly cacheRoot?: string;
  readonly onWarning?: (d: Diagnostic) => void;
}

export interface ModuleBuild {
  readonly cu: string;
  readonly ptx: string;
  readonly cubin: string;
  /** IR kernel name → extern "C" symbol in the module. */
  readonly symbols: ReadonlyMap<string, string>;
  /** A `constant` array's gk name → its `__constant__` symbol in the module. */
  readonly constantSymbols: ReadonlyMap<string, string>;
  readonly arch: string;
  readonly hit: boolean;
  readonly key: string;
  readonly timings: { readonly codegenMs: number; readonly cacheMs: number; readonly nvccMs?: number };
}

/** nvcc's flags for a build: `--fmad=false` without FMA contraction, `-ftz=true` for a module that flushes f32 subnormals (`@flushToZero;`). */
export function nvccFlags(o: { fmad?: boolean; flushToZero?: boolean }): string[] {
  return [...(o.fmad === false ? ["--fmad=false"] : []), ...(o.flushToZero ? ["-ftz=true"] : [])];
}

export async function buildModule(ir: Module, sources: SourceMap, o: BuildOptions): Promise<ModuleBuild> {
  const t0 = performance.now();
  const sm = /^sm_(\d+)/.exec(o.arch);
  const refused = sm ? legalize(ir, cudaTargetFor(Number(sm[1]))) : [];
  if (refused.length > 0) throw new BuildError(refused, sources);
  const cuda = emitCuda(ir, { sources, gkVersion: gkVersion() });
  const t1 = performance.now();
  const r = await getOrBuild({
    source: cuda.source,
    arch: o.arch,
    flags: nvccFlags({ ...o, flushToZero: ir.flushToZero ?? false }),
    kernels: [...cuda.kernels.values()],
    sourceMap: sources,
    ...(o.cacheRoot !== undefined ? { root: o.cacheRoot } : {}),
    ...(o.onWarning ? { onWarning: o.onWarning } : {}),
  });
  return {
    cu: r.entry.cu,
    ptx: r.entry.ptx,
    cubin: r.entry.cubin,
    symbols: cuda.kernels,
    constantSymbols: cuda.constants,
    arch: o.arch,
    hit: r.hit,
    key: r.entry.key,
    timings: { codegenMs: t1 - t0, cacheMs: r.timings.totalMs, ...(r.timings.nvccMs !== undefined ? { nvccMs: r.timings.nvccMs } : {}) },
  };
}

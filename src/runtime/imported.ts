/**
 * Modules that no compile() call made: a `.gk` file imported as an ES module
 * (`import { saxpy } from "./saxpy.gk"`, through gk/register or gk/vite) and the kernels of a
 * TypeScript file (`kernel(...)`). Their options live here, for the whole program:
 *
 *   configure({ device: "cpu" })      once, before the first launch of such a kernel; or
 *   GK_DEVICE=auto|cuda|cpu, GK_GPU=N  in the environment (configure() wins).
 *
 * Every such module runs on one target, chosen once. A program that imports kernels ends
 * without close(): an idle launcher process keeps nothing alive (runtime/launcher).
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { Module } from "../ir/nodes.js";
import { GkModule, type CompileOptions, type KernelFn } from "./api.js";
import { GkRuntimeError } from "./launcher/errors.js";
import { isDeviceChoice, selectTarget, type Target } from "./target.js";

let configured: CompileOptions | undefined;
let target: Promise<Target> | undefined;

/**
 * The options of imported modules and TypeScript kernels (see above). It may be called once,
 * before the first of them launches or is created: after that, their target is chosen.
 */
export function configure(opts: CompileOptions): void {
  if (target || configured) {
    const when = target ? "after an imported module or a TypeScript kernel has been used" : "twice";
    throw new GkRuntimeError("GK8010", `configure() sets the options of imported modules once, before any of them runs; it was called ${when}`);
  }
  if (opts.device !== undefined && !isDeviceChoice(opts.device)) throw new GkRuntimeError("GK8010", `configure(): device must be "auto", "cuda" or "cpu", got ${JSON.stringify(opts.device)}`);
  configured = { ...opts };
}

/** The options in force: configure()'s, else the environment's. */
export function importedOptions(env: NodeJS.ProcessEnv = process.env): CompileOptions {
  if (configured) return configured;
  const device = env.GK_DEVICE?.trim();
  const gpu = env.GK_GPU?.trim();
  if (device && !isDeviceChoice(device)) throw new GkRuntimeError("GK8010", `GK_DEVICE must be auto, cuda or cpu, got '${device}'`);
  if (gpu && !/^\d+$/.test(gpu)) throw new GkRuntimeError("GK8010", `GK_GPU must be a GPU index (0, 1, ...), got '${gpu}'`);
  return { ...(device && { device }), ...(gpu && { gpu: Number(gpu) }) } as CompileOptions;
}

/** A module for a checked program, on the program-wide target. */
export async function importedModule(ir: Module, sources: SourceMap): Promise<GkModule & Record<string, KernelFn>> {
  const opts = importedOptions();
  target ??= selectTarget(opts.device ?? "auto", opts.gpu !== undefined ? { device: opts.gpu } : {});
  return GkModule.onTarget(ir, sources, await target, opts);
}

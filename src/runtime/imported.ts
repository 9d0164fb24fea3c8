/**
 * Modules that no compile() call made: a `.gk` file imported as an ES module
 * (`import { saxpy } from "./saxpy.gk"`, through gk/register or gk/vite) and the kernels of a
 * TypeScript file (`kernel(...)`). Their options live here, for the whole program:
 *
 *   configure({ device: "cpu" })         once, before the first of them is used; the options
 *                                         are compile()'s, and `device` may be a device from
 *                                         openDevice(), whose arrays their kernels then take,
 *                                         or the promise of one (`configure({ device:
 *                                         openDevice() })`: see configure());
 *   GK_DEVICE=auto|cuda|cpu|webgpu,      in the environment (configure() wins), and
 *   GK_GPU=N
 *                                         GK_ISOLATION as for openDevice().
 *
 * They all run on one device, opened once, when the first of them is evaluated (an imported
 * .gk module) or launched (a TypeScript kernel). A program that uses them ends without
 * close(): an idle device does not keep Node running (runtime/device).
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { Module } from "../ir/nodes.js";
import { GkModule, type CompileOptions, type LoadedModule } from "./api.js";
import { GpuDevice, isDeviceChoice, openDevice } from "./device/device.js";
import { GkRuntimeError } from "./errors.js";

/** configure()'s options: compile()'s, with a device that may be still opening. */
export type ImportedOptions = Omit<CompileOptions, "device"> & { readonly device?: CompileOptions["device"] | Promise<GpuDevice> };

let configured: ImportedOptions | undefined;
let device: Promise<GpuDevice> | undefined;

/**
 * Sets the options of imported modules and TypeScript kernels (see above), once, before the
 * first of them is used: after that, their device is open. `device` may be a promise of a
 * device, for a setup module imported before the kernels: ES modules evaluate an imported
 * `.gk` module while a module before it awaits, so a setup module calls configure() before
 * its first await (`configure({ device: openDevice() })`), and the modules wait for that device.
 */
export function configure(opts: ImportedOptions): void {
  if (device || configured) {
    const when = device
      ? "after an imported module or a TypeScript kernel has been used (in a setup module, call it before any await, giving the device's promise: configure({ device: openDevice() }))"
      : "twice";
    throw new GkRuntimeError("GK8010", `configure() sets the options of imported modules once, before any of them runs; it was called ${when}`);
  }
  if (opts.device instanceof Promise) {
    // A device that fails to open fails the first module that waits for it, not the program now.
    opts.device.catch(() => undefined);
  } else if (opts.device !== undefined && typeof opts.device !== "object" && !isDeviceChoice(opts.device)) {
    throw new GkRuntimeError("GK8010", `configure(): device must be "auto", "cuda", "cpu", "webgpu", a device from openDevice() or its promise, or a GPUDevice, got ${JSON.stringify(opts.device)}`);
  }
  configured = { ...opts };
}

/** The options in force: configure()'s, else the environment's. */
export function importedOptions(env: NodeJS.ProcessEnv = (globalThis as { process?: NodeJS.Process }).process?.env ?? {}): ImportedOptions {
  if (configured) return configured;
  const choice = env.GK_DEVICE?.trim();
  const gpu = env.GK_GPU?.trim();
  if (choice && !isDeviceChoice(choice)) throw new GkRuntimeError("GK8010", `GK_DEVICE must be auto, cuda, cpu or webgpu, got '${choice}'`);
  if (gpu && !/^\d+$/.test(gpu)) throw new GkRuntimeError("GK8010", `GK_GPU must be a GPU index (0, 1, ...), got '${gpu}'`);
  return { ...(choice && { device: choice }), ...(gpu && { gpu: Number(gpu) }) } as CompileOptions;
}

/** A module for a checked program, on the program-wide device. */
export async function importedModule(ir: Module, sources: SourceMap): Promise<LoadedModule> {
  const opts = importedOptions();
  device ??=
    opts.device instanceof GpuDevice || opts.device instanceof Promise
      ? Promise.resolve(opts.device) // a device, or its promise
      : openDevice({
          device: opts.device ?? "auto", // a choice, or a GPUDevice
          ...(opts.gpu !== undefined ? { gpu: opts.gpu } : {}),
          ...(opts.isolation !== undefined ? { isolation: opts.isolation } : {}),
          ...(opts.sim !== undefined ? { sim: opts.sim } : {}),
        });
  return GkModule.create(ir, sources, { ...opts, device: await device });
}

/**
 * Whether GPU tests can run here, and if not, a one-line reason to print. Builds gpu_launcher
 * first (it is what talks to the GPU). Use it at the top of a GPU test file:
 *
 *   const gpu = await gpuAvailable();
 *   if (!gpu.ok) console.warn(`GPU tests skipped: ${gpu.reason}`);
 *   describe.skipIf(!gpu.ok)(gpu.ok ? `... on ${gpu.reason}` : `... (skipped: ${gpu.reason})`, () => { ... });
 */
import { execa } from "execa";
import { listDevices, type DeviceInfo } from "../../src/runtime/launcher.js";
import { ensureLauncher } from "../runtime/launcher/helpers.js";

export interface GpuAvailability {
  readonly ok: boolean;
  /** Why not (when !ok), or which GPU (when ok): one line either way. */
  readonly reason: string;
  /** The first GPU, when ok. */
  readonly device?: DeviceInfo;
}

let memo: Promise<GpuAvailability> | undefined;

export function gpuAvailable(): Promise<GpuAvailability> {
  memo ??= probe();
  return memo;
}

async function probe(): Promise<GpuAvailability> {
  try {
    await ensureLauncher();
  } catch (e) {
    return { ok: false, reason: `gpu_launcher cannot be built: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` };
  }
  const r = await listDevices();
  if (!r.ok) return { ok: false, reason: `no GPU (${r.reason}): ${r.message}` };
  const d = r.devices[0]!;
  return { ok: true, reason: `${d.name} (${d.arch}, driver ${d.driverVersion})`, device: d };
}

/** The nvcc to use: $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc; undefined if none runs. */
export async function findNvcc(): Promise<string | undefined> {
  for (const candidate of [process.env.NVCC, "nvcc", "/usr/local/cuda/bin/nvcc"]) {
    if (!candidate) continue;
    const r = await execa(candidate, ["--version"], { reject: false });
    if (r.exitCode === 0) return candidate;
  }
  return undefined;
}

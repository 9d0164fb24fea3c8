/**
 * Whether GPU tests can run here, and if not, a one-line reason to print: a device opened as
 * gk opens one (openDevice, in a launcher process so that the test process holds no CUDA
 * context of its own), then closed. Builds gpu_launcher first. Use it at the top of a GPU test file:
 *
 *   const gpu = await gpuAvailable();
 *   if (!gpu.ok) console.warn(`GPU tests skipped: ${gpu.reason}`);
 *   describe.skipIf(!gpu.ok)(gpu.ok ? `... on ${gpu.reason}` : `... (skipped: ${gpu.reason})`, () => { ... });
 */
import { execa } from "execa";
import { openDevice } from "../../src/runtime/device/device.js";
import type { DeviceInfo } from "../../src/runtime/launcher.js";
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
  const gpu = await openDevice({ isolation: "process" });
  await gpu.close();
  const d = gpu.info;
  if (!d) return { ok: false, reason: `no GPU: ${gpu.reason ?? "none found"}` };
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

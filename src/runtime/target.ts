/**
 * Where kernels run: a CUDA GPU (through gpu_launcher, with nvcc to build), or the CPU
 * simulator. `auto` takes the GPU when one and nvcc are usable and says why not otherwise.
 * The launcher client and nvcc's module are loaded only to look for a GPU, so choosing the
 * CPU loads neither.
 */
import type { DeviceInfo, LauncherOptions } from "./launcher.js";

export type DeviceChoice = "auto" | "cuda" | "cpu";

export type Target =
  | { readonly kind: "cuda"; readonly device: DeviceInfo; readonly arch: string }
  /** `reason`: why `auto` did not pick a GPU (absent when the CPU was asked for). */
  | { readonly kind: "cpu"; readonly reason?: string };

export function isDeviceChoice(s: string): s is DeviceChoice {
  return s === "auto" || s === "cuda" || s === "cpu";
}

/** Why the GPU cannot be used, or the device to use. */
export async function probeGpu(opts: LauncherOptions & { processEnv?: NodeJS.ProcessEnv } = {}): Promise<{ device: DeviceInfo } | { reason: string }> {
  const [{ listDevices }, { findNvcc }] = await Promise.all([import("./launcher.js"), import("./nvcc.js")]);
  const devices = await listDevices(opts);
  if (!devices.ok) return { reason: devices.message };
  const index = opts.device ?? 0;
  const device = devices.devices.find((d) => d.index === index);
  if (!device) return { reason: devices.devices.length ? `there is no GPU ${index} (found ${devices.devices.length})` : "no CUDA GPU found" };
  try {
    findNvcc(opts.processEnv ?? process.env);
  } catch {
    return { reason: "nvcc (the CUDA compiler) was not found; install the CUDA toolkit or set GK_NVCC" };
  }
  return { device };
}

export async function selectTarget(choice: DeviceChoice, opts: LauncherOptions & { processEnv?: NodeJS.ProcessEnv } = {}): Promise<Target> {
  if (choice === "cpu") return { kind: "cpu" };
  const probe = await probeGpu(opts);
  if ("device" in probe) return { kind: "cuda", device: probe.device, arch: probe.device.arch };
  if (choice === "auto") return { kind: "cpu", reason: probe.reason };
  const { GkRuntimeError } = await import("./errors.js");
  throw new GkRuntimeError("GK8007", `a GPU was asked for (device cuda), but none can be used: ${probe.reason}`);
}

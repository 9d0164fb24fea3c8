/**
 * Whether WebGPU tests can run here, and if not a one-line reason to print: a WebGPU device
 * asked for as gk asks for one (Dawn's Node binding), then destroyed. Where no Vulkan driver
 * is named, Debian chromium's SwiftShader is (CI installs chromium; WEBGPU.md). Use it at the
 * top of a WebGPU test file:
 *
 *   const webgpu = await webgpuAvailable();
 *   if (!webgpu.ok) console.warn(`test/…: skipped: ${webgpu.reason}`);
 *   describe.skipIf(!webgpu.ok)(`… on ${webgpu.reason}`, () => { … });
 */
import { existsSync } from "node:fs";
import { requestWebGpu } from "../../../src/runtime/webgpu/open.js";

export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

export interface WebGpuAvailability {
  readonly ok: boolean;
  /** Why not (when !ok), or which adapter (when ok). */
  readonly reason: string;
}

let memo: Promise<WebGpuAvailability> | undefined;

/** Names SwiftShader's Vulkan driver where none is named and chromium ships it. */
export function defaultVulkanDriver(env: NodeJS.ProcessEnv = process.env): void {
  if (env.VK_ICD_FILENAMES === undefined && env.VK_DRIVER_FILES === undefined && existsSync(SWIFTSHADER_ICD)) env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}

export function webgpuAvailable(): Promise<WebGpuAvailability> {
  memo ??= probe();
  return memo;
}

async function probe(): Promise<WebGpuAvailability> {
  defaultVulkanDriver();
  try {
    const h = await requestWebGpu();
    h.device.destroy();
    return { ok: true, reason: h.adapterName };
  } catch (e) {
    return { ok: false, reason: `no WebGPU adapter: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` };
  }
}

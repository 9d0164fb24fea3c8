/// <reference types="@webgpu/types" />
/**
 * openDevice's WebGPU road (device/device.ts loads this file only for `device: "webgpu"` or a
 * `GPUDevice`): the program's own device, or one asked for (open.ts), as an engine.
 */
import { GkRuntimeError } from "../errors.js";
import { WebGpuEngine } from "./engine.js";
import { givenWebGpu, isGpuDevice, requestWebGpu, type WebGpuOptions } from "./open.js";

export async function openWebGpu(choice: "webgpu" | GPUDevice, opts: WebGpuOptions = {}): Promise<WebGpuEngine> {
  if (choice === "webgpu") return new WebGpuEngine(await requestWebGpu(opts));
  if (!isGpuDevice(choice)) throw new GkRuntimeError("GK8005", `openDevice(): device must be "auto", "cuda", "cpu", "webgpu" or a GPUDevice, got ${describe(choice)}`);
  return new WebGpuEngine(givenWebGpu(choice));
}

function describe(v: unknown): string {
  if (v === null || typeof v !== "object") return v === null ? "null" : `${typeof v} ${String(v)}`;
  const name = (v as object).constructor?.name;
  return name && name !== "Object" ? `a ${name}` : "an object that is not a GPUDevice";
}

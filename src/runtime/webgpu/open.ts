/// <reference types="@webgpu/types" />
/**
 * Where a WebGPU device comes from: the `GPUDevice` a program already has (a page's, from
 * `navigator.gpu`, or one it made with Dawn), or one gk asks for: from `navigator.gpu` where
 * there is one (browsers, Deno), else from Dawn's Node binding, the optional `webgpu` package,
 * loaded only here and only when asked (`openDevice({ device: "webgpu" })`), so that programs
 * that never ask do not load it. A device gk asks for gets the adapter's largest storage
 * binding and buffer (WebGPU's defaults are 128 MiB and 256 MiB), workgroup sizes and
 * workgroup memory, and the `shader-f16` and `subgroups` features where the adapter has them.
 */
import { GkRuntimeError } from "../errors.js";

/** openDevice's WebGPU options. */
export interface WebGpuOptions {
  /** The adapter to ask for (requestAdapter's powerPreference). */
  readonly powerPreference?: GPUPowerPreference;
  /** Dawn's instance flags (`webgpu`'s create([...]), e.g. "backend=vulkan"), in Node only. */
  readonly dawnFlags?: readonly string[];
}

/** A WebGPU device and what gk knows of it. */
export interface WebGpuHandle {
  readonly device: GPUDevice;
  /** `SwiftShader (Google, vulkan)`: the adapter's description, or "a WebGPU device" where it has none. */
  readonly adapterName: string;
  /** gk asked for the device (and destroys it on close); false for a device the program gave. */
  readonly owned: boolean;
}

/** The limits gk raises to the adapter's own where it asks for a device. */
const RAISED_LIMITS = [
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxComputeWorkgroupStorageSize",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupSizeY",
  "maxComputeWorkgroupSizeZ",
  "maxComputeWorkgroupsPerDimension",
  "maxStorageBuffersPerShaderStage",
  "maxUniformBuffersPerShaderStage",
  "maxUniformBufferBindingSize",
] as const;

/** Features gk's WGSL may use, asked for where the adapter has them. */
const WANTED_FEATURES = ["shader-f16", "subgroups", "timestamp-query"] as const;

/** True for an object that looks like a GPUDevice (a browser's or Dawn's: neither need be an instance of a global class here). */
export function isGpuDevice(v: unknown): v is GPUDevice {
  return typeof v === "object" && v !== null && typeof (v as GPUDevice).createComputePipeline === "function" && typeof (v as GPUDevice).queue === "object";
}

/**
 * Dawn's instance, made once per process and kept: Dawn's Node binding polls its instance
 * for events while a device works, and an instance the garbage collector took makes that poll
 * abort the process (webgpu 0.6.2: a futex error in InstanceBase::ProcessEvents).
 */
const dawnInstances = new Map<string, GPU>();

/** The GPU entry point: navigator.gpu, else Dawn's through the `webgpu` package (GK8007 naming how to install it where it is missing). */
async function gpuEntry(opts: WebGpuOptions): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string";
  if (!isNode) throw new GkRuntimeError("GK8007", "a WebGPU device was asked for (device webgpu), but this browser has no navigator.gpu (WebGPU is off or not supported here)");
  // A variable specifier, so that bundlers leave the optional package out of browser builds.
  const pkg = "webgpu";
  let dawn: { create(flags: string[]): GPU; globals: object };
  try {
    dawn = (await import(pkg)) as typeof dawn;
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new GkRuntimeError("GK8007", `a WebGPU device was asked for (device webgpu), but Dawn's Node binding could not be loaded (${why}): install it with \`npm install webgpu\` (a Vulkan driver is needed too: on Debian, \`apt-get install libvulkan1 mesa-vulkan-drivers\` or chromium's SwiftShader with VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json)`);
  }
  // GPUBufferUsage, GPUMapMode, GPUShaderStage: the constants WebGPU code reads as globals.
  for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  const flags = [...(opts.dawnFlags ?? [])];
  const key = flags.join("\n");
  let gpu = dawnInstances.get(key);
  if (gpu === undefined) dawnInstances.set(key, (gpu = dawn.create(flags)));
  return gpu;
}

/** A device gk asks for (GK8007 when there is no adapter, naming why). */
export async function requestWebGpu(opts: WebGpuOptions = {}): Promise<WebGpuHandle> {
  const gpu = await gpuEntry(opts);
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter(opts.powerPreference ? { powerPreference: opts.powerPreference } : {});
  } catch (e) {
    throw new GkRuntimeError("GK8007", `a WebGPU device was asked for (device webgpu), but requestAdapter() failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!adapter) {
    throw new GkRuntimeError("GK8007", "a WebGPU device was asked for (device webgpu), but no WebGPU adapter was found (no Vulkan, Metal or D3D12 driver; in Node on Linux, point VK_ICD_FILENAMES at a Vulkan driver's JSON)");
  }
  const requiredLimits: Record<string, number> = {};
  for (const k of RAISED_LIMITS) {
    const v = adapter.limits[k];
    if (typeof v === "number") requiredLimits[k] = v;
  }
  const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f));
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  } catch (e) {
    throw new GkRuntimeError("GK8007", `a WebGPU device was asked for (device webgpu), but requestDevice() failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { device, adapterName: adapterName(adapter.info ?? device.adapterInfo), owned: true };
}

/** A program's own device. */
export function givenWebGpu(device: GPUDevice): WebGpuHandle {
  return { device, adapterName: adapterName(device.adapterInfo), owned: false };
}

function adapterName(info: GPUAdapterInfo | undefined): string {
  if (!info) return "a WebGPU device";
  const what = info.description || info.device || info.architecture || "";
  const parts = [info.vendor, info.architecture].filter((x) => x && x !== what);
  if (!what && parts.length === 0) return "a WebGPU device";
  return parts.length > 0 ? `${what || parts.shift()}${parts.length ? ` (${parts.join(", ")})` : ""}` : what;
}

// Asking for a WebGPU device where Dawn's Node binding is not installed: GK8007, saying how to
// install it (the `webgpu` package is optional: gk loads it only when a WebGPU device is asked
// for). Runs everywhere: the package is made missing here.
import { describe, expect, it, vi } from "vitest";
import { openDevice } from "../../../src/runtime/device/device.js";

vi.mock("webgpu", () => {
  throw new Error("Cannot find package 'webgpu' imported from gk");
});

describe("a WebGPU device without Dawn's Node binding", () => {
  it("is GK8007, naming the package to install", async () => {
    await expect(openDevice({ device: "webgpu" })).rejects.toThrow(
      /^GK8007: a WebGPU device was asked for \(device webgpu\), but Dawn's Node binding could not be loaded \(.*\): install it with `npm install webgpu`/,
    );
  });

  it("refuses a device that is neither a choice nor a GPUDevice", async () => {
    await expect(openDevice({ device: "tpu" as never })).rejects.toThrow('GK8005: openDevice(): device must be "auto", "cuda", "cpu", "webgpu" or a GPUDevice, got string tpu');
    await expect(openDevice({ device: { queue: {} } as never })).rejects.toThrow('GK8005: openDevice(): device must be "auto", "cuda", "cpu", "webgpu" or a GPUDevice, got an object that is not a GPUDevice');
  });
});

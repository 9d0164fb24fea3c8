/**
 * The options of imported modules and TypeScript kernels (src/runtime/imported.ts): the
 * environment's, or configure()'s, once, before the first of them is used; then all run on
 * one device.
 */
import { describe, expect, it } from "vitest";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { configure, importedModule, importedOptions } from "../../src/runtime/imported.js";

const program = (name: string) => {
  const file = `${name}.gk`;
  const r = frontEnd(file, { host: memoryHost({ [file]: `device_kernel ${name}(out: global<i32>) {\n  out[0] = 7;\n}\n` }) });
  return { ir: r.ir!, sources: r.sources };
};

describe("imported modules' options", () => {
  it("come from GK_DEVICE and GK_GPU, which must be valid", () => {
    expect(importedOptions({ GK_DEVICE: "cpu", GK_GPU: "1" })).toEqual({ device: "cpu", gpu: 1 });
    expect(importedOptions({})).toEqual({});
    expect(() => importedOptions({ GK_DEVICE: "tpu" })).toThrow("GK8010: GK_DEVICE must be auto, cuda or cpu, got 'tpu'");
    expect(() => importedOptions({ GK_GPU: "first" })).toThrow("GK8010: GK_GPU must be a GPU index");
  });

  it("or from configure(), once and before use; every module then runs on its device", async () => {
    expect(() => configure({ device: "gpu" as never })).toThrow('GK8010: configure(): device must be "auto", "cuda", "cpu" or a device from openDevice(), got "gpu"');
    const device = await openDevice({ device: "cpu" });
    configure({ device });
    expect(() => configure({ device: "cpu" })).toThrow("GK8010: configure() sets the options of imported modules once, before any of them runs; it was called twice");
    expect(importedOptions({ GK_DEVICE: "tpu" }).device).toBe(device);
    const a = program("a");
    const b = program("b");
    const ma = await importedModule(a.ir, a.sources);
    const mb = await importedModule(b.ir, b.sources);
    expect(ma.gpu).toBe(device);
    expect(mb.gpu).toBe(device);
    const out = new Int32Array(1);
    await mb.b({ grid: 1, block: 1 }, { out });
    expect(out[0]).toBe(7);
  });
});

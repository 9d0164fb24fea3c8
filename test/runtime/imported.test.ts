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
    expect(() => importedOptions({ GK_DEVICE: "tpu" })).toThrow("GK8010: GK_DEVICE must be auto, cuda, cpu or webgpu, got 'tpu'");
    expect(() => importedOptions({ GK_GPU: "first" })).toThrow("GK8010: GK_GPU must be a GPU index");
  });

  it("or from configure(), once and before use; every module then runs on its device", async () => {
    expect(() => configure({ device: "gpu" as never })).toThrow('GK8010: configure(): device must be "auto", "cuda", "cpu", "webgpu", a device from openDevice() or its promise, or a GPUDevice, got "gpu"');
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

describe("a setup module imported before the kernels (node --import gk/register)", () => {
  /** Runs app.mjs, which imports setup.mjs (`setup`) and then k.gk, in a real Node process. */
  async function run(setup: string) {
    const { spawnSync } = await import("node:child_process");
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join, resolve } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "gk-setup-"));
    try {
      writeFileSync(join(dir, "k.gk"), "device_kernel k(out: global<i32>) {\n  out[0] = 7;\n}\n");
      writeFileSync(join(dir, "setup.mjs"), `import { configure, openDevice } from ${JSON.stringify(resolve("dist/index.js"))};\n${setup}`);
      writeFileSync(
        join(dir, "app.mjs"),
        'import { gpu } from "./setup.mjs";\nimport mod, { k } from "./k.gk";\nconst out = new Int32Array(1);\nawait k({ grid: 1, block: 1 }, { out });\nconsole.log(JSON.stringify({ same: mod.gpu === gpu, out: out[0] }));\n',
      );
      return spawnSync(process.execPath, ["--import", resolve("dist/modules/register.js"), join(dir, "app.mjs")], {
        cwd: dir, encoding: "utf8", timeout: 600_000, env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("gives configure() the device's promise before its first await, and the modules, evaluated while it awaits, wait for that device", async () => {
    const r = await run('const device = openDevice({ device: "cpu" });\nconfigure({ device });\nexport const gpu = await device;\n');
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ same: true, out: 7 });
  });

  it("awaiting the device before configure() is too late (the module was evaluated during the await): GK8010 says what to write", async () => {
    const r = await run('export const gpu = await openDevice({ device: "cpu" });\nconfigure({ device: gpu });\n');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(
      "GK8010: configure() sets the options of imported modules once, before any of them runs; it was called after an imported module or a TypeScript kernel has been used (in a setup module, call it before any await, giving the device's promise: configure({ device: openDevice() }))",
    );
  });
});

describe("a program that opens the default device", () => {
  it("ends by itself, status 0, whether or not a GPU was found (the addon's cleanup once crashed at exit after a failed open)", async () => {
    const { spawnSync } = await import("node:child_process");
    const { resolve } = await import("node:path");
    const script = `import { openDevice } from ${JSON.stringify(resolve("dist/index.js"))};\nconst d = await openDevice();\nconsole.log(d.kind);\n`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 600_000 });
    expect(r.error).toBeUndefined();
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(["cpu", "cuda"]).toContain(r.stdout.trim());
  });
});
